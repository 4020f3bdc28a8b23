// Status messages for everyone: shown on screen and read by screen readers
// (#status is aria-live polite, #alert is role=alert for failures).

const CLEAR_AFTER_MS = 8000;
let timer = null;

function region(id) {
  return document.getElementById(id);
}

function show(id, message, visible = true) {
  const element = region(id);
  if (!element) return;
  // Emptying first makes a repeated identical message be announced again.
  element.textContent = "";
  element.classList.remove("visible");
  requestAnimationFrame(() => {
    element.textContent = message;
    element.classList.toggle("visible", visible);
  });
  clearTimeout(timer);
  timer = setTimeout(() => {
    for (const name of ["status", "alert"]) {
      region(name)?.classList.remove("visible");
    }
  }, CLEAR_AFTER_MS);
}

/**
 * Tell the user something went right (polite). quiet: for screen readers only, when the
 * page already shows it (a chat reply).
 */
export function announce(message, { quiet = false } = {}) {
  region("alert").textContent = "";
  show("status", message, !quiet);
}

/** Tell the user something failed (assertive). */
export function alertError(error) {
  const message = error instanceof Error ? error.message : String(error);
  region("status").textContent = "";
  show("alert", message);
}
