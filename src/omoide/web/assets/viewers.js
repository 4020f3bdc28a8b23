// The sidebar's viewer list: search by id or name, counts, last seen, most recent first.
// A viewer shows by the name they went by last, with the id small beside it.
// Each viewer is a link (#/character/viewers/id/tab), so Tab reaches it and Enter opens it.

import { path } from "./api.js";
import { byId, h, replaceChildren } from "./dom.js";
import { formatAgo, formatTime, plural } from "./format.js";

const PAGE = 50;
const SEARCH_DELAY_MS = 250;

export function viewerHash(character, viewer, tab = "facts") {
  return `#/${encodeURIComponent(character)}/viewers/${encodeURIComponent(viewer)}/${tab}`;
}

export class ViewerList {
  constructor({ api, onError }) {
    this.api = api;
    this.onError = onError;
    this.list = byId("viewer-list");
    this.count = byId("viewer-count");
    this.more = byId("viewer-more");
    this.query = byId("viewer-query");
    this.character = null;
    this.selected = null;
    this.viewers = [];
    this.exhausted = true;
    this.total = 0;
    this.everyone = null; // how many viewers the character remembers (unfiltered)
    this.generation = 0;
    let timer = null;
    this.query.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.reload(), SEARCH_DELAY_MS);
    });
    byId("viewer-search").addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      this.reload();
    });
    this.more.addEventListener("click", () => this.loadPage());
  }

  /** The loaded entry for a viewer id, if the list holds it. */
  find(viewer) {
    return this.viewers.find((entry) => entry.user_id === viewer) ?? null;
  }

  async show(character) {
    if (character === this.character) return;
    this.character = character;
    this.everyone = null;
    this.query.value = "";
    await this.reload();
  }

  async reload() {
    this.generation += 1;
    this.viewers = [];
    this.exhausted = false;
    replaceChildren(this.list);
    await this.loadPage();
  }

  async loadPage() {
    const generation = this.generation;
    const search = this.query.value.trim();
    try {
      const page = await this.api.get(path`/v1/characters/${this.character}/users`, {
        search, limit: PAGE, offset: this.viewers.length,
      });
      if (generation !== this.generation) return;
      this.viewers.push(...page.users);
      this.total = page.total;
      if (!search) this.everyone = page.total;
      this.exhausted = this.viewers.length >= page.total || page.users.length < PAGE;
      this.list.append(...page.users.map((viewer) => this.item(viewer)));
      this.renderCount(search);
    } catch (error) {
      if (generation === this.generation) this.onError(error);
    }
  }

  renderCount(search) {
    const total = plural(this.total, "viewer");
    const loaded = this.exhausted ? "" : ` (${this.viewers.length} shown)`;
    this.count.textContent = search ? `${total} matching “${search}”${loaded}` : `${total}${loaded}`;
    this.more.hidden = this.exhausted;
    if (this.viewers.length === 0) {
      this.list.append(h("li", { class: "muted empty" }, search ? "No viewer matches." : "No viewers remembered yet."));
    }
  }

  item(viewer) {
    const current = viewer.user_id === this.selected;
    return h("li", { dataset: { viewer: viewer.user_id } },
      h("a", {
        class: "viewer-link",
        href: viewerHash(this.character, viewer.user_id),
        "aria-current": current ? "page" : false,
      },
      h("span", { class: "viewer-name" }, viewer.display_name ?? viewer.user_id),
      viewer.display_name ? h("span", { class: "viewer-id" }, viewer.user_id) : null,
      h("span", { class: "viewer-counts" },
        `${plural(viewer.episode_count, "episode")} · ${plural(viewer.fact_count, "fact")}`),
      h("span", { class: "viewer-seen" }, "last seen ",
        h("time", { datetime: viewer.last_seen_at ?? "", title: formatTime(viewer.last_seen_at) },
          formatAgo(viewer.last_seen_at)))));
  }

  /** Mark the open viewer (aria-current) without reloading. */
  select(viewer) {
    this.selected = viewer;
    for (const link of this.list.querySelectorAll(".viewer-link")) {
      const isCurrent = link.parentElement.dataset.viewer === viewer;
      if (isCurrent) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  /** A viewer was forgotten: drop them from the list at once. */
  remove(viewer) {
    const before = this.viewers.length;
    this.viewers = this.viewers.filter((entry) => entry.user_id !== viewer);
    const removed = before - this.viewers.length;
    this.total = Math.max(0, this.total - removed);
    if (this.everyone !== null) this.everyone = Math.max(0, this.everyone - removed);
    for (const item of this.list.querySelectorAll("li[data-viewer]")) {
      if (item.dataset.viewer === viewer) item.remove();
    }
    this.renderCount(this.query.value.trim());
  }
}
