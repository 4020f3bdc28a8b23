"""Correcting memories from the page, and seeing the correction in the API."""

from __future__ import annotations

import re

from tests.web.browsing import Site, open_viewer, screenshot
from tests.web.harness import skip_without_browser
from tests.web.seed import CHARACTER

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Page, expect  # noqa: E402

MINJUN = f"/v1/characters/{CHARACTER}/users/minjun"
OLD_TEXT = "streams with friends every Friday night"
NEW_TEXT = "streams with friends every Saturday night"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def test_correcting_a_fact_supersedes_the_old_version(page: Page, site: Site) -> None:
    old = next(fact for fact in site.get(f"{MINJUN}/facts") if fact["text"] == OLD_TEXT)
    open_viewer(page, site, CHARACTER, "minjun")
    card = page.locator(f'[data-fact-id="{old["fact_id"]}"]')
    card.get_by_role("button", name="Edit").click()
    dialog = page.get_by_role("dialog", name="Correct a fact")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Text")).to_have_value(OLD_TEXT)
    dialog.get_by_label("Text").fill(NEW_TEXT)
    screenshot(page, "correct-fact-dialog-1280")
    dialog.get_by_role("button", name="Save correction").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#status")).to_contain_text(f"is now “{NEW_TEXT}”")
    expect(page.locator(".fact-text").filter(has_text=NEW_TEXT)).to_be_visible()
    expect(page.locator(".fact-text").filter(has_text=OLD_TEXT)).to_have_count(0)

    current = site.get(f"{MINJUN}/facts")
    corrected = next(fact for fact in current if fact["text"] == NEW_TEXT)
    assert corrected["supersedes"] == old["fact_id"]
    assert corrected["category"] == old["category"]
    assert OLD_TEXT not in {fact["text"] for fact in current}
    history = {fact["fact_id"]: fact for fact in site.get(f"{MINJUN}/facts", include_inactive=True)}
    assert history[old["fact_id"]]["current"] is False
    assert history[old["fact_id"]]["superseded_at"] is not None

    page.get_by_label("Show superseded versions").check()
    superseded = page.locator(f'.fact.inactive[data-fact-id="{old["fact_id"]}"]')
    expect(superseded).to_contain_text("superseded")


def test_deleting_an_episode_removes_it_from_the_api(page: Page, site: Site) -> None:
    path = f"/v1/characters/{CHARACTER}/users/yuki/episodes"
    before = site.get(path)["episodes"]
    target = before[-1]
    open_viewer(page, site, CHARACTER, "yuki", "episodes")
    item = page.locator(f'[data-episode-id="{target["episode_id"]}"]')
    item.get_by_role("button", name="Delete episode").click()
    dialog = page.get_by_role("dialog", name="Delete this episode?")
    expect(dialog).to_contain_text(target["user_message"])
    dialog.get_by_role("button", name="Delete episode").click()
    expect(item).to_have_count(0)
    expect(page.locator("#status")).to_have_text("Episode deleted.")
    after = [episode["episode_id"] for episode in site.get(path)["episodes"]]
    assert target["episode_id"] not in after
    assert len(after) == len(before) - 1


