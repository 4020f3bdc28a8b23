// One viewer: header with counts, the rolling summary, export and forget, and the tabs
// (facts, profile, episodes, emotions, search, chat).

import { ApiError, path } from "./api.js";
import { ChatPanel } from "./chat.js";
import { confirmAction } from "./dialogs.js";
import { byId, h, note, replaceChildren } from "./dom.js";
import { EmotionsPanel } from "./emotions.js";
import { EpisodesPanel } from "./episodes.js";
import { FactsPanel } from "./facts.js";
import { formatAgo, formatTime, listPhrase, plural } from "./format.js";
import { ProfilePanel } from "./profile.js";
import { SearchPanel } from "./search.js";
import { Tabs } from "./tabs.js";

const MAX_SHOWN_EXPORT_CHARS = 200_000;

function viewerPath(scope) {
  return path`/v1/characters/${scope.character}/users/${scope.viewer}`;
}

function summaryProblem(error) {
  if (error instanceof ApiError && error.status === 404) {
    return "No rolling summary yet: it is written from the viewer's stream comments.";
  }
  if (error instanceof ApiError && error.type === "ConfigError") {
    return "Rolling summaries are not available: this server runs without the stream service.";
  }
  return `Could not load the summary: ${error.message}`;
}

export class ViewerView {
  /** ctx: {api, announce, alertError, navigate(hash), viewers (ViewerList), hash(scope, tab)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.element = byId("viewer-view");
    this.scope = null;
    this.fresh = new Set();
    const panelCtx = {
      ...ctx,
      showEpisodes: (ids, label) => this.showEpisodes(ids, label),
      changed: (kind, viewer) => this.changed(kind, viewer),
    };
    this.panels = {
      facts: new FactsPanel(byId("panel-facts"), panelCtx),
      profile: new ProfilePanel(byId("panel-profile"), panelCtx),
      episodes: new EpisodesPanel(byId("panel-episodes"), panelCtx),
      emotions: new EmotionsPanel(byId("panel-emotions"), panelCtx),
      search: new SearchPanel(byId("panel-search"), panelCtx),
      chat: new ChatPanel(byId("panel-chat"), panelCtx),
    };
    this.tabs = new Tabs(this.element.querySelector("[data-tabs]"), (tab) => ctx.navigate(ctx.hash(this.scope, tab)));
    byId("export-button").addEventListener("click", () => this.exportData());
    byId("forget-button").addEventListener("click", () => this.forget());
  }

  get tabNames() {
    return this.tabs.names;
  }

  isShowing(scope) {
    return Boolean(this.scope) && this.scope.character === scope.character && this.scope.viewer === scope.viewer;
  }

  /** Open a viewer on a tab; data is loaded once per viewer and after changes. */
  async show(scope, tab) {
    if (!this.isShowing(scope)) {
      this.scope = scope;
      this.fresh.clear();
      this.panels.episodes.showOnly(null);
      byId("export-result").hidden = true;
      this.name = this.ctx.viewers.find(scope.viewer)?.display_name ?? null;
      this.renderTitle();
      this.renderMeta();
      this.loadSummary();
    }
    this.tab = tab;
    this.tabs.select(tab);
    if (!this.fresh.has(tab)) {
      this.fresh.add(tab);
      await this.panels[tab].load(this.scope);
    }
  }

  /** The viewer's latest name with the id small beside it, or the id alone. */
  renderTitle() {
    const title = byId("viewer-title");
    if (this.name) replaceChildren(title, this.name, " ", h("small", { class: "viewer-id" }, this.scope.viewer));
    else replaceChildren(title, this.scope.viewer);
  }

  /** How dialogs and announcements name the viewer. */
  get label() {
    return this.name ? `${this.name} (${this.scope.viewer})` : this.scope.viewer;
  }

  async renderMeta() {
    const scope = this.scope;
    const meta = byId("viewer-meta");
    try {
      const [page, names] = await Promise.all([
        this.ctx.api.get(path`/v1/characters/${scope.character}/users`, { search: scope.viewer, limit: 500 }),
        this.ctx.api.get(`${viewerPath(scope)}/names`),
      ]);
      const entry = page.users.find((user) => user.user_id === scope.viewer);
      if (scope !== this.scope) return;
      this.name = names.display_name;
      this.renderTitle();
      const earlier = names.names.slice(1).map((item) => item.name);
      const also = earlier.length ? ` · also went by ${listPhrase(earlier)}` : "";
      meta.textContent = entry
        ? `${plural(entry.episode_count, "episode")}${entry.archived_episode_count ? ` (${entry.archived_episode_count} more archived)` : ""} · ${plural(entry.fact_count, "fact")} · last seen ${formatAgo(entry.last_seen_at)} (${formatTime(entry.last_seen_at)})${also}`
        : "Nothing is stored about this viewer.";
    } catch {
      if (scope === this.scope) meta.textContent = "";
    }
  }

