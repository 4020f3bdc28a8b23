// Facts: what the character believes about the viewer, grouped by type, with confidence,
// confirmations, validity times and the episodes each came from. Correct, add or delete.

import { path } from "./api.js";
import { confirmFactDeletion, editFact } from "./dialogs.js";
import { badge, h, meter, note, replaceChildren } from "./dom.js";
import { formatTime, plural } from "./format.js";

export const FACT_TYPES = ["preference", "personal", "emotion", "habit", "goal"];
const TYPE_TITLES = {
  preference: "Preferences", personal: "Personal", emotion: "Emotional patterns", habit: "Habits", goal: "Goals",
};

function metaItem(term, value) {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}

function factsPath(scope) {
  return path`/v1/characters/${scope.character}/users/${scope.viewer}/facts`;
}

export class FactsPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.showInactive = false;
    this.toggle = h("input", {
      type: "checkbox", id: "facts-inactive",
      on: { change: () => { this.showInactive = this.toggle.checked; this.load(this.scope); } },
    });
    this.summary = h("p", { class: "muted", id: "facts-summary" });
    this.body = h("div", { class: "fact-groups" });
    replaceChildren(element,
      h("div", { class: "toolbar" },
        h("button", { type: "button", class: "primary", on: { click: () => this.add() } }, "Add a fact"),
        h("label", { class: "inline" }, this.toggle, "Show superseded versions"),
        this.summary),
      this.body);
  }

  async load(scope) {
    this.scope = scope;
    replaceChildren(this.body, note("Loading facts…"));
    try {
      const facts = await this.ctx.api.get(factsPath(scope), { include_inactive: this.showInactive });
      if (scope === this.scope) this.render(facts); // else another viewer was opened meanwhile
    } catch (error) {
      replaceChildren(this.body, note(`Could not load facts: ${error.message}`, "error"));
      this.ctx.alertError(error);
    }
  }

  render(facts) {
    const current = facts.filter((fact) => fact.current).length;
    this.summary.textContent = this.showInactive
      ? `${plural(current, "current fact")}, ${facts.length - current} superseded or contradicted`
      : plural(current, "current fact");
    if (facts.length === 0) {
      replaceChildren(this.body, note("The character believes nothing about this viewer yet."));
      return;
    }
    const types = [...FACT_TYPES, ...new Set(facts.map((fact) => fact.category).filter((type) => !FACT_TYPES.includes(type)))];
    const groups = types
      .map((type) => [type, facts.filter((fact) => fact.category === type)])
      .filter(([, members]) => members.length > 0)
      .map(([type, members]) => h("section", { class: "fact-group", dataset: { category: type } },
        h("h2", {}, TYPE_TITLES[type] ?? type, " ", h("span", { class: "count" }, `(${members.length})`)),
        h("ul", { class: "cards" }, members.map((fact) => this.card(fact)))));
    replaceChildren(this.body, groups);
  }

  card(fact) {
    const sources = fact.source_episode_ids;
    return h("li", { class: ["card", "fact", !fact.current && "inactive"], dataset: { factId: fact.fact_id } },
      h("p", { class: "fact-text" }, fact.text),
      h("div", { class: "badges" },
        badge(fact.trust, fact.trust),
        fact.current ? null : badge(fact.superseded_at ? "superseded" : "no longer current", "inactive")),
      h("div", { class: "meters" }, meter("confidence", fact.confidence), meter("salience", fact.salience)),
      h("dl", { class: "facts-meta" },
        metaItem("Confirmed", plural(fact.confirmation_count, "time")),
        metaItem("Valid", `${formatTime(fact.valid_from)} → ${fact.valid_to ? formatTime(fact.valid_to) : "now"}`),
        metaItem("Recorded", formatTime(fact.recorded_at)),
        metaItem("Recalled", plural(fact.recall_count, "time"))),
      h("div", { class: "card-actions" },
        sources.length
          ? h("button", {
            type: "button", class: "link",
            on: { click: () => this.ctx.showEpisodes(sources, `the ${plural(sources.length, "episode")} behind “${fact.text}”`) },
          }, `From ${plural(sources.length, "episode")}`)
          : h("span", { class: "muted" }, "Stated by a person"),
        fact.current ? h("button", { type: "button", on: { click: () => this.edit(fact) } }, "Edit") : null,
        fact.current ? h("button", { type: "button", class: "danger", on: { click: () => this.remove(fact) } }, "Delete") : null));
  }

  async edit(fact) {
    const changed = await editFact(fact, {
      title: "Correct a fact",
      help: "A new text replaces the old one; the old version is kept, marked superseded.",
      saveLabel: "Save correction",
    });
    if (!changed || Object.keys(changed).length === 0) return;
    try {
      const updated = await this.ctx.api.patch(`${factsPath(this.scope)}/${encodeURIComponent(fact.fact_id)}`, changed);
      this.ctx.announce(changed.text ? `Corrected: “${fact.text}” is now “${updated.text}”.` : "Fact updated.");
      this.ctx.changed("facts");
      await this.load(this.scope);
      this.focusFact(updated.fact_id);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  /** Keep keyboard focus near the change: the fact's first button, else the panel. */
  focusFact(factId) {
    const card = this.body.querySelector(`[data-fact-id="${CSS.escape(factId)}"]`);
    (card?.querySelector("button") ?? this.element).focus();
  }

  async add() {
    const fields = await editFact(null, {
      title: "Add a fact",
      help: "Something a person knows about this viewer. It is stored as confirmed.",
      saveLabel: "Add fact",
    });
    if (!fields || !fields.text) return;
    try {
      const added = await this.ctx.api.post(factsPath(this.scope), fields);
      this.ctx.announce(`Added: “${added.text}”.`);
      this.ctx.changed("facts");
      await this.load(this.scope);
      this.focusFact(added.fact_id);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async remove(fact) {
    const confirmed = await confirmFactDeletion(fact, this.scope.viewer);
    if (!confirmed) return;
    try {
      await this.ctx.api.delete(`${factsPath(this.scope)}/${encodeURIComponent(fact.fact_id)}`);
      this.ctx.announce(`Deleted the fact “${fact.text}”.`);
      this.ctx.changed("facts");
      await this.load(this.scope);
      this.element.focus();
    } catch (error) {
      this.ctx.alertError(error);
    }
  }
}
