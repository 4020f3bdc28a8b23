// The emotion chart, drawn as SVG by hand: one stacked bar per day (each emotion's
// summed intensity), hard days shaded and marked, so a bad week shows at a glance.

import { h, svg } from "./dom.js";
import { formatDay, formatShortDay, utcDay } from "./format.js";

const DEFAULT_WIDTH = 760;
const MIN_WIDTH = 300;
const HEIGHT = 260;
const MARGIN = { top: 28, right: 12, bottom: 34, left: 40 };
const PIXELS_PER_X_LABEL = 90;
const DAY_MS = 24 * 3600 * 1000;

const KNOWN_COLORS = {
  happy: "#e9a800", joy: "#e9a800", excited: "#f07f13", playful: "#e35d9b",
  affectionate: "#d9467a", love: "#d9467a", grateful: "#b3891c", proud: "#c97c00",
  calm: "#1f9e89", relaxed: "#1f9e89", content: "#2a9d5c", hopeful: "#4daf4a",
  surprised: "#8e6bd1", curious: "#6b8ad1", neutral: "#8a94a6", shy: "#c07fb8",
  sad: "#3b6fd8", lonely: "#4c58b8", tired: "#5f6f86", exhausted: "#4f5d73",
  nervous: "#9a59c9", anxious: "#9a59c9", worried: "#8b5fbf", concerned: "#7d63b5",
  stressed: "#a04fb0", angry: "#d63a2f", frustrated: "#c8502f", annoyed: "#c0612f",
  disappointed: "#516aa6", embarrassed: "#c46f8e", scared: "#6a4fa3",
};

/** A stable colour for any emotion label (known ones have fixed colours). */
export function emotionColor(label) {
  const key = String(label).trim().toLowerCase();
  if (KNOWN_COLORS[key]) return KNOWN_COLORS[key];
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.codePointAt(0)) % 360;
  return `hsl(${hash} 55% 48%)`;
}

function swatch(label) {
  const element = h("span", { class: "swatch", "aria-hidden": "true" });
  element.style.setProperty("background", emotionColor(label));
  return element;
}

/** A badge for an emotion, with its chart colour. */
export function emotionBadge(label, text = label) {
  return h("span", { class: "badge badge-emotion" }, swatch(label), text);
}