  async loadSummary() {
    const box = byId("rolling-summary");
    const scope = this.scope;
    replaceChildren(box, note("Loading…"));
    try {
      const summary = await this.ctx.api.get(path`/v1/characters/${scope.character}/viewers/${scope.viewer}/stream-summary`);
      if (scope !== this.scope) return;
      replaceChildren(box,
        h("p", { class: "summary-text" }, summary.text),
        h("p", { class: "muted" }, `${summary.display_name} · from ${plural(summary.message_count, "message")} · `,
          `${summary.method === "llm" ? "written by the model" : "structured summary (no model)"} · updated ${formatTime(summary.updated_at)}`));
    } catch (error) {
      if (scope !== this.scope) return;
      replaceChildren(box, note(summaryProblem(error)));
    }
  }

  showEpisodes(ids, label) {
    this.panels.episodes.showOnly(ids, label);
    this.fresh.delete("episodes");
    this.ctx.navigate(this.ctx.hash(this.scope, "episodes"));
  }

  /** Something changed: other tabs reload when next shown; counts refresh. */
  changed(kind, viewer = this.scope?.viewer) {
    if (this.scope && viewer === this.scope.viewer) {
      this.fresh = new Set([this.tab]);
      this.renderMeta();
    }
    this.ctx.viewers.reload();
  }

  async exportData() {
    const scope = this.scope;
    try {
      const data = await this.ctx.api.get(`${viewerPath(scope)}/export`);
      const text = JSON.stringify(data, null, 2);
      const blob = new Blob([text], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const filename = `omoide-${scope.character}-${scope.viewer}.json`.replace(/[^\p{L}\p{N}._-]+/gu, "_");
      const link = h("a", { href: url, download: filename }, `Download ${filename} again`);
      const box = byId("export-result");
      const shown = text.length > MAX_SHOWN_EXPORT_CHARS ? `${text.slice(0, MAX_SHOWN_EXPORT_CHARS)}\n…` : text;
      replaceChildren(box,
        h("p", {}, `Exported ${listPhrase([plural(data.episodes.length, "episode"), plural(data.facts.length, "fact"),
          plural(data.emotions.length, "emotion record"), plural(data.tombstones.length, "tombstone")])}. `, link),
        h("details", {}, h("summary", {}, "Show the JSON"), h("pre", { class: "export-json", tabindex: 0 }, shown)));
      box.hidden = false;
      link.click();
      this.ctx.announce(`Exported ${scope.viewer}'s data as ${filename}.`);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async forget() {
    const scope = this.scope;
    let counts;
    try {
      const data = await this.ctx.api.get(`${viewerPath(scope)}/export`);
      counts = [plural(data.episodes.length, "episode"), plural(data.facts.length, "fact"), plural(data.emotions.length, "emotion record")];
    } catch (error) {
      this.ctx.alertError(error);
      return;
    }
    const label = this.label;
    const confirmed = await confirmAction({
      title: `Forget ${label}?`,
      message: `Forget ${label}? This removes ${listPhrase(counts)}.`,
      details: [
        "Also removed: chat turns not yet remembered, the character's feelings towards this viewer, the chat history, and their stream comments and summary.",
        "Their words are taken out of the character's diary; the rest of each entry stays.",
        "Only tombstones without content remain. This cannot be undone.",
      ],
      confirmLabel: `Forget ${label}`,
    });
    if (!confirmed) return;
    try {
      const report = await this.ctx.api.delete(viewerPath(scope));
      this.ctx.viewers.remove(scope.viewer);
      this.scope = null;
      this.ctx.navigate(`#/${encodeURIComponent(scope.character)}`);
      byId("main").focus();
      this.ctx.announce(`Forgot ${label}: removed ${listPhrase([plural(report.episodes, "episode"),
        plural(report.facts, "fact"), plural(report.emotions, "emotion record")])}.`);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }
}
