"""The character itself: its diary, and approving, comparing and rolling back its identity."""

from __future__ import annotations

from tests.web.browsing import Site, screenshot, wait_until
from tests.web.harness import NEW_LIKES, NOW, skip_without_browser
from tests.web.seed import CHARACTER, run_stream

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Page, expect  # noqa: E402

IDENTITY = f"/v1/characters/{CHARACTER}/identity"


def test_diary_lists_every_entry_newest_first(page: Page, site: Site) -> None:
    entries = site.get(f"/v1/characters/{CHARACTER}/diary")["entries"]
    assert len(entries) >= 2
    page.goto(f"{site.url}/#/{CHARACTER}/character/diary")
    shown = page.locator(".diary-entry")
    expect(shown).to_have_count(len(entries))
    for position, entry in enumerate(entries):
        card = shown.nth(position)
        expect(card).to_have_attribute("data-entry-id", entry["id"])
        expect(card.locator(".diary-text")).to_have_text(entry["text"])
        expect(card).to_contain_text(entry["stream_id"])
        expect(card).to_contain_text(f"{entry['comment_count']} comments")
    screenshot(page, "diary-1280")


def test_approve_compare_and_roll_back_the_identity(page: Page, site: Site) -> None:
    pending = site.get(f"{IDENTITY}/pending")["changes"]
    assert len(pending) == 1
    before = site.get(f"{IDENTITY}/versions")
    current = before["current_version"]
    page.goto(f"{site.url}/#/{CHARACTER}/character/identity")

    card = page.locator(f'.pending-change[data-change-id="{pending[0]["id"]}"]')
    expect(card.locator(".diff-table th[scope=row]")).to_have_text(["likes"])
    expect(card.locator(".diff-after ins")).to_have_text([NEW_LIKES[1]])
    expect(card.locator(".refused")).to_contain_text("name")
    screenshot(page, "identity-pending-1280")
    card.get_by_role("button", name="Approve").click()
    page.get_by_role("dialog", name="Approve this change?").get_by_role(
        "button", name="Approve change"
    ).click()
    expect(page.locator("#status")).to_contain_text(f"version {current + 1}")
    approved = site.get(f"{IDENTITY}/versions/{current + 1}")
    assert NEW_LIKES[1] in approved["profile"]["likes"]
    assert site.get(f"{IDENTITY}/pending")["changes"] == []
    expect(page.locator(".pending-change")).to_have_count(0)

    page.locator("#compare-left").select_option(str(current))
    page.locator("#compare-right").select_option(str(current + 1))
    page.get_by_role("button", name="Compare").click()
    expect(page.locator(".compare-result .diff-after ins")).to_have_text([NEW_LIKES[1]])

    version = page.locator(f'.version[data-version="{current}"]')
    version.get_by_role("button", name=f"Roll back to version {current}").click()
    dialog = page.get_by_role("dialog", name=f"Roll back to version {current}?")
    expect(dialog.locator("#confirm-details")).to_contain_text("likes changes back")
    dialog.get_by_role("button", name=f"Roll back to version {current}").click()
    expect(page.locator("#status")).to_contain_text(
        f"version {current + 2} holds version {current}"
    )
    after = site.get(f"{IDENTITY}/versions")
    assert after["current_version"] == current + 2
    restored = site.get(f"{IDENTITY}/versions/{current + 2}")["profile"]
    assert restored == site.get(f"{IDENTITY}/versions/{current}")["profile"]
    expect(page.locator(f'.version[data-version="{current + 2}"]')).to_contain_text("current")
    screenshot(page, "identity-versions-1280")


def test_rejecting_a_proposed_change_leaves_the_profile_alone(page: Page, site: Site) -> None:
    versions = site.get(f"{IDENTITY}/versions")
    known = {change["id"] for change in site.get(f"{IDENTITY}/pending")["changes"]}
    run_stream(site.client, "stream-3", NOW)
    wait_until(lambda: len(site.get(f"{IDENTITY}/pending")["changes"]) > len(known))
    pending = site.get(f"{IDENTITY}/pending")["changes"]
    change = next(change for change in pending if change["id"] not in known)
    page.goto(f"{site.url}/#/{CHARACTER}/character/identity")
    card = page.locator(f'.pending-change[data-change-id="{change["id"]}"]')
    card.get_by_role("button", name="Reject").click()
    page.get_by_role("dialog", name="Reject this change?").get_by_role(
        "button", name="Reject change"
    ).click()
    expect(page.locator("#status")).to_have_text("Change rejected.")
    expect(card).to_have_count(0)
    left = {change["id"] for change in site.get(f"{IDENTITY}/pending")["changes"]}
    assert left == known
    assert site.get(f"{IDENTITY}/versions") == versions