function addDays(day, count) {
  return new Date(new Date(`${day}T00:00:00Z`).getTime() + count * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The days shown: `days` UTC days ending today, unless every record is older than that
 * (the service's clock is elsewhere in time, e.g. an import): then ending at the last one.
 */
export function chartDays(records, days, today = utcDay(new Date().toISOString())) {
  const recorded = records.map((record) => utcDay(record.timestamp)).sort();
  let end = today;
  const last = recorded.at(-1);
  if (last && (last < addDays(today, -(days - 1)) || last > today)) end = last;
  return Array.from({ length: days }, (_, index) => addDays(end, index - days + 1));
}

/** Per day: total intensity and a list of {emotion, intensity, count}, biggest first. */
export function dailyTotals(records) {
  const byDay = new Map();
  for (const record of records) {
    const day = utcDay(record.timestamp);
    const emotions = byDay.get(day) ?? new Map();
    const entry = emotions.get(record.emotion) ?? { emotion: record.emotion, intensity: 0, count: 0 };
    entry.intensity += Number(record.intensity) || 0;
    entry.count += 1;
    emotions.set(record.emotion, entry);
    byDay.set(day, emotions);
  }
  const result = new Map();
  for (const [day, emotions] of byDay) {
    const parts = [...emotions.values()].sort((a, b) => b.intensity - a.intensity);
    result.set(day, { total: parts.reduce((sum, part) => sum + part.intensity, 0), parts });
  }
  return result;
}

function niceMax(value) {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= value);
  return step ?? Math.ceil(value);
}

function axes(plot, yMax) {
  const ticks = [0, yMax / 2, yMax];
  return ticks.map((tick) => {
    const y = MARGIN.top + plot.height * (1 - tick / yMax);
    return svg("g", { class: "chart-tick" },
      svg("line", { x1: MARGIN.left, x2: MARGIN.left + plot.width, y1: y, y2: y }),
      svg("text", { x: MARGIN.left - 6, y: y + 4, "text-anchor": "end" }, Number(tick.toFixed(1))));
  });
}

function hardDayBand(x, width, plot, day) {
  const label = `Hard day: ${formatDay(day)}`;
  const center = x + width / 2;
  return svg("g", { class: "chart-hard-day", "data-day": day },
    svg("title", {}, label),
    svg("rect", { x, y: MARGIN.top, width, height: plot.height, class: "hard-day-band" }),
    svg("path", {
      class: "hard-day-marker",
      d: `M ${center - 6} ${MARGIN.top - 14} h 12 l -6 10 z`,
    }));
}

function dayBar(x, width, plot, yMax, day, totals) {
  let top = MARGIN.top + plot.height;
  const segments = totals.parts.map((part) => {
    const height = (part.intensity / yMax) * plot.height;
    top -= height;
    return svg("rect", {
      x, y: top, width, height: Math.max(height, 0.5), fill: emotionColor(part.emotion), class: "chart-segment",
    }, svg("title", {}, `${formatDay(day)}: ${part.emotion} ×${part.count} (intensity ${part.intensity.toFixed(2)})`));
  });
  return svg("g", { class: "chart-day", "data-day": day }, segments);
}

function xLabels(days, slot, width) {
  const most = Math.max(2, Math.floor(width / PIXELS_PER_X_LABEL));
  const step = Math.max(1, Math.ceil(days.length / most));
  // Counted back from the last day, so today (or the last day shown) always has a label.
  return days.map((day, index) => ((days.length - 1 - index) % step === 0
    ? svg("text", {
      class: "chart-x-label", x: MARGIN.left + slot * (index + 0.5), y: HEIGHT - 12, "text-anchor": "middle",
    }, formatShortDay(day))
    : null));
}

/**
 * The chart as an <svg>, with a title and description for screen readers. `width` is
 * the space it gets in CSS pixels, so its text keeps its size on a phone.
 */
export function emotionChart({ records, hardDays, days, width = DEFAULT_WIDTH }) {
  const chartWidth = Math.max(MIN_WIDTH, Math.round(width));
  const shownDays = chartDays(records, days);
  const totals = dailyTotals(records);
  const hard = new Set(hardDays);
  const plot = { width: chartWidth - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom };
  const slot = plot.width / shownDays.length;
  const barWidth = Math.max(1, slot * 0.72);
  const peak = Math.max(0, ...shownDays.map((day) => totals.get(day)?.total ?? 0));
  const yMax = niceMax(peak);
  const hardShown = shownDays.filter((day) => hard.has(day));
  const description = `${records.length} emotion records from ${formatDay(shownDays[0])} to ${formatDay(shownDays.at(-1))}; `
    + (hardShown.length ? `hard days: ${hardShown.map(formatDay).join(", ")}.` : "no hard days.");
  return svg("svg", {
    class: "emotion-chart", viewBox: `0 0 ${chartWidth} ${HEIGHT}`, role: "img",
    "aria-labelledby": "emotion-chart-title emotion-chart-desc", preserveAspectRatio: "xMidYMid meet",
  },
  svg("title", { id: "emotion-chart-title" }, "Emotions per day (summed intensity)"),
  svg("desc", { id: "emotion-chart-desc" }, description),
  shownDays.map((day, index) => hard.has(day) ? hardDayBand(MARGIN.left + slot * index, slot, plot, day) : null),
  axes(plot, yMax),
  shownDays.map((day, index) => totals.has(day)
    ? dayBar(MARGIN.left + slot * index + (slot - barWidth) / 2, barWidth, plot, yMax, day, totals.get(day))
    : null),
  xLabels(shownDays, slot, chartWidth),
  svg("text", { class: "chart-axis-title", x: 4, y: 14 }, "felt intensity"));
}

/** Swatches for the emotions present, most felt first. */
export function emotionLegend(records) {
  const felt = new Map();
  for (const record of records) felt.set(record.emotion, (felt.get(record.emotion) ?? 0) + Number(record.intensity));
  const labels = [...felt.keys()].sort((a, b) => felt.get(b) - felt.get(a));
  const items = labels.map((label) => h("li", {}, swatch(label), label));
  items.push(h("li", {}, h("span", { class: "swatch swatch-hard", "aria-hidden": "true" }), "hard day"));
  return h("ul", { class: "chart-legend", "aria-label": "Legend" }, items);
}
