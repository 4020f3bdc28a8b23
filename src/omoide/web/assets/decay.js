// Decay of the character's memories: preview what a run would archive (changing nothing),
// run it, undo it, or bring back everything archived since a time. Archived episodes leave
// retrieval but stay stored; the Episodes tab of a viewer shows them ("Include archived").

import { confirmAction } from "./dialogs.js";
import { h, replaceChildren } from "./dom.js";
import { formatTime, plural } from "./format.js";

const DECAY = "/v1/maintenance/decay";
const RESTORE = "/v1/maintenance/decay/restore";

/** A datetime-local input's value as ISO 8601 in UTC; "" stays null (the service's now). */
function isoOrNull(input) {
  return input.value ? new Date(input.value).toISOString() : null;
}

function field(label, input, help) {
  return h("label", { class: "decay-field" }, label, input, help ? h("span", { class: "muted" }, help) : null);
}

export class DecayPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.now = h("input", { type: "datetime-local", id: "decay-now", step: "1" });
    this.purge = h("input", { type: "datetime-local", id: "decay-purge", step: "1" });
    this.since = h("input", { type: "datetime-local", id: "decay-since", step: "1", required: true });
    this.result = h("div", { class: "decay-result", id: "decay-result", "aria-live": "polite" });
    const button = (label, action, kind) => h("button", { type: "button", class: kind, on: { click: () => action() } }, label);
    replaceChildren(element,
      h("p", { class: "muted" }, "Decay archives episodes whose retention fell below the threshold: they leave recall but stay stored, and can be restored. A purge destroys episodes archived before a time (tombstones remain)."),
      h("div", { class: "decay-form" },
        field("As of", this.now, "empty: now"),
        field("Also purge episodes archived before", this.purge, "empty: purge nothing")),
      h("div", { class: "card-actions" },
        button("Preview", () => this.preview(), "primary"),
        button("Run decay", () => this.run(), "danger")),
      this.result,
      h("h2", {}, "Restore archived episodes"),
      h("div", { class: "decay-form" }, field("Archived since", this.since)),
      h("div", { class: "card-actions" }, button("Restore", () => this.restoreSince(), "")));
  }

  async load(scope) {
    this.character = scope.character;
    replaceChildren(this.result);
  }

  body(extra = {}) {
    return { character_id: this.character, now: isoOrNull(this.now), purge_archived_before: isoOrNull(this.purge), ...extra };
  }

  async preview() {
    try {
      const report = await this.ctx.api.post(DECAY, this.body({ dry_run: true }));
      replaceChildren(this.result,
        h("p", { id: "decay-preview" }, `Dry run as of ${formatTime(report.now)}: of ${plural(report.scanned, "episode")} in recall, ${report.archived} would be archived and ${report.purged} purged. Nothing changed.`),
        report.archived_ids.length ? h("p", { class: "muted" }, `First to archive: ${report.archived_ids.join(", ")}`) : null,
        report.purged_ids.length ? h("p", { class: "muted" }, `First to purge: ${report.purged_ids.join(", ")}`) : null);
      this.ctx.announce(`Decay preview: ${report.archived} would be archived, ${report.purged} purged.`);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async run() {
    const confirmed = await confirmAction({
      title: "Run decay now?",
      message: `Faded episodes of ${this.character} leave recall (they stay stored).`,
      details: this.purge.value ? ["Episodes archived before the purge time are destroyed; only tombstones remain."] : ["Nothing is destroyed: the run can be undone here."],
      confirmLabel: "Run decay",
    });
    if (!confirmed) return;
    try {
      const report = await this.ctx.api.post(DECAY, this.body());
      const undo = h("button", { type: "button", id: "decay-undo", on: { click: () => this.restore({ archived_since: report.now }, undo) } }, `Undo: restore the ${plural(report.archived, "episode")} this run archived`);
      replaceChildren(this.result,
        h("p", { id: "decay-report" }, `Archived ${report.archived} of ${plural(report.scanned, "episode")} and purged ${report.purged} (as of ${formatTime(report.now)}).`),
        report.archived ? undo : null);
      this.ctx.announce(`Decay archived ${report.archived} and purged ${report.purged}.`);
      this.ctx.viewers?.reload();
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async restoreSince() {
    if (!this.since.value) {
      this.since.reportValidity();
      return;
    }
    await this.restore({ archived_since: isoOrNull(this.since) });
  }

  async restore(which, button = null) {
    try {
      const report = await this.ctx.api.post(RESTORE, { character_id: this.character, ...which });
      if (button) button.disabled = true;
      this.result.append(h("p", { id: "decay-restored" }, `Restored ${plural(report.restored, "archived episode")}.`));
      this.ctx.announce(`Restored ${plural(report.restored, "archived episode")}.`);
      this.ctx.viewers?.reload();
    } catch (error) {
      this.ctx.alertError(error);
    }
  }
}

/** Bring one archived episode of a viewer back into recall. */
export async function restoreEpisode(api, character, episodeId) {
  return api.post(RESTORE, { character_id: character, episode_ids: [episodeId] });
}

