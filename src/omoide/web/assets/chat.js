// Talk to the character through POST /v1/chat/stream (server-sent events read from the
// response body) and see which memories were put in the prompt for each reply.

import { path } from "./api.js";
import { emotionBadge } from "./chart.js";
import { badge, h, note, replaceChildren } from "./dom.js";
import { findEpisodes } from "./episodes.js";
import { number, plural } from "./format.js";

const DEFAULT_SPEAKER = "web-console";
let panels = 0;

function newSessionId() {
  const random = crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
  return `web-${random.slice(0, 13)}`;
}

async function resolveMemories(api, scope, factIds, episodeIds) {
  let facts = [];
  if (factIds.length) {
    const all = await api.get(path`/v1/characters/${scope.character}/users/${scope.viewer}/facts`, { include_inactive: true });
    const byId = new Map(all.map((fact) => [fact.fact_id, fact]));
    facts = factIds.map((id) => byId.get(id) ?? { fact_id: id, text: "(no longer stored)", category: "?" });
  }
  const episodes = episodeIds.length ? (await findEpisodes(api, scope, episodeIds)).episodes : [];
  return { facts, episodes };
}

export class ChatPanel {
  constructor(element, ctx) {
    panels += 1;
    const id = (name) => `chat${panels}-${name}`;
    this.element = element;
    this.ctx = ctx;
    this.sessionId = newSessionId();
    this.controller = null;
    this.userId = h("input", { id: id("user"), required: true, maxlength: 256, autocomplete: "off" });
    this.userName = h("input", { id: id("name"), required: true, maxlength: 256, autocomplete: "off" });
    this.message = h("textarea", {
      id: id("message"), rows: 2, required: true, maxlength: 2000, placeholder: "Say something… (Enter sends, Shift+Enter for a new line)",
      on: { keydown: (event) => this.keydown(event) },
    });
    this.send = h("button", { type: "submit", class: "primary" }, "Send");
    this.stop = h("button", { type: "button", hidden: true, on: { click: () => this.controller?.abort() } }, "Stop");
    // Replies are announced once complete (see done), not token by token.
    this.log = h("ol", {});
    this.scroller = h("div", { class: "chat-log", role: "log", "aria-live": "off", "aria-label": "Conversation" }, this.log);
    this.form = h("form", { class: "chat-form", on: { submit: (event) => { event.preventDefault(); this.submit(); } } },
      h("div", { class: "field-row" },
        h("label", { for: id("user") }, "Talk as viewer id", this.userId),
        h("label", { for: id("name") }, "Name", this.userName)),
      h("label", { for: id("message") }, "Message"),
      this.message,
      h("div", { class: "chat-actions" }, this.send, this.stop));
    replaceChildren(element,
      h("p", { class: "muted" }, "Replies stream from the character's model. The exchange is remembered for the viewer you talk as."),
      this.scroller, this.form);
  }

  /** scope.viewer (if any) is who the panel talks as, until the user changes it. */
  async load(scope) {
    this.character = scope.character;
    const viewer = scope.viewer ?? DEFAULT_SPEAKER;
    if (viewer !== this.lastDefault) {
      this.lastDefault = viewer;
      this.userId.value = viewer;
      this.userName.value = viewer;
    }
  }

  keydown(event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.form.requestSubmit();
    }
  }

  async submit() {
    const text = this.message.value.trim();
    if (!text || this.controller) return;
    const scope = { character: this.character, viewer: this.userId.value.trim() };
    this.message.value = "";
    this.log.append(h("li", { class: "chat-message from-viewer" }, h("span", { class: "speaker" }, this.userName.value), h("p", {}, text)));
    const reply = h("p", { class: "reply-text" });
    const footer = h("div", { class: "chat-meta" });
    this.log.append(h("li", { class: "chat-message from-character", "aria-busy": "true" },
      h("span", { class: "speaker" }, scope.character), reply, footer));
    this.controller = new AbortController();
    this.setBusy(true);
    try {
      await this.ctx.api.stream("/v1/chat/stream", {
        character_id: scope.character, user_id: scope.viewer, user_name: this.userName.value.trim(),
        session_id: this.sessionId, message: text,
      }, (event) => this.onEvent(event, scope, reply, footer), { signal: this.controller.signal });
    } catch (error) {
      footer.append(note(error.name === "AbortError" ? "Stopped." : `The reply failed: ${error.message}`, "error"));
      if (error.name !== "AbortError") this.ctx.alertError(error);
    } finally {
      reply.parentElement.removeAttribute("aria-busy");
      this.controller = null;
      this.setBusy(false);
      this.message.focus();
    }
  }

  setBusy(busy) {
    this.send.disabled = busy;
    this.stop.hidden = !busy;
  }

  onEvent(event, scope, reply, footer) {
    if (event.type === "token") {
      reply.append(event.content);
      this.scroller.scrollTop = this.scroller.scrollHeight;
    } else if (event.type === "done") {
      this.done(event, scope, reply, footer);
    } else if (event.type === "error") {
      footer.append(note(`${event.message}${event.retryable ? " (you can try again)" : ""}`, "error"));
      this.ctx.alertError(event.message);
    }
  }

  done(event, scope, reply, footer) {
    footer.append(
      emotionBadge(event.emotion),
      h("span", { class: "muted" }, ` intimacy ${number(event.intimacy_level)} · ${plural(event.memories_used, "memory", "memories")} used`));
    this.ctx.announce(`${scope.character}: ${reply.textContent}`, { quiet: true });
    this.ctx.changed("chat", scope.viewer);
    if (event.fact_ids.length + event.episode_ids.length === 0) return;
    const list = h("ul", { class: "memories-used" }, h("li", {}, "Loading…"));
    footer.append(h("details", { class: "used", open: true },
      h("summary", {}, `Memories used (${event.fact_ids.length + event.episode_ids.length})`), list));
    resolveMemories(this.ctx.api, scope, event.fact_ids, event.episode_ids).then(({ facts, episodes }) => {
      replaceChildren(list,
        facts.map((fact) => h("li", { dataset: { factId: fact.fact_id } }, badge("fact", "topic"), " ", fact.text)),
        episodes.map((episode) => h("li", { dataset: { episodeId: episode.episode_id } }, badge("episode", "quiet"), " ", episode.user_message)));
    }, (error) => replaceChildren(list, h("li", {}, `Could not load them: ${error.message}`)));
  }
}
