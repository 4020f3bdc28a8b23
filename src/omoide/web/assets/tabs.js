// Tabs as the ARIA authoring practices describe them: one Tab stop for the tab list,
// arrow keys (and Home/End) move between tabs and open them, the panel follows.

const KEY_STEPS = { ArrowRight: 1, ArrowDown: 0, ArrowLeft: -1, ArrowUp: 0 };

export class Tabs {
  /** container: an element holding [role=tab] buttons; onSelect(name) when one is chosen. */
  constructor(container, onSelect) {
    this.tabs = [...container.querySelectorAll('[role="tab"]')];
    this.onSelect = onSelect;
    for (const tab of this.tabs) {
      tab.addEventListener("click", () => this.onSelect(tab.dataset.tab));
      tab.addEventListener("keydown", (event) => this.keydown(event, tab));
    }
  }

  get names() {
    return this.tabs.map((tab) => tab.dataset.tab);
  }

  keydown(event, tab) {
    const index = this.tabs.indexOf(tab);
    let next = null;
    if (event.key === "Home") next = 0;
    else if (event.key === "End") next = this.tabs.length - 1;
    else if (KEY_STEPS[event.key]) next = (index + KEY_STEPS[event.key] + this.tabs.length) % this.tabs.length;
    if (next === null) return;
    event.preventDefault();
    this.tabs[next].focus();
    this.onSelect(this.tabs[next].dataset.tab);
  }

  /** Show the named tab's panel; returns the panel. */
  select(name) {
    let shown = null;
    for (const tab of this.tabs) {
      const selected = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute("aria-controls"));
      panel.hidden = !selected;
      if (selected) shown = panel;
    }
    return shown;
  }
}
