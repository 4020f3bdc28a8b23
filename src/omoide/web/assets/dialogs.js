// Modal dialogs (<dialog>): Tab stays inside, Escape cancels, and focus goes back to
// whatever was focused before the dialog opened.

import { byId, h, replaceChildren } from "./dom.js";

/** Show a dialog and resolve to the value of the button that closed it ("" on Escape). */
function run(dialog, prepare) {
  const opener = document.activeElement;
  dialog.returnValue = "";
  prepare?.();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(dialog.returnValue);
    }, { once: true });
    dialog.showModal();
  });
}

/**
 * Ask before something irreversible. details: lines listing what will go.
 * Resolves to true only when the user presses the confirm button.
 */
// Asks before a fact is deleted; the same words wherever a fact can be deleted.
export function confirmFactDeletion(fact, viewer) {
  return confirmAction({
    title: "Delete this fact?",
    message: `The character will no longer believe “${fact.text}” about ${viewer}.`,
    details: ["Only a tombstone without the text remains; the viewer saying it again will not teach it again."],
    confirmLabel: "Delete fact",
  });
}

export async function confirmAction({ title, message, details = [], confirmLabel }) {
  const dialog = byId("confirm-dialog");
  const value = await run(dialog, () => {
    byId("confirm-title").textContent = title;
    byId("confirm-message").textContent = message;
    const list = byId("confirm-details");
    replaceChildren(list, details.map((line) => h("li", {}, line)));
    list.hidden = details.length === 0;
    byId("confirm-accept").textContent = confirmLabel;
  });
  return value === "confirm";
}

/** Ask for an API key; resolves to the key, or null when cancelled. */
export async function askForKey(reason) {
  const dialog = byId("key-dialog");
  const input = byId("key-input");
  const value = await run(dialog, () => {
    byId("key-message").textContent = `${reason} It is kept in this browser tab only.`;
    input.value = "";
  });
  const key = input.value.trim();
  input.value = "";
  return value === "save" && key ? key : null;
}

const NUMBER_FIELDS = ["confidence", "salience"];

function readFactForm() {
  return {
    text: byId("fact-text").value.trim(),
    category: byId("fact-category").value,
    confidence: Number(byId("fact-confidence").value),
    salience: Number(byId("fact-salience").value),
  };
}

/**
 * Edit a fact (or write a new one when fact is null). Resolves to the fields that
 * changed ({} when nothing did), or null when cancelled.
 */
export async function editFact(fact, { title, help, saveLabel }) {
  const original = {
    text: fact?.text ?? "",
    category: fact?.category ?? "preference",
    confidence: fact?.confidence ?? 0.9,
    salience: fact?.salience ?? 0.6,
  };
  const value = await run(byId("fact-dialog"), () => {
    byId("fact-dialog-title").textContent = title;
    byId("fact-dialog-help").textContent = help;
    byId("fact-save").textContent = saveLabel;
    byId("fact-text").value = original.text;
    byId("fact-category").value = original.category;
    for (const name of NUMBER_FIELDS) byId(`fact-${name}`).value = String(original[name]);
  });
  if (value !== "save") return null;
  const edited = readFactForm();
  const changed = {};
  for (const [name, after] of Object.entries(edited)) {
    const before = original[name];
    const same = NUMBER_FIELDS.includes(name) ? Math.abs(after - before) < 1e-9 : after === before;
    if (!same || fact === null) changed[name] = after;
  }
  return changed;
}
