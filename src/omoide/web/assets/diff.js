// Side-by-side diffs of profile fields: text fields word by word (Chinese and Japanese
// character by character), list fields item by item.

import { h } from "./dom.js";

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_'’-]+|\s+|[^\s]/gu;
const MAX_TABLE_CELLS = 400_000;

export function tokens(text) {
  return text.match(TOKEN) ?? [];
}

/** The longest common subsequence of two token lists, as [kind, token] steps. */
function lcsSteps(before, after) {
  const rows = before.length + 1;
  const columns = after.length + 1;
  const table = new Uint32Array(rows * columns);
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      table[i * columns + j] = before[i] === after[j]
        ? table[(i + 1) * columns + j + 1] + 1
        : Math.max(table[(i + 1) * columns + j], table[i * columns + j + 1]);
    }
  }
  const steps = [];
  let i = 0;
  let j = 0;
  while (i < before.length && j < after.length) {
    if (before[i] === after[j]) {
      steps.push(["same", before[i]]);
      i += 1;
      j += 1;
    } else if (table[(i + 1) * columns + j] >= table[i * columns + j + 1]) {
      steps.push(["removed", before[i]]);
      i += 1;
    } else {
      steps.push(["added", after[j]]);
      j += 1;
    }
  }
  for (; i < before.length; i += 1) steps.push(["removed", before[i]]);
  for (; j < after.length; j += 1) steps.push(["added", after[j]]);
  return steps;
}

/** Runs of {kind: "same" | "removed" | "added", text}; whole blocks when too long to align. */
export function textDiff(before, after) {
  const left = tokens(before ?? "");
  const right = tokens(after ?? "");
  let steps;
  if ((left.length + 1) * (right.length + 1) > MAX_TABLE_CELLS) {
    steps = [...left.map((token) => ["removed", token]), ...right.map((token) => ["added", token])];
  } else {
    steps = lcsSteps(left, right);
  }
  const runs = [];
  for (const [kind, token] of steps) {
    const last = runs.at(-1);
    if (last && last.kind === kind) last.text += token;
    else runs.push({ kind, text: token });
  }
  return runs;
}

/** Items of both lists, each marked kept, removed (only before) or added (only after). */
export function listDiff(before, after) {
  const remaining = new Map();
  for (const item of after) remaining.set(item, (remaining.get(item) ?? 0) + 1);
  const left = before.map((item) => {
    const count = remaining.get(item) ?? 0;
    if (count > 0) {
      remaining.set(item, count - 1);
      return { kind: "same", text: item };
    }
    return { kind: "removed", text: item };
  });
  const kept = new Map();
  for (const item of before) kept.set(item, (kept.get(item) ?? 0) + 1);
  const right = after.map((item) => {
    const count = kept.get(item) ?? 0;
    if (count > 0) {
      kept.set(item, count - 1);
      return { kind: "same", text: item };
    }
    return { kind: "added", text: item };
  });
  return { left, right };
}

/** Fields whose values differ between two profiles, as {field, before, after}. */
export function profileChanges(before, after) {
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return names
    .filter((name) => JSON.stringify(before?.[name] ?? null) !== JSON.stringify(after?.[name] ?? null))
    .map((name) => ({ field: name, before: before?.[name] ?? null, after: after?.[name] ?? null }));
}

function runElement(run) {
  if (run.kind === "removed") return h("del", {}, run.text);
  if (run.kind === "added") return h("ins", {}, run.text);
  return run.text;
}

function emptyValue() {
  return h("span", { class: "muted" }, "(empty)");
}

function listCells(before, after) {
  const { left, right } = listDiff(before ?? [], after ?? []);
  const items = (entries, side) => (entries.length === 0
    ? emptyValue()
    : h("ul", { class: "diff-list" }, entries.map((entry) => h("li", { class: `diff-${entry.kind}` },
      entry.kind === "same" ? entry.text : h(side === "before" ? "del" : "ins", {}, entry.text)))));
  return [items(left, "before"), items(right, "after")];
}

function textCells(before, after) {
  if (!before && !after) return [emptyValue(), emptyValue()];
  const runs = textDiff(before ?? "", after ?? "");
  const left = runs.filter((run) => run.kind !== "added").map(runElement);
  const right = runs.filter((run) => run.kind !== "removed").map(runElement);
  return [before ? h("p", { class: "diff-text" }, left) : emptyValue(),
    after ? h("p", { class: "diff-text" }, right) : emptyValue()];
}

/** A table with one row per changed field: the field, its value before, its value after. */
export function diffTable(changes, { caption } = {}) {
  const rows = changes.map(({ field, before, after }) => {
    const isList = Array.isArray(before) || Array.isArray(after);
    const [left, right] = isList ? listCells(before, after) : textCells(before, after);
    return h("tr", {},
      h("th", { scope: "row" }, field),
      h("td", { class: "diff-before" }, left),
      h("td", { class: "diff-after" }, right));
  });
  return h("table", { class: "diff-table" },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Field"),
      h("th", { scope: "col" }, "Before"),
      h("th", { scope: "col" }, "After"))),
    h("tbody", {}, rows));
}
