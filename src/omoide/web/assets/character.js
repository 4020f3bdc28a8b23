// The character itself: its diary (reflective entries about its streams), how its
// profile has changed (identity), a chat panel, and the decay of its memories.

import { path } from "./api.js";
import { emotionBadge } from "./chart.js";
import { ChatPanel } from "./chat.js";
import { DecayPanel } from "./decay.js";
import { badge, byId, h, note, replaceChildren } from "./dom.js";
import { formatTime, listPhrase, plural } from "./format.js";
import { IdentityPanel } from "./identity.js";
import { Tabs } from "./tabs.js";

const DIARY_PAGE = 20;

class DiaryPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.list = h("ol", { class: "cards diary", "aria-label": "Diary entries, newest first" });
    this.more = h("button", { type: "button", class: "quiet", hidden: true, on: { click: () => this.loadPage() } }, "Older entries");
    replaceChildren(element, this.list, this.more);
  }

  async load(scope) {
    this.character = scope.character;
    this.count = 0;
    replaceChildren(this.list);
    await this.loadPage();
  }

  async loadPage() {
    try {
      const page = await this.ctx.api.get(path`/v1/characters/${this.character}/diary`, { limit: DIARY_PAGE, offset: this.count });
      this.count += page.entries.length;
      this.list.append(...page.entries.map((entry) => this.entry(entry)));
      this.more.hidden = page.entries.length < DIARY_PAGE;
      if (this.count === 0) {
        this.list.append(h("li", {}, note("No diary entries yet. The character writes one every few hundred stream comments and when a stream ends.")));
      }
    } catch (error) {
      this.list.append(h("li", {}, note(`Could not load the diary: ${error.message}`, "error")));
      this.ctx.alertError(error);
    }
  }

  entry(entry) {
    const method = entry.method !== "llm" ? "structured summary (no model)"
      : entry.model === "scripted" ? "written by the scripted demo model (offline, not a language model)"
        : "written by the model";
    return h("li", { class: "card diary-entry", dataset: { entryId: entry.id } },
      h("div", { class: "hit-head" },
        h("h2", {}, `Entry ${entry.number} · ${entry.stream_id}`),
        badge(entry.reason === "end" ? "stream ended" : "comment threshold", "quiet"),
        entry.mood ? emotionBadge(entry.mood) : null,
        entry.llm_failed ? badge("model failed", "inactive") : null),
      h("p", { class: "muted" },
        h("time", { datetime: entry.written_at }, formatTime(entry.written_at)),
        ` · comments ${entry.from_comment}–${entry.to_comment} · ${plural(entry.comment_count, "comment")} from ${plural(entry.viewer_count, "viewer")} · ${method}`),
      h("p", { class: "diary-text" }, entry.text),
      entry.topics.length ? h("p", { class: "topics" }, "Topics: ", listPhrase(entry.topics)) : null);
  }
}

export class CharacterView {
  constructor(ctx) {
    this.ctx = ctx;
    this.element = byId("character-view");
    this.fresh = new Set();
    this.panels = {
      diary: new DiaryPanel(byId("panel-diary"), ctx),
      identity: new IdentityPanel(byId("panel-identity"), ctx),
      talk: new ChatPanel(byId("panel-talk"), { ...ctx, changed: () => ctx.viewers.reload() }),
      decay: new DecayPanel(byId("panel-decay"), ctx),
    };
    this.tabs = new Tabs(this.element.querySelector("[data-tabs]"), (tab) => ctx.navigate(ctx.characterHash(this.character, tab)));
  }

  get tabNames() {
    return this.tabs.names;
  }

  async show(character, tab) {
    if (character !== this.character) {
      this.character = character;
      this.fresh.clear();
      byId("character-title").textContent = character;
    }
    this.tabs.select(tab);
    if (!this.fresh.has(tab)) {
      this.fresh.add(tab);
      await this.panels[tab].load({ character });
    }
  }
}
