"""Seeing what the character remembers: viewers, facts, episodes, emotions, search, chat."""

from __future__ import annotations

import re

from tests.web.browsing import Site, open_viewer, read_json, screenshot, wait_until
from tests.web.harness import skip_without_browser
from tests.web.seed import (
    CHARACTER,
    KOREAN_VIEWER,
    MINJUN_FACTS,
    OTHER_CHARACTER,
    Turn,
    store_turns,
    viewer_path,
)

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Page, expect  # noqa: E402

FACT_TYPE_TITLES = {
    "preference": "Preferences",
    "personal": "Personal",
    "emotion": "Emotional patterns",
    "habit": "Habits",
    "goal": "Goals",
}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def test_viewer_list_shows_counts_last_seen_and_search(page: Page, site: Site) -> None:
    users = site.get(f"/v1/characters/{CHARACTER}/users")["users"]
    page.goto(f"{site.url}/#/{CHARACTER}")
    items = page.locator("#viewer-list li[data-viewer]")
    expect(items).to_have_count(len(users))
    for position, user in enumerate(users):
        item = items.nth(position)
        expect(item.locator(".viewer-name")).to_have_text(user["display_name"] or user["user_id"])
        counts = (
            f"{_plural(user['episode_count'], 'episode')} · {_plural(user['fact_count'], 'fact')}"
        )
        expect(item.locator(".viewer-counts")).to_have_text(counts)
        expect(item.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
    screenshot(page, "viewer-list-1280")
    page.get_by_label("Search viewers").fill("yu")
    expect(items).to_have_count(1)
    expect(items.first.locator(".viewer-name")).to_have_text("yuki")
    expect(page.locator("#viewer-count")).to_contain_text("matching “yu”")


def test_character_switcher_shows_that_characters_viewers(page: Page, site: Site) -> None:
    page.goto(f"{site.url}/#/{CHARACTER}")
    expect(page.locator("#viewer-list li[data-viewer]").first).to_be_visible()
    page.get_by_role("combobox", name="Character").select_option(OTHER_CHARACTER)
    expect(page.locator("#viewer-list .viewer-name")).to_have_text(["ash-viewer"])
    expect(page).to_have_url(re.compile(f"#/{OTHER_CHARACTER}$"))


def test_facts_are_grouped_by_type_with_their_evidence(page: Page, site: Site) -> None:
    facts = site.get(f"/v1/characters/{CHARACTER}/users/minjun/facts")
    open_viewer(page, site, CHARACTER, "minjun")
    for category, title in FACT_TYPE_TITLES.items():
        members = [fact for fact in facts if fact["category"] == category]
        group = page.locator(f'.fact-group[data-category="{category}"]')
        if not members:
            expect(group).to_have_count(0)
            continue
        expect(group.locator("h2")).to_have_text(f"{title} ({len(members)})")
        expect(group.locator(".fact-text")).to_have_text(
            [fact["text"] for fact in members], ignore_case=False, use_inner_text=True
        )
    for text, category in MINJUN_FACTS:
        card = page.locator(f'.fact-group[data-category="{category}"] .fact').filter(has_text=text)
        expect(card).to_contain_text("confirmed")
        expect(card).to_contain_text("Stated by a person")
    screenshot(page, "facts-1280")


def test_a_fact_links_to_the_episodes_it_came_from(page: Page, site: Site) -> None:
    facts = site.get(f"/v1/characters/{CHARACTER}/users/minjun/facts")
    learned = next(fact for fact in facts if fact["source_episode_ids"])
    open_viewer(page, site, CHARACTER, "minjun")
    card = page.locator(f'[data-fact-id="{learned["fact_id"]}"]')
    card.get_by_role("button", name=re.compile(r"^From \d+ episode")).click()
    expect(page.get_by_role("tab", name="Episodes")).to_have_attribute("aria-selected", "true")
    shown = page.locator("#panel-episodes .episode")
    expect(shown).to_have_count(len(learned["source_episode_ids"]))
    ids = shown.evaluate_all("items => items.map(item => item.dataset.episodeId)")
    assert ids == learned["source_episode_ids"]
    page.get_by_role("button", name="Show all episodes").click()
    total = site.get(f"/v1/characters/{CHARACTER}/users/minjun/episodes")["total"]
    expect(shown).to_have_count(total)


def test_episodes_timeline_shows_emotion_and_importance(page: Page, site: Site) -> None:
    listed = site.get(f"/v1/characters/{CHARACTER}/users/minjun/episodes")["episodes"]
    open_viewer(page, site, CHARACTER, "minjun", "episodes")
    items = page.locator("#panel-episodes .episode")
    expect(items).to_have_count(len(listed))
    for position, episode in enumerate(listed):
        item = items.nth(position)
        expect(item).to_have_attribute("data-episode-id", episode["episode_id"])
        expect(item.locator(".said p").first).to_have_text(episode["user_message"])
        expect(item.locator(".badge-emotion")).to_contain_text(episode["emotion"])
        expect(item.locator("meter")).to_have_attribute("value", str(episode["importance"]))
    expect(page.locator(".timeline-day").first).to_be_visible()
    screenshot(page, "episodes-1280")


def test_emotion_chart_marks_the_hard_days(page: Page, site: Site) -> None:
    emotions = site.get(f"/v1/characters/{CHARACTER}/users/minjun/emotions", days=30)
    hard_days = emotions["summary"]["hard_days"]
    assert hard_days, "the seed should give minjun hard days"
    open_viewer(page, site, CHARACTER, "minjun", "emotions")
    chart = page.locator("svg.emotion-chart")
    expect(chart).to_be_visible()
    marked = chart.locator(".chart-hard-day")
    expect(marked).to_have_count(len(hard_days))
    assert marked.evaluate_all("bands => bands.map(band => band.dataset.day)") == hard_days
    recorded_days = {record["timestamp"][:10] for record in emotions["records"]}
    bars = chart.locator(".chart-day").evaluate_all("bars => bars.map(bar => bar.dataset.day)")
    assert set(bars) == recorded_days
    expect(page.locator(".stats")).to_contain_text(str(emotions["summary"]["record_count"]))
    page.get_by_text("Show as a table").click()
    expect(page.locator(".chart-table tr.hard")).to_have_count(len(hard_days))
    screenshot(page, "emotions-1280")


def test_search_shows_why_each_memory_ranked_where_it_did(page: Page, site: Site) -> None:
    query = "League of Legends"
    expected = site.client.post(
        f"/v1/characters/{CHARACTER}/users/minjun/search", json={"query": query, "k": 10}
    ).json()
    assert expected["facts"] and expected["episodes"]
    open_viewer(page, site, CHARACTER, "minjun", "search")
    page.get_by_label("Search this viewer's memories").fill(query)
    page.get_by_label("Search this viewer's memories").press("Enter")
    facts = page.locator('[aria-label="Facts found"] .hit')
    expect(facts).to_have_count(len(expected["facts"]))
    expect(page.locator('[aria-label="Episodes found"] .hit')).to_have_count(
        len(expected["episodes"])
    )
    best = expected["facts"][0]
    first = facts.first
    expect(first).to_have_attribute("data-fact-id", best["fact_id"])
    for name in ("score", "relevance", "recency", "importance"):
        key = "total" if name == "score" else name
        meter = first.locator(".meter").filter(has=page.locator(".meter-label", has_text=name))
        expect(meter.locator(".meter-value")).to_have_text(f"{best['components'][key]:.2f}")
    expect(first.locator(".raw")).to_contain_text(
        f"relevance {best['components']['raw_relevance']:.3f}"
    )
    screenshot(page, "search-1280")


def test_rolling_summary_is_shown(page: Page, site: Site) -> None:
    summary = site.get(f"/v1/characters/{CHARACTER}/viewers/sora/stream-summary")
    open_viewer(page, site, CHARACTER, "sora")
    expect(page.locator(".summary-text")).to_have_text(summary["text"])
    open_viewer(page, site, CHARACTER, "yuki")
    expect(page.locator("#rolling-summary")).to_contain_text("No rolling summary yet")


def test_export_downloads_the_viewers_data(page: Page, site: Site) -> None:
    expected = site.get(f"/v1/characters/{CHARACTER}/users/yuki/export")
    open_viewer(page, site, CHARACTER, "yuki")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export data").click()
    assert download.value.suggested_filename == "omoide-haru-yuki.json"
    exported = read_json(download.value.path())
    assert exported == expected
    expect(page.locator("#export-result")).to_contain_text(
        f"Exported {_plural(len(expected['episodes']), 'episode')}"
    )


def test_chat_streams_a_reply_and_lists_the_memories_used(page: Page, site: Site) -> None:
    episodes_path = f"/v1/characters/{CHARACTER}/users/minjun/episodes"
    before = site.get(episodes_path)["total"]
    open_viewer(page, site, CHARACTER, "minjun", "chat")
    panel = page.locator("#panel-chat")
    expect(panel.get_by_label("Talk as viewer id")).to_have_value("minjun")
    message = panel.get_by_label("Message", exact=True)
    message.fill("Do you remember which game I play? League of Legends?")
    message.press("Enter")
    reply = panel.locator(".from-character").last
    expect(reply.locator(".chat-meta .badge-emotion")).to_be_visible()
    expect(reply.locator(".reply-text")).not_to_be_empty()
    used = reply.locator(".memories-used li[data-fact-id], .memories-used li[data-episode-id]")
    expect(used.first).to_be_visible()
    facts = {
        fact["fact_id"]: fact["text"]
        for fact in site.get(
            f"/v1/characters/{CHARACTER}/users/minjun/facts", include_inactive=True
        )
    }
    summary = reply.locator(".used summary").inner_text()
    count = int(re.search(r"\((\d+)\)", summary).group(1))  # type: ignore[union-attr]
    expect(used).to_have_count(count)
    for item in reply.locator(".memories-used li[data-fact-id]").all():
        fact_id = item.get_attribute("data-fact-id")
        assert fact_id in facts
        expect(item).to_contain_text(facts[fact_id])
    expect(message).to_be_focused()
    screenshot(page, "chat-1280")
    wait_until(lambda: site.get(episodes_path)["total"] == before + 1)


def test_a_viewer_id_with_spaces_colons_and_hangul_opens(page: Page, site: Site) -> None:
    episodes = site.get(f"{viewer_path(KOREAN_VIEWER)}/episodes")["episodes"]
    page.goto(f"{site.url}/#/{CHARACTER}")
    page.locator(".viewer-link").filter(has_text=KOREAN_VIEWER).click()
    expect(page.locator("#viewer-title")).to_have_text(KOREAN_VIEWER)
    page.get_by_role("tab", name="Episodes").click()
    expect(page.locator("#panel-episodes .episode .said p").first).to_have_text(
        episodes[0]["user_message"]
    )
    page.reload()
    expect(page.locator("#viewer-title")).to_have_text(KOREAN_VIEWER)
    expect(page.get_by_role("tab", name="Episodes")).to_have_attribute("aria-selected", "true")


def test_long_timelines_load_older_episodes_on_request(page: Page, site: Site) -> None:
    turns = tuple(
        Turn(
            f"Message number {index} about my day at the bakery",
            "Nice!",
            40 - index / 2,
            "happy",
            0.5,
        )
        for index in range(62)
    )
    store_turns(site.client, "chatty", turns)
    open_viewer(page, site, CHARACTER, "chatty", "episodes")
    items = page.locator("#panel-episodes .episode")
    expect(items).to_have_count(50)
    expect(page.locator("#episodes-summary")).to_have_text("62 episodes")
    page.get_by_role("button", name="Load older episodes").click()
    expect(items).to_have_count(62)
    expect(page.get_by_role("button", name="Load older episodes")).to_be_hidden()
    shown = items.evaluate_all("items => items.map(item => item.dataset.episodeId)")
    listed = site.get(f"{viewer_path('chatty')}/episodes", limit=100)["episodes"]
    assert shown == [episode["episode_id"] for episode in listed]
