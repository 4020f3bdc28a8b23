// Times and numbers, as people read them. The API speaks ISO 8601 in UTC; the page shows
// local times, except calendar days of emotions, which the service counts in UTC.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const shortDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const UNITS = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

export function formatTime(iso) {
  if (!iso) return "—";
  return dateTime.format(new Date(iso));
}

/** "3 days ago" against now (or the given reference time). */
export function formatAgo(iso, reference = Date.now()) {
  if (!iso) return "never";
  const seconds = (new Date(iso).getTime() - reference) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** A calendar day given as YYYY-MM-DD (a UTC day). */
export function formatDay(day) {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

export function formatShortDay(day) {
  return shortDay.format(new Date(`${day}T00:00:00Z`));
}

/** The UTC calendar day (YYYY-MM-DD) of an ISO time. */
export function utcDay(iso) {
  return new Date(iso).toISOString().slice(0, 10);
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** "12 episodes, 4 facts and 30 emotion records" */
export function listPhrase(parts) {
  const kept = parts.filter(Boolean);
  if (kept.length <= 1) return kept.join("");
  return `${kept.slice(0, -1).join(", ")} and ${kept.at(-1)}`;
}

export function number(value, digits = 2) {
  return Number(value ?? 0).toFixed(digits);
}
