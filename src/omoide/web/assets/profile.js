// Profile: what the viewer has told about themselves, as the prompt carries it
// (GET .../profile): groups in reading order, each fact with the weight and relevance
// that chose it. Optionally steered by a message, as a reply to it would be. Facts are
// corrected or deleted through the fact routes, and the profile reloads after each change.

import { path } from "./api.js";
import { confirmFactDeletion, editFact } from "./dialogs.js";
import { badge, h, note, replaceChildren } from "./dom.js";
import { formatTime, number, plural } from "./format.js";

const MAX_MESSAGE_CHARS = 1000;

function viewerPath(scope) {
  return path`/v1/characters/${scope.character}/users/${scope.viewer}`;
}

function capitalised(label) {
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function numbers(fact, steered) {
  const parts = [`weight ${number(fact.weight)}`];
  if (steered) parts.push(`relevance ${number(fact.relevance)}`);
  parts.push(`score ${number(fact.score, 3)}`, `said ${plural(fact.confirmation_count, "time")}`,
    `since ${formatTime(fact.valid_from)}`);
  return parts.join(" · ");
}

export class ProfilePanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.message = h("input", {
      type: "search", id: "profile-message", name: "message", maxlength: MAX_MESSAGE_CHARS, autocomplete: "off",
      placeholder: "e.g. 저녁 뭐 먹지?",
    });
    this.summary = h("p", { class: "muted", id: "profile-summary" });
    this.body = h("div", { class: "profile-groups" });
    const form = h("form", { class: "search-form", "aria-label": "Steer the profile", on: { submit: (event) => { event.preventDefault(); this.load(this.scope); } } },
      h("label", { for: "profile-message" }, "As a reply to this message would see it (optional)"),
      h("div", { class: "search-row" }, this.message, h("button", { type: "submit" }, "Show")));
    replaceChildren(element, form, this.summary, this.body);
  }

  async load(scope) {
    this.scope = scope;
    replaceChildren(this.body, note("Loading the profile…"));
    try {
      const message = this.message.value.trim();
      const profile = await this.ctx.api.get(`${viewerPath(scope)}/profile`, { message });
      if (scope === this.scope) this.render(profile, Boolean(message)); // else another viewer was opened
    } catch (error) {
      replaceChildren(this.body, note(`Could not load the profile: ${error.message}`, "error"));
      this.ctx.alertError(error);
    }
  }

  render(profile, steered) {
    this.summary.textContent = profile.total_facts
      ? `The prompt carries ${profile.shown} of ${plural(profile.total_facts, "current fact")}, chosen by ${steered ? "weight and relevance to the message" : "weight"}.`
      : "";
    if (profile.groups.length === 0) {
      replaceChildren(this.body, note("The viewer has told nothing about themselves yet."));
      return;
    }
    replaceChildren(this.body, profile.groups.map((group) =>
      h("section", { class: "profile-group", dataset: { facet: group.facet } },
        h("h2", {}, capitalised(group.label), " ", h("span", { class: "count" }, `(${group.facts.length})`)),
        h("ul", { class: "profile-facts" }, group.facts.map((fact) => this.item(fact, steered))))));
  }

  item(fact, steered) {
    return h("li", { class: "profile-fact", dataset: { factId: fact.fact_id } },
      h("div", { class: "profile-fact-body" },
        h("p", { class: "fact-text" }, fact.text),
        h("p", { class: "profile-numbers muted" },
          fact.trust === "inferred" ? [badge("inferred", "quiet"), " "] : null,
          numbers(fact, steered))),
      h("div", { class: "card-actions" },
        h("button", { type: "button", "aria-label": `Edit “${fact.text}”`, on: { click: () => this.edit(fact) } }, "Edit"),
        h("button", { type: "button", class: "danger", "aria-label": `Delete “${fact.text}”`, on: { click: () => this.remove(fact) } }, "Delete")));
  }

  factPath(fact) {
    return `${viewerPath(this.scope)}/facts/${encodeURIComponent(fact.fact_id)}`;
  }

  async edit(fact) {
    const changed = await editFact(fact, {
      title: "Correct a fact",
      help: "A new text replaces the old one; the old version is kept, marked superseded.",
      saveLabel: "Save correction",
    });
    if (!changed || Object.keys(changed).length === 0) return;
    try {
      const updated = await this.ctx.api.patch(this.factPath(fact), changed);
      this.ctx.announce(changed.text ? `Corrected: “${fact.text}” is now “${updated.text}”.` : "Fact updated.");
      await this.afterChange(updated.fact_id);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async remove(fact) {
    const confirmed = await confirmFactDeletion(fact, this.scope.viewer);
    if (!confirmed) return;
    try {
      await this.ctx.api.delete(this.factPath(fact));
      this.ctx.announce(`Deleted the fact “${fact.text}”.`);
      await this.afterChange(null);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  /** Reload, and keep keyboard focus near the change: the fact's first button, else the panel. */
  async afterChange(factId) {
    this.ctx.changed("profile");
    await this.load(this.scope);
    const item = factId ? this.body.querySelector(`[data-fact-id="${CSS.escape(factId)}"]`) : null;
    (item?.querySelector("button") ?? this.element).focus();
  }
}
