// Building elements safely: every piece of text becomes a text node (textContent),
// never markup: nothing in this page parses a string as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";
const FORBIDDEN_ATTRIBUTE = /^(on|style$|srcdoc$)/i;

function setAttributes(element, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (FORBIDDEN_ATTRIBUTE.test(name)) {
      throw new Error(`refusing to set attribute ${name}: use "on" for listeners`);
    }
    element.setAttribute(name, value === true ? "" : String(value));
  }
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function build(element, props, children) {
  const { class: className, text, on, dataset, ...attrs } = props ?? {};
  if (className) element.setAttribute("class", Array.isArray(className) ? className.filter(Boolean).join(" ") : className);
  if (text !== undefined && text !== null) element.textContent = String(text);
  for (const [event, listener] of Object.entries(on ?? {})) element.addEventListener(event, listener);
  for (const [key, value] of Object.entries(dataset ?? {})) element.dataset[key] = String(value);
  setAttributes(element, attrs);
  append(element, children);
  return element;
}

/** An HTML element: h("p", {class: "x"}, "text", child...). Strings become text nodes. */
export function h(tag, props, ...children) {
  return build(document.createElement(tag), props, children);
}

/** An SVG element, built the same way. */
export function svg(tag, props, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

/** Replace an element's children. */
export function replaceChildren(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** A labelled bar (0..1) with its number: meter for values, also readable as text. */
export function meter(label, value, { digits = 2, className = "" } = {}) {
  const clamped = Math.max(0, Math.min(1, Number(value) || 0));
  return h("span", { class: ["meter", className] },
    h("span", { class: "meter-label" }, label),
    h("meter", { min: 0, max: 1, value: clamped, "aria-label": label }),
    h("span", { class: "meter-value" }, clamped.toFixed(digits)),
  );
}

/** A small label, e.g. an emotion or a fact's trust state. */
export function badge(text, kind = "") {
  return h("span", { class: ["badge", kind && `badge-${kind}`] }, text);
}

/** A paragraph for an empty list or a failed load. */
export function note(text, kind = "") {
  return h("p", { class: ["note", kind && `note-${kind}`] }, text);
}
