// How the character has changed: pending changes to approve or reject, every version
// with a side-by-side diff of its changed fields, any two versions compared, rollback.

import { path } from "./api.js";
import { confirmAction } from "./dialogs.js";
import { badge, h, note, replaceChildren } from "./dom.js";
import { diffTable, profileChanges } from "./diff.js";
import { formatTime, plural } from "./format.js";

function identityPath(character, rest) {
  return `${path`/v1/characters/${character}/identity`}${rest}`;
}

// The offline demo model (OMOIDE_LLM=scripted) proposes changes too, from the stream's
// topics; say so, so nobody takes its proposal for a language model's reflection.
export const SCRIPTED_MODEL = "scripted";

export function proposerNote(model) {
  if (!model) return null;
  if (model === SCRIPTED_MODEL) {
    return h("p", { class: "proposed-by scripted" }, badge("scripted demo model", "quiet"),
      " Proposed by omoide's offline demo model from the stream's topics, not by a language model.");
  }
  return h("p", { class: "proposed-by muted" }, `Proposed by ${model}.`);
}

export class IdentityPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.pending = h("section", { class: "identity-pending", "aria-labelledby": "pending-title" });
    this.versions = h("section", { class: "identity-versions", "aria-labelledby": "versions-title" });
    this.compare = h("section", { class: "identity-compare", "aria-labelledby": "compare-title" });
    this.profiles = new Map();
    replaceChildren(element, this.pending, this.versions, this.compare);
  }

  async load(scope) {
    if (scope.character !== this.character) this.profiles.clear();
    this.character = scope.character;
    replaceChildren(this.pending, note("Loading…"));
    replaceChildren(this.versions);
    replaceChildren(this.compare);
    try {
      const [pending, history] = await Promise.all([
        this.ctx.api.get(identityPath(this.character, "/pending")),
        this.ctx.api.get(identityPath(this.character, "/versions")),
      ]);
      this.renderPending(pending.changes);
      this.renderVersions(history);
    } catch (error) {
      replaceChildren(this.pending, note(`Could not load the identity history: ${error.message}`, "error"));
      this.ctx.alertError(error);
    }
  }

  renderPending(changes) {
    replaceChildren(this.pending,
      h("h2", { id: "pending-title" }, `Pending changes (${changes.length})`),
      changes.length === 0
        ? note("Nothing waits for approval. Changes the character proposes after a diary entry appear here.")
        : h("ul", { class: "cards" }, changes.map((change) => this.pendingCard(change))));
  }

  pendingCard(change) {
    return h("li", { class: "card pending-change", dataset: { changeId: change.id } },
      proposerNote(change.proposed_by),
      h("p", {}, `Proposed ${formatTime(change.created_at)}`,
        change.base_version === null ? " against the profile file" : ` against version ${change.base_version}`,
        change.diary_entry_id ? ` after diary entry ${change.diary_entry_id.slice(0, 8)}` : ""),
      diffTable(change.changes, { caption: `${plural(change.changes.length, "field")} would change` }),
      change.refused.length
        ? h("div", { class: "refused" }, h("p", {}, "Refused (not part of this change):"),
          h("ul", {}, change.refused.map((refused) => h("li", {}, h("strong", {}, refused.field), `: ${refused.reason}`))))
        : null,
      h("div", { class: "card-actions" },
        h("button", { type: "button", class: "primary", on: { click: () => this.decide(change, "approve") } }, "Approve"),
        h("button", { type: "button", on: { click: () => this.decide(change, "reject") } }, "Reject")));
  }

  async decide(change, decision) {
    const fields = change.changes.map((item) => item.field).join(", ");
    const confirmed = await confirmAction(decision === "approve"
      ? { title: "Approve this change?", message: `${this.character}'s profile will change: ${fields}. A new version is recorded; you can roll back later.`, confirmLabel: "Approve change" }
      : { title: "Reject this change?", message: `The proposed change to ${fields} will not be applied.`, confirmLabel: "Reject change" });
    if (!confirmed) return;
    try {
      const result = await this.ctx.api.post(identityPath(this.character, `/pending/${encodeURIComponent(change.id)}/${decision}`));
      this.ctx.announce(decision === "approve" ? `Approved: ${this.character} is now at version ${result.version}.` : "Change rejected.");
      await this.load({ character: this.character });
      this.element.focus();
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  renderVersions({ versions, current_version: current }) {
    const newestFirst = [...versions].reverse();
    replaceChildren(this.versions,
      h("h2", { id: "versions-title" }, "Versions"),
      versions.length === 0
        ? note("No change has been applied yet: the character speaks with its profile file.")
        : h("ol", { class: "cards versions", reversed: true }, newestFirst.map((version) => this.versionCard(version, current))));
    if (versions.length > 1) this.renderCompare(versions);
  }

  versionCard(version, current) {
    const isCurrent = version.version === current;
    return h("li", { class: "card version", dataset: { version: version.version } },
      h("div", { class: "hit-head" },
        h("h3", {}, `Version ${version.version}`),
        isCurrent ? badge("current", "confirmed") : null,
        h("time", { datetime: version.created_at }, formatTime(version.created_at))),
      h("p", { class: "muted" }, version.reason, version.diary_entry_id ? ` · from diary entry ${version.diary_entry_id.slice(0, 8)}` : ""),
      version.changes.length
        ? h("details", { open: isCurrent }, h("summary", {}, `What changed (${plural(version.changes.length, "field")})`),
          diffTable(version.changes, { caption: `Version ${version.version} compared with the one before` }))
        : h("p", { class: "muted" }, "The starting point."),
      isCurrent ? null : h("div", { class: "card-actions" },
        h("button", { type: "button", on: { click: () => this.rollback(version.version, current) } }, `Roll back to version ${version.version}`)));
  }

  async profile(number) {
    if (!this.profiles.has(number)) {
      const version = await this.ctx.api.get(identityPath(this.character, `/versions/${number}`));
      this.profiles.set(number, version.profile);
    }
    return this.profiles.get(number);
  }

  async rollback(number, current) {
    let changes;
    try {
      changes = profileChanges(await this.profile(current), await this.profile(number));
    } catch (error) {
      this.ctx.alertError(error);
      return;
    }
    const confirmed = await confirmAction({
      title: `Roll back to version ${number}?`,
      message: `${this.character}'s profile becomes exactly version ${number} again, as a new version.`,
      details: changes.map((change) => `${change.field} changes back`),
      confirmLabel: `Roll back to version ${number}`,
    });
    if (!confirmed) return;
    try {
      const result = await this.ctx.api.post(identityPath(this.character, "/rollback"), { version: number });
      this.ctx.announce(`Rolled back: version ${result.version} holds version ${number}'s profile.`);
      await this.load({ character: this.character });
      this.element.focus();
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  renderCompare(versions) {
    const options = (selected) => versions.map((version) => h("option", { value: version.version, selected: version.version === selected }, `Version ${version.version}`));
    const left = h("select", { id: "compare-left" }, options(versions.at(-2).version));
    const right = h("select", { id: "compare-right" }, options(versions.at(-1).version));
    const result = h("div", { class: "compare-result", "aria-live": "polite" });
    const run = async () => {
      try {
        const [before, after] = [await this.profile(Number(left.value)), await this.profile(Number(right.value))];
        const changes = profileChanges(before, after);
        replaceChildren(result, changes.length
          ? diffTable(changes, { caption: `Version ${left.value} → version ${right.value}` })
          : note("These versions hold the same profile."));
      } catch (error) {
        this.ctx.alertError(error);
      }
    };
    replaceChildren(this.compare,
      h("h2", { id: "compare-title" }, "Compare two versions"),
      h("form", { class: "compare-form", on: { submit: (event) => { event.preventDefault(); run(); } } },
        h("label", { class: "inline" }, "From ", left),
        h("label", { class: "inline" }, "to ", right),
        h("button", { type: "submit" }, "Compare")),
      result);
  }
}
