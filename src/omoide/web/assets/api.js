// The REST API of this service, with its API key. On 401 the page asks for a key
// (kept in sessionStorage for this tab) and tries again; 403 means the key may not use
// the character. Error bodies are {"error": {"type", "message", "details"}}.

const KEY_STORAGE = "omoide.apiKey";

export class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
  }
}

export function storedKey() {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY_STORAGE);
}

/** Use this key from now on (in this tab). */
export function saveKey(key) {
  sessionStorage.setItem(KEY_STORAGE, key);
}

async function errorFrom(response) {
  let type = "HTTPError";
  let message = `${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body?.error?.message) {
      type = body.error.type ?? type;
      message = body.error.message;
    } else if (typeof body?.detail === "string") {
      message = body.detail;
    }
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, type, message);
}

/** Path segments are encoded: viewer ids like "twitch:민준" stay one segment. */
export function path(strings, ...values) {
  return strings.reduce((text, part, index) => {
    const value = index < values.length ? encodeURIComponent(values[index]) : "";
    return text + part + value;
  }, "");
}

export class Api {
  /** askKey(reason) resolves to a key, or null when the user cancels. */
  constructor({ askKey }) {
    this.askKey = askKey;
    this.pendingKey = null;
  }

  url(relative, query) {
    const url = new URL(relative.replace(/^\//, ""), document.baseURI);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
    }
    return url;
  }

  headers(body) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const key = storedKey();
    if (key) headers.Authorization = `Bearer ${key}`;
    return headers;
  }

  /** fetch with the key; asks for a (new) key on 401 until one works or the user cancels. */
  async send(method, relative, { body, query, signal, accept } = {}) {
    let reason = storedKey() ? "The saved key was refused." : "This service asks for an API key.";
    for (;;) {
      const headers = this.headers(body);
      if (accept) headers.Accept = accept;
      const response = await fetch(this.url(relative, query), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        credentials: "same-origin",
        cache: "no-store",
      });
      if (response.status !== 401) return response;
      forgetKey();
      const key = await this.requestKey(reason);
      if (!key) throw await errorFrom(response);
      reason = "That key was refused. Check it and try again.";
    }
  }

  /** One key prompt at a time, shared by requests that fail together. */
  requestKey(reason) {
    if (!this.pendingKey) {
      this.pendingKey = Promise.resolve(this.askKey(reason)).then((key) => {
        this.pendingKey = null;
        if (key) saveKey(key);
        return key;
      });
    }
    return this.pendingKey;
  }

  async json(method, relative, options = {}) {
    const response = await this.send(method, relative, options);
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) return null;
    return response.json();
  }

  get(relative, query, options = {}) {
    return this.json("GET", relative, { ...options, query });
  }

  post(relative, body, options = {}) {
    return this.json("POST", relative, { ...options, body });
  }

  patch(relative, body) {
    return this.json("PATCH", relative, { body });
  }

  delete(relative) {
    return this.json("DELETE", relative);
  }

  /**
   * POST a body and read the server-sent events of the answer: onEvent gets each
   * decoded `data:` JSON object as it arrives. EventSource cannot POST, so this reads
   * the response body stream itself.
   */
  async stream(relative, body, onEvent, { signal } = {}) {
    const response = await this.send("POST", relative, { body, signal, accept: "text/event-stream" });
    if (!response.ok) throw await errorFrom(response);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventParser(onEvent);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.finish();
  }
}

/** Splits a text/event-stream into events; joins multi-line data fields with "\n". */
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = "";
    this.data = [];
  }

  push(chunk) {
    this.buffer += chunk;
    // A "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
    const lines = this.buffer.split(/\r\n|\n|\r(?!$)/);
    this.buffer = lines.pop();
    for (const line of lines) this.line(line);
  }

  line(line) {
    if (line === "") {
      this.dispatch();
    } else if (line.startsWith("data:")) {
      this.data.push(line.slice(5).replace(/^ /, ""));
    }
    // comments (":") and other fields (event, id, retry) carry nothing for us
  }

  dispatch() {
    if (this.data.length === 0) return;
    const text = this.data.join("\n");
    this.data = [];
    this.onEvent(JSON.parse(text));
  }

  finish() {
    if (this.buffer) this.line(this.buffer);
    this.buffer = "";
    this.dispatch();
  }
}
