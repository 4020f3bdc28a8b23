// The memory browser: routes (#/character, #/character/viewers/id/tab,
// #/character/character/tab), the character switcher, the sidebar drawer on phones.

import { Api, saveKey, storedKey } from "./api.js";
import { CharacterView } from "./character.js";
import { askForKey } from "./dialogs.js";
import { byId, h, replaceChildren } from "./dom.js";
import { plural } from "./format.js";
import { alertError, announce } from "./status.js";
import { ViewerView } from "./viewer.js";
import { ViewerList, viewerHash } from "./viewers.js";

const PHONE = window.matchMedia("(max-width: 760px)");

function characterHash(character, tab = "diary") {
  return `#/${encodeURIComponent(character)}/character/${tab}`;
}

/** {character, section: "home" | "viewer" | "character", viewer, tab} from location.hash. */
function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const [character, section, ...rest] = parts;
  if (section === "viewers" && rest.length >= 1) return { character, section: "viewer", viewer: rest[0], tab: rest[1] };
  if (section === "character") return { character, section: "character", tab: rest[0] };
  return { character, section: "home" };
}

class Drawer {
  constructor() {
    this.sidebar = byId("sidebar");
    this.toggle = byId("drawer-toggle");
    this.backdrop = byId("drawer-backdrop");
    this.toggle.addEventListener("click", () => (this.isOpen ? this.close() : this.open()));
    this.backdrop.addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.isOpen && !document.querySelector("dialog[open]")) {
        event.preventDefault();
        this.close();
      }
    });
    PHONE.addEventListener("change", () => this.close({ focus: false }));
    this.close({ focus: false });
  }

  get isOpen() {
    return document.body.classList.contains("drawer-open");
  }

  /** On phones the drawer covers the page: what is behind it cannot be reached. */
  open() {
    document.body.classList.add("drawer-open");
    this.toggle.setAttribute("aria-expanded", "true");
    this.sidebar.inert = false;
    byId("main").inert = true;
    this.backdrop.hidden = false;
    byId("viewer-query").focus();
  }

  close({ focus = true } = {}) {
    const wasOpen = this.isOpen;
    document.body.classList.remove("drawer-open");
    this.toggle.setAttribute("aria-expanded", "false");
    this.sidebar.inert = PHONE.matches;
    byId("main").inert = false;
    this.backdrop.hidden = true;
    if (focus && wasOpen) this.toggle.focus();
  }
}

class App {
  constructor() {
    this.api = new Api({ askKey: askForKey });
    this.select = byId("character-select");
    this.characters = [];
    this.drawer = new Drawer();
    const ctx = {
      api: this.api,
      announce,
      alertError,
      navigate: (hash) => this.navigate(hash),
      hash: (scope, tab) => viewerHash(scope.character, scope.viewer, tab),
      characterHash,
    };
    this.viewers = new ViewerList({ api: this.api, onError: alertError });
    ctx.viewers = this.viewers;
    this.viewerView = new ViewerView(ctx);
    this.characterView = new CharacterView(ctx);
    this.select.addEventListener("change", () => this.navigate(`#/${encodeURIComponent(this.select.value)}`));
    byId("key-button").addEventListener("click", () => this.changeKey());
    window.addEventListener("hashchange", () => this.route());
  }

  navigate(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  async start() {
    try {
      const { characters } = await this.api.get("/v1/characters");
      this.characters = characters;
    } catch (error) {
      alertError(error);
      byId("welcome-summary").textContent = `Could not load the characters: ${error.message} Reload the page to try again.`;
      return;
    }
    replaceChildren(this.select, this.characters.map((id) => h("option", { value: id }, id)));
    this.updateKeyButton();
    if (this.characters.length === 0) {
      byId("welcome-summary").textContent = "This key may not use any character.";
      return;
    }
    await this.route();
  }

  /** Show what the hash names; unknown parts fall back to sensible defaults. */
  async route() {
    // A new place was chosen (a viewer, the character): the drawer has done its job.
    if (this.routedHash !== undefined && this.routedHash !== location.hash) this.drawer.close({ focus: false });
    this.routedHash = location.hash;
    const route = parseRoute(location.hash);
    const character = this.characters.includes(route.character) ? route.character : this.characters[0];
    if (character !== route.character) {
      history.replaceState(null, "", `#/${encodeURIComponent(character)}`);
    }
    this.select.value = character;
    byId("character-link").href = characterHash(character);
    await this.viewers.show(character);
    this.viewers.select(route.section === "viewer" ? route.viewer : null);
    byId("character-link").toggleAttribute("aria-current", route.section === "character");
    if (route.section === "viewer") await this.showViewer(character, route);
    else if (route.section === "character") await this.showCharacter(character, route);
    else this.showHome(character);
  }

  showSection(id) {
    for (const view of ["welcome-view", "viewer-view", "character-view"]) byId(view).hidden = view !== id;
  }

  async showViewer(character, route) {
    const tab = this.viewerView.tabNames.includes(route.tab) ? route.tab : "facts";
    this.showSection("viewer-view");
    document.title = `${route.viewer} · ${character} · omoide`;
    const scope = { character, viewer: route.viewer };
    const isNew = !this.viewerView.isShowing(scope);
    const loading = this.viewerView.show(scope, tab);
    if (isNew) byId("viewer-title").focus(); // at once, not after the data arrives
    await loading;
  }

  async showCharacter(character, route) {
    const tab = this.characterView.tabNames.includes(route.tab) ? route.tab : "diary";
    this.showSection("character-view");
    document.title = `${character} · character · omoide`;
    const isNew = this.characterView.character !== character;
    const loading = this.characterView.show(character, tab);
    if (isNew) byId("character-title").focus();
    await loading;
  }

  showHome(character) {
    this.showSection("welcome-view");
    document.title = `${character} · omoide`;
    const count = this.viewers.everyone ?? this.viewers.total;
    byId("welcome-summary").textContent = count
      ? `${character} remembers ${plural(count, "viewer")}.`
      : `${character} remembers no viewer yet.`;
  }

  updateKeyButton() {
    byId("key-button").textContent = storedKey() ? "Change API key" : "API key";
  }

  async changeKey() {
    const key = await askForKey("Enter the API key to use.");
    if (!key) return;
    saveKey(key);
    this.updateKeyButton();
    location.reload();
  }
}

const app = new App();
app.start().then(() => app.updateKeyButton());
