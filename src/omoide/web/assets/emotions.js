// Emotions over time: the summary the prompt uses (dominant mood, hard days), a chart
// with hard days shaded, and the same numbers as a table.

import { path } from "./api.js";
import { dailyTotals, emotionBadge, emotionChart, emotionLegend } from "./chart.js";
import { h, note, replaceChildren } from "./dom.js";
import { formatDay, listPhrase, number, plural, utcDay } from "./format.js";

const RANGES = [7, 30, 90, 365];
const RESIZE_DELAY_MS = 200;
const CHART_PADDING = 16;

export class EmotionsPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.range = h("select", { id: "emotion-range", on: { change: () => this.load(this.scope) } },
      RANGES.map((days) => h("option", { value: days, selected: days === 30 }, `Last ${days} days`)));
    this.summary = h("div", { class: "emotion-summary" });
    this.chart = h("figure", { class: "chart" });
    this.table = h("details", { class: "chart-table" });
    replaceChildren(element,
      h("div", { class: "toolbar" }, h("label", { class: "inline" }, "Period ", this.range)),
      this.summary, this.chart, this.table);
    let timer = null;
    window.addEventListener("resize", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.redraw(), RESIZE_DELAY_MS);
    });
  }

  /** Draw the last result again at the chart's current width (after a resize). */
  redraw() {
    if (this.shown && !this.element.hidden) this.renderChart(...this.shown);
  }

  renderChart(records, hardDays, days) {
    this.shown = [records, hardDays, days];
    const width = this.chart.clientWidth - CHART_PADDING || undefined;
    replaceChildren(this.chart,
      emotionChart({ records, hardDays, days, width }),
      h("figcaption", {}, emotionLegend(records)));
  }

  async load(scope) {
    this.scope = scope;
    const days = Number(this.range.value);
    replaceChildren(this.chart, note("Loading emotions…"));
    try {
      const result = await this.ctx.api.get(path`/v1/characters/${scope.character}/users/${scope.viewer}/emotions`, { days });
      if (scope === this.scope) this.render(result, days); // else another viewer was opened meanwhile
    } catch (error) {
      replaceChildren(this.chart, note(`Could not load emotions: ${error.message}`, "error"));
      this.ctx.alertError(error);
    }
  }

  render({ summary, records }, days) {
    const counts = Object.entries(summary.counts).sort((a, b) => b[1] - a[1]);
    replaceChildren(this.summary,
      h("dl", { class: "stats" },
        h("div", {}, h("dt", {}, "Mostly"), h("dd", {}, summary.dominant ? emotionBadge(summary.dominant) : "—")),
        h("div", {}, h("dt", {}, "Average intensity"), h("dd", {}, summary.average_intensity === null ? "—" : number(summary.average_intensity))),
        h("div", {}, h("dt", {}, "Records"), h("dd", {}, String(summary.record_count))),
        h("div", { class: summary.hard_days.length ? "hard" : "" }, h("dt", {}, "Hard days"), h("dd", {}, String(summary.hard_days.length)))),
      counts.length ? h("p", { class: "muted" }, "Felt: ", listPhrase(counts.map(([label, count]) => `${label} ×${count}`))) : null,
      summary.hard_days.length
        ? h("p", { class: "hard-days" }, "Hard days (negative feelings outweighed the rest): ",
          listPhrase(summary.hard_days.map(formatDay)))
        : null);
    if (records.length === 0) {
      this.shown = null;
      replaceChildren(this.chart, note(`No emotions recorded in the last ${days} days.`));
      replaceChildren(this.table);
      return;
    }
    this.renderChart(records, summary.hard_days, days);
    this.renderTable(records, summary.hard_days);
  }

  renderTable(records, hardDays) {
    const totals = dailyTotals(records);
    const hard = new Set(hardDays);
    const days = [...totals.keys()].sort().reverse();
    replaceChildren(this.table,
      h("summary", {}, "Show as a table"),
      h("table", {},
        h("caption", {}, "Emotions per day (UTC days, newest first)"),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Day"), h("th", { scope: "col" }, "Emotions"),
          h("th", { scope: "col" }, "Summed intensity"), h("th", { scope: "col" }, "Hard day"))),
        h("tbody", {}, days.map((day) => {
          const { total, parts } = totals.get(day);
          return h("tr", { class: hard.has(day) ? "hard" : "" },
            h("th", { scope: "row" }, formatDay(day)),
            h("td", {}, listPhrase(parts.map((part) => `${part.emotion} ×${part.count}`))),
            h("td", {}, number(total)),
            h("td", {}, hard.has(day) ? "yes" : ""));
        }))),
      h("p", { class: "muted" }, `${plural(records.length, "record")}, first on ${formatDay(utcDay(records[0].timestamp))}.`));
  }
}
