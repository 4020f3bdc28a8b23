// Search: the real retrieval (POST /search), each hit with the relevance, recency and
// importance that placed it, so a person can see why a memory ranked where it did.

import { path } from "./api.js";
import { emotionBadge } from "./chart.js";
import { badge, h, meter, note, replaceChildren } from "./dom.js";
import { formatTime, number, plural } from "./format.js";

const COMPONENTS = [
  ["relevance", "raw_relevance", "how close in meaning to the query (raw: similarity)"],
  ["recency", "raw_recency", "how recently it happened or was recalled (raw: decay factor)"],
  ["importance", "raw_importance", "how much it mattered when stored (raw: importance or salience)"],
];

function components(hit) {
  const parts = hit.components;
  return h("div", { class: "components" },
    meter("score", parts.total, { className: "meter-total" }),
    COMPONENTS.map(([name]) => meter(name, parts[name])),
    h("p", { class: "raw muted" }, "raw: ",
      COMPONENTS.map(([name, raw], index) => [index ? " · " : "", `${name} ${number(parts[raw], 3)}`])),
    parts.neighbour_of
      ? h("p", { class: "neighbour muted" }, "recorded next to a better match (",
          h("code", {}, parts.neighbour_of.slice(0, 8)), "): its score, scaled")
      : null);
}

function factHit(hit, rank) {
  return h("li", { class: "card hit", dataset: { factId: hit.fact_id } },
    h("div", { class: "hit-head" }, h("span", { class: "rank" }, `#${rank}`), badge(hit.category, "topic"), badge(hit.trust, hit.trust)),
    h("p", { class: "fact-text" }, hit.text),
    components(hit));
}

function episodeHit(hit, rank, scope) {
  return h("li", { class: "card hit", dataset: { episodeId: hit.episode_id } },
    h("div", { class: "hit-head" },
      h("span", { class: "rank" }, `#${rank}`),
      h("time", { datetime: hit.timestamp }, formatTime(hit.timestamp)),
      emotionBadge(hit.emotion)),
    h("blockquote", { class: "said" }, h("span", { class: "speaker" }, scope.viewer), h("p", {}, hit.user_message)),
    hit.bot_message ? h("blockquote", { class: "said reply" }, h("span", { class: "speaker" }, scope.character), h("p", {}, hit.bot_message)) : null,
    components(hit));
}

export class SearchPanel {
  constructor(element, ctx) {
    this.element = element;
    this.ctx = ctx;
    this.query = h("input", { type: "search", id: "memory-query", name: "query", required: true, maxlength: 8000, autocomplete: "off" });
    this.limit = h("select", { id: "memory-k", name: "k" }, [5, 10, 20, 50].map((k) => h("option", { value: k, selected: k === 10 }, String(k))));
    this.results = h("div", { class: "search-results", "aria-live": "polite" });
    const form = h("form", { class: "search-form", role: "search", "aria-label": "Memories", on: { submit: (event) => { event.preventDefault(); this.run(); } } },
      h("label", { for: "memory-query" }, "Search this viewer's memories"),
      h("div", { class: "search-row" }, this.query,
        h("label", { class: "inline" }, "Top ", this.limit),
        h("button", { type: "submit", class: "primary" }, "Search")));
    replaceChildren(element, form,
      h("p", { class: "muted explain" },
        "Each hit's score is the weighted mean of three parts, each scaled to 0–1 among the candidates: ",
        COMPONENTS.map(([name, , help], index) => [index ? "; " : "", h("strong", {}, name), ` — ${help}`]),
        ". Searching reinforces nothing."),
      this.results);
  }

  async load(scope) {
    if (this.scope && (this.scope.character !== scope.character || this.scope.viewer !== scope.viewer)) {
      replaceChildren(this.results);
      this.query.value = "";
    }
    this.scope = scope;
  }

  async run() {
    const query = this.query.value.trim();
    if (!query) return;
    replaceChildren(this.results, note("Searching…"));
    try {
      const result = await this.ctx.api.post(
        path`/v1/characters/${this.scope.character}/users/${this.scope.viewer}/search`,
        { query, k: Number(this.limit.value) },
      );
      this.render(query, result);
    } catch (error) {
      replaceChildren(this.results, note(`Search failed: ${error.message}`, "error"));
      this.ctx.alertError(error);
    }
  }

  render(query, { facts, episodes }) {
    const heading = h("h2", { tabindex: -1 }, `${plural(facts.length, "fact")} and ${plural(episodes.length, "episode")} for “${query}”`);
    replaceChildren(this.results,
      heading,
      h("section", { "aria-label": "Facts found" },
        h("h3", {}, "Facts"),
        facts.length ? h("ol", { class: "cards hits" }, facts.map((hit, index) => factHit(hit, index + 1))) : note("No fact is relevant enough.")),
      h("section", { "aria-label": "Episodes found" },
        h("h3", {}, "Episodes"),
        episodes.length ? h("ol", { class: "cards hits" }, episodes.map((hit, index) => episodeHit(hit, index + 1, this.scope))) : note("No episode is relevant enough.")));
    this.ctx.announce(`Found ${plural(facts.length, "fact")} and ${plural(episodes.length, "episode")}.`);
  }
}