def test_forgetting_a_viewer_says_what_goes_and_removes_them(page: Page, site: Site) -> None:
    viewer = "forget-me"
    export = site.get(f"/v1/characters/{CHARACTER}/users/{viewer}/export")
    counts = (
        f"{_plural(len(export['episodes']), 'episode')}, {_plural(len(export['facts']), 'fact')} "
        f"and {_plural(len(export['emotions']), 'emotion record')}"
    )
    open_viewer(page, site, CHARACTER, viewer)
    page.get_by_role("button", name="Forget viewer").click()
    dialog = page.get_by_role("dialog", name=f"Forget {viewer}?")
    expect(dialog.locator("#confirm-message")).to_have_text(
        f"Forget {viewer}? This removes {counts}."
    )
    screenshot(page, "forget-dialog-1280")
    dialog.get_by_role("button", name=f"Forget {viewer}").click()
    expect(page.locator(f'#viewer-list li[data-viewer="{viewer}"]')).to_have_count(0)
    expect(page.locator("#welcome-view")).to_be_visible()
    expect(page.locator("#status")).to_contain_text(f"Forgot {viewer}: removed {counts}.")

    users = site.get(f"/v1/characters/{CHARACTER}/users")["users"]
    assert viewer not in {user["user_id"] for user in users}
    gone = site.get(f"/v1/characters/{CHARACTER}/users/{viewer}/export")
    assert (gone["episodes"], gone["facts"], gone["emotions"]) == ([], [], [])
    page.reload()
    expect(page.locator("#viewer-list li[data-viewer]").first).to_be_visible()
    expect(page.locator(f'#viewer-list li[data-viewer="{viewer}"]')).to_have_count(0)


def test_adding_then_deleting_a_fact_from_the_page(page: Page, site: Site) -> None:
    open_viewer(page, site, CHARACTER, "yuki")
    page.get_by_role("button", name="Add a fact").click()
    dialog = page.get_by_role("dialog", name="Add a fact")
    dialog.get_by_label("Text").fill("plays the piano on weekends")
    dialog.get_by_label("Type").select_option("habit")
    dialog.get_by_role("button", name="Add fact").click()
    group = page.locator('.fact-group[data-category="habit"]')
    expect(group.locator(".fact-text")).to_contain_text(["plays the piano on weekends"])
    facts = site.get(f"/v1/characters/{CHARACTER}/users/yuki/facts")
    added = next(fact for fact in facts if fact["text"] == "plays the piano on weekends")
    assert (added["category"], added["trust"]) == ("habit", "confirmed")

    card = page.locator(f'[data-fact-id="{added["fact_id"]}"]')
    card.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog", name="Delete this fact?")
    expect(dialog).to_contain_text("plays the piano on weekends")
    dialog.get_by_role("button", name="Delete fact").click()
    expect(card).to_have_count(0)
    remaining = site.get(f"/v1/characters/{CHARACTER}/users/yuki/facts", include_inactive=True)
    assert added["fact_id"] not in {fact["fact_id"] for fact in remaining}


def test_a_key_flow_works_from_the_keyboard_alone(page: Page, site: Site) -> None:
    page.goto(f"{site.url}/#/{CHARACTER}")
    target = page.locator('#viewer-list li[data-viewer="minjun"] a')
    expect(target).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    for _ in range(30):
        if target.evaluate("link => link === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(target).to_be_focused()
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    expect(page.locator("#viewer-title")).to_be_focused()
    expect(page.locator("#viewer-title")).to_have_text("minjun")
    expect(page).to_have_url(re.compile(r"#/haru/viewers/minjun/facts$"))

    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Export data")).to_be_focused()
    page.keyboard.press("Tab")
    forget = page.get_by_role("button", name="Forget viewer")
    expect(forget).to_be_focused()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Forget minjun?")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(forget).to_be_focused()
    assert "minjun" in {
        user["user_id"] for user in site.get(f"/v1/characters/{CHARACTER}/users")["users"]
    }

    facts_tab = page.get_by_role("tab", name="Facts")
    for _ in range(10):
        if facts_tab.evaluate("tab => tab === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(facts_tab).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Profile")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowRight")
    episodes_tab = page.get_by_role("tab", name="Episodes")
    expect(episodes_tab).to_be_focused()
    expect(episodes_tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-episodes .episode").first).to_be_visible()
    page.keyboard.press("End")
    expect(page.get_by_role("tab", name="Chat")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Tab")
    expect(page.locator("#panel-chat")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Home")
    expect(facts_tab).to_be_focused()
    expect(facts_tab).to_have_attribute("aria-selected", "true")
