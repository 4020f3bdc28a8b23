// Episodes on a timeline, newest first, grouped by day: what was said, how it felt, how
// important it seemed. Delete one, restore an archived one; or show only the episodes a
// fact came from.

import { path } from "./api.js";
import { emotionBadge } from "./chart.js";
import { restoreEpisode } from "./decay.js";
import { confirmAction } from "./dialogs.js";
import { badge, h, meter, note, replaceChildren } from "./dom.js";
import { formatTime, plural } from "./format.js";

const PAGE = 50;
const LOOKUP_PAGE = 500;
const LOOKUP_MAX_PAGES = 20;
const dayHeading = new Intl.DateTimeFormat(undefined, { weekday: "short", year: "numeric", month: "long", day: "numeric" });
const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });

export function episodesPath(scope) {
  return path`/v1/characters/${scope.character}/users/${scope.viewer}/episodes`;
}

/** Find episodes by id, paging through the viewer's list; missing ones were deleted. */
export async function findEpisodes(api, scope, ids, { includeArchived = true } = {}) {
  const wanted = new Set(ids);
  const found = new Map();
  for (let page = 0; page < LOOKUP_MAX_PAGES && found.size < wanted.size; page += 1) {
    const result = await api.get(episodesPath(scope), {
      limit: LOOKUP_PAGE, offset: page * LOOKUP_PAGE, include_archived: includeArchived,
    });
    for (const episode of result.episodes) {
      if (wanted.has(episode.episode_id)) found.set(episode.episode_id, episode);
    }
    if (result.episodes.length < LOOKUP_PAGE) break;
  }
  return { episodes: ids.filter((id) => found.has(id)).map((id) => found.get(id)), missing: ids.filter((id) => !found.has(id)) };
}

