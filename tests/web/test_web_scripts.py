"""The page's pure functions, run in the browser: event-stream parsing, diffs, chart days."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.browsing import DESKTOP, Site, open_page
from tests.web.harness import skip_without_browser

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, Page  # noqa: E402

SCRIPT_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
TEXT = st.text(
    alphabet=st.sampled_from("ab cd\n。日本語の文字한국어 ,.!-'x"),
    max_size=40,
)


@pytest.fixture(scope="module")
def script_page(browser: Browser, site: Site) -> Iterator[Page]:
    with open_page(browser, site.url, DESKTOP) as (page, _log):
        page.goto(site.url + "/")
        yield page


def call(page: Page, module: str, body: str, argument: Any) -> Any:
    """Run ``body`` (an expression over ``m``, the module, and ``arg``) in the page."""
    script = f"async (arg) => {{ const m = await import('/assets/{module}'); return {body}; }}"
    return page.evaluate(script, argument)


@SCRIPT_SETTINGS
@given(before=TEXT, after=TEXT)
def test_text_diff_keeps_both_sides(script_page: Page, before: str, after: str) -> None:
    runs = call(script_page, "diff.js", "m.textDiff(arg[0], arg[1])", [before, after])
    assert "".join(run["text"] for run in runs if run["kind"] != "added") == before
    assert "".join(run["text"] for run in runs if run["kind"] != "removed") == after
    if before == after:
        assert all(run["kind"] == "same" for run in runs)


def test_text_diff_marks_single_changed_words_and_kanji(script_page: Page) -> None:
    runs = call(
        script_page, "diff.js", "m.textDiff(arg[0], arg[1])", ["赤い花が好き", "青い花が好き"]
    )
    changed = [(run["kind"], run["text"]) for run in runs if run["kind"] != "same"]
    assert changed == [("removed", "赤"), ("added", "青")]
    runs = call(script_page, "diff.js", "m.textDiff(arg[0], arg[1])", ["a shy fox", "a bold fox"])
    assert [run for run in runs if run["kind"] != "same"] == [
        {"kind": "removed", "text": "shy"},
        {"kind": "added", "text": "bold"},
    ]


@SCRIPT_SETTINGS
@given(
    before=st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=6),
    after=st.lists(st.sampled_from(["a", "b", "c", "e"]), max_size=6),
)
def test_list_diff_keeps_both_lists(script_page: Page, before: list[str], after: list[str]) -> None:
    result = call(script_page, "diff.js", "m.listDiff(arg[0], arg[1])", [before, after])
    assert [item["text"] for item in result["left"]] == before
    assert [item["text"] for item in result["right"]] == after
    kept_left = sorted(item["text"] for item in result["left"] if item["kind"] == "same")
    kept_right = sorted(item["text"] for item in result["right"] if item["kind"] == "same")
    assert kept_left == kept_right


def test_profile_changes_name_only_the_fields_that_differ(script_page: Page) -> None:
    before = {"name": "Haru", "likes": ["ramen"], "background": None}
    after = {"name": "Haru", "likes": ["ramen", "Deadlock"], "background": "new"}
    changes = call(script_page, "diff.js", "m.profileChanges(arg[0], arg[1])", [before, after])
    assert [change["field"] for change in changes] == ["likes", "background"]


@SCRIPT_SETTINGS
@given(pieces=st.lists(st.integers(min_value=1, max_value=12), max_size=20))
def test_event_stream_parses_however_it_is_chunked(script_page: Page, pieces: list[int]) -> None:
    events = [{"type": "token", "content": "こんにちは\nworld"}, {"type": "done", "ids": [1, 2]}]
    stream = ": comment\r\n" + "".join(
        f"data: {json.dumps(event, ensure_ascii=False)}\r\n\r\n" for event in events
    )
    chunks, position = [], 0
    for size in pieces:
        chunks.append(stream[position : position + size])
        position += size
    chunks.append(stream[position:])
    body = "(() => { const seen = []; const p = new m.EventParser((e) => seen.push(e)); "
    body += "for (const chunk of arg) p.push(chunk); p.finish(); return seen; })()"
    assert call(script_page, "api.js", body, chunks) == events


def test_multi_line_data_fields_are_joined(script_page: Page) -> None:
    body = "(() => { const seen = []; const p = new m.EventParser((e) => seen.push(e)); "
    body += "p.push(arg); p.finish(); return seen; })()"
    parsed = call(script_page, "api.js", body, 'data: {"a":\ndata: 1}\n\n')
    assert parsed == [{"a": 1}]


def test_chart_ends_today_or_at_the_last_record(script_page: Page) -> None:
    records = [{"timestamp": "2026-04-29T12:00:00Z"}]
    recent = call(script_page, "chart.js", "m.chartDays(arg, 7, '2026-05-01')", records)
    assert recent == [f"2026-04-{day}" for day in range(25, 31)] + ["2026-05-01"]
    old = call(script_page, "chart.js", "m.chartDays(arg, 3, '2026-11-29')", records)
    assert old == ["2026-04-27", "2026-04-28", "2026-04-29"]
