"""The profile tab: the viewer's own words in groups, and a deletion that shows at once."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import Site, open_viewer, screenshot
from tests.web.harness import skip_without_browser
from tests.web.seed import CHARACTER

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Page, expect  # noqa: E402

VIEWER = "프로필-민지"
PROFILE = f"/v1/characters/{CHARACTER}/users/{VIEWER}/profile"
DOG = "우리 집 강아지 이름은 보리예요. 산책을 정말 좋아해요"
FACTS = (
    (DOG, "personal", 0.8),
    ("땅콩 알레르기가 있어서 땅콩이 들어간 건 못 먹어요", "personal", 0.9),
    ("매운 라면을 좋아해요", "preference", 0.6),
    ("来週上海に引っ越すので荷造り中です", "goal", 0.7),
    ("我每天早上六点起床跑步", "habit", 0.5),
)


def add_fact(site: Site, text: str, category: str, salience: float) -> dict[str, Any]:
    response = site.client.post(
        f"/v1/characters/{CHARACTER}/users/{VIEWER}/facts",
        json={"text": text, "category": category, "salience": salience},
    )
    response.raise_for_status()
    fact: dict[str, Any] = response.json()
    return fact


def test_the_profile_shows_a_korean_fact_and_a_deletion_at_once(page: Page, site: Site) -> None:
    dog = add_fact(site, *FACTS[0])["fact_id"]
    for text, category, salience in FACTS[1:]:
        add_fact(site, text, category, salience)
    open_viewer(page, site, CHARACTER, VIEWER, "profile")
    people = page.locator('.profile-group[data-facet="people"]')  # typed by the rules
    expect(people.locator("h2")).to_contain_text("People & pets")
    health = page.locator('.profile-group[data-facet="health"]')
    expect(health).to_contain_text("땅콩 알레르기")
    item = people.locator(f'[data-fact-id="{dog}"]')
    expect(item.locator(".fact-text")).to_have_text(DOG)
    expect(page.locator("#profile-summary")).to_have_text(
        "The prompt carries 5 of 5 current facts, chosen by weight."
    )
    screenshot(page, "profile-1280")
    page.get_by_label("As a reply to this message would see it").fill("라면 먹으러 갈까?")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#profile-summary")).to_contain_text("weight and relevance")
    expect(page.locator(".profile-numbers").first).to_contain_text("relevance")
    screenshot(page, "profile-steered-1280")

    item.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog", name="Delete this fact?")
    expect(dialog).to_contain_text(DOG)
    dialog.get_by_role("button", name="Delete fact").click()
    expect(item).to_have_count(0)
    expect(page.locator(".profile-fact .fact-text").filter(has_text="보리")).to_have_count(0)
    expect(page.locator("#profile-summary")).to_contain_text("4 of 4 current facts")
    profile = site.get(PROFILE)
    shown = [fact["fact_id"] for group in profile["groups"] for fact in group["facts"]]
    assert dog not in shown
    assert profile["total_facts"] == 4