function localDay(iso) {
  const date = new Date(iso);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

function metadataList(metadata) {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return null;
  return h("dl", { class: "metadata" }, entries.flatMap(([key, value]) => [h("dt", {}, key), h("dd", {}, JSON.stringify(value))]));
}

export class EpisodesPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.filter = null;
    this.archived = h("input", {
      type: "checkbox", id: "episodes-archived", on: { change: () => this.load(this.scope) },
    });
    this.summary = h("p", { class: "muted", id: "episodes-summary" });
    this.banner = h("div", { class: "filter-banner", hidden: true });
    this.timeline = h("ol", { class: "timeline", "aria-label": "Episodes, newest first" });
    this.more = h("button", { type: "button", class: "quiet", hidden: true, on: { click: () => this.loadPage() } }, "Load older episodes");
    replaceChildren(element,
      h("div", { class: "toolbar" }, h("label", { class: "inline" }, this.archived, "Include archived (faded) episodes"), this.summary),
      this.banner, this.timeline, this.more);
  }

  /** Show only these episodes (the sources of a fact) until "Show all"; null: all. */
  showOnly(ids, label) {
    this.filter = ids ? { ids, label } : null;
  }

  async load(scope) {
    this.scope = scope;
    this.loaded = [];
    this.lastDay = null;
    replaceChildren(this.timeline);
    this.more.hidden = true;
    if (this.filter) await this.loadFiltered();
    else {
      this.banner.hidden = true;
      await this.loadPage();
    }
  }

  async loadFiltered() {
    const { ids, label } = this.filter;
    replaceChildren(this.banner,
      h("p", {}, `Showing ${label}.`),
      h("button", { type: "button", on: { click: () => { this.filter = null; this.load(this.scope).then(() => this.element.focus()); } } }, "Show all episodes"));
    this.banner.hidden = false;
    const scope = this.scope;
    try {
      const { episodes, missing } = await findEpisodes(this.ctx.api, scope, ids);
      if (scope !== this.scope) return;
      this.summary.textContent = missing.length
        ? `${plural(episodes.length, "episode")} found; ${plural(missing.length, "episode")} no longer stored (deleted or purged)`
        : plural(episodes.length, "episode");
      this.append(episodes);
      if (episodes.length === 0) this.timeline.append(h("li", {}, note("These episodes are no longer stored.")));
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async loadPage() {
    const scope = this.scope;
    try {
      const page = await this.ctx.api.get(episodesPath(scope), {
        limit: PAGE, offset: this.loaded.length, include_archived: this.archived.checked,
      });
      if (scope !== this.scope) return; // another viewer was opened meanwhile
      this.loaded.push(...page.episodes);
      this.summary.textContent = `${plural(page.total, "episode")}${this.archived.checked ? " (archived included)" : ""}`;
      this.append(page.episodes);
      this.more.hidden = this.loaded.length >= page.total;
      if (page.total === 0) this.timeline.append(h("li", {}, note("No episodes are stored for this viewer.")));
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  append(episodes) {
    for (const episode of episodes) {
      const day = localDay(episode.timestamp);
      if (day !== this.lastDay) {
        this.lastDay = day;
        this.timeline.append(h("li", { class: "timeline-day" }, h("h2", {}, dayHeading.format(new Date(episode.timestamp)))));
      }
      this.timeline.append(this.item(episode));
    }
  }

  item(episode) {
    const intensity = Number(episode.emotion_intensity ?? 0);
    return h("li", { class: ["card", "episode", episode.archived_at && "inactive"], dataset: { episodeId: episode.episode_id } },
      h("div", { class: "episode-head" },
        h("time", { datetime: episode.timestamp, title: formatTime(episode.timestamp) }, timeOfDay.format(new Date(episode.timestamp))),
        emotionBadge(episode.emotion, `${episode.emotion} ${intensity.toFixed(1)}`),
        meter("importance", episode.importance),
        badge(episode.scoring, "quiet"),
        episode.archived_at ? badge("archived", "inactive") : null),
      h("blockquote", { class: "said" }, h("span", { class: "speaker" }, this.scope.viewer), h("p", {}, episode.user_message)),
      episode.bot_message
        ? h("blockquote", { class: "said reply" }, h("span", { class: "speaker" }, this.scope.character), h("p", {}, episode.bot_message))
        : null,
      episode.topics.length ? h("p", { class: "topics" }, "Topics: ", episode.topics.map((topic) => badge(topic, "topic"))) : null,
      metadataList(episode.metadata),
      h("div", { class: "card-actions" },
        h("span", { class: "muted" }, `recalled ${plural(episode.recall_count, "time")}`),
        episode.archived_at
          ? h("button", { type: "button", on: { click: () => this.restore(episode) } }, "Restore episode")
          : null,
        h("button", { type: "button", class: "danger", on: { click: () => this.remove(episode) } }, "Delete episode")));
  }

  async restore(episode) {
    try {
      await restoreEpisode(this.ctx.api, this.scope.character, episode.episode_id);
      this.ctx.announce("Episode restored: it is recalled again.");
      this.ctx.changed("episodes");
      await this.load(this.scope);
    } catch (error) {
      this.ctx.alertError(error);
    }
  }

  async remove(episode) {
    const excerpt = episode.user_message.length > 120 ? `${episode.user_message.slice(0, 120)}…` : episode.user_message;
    const confirmed = await confirmAction({
      title: "Delete this episode?",
      message: `“${excerpt}” (${formatTime(episode.timestamp)}) will be removed from ${this.scope.viewer}'s memories.`,
      details: ["Facts learned from it and the emotion it recorded are kept (delete facts on the Facts tab).", "Only a tombstone without the text remains."],
      confirmLabel: "Delete episode",
    });
    if (!confirmed) return;
    try {
      await this.ctx.api.delete(`${episodesPath(this.scope)}/${encodeURIComponent(episode.episode_id)}`);
      const item = this.timeline.querySelector(`[data-episode-id="${CSS.escape(episode.episode_id)}"]`);
      const next = item?.nextElementSibling?.querySelector("button") ?? this.element;
      item?.remove();
      next.focus();
      this.ctx.announce("Episode deleted.");
      this.ctx.changed("episodes");
    } catch (error) {
      this.ctx.alertError(error);
    }
  }
}
