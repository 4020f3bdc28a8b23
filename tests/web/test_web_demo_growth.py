"""The page with the default (scripted demo) model: after a stream ends, the identity tab
shows the proposed change with its scripted label, and the diary says who wrote it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from omoide.api.app import create_app
from omoide.llm.demo_tasks import SCRIPTED_LABEL
from tests.web.browsing import DESKTOP, open_page
from tests.web.harness import NOW, make_characters_dir, make_settings, serve, skip_without_browser

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, expect  # noqa: E402

CHARACTER = "demoharu"
SAID = (
    ("sam", "Sam", "I love Minecraft so much, I build castles every night"),
    ("sam", "Sam", "Minecraft redstone is my favourite thing"),
    ("yuki", "ゆき", "マイクラ大好き、今日も建築した"),
)


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("web-demo")
    characters = make_characters_dir(root, CHARACTER)
    app = create_app(make_settings(root / "data", characters, api_keys=None))
    with serve(app) as url, httpx.Client(base_url=url, timeout=60.0) as client:
        events = [
            {
                "viewer_id": viewer,
                "display_name": name,
                "text": text,
                "time": (NOW + timedelta(seconds=index)).isoformat(),
                "platform": "twitch",
            }
            for index, (viewer, name, text) in enumerate(SAID)
        ]
        path = f"/v1/characters/{CHARACTER}/streams/demo-1"
        client.post(f"{path}/events", json={"events": events}).raise_for_status()
        client.post(f"{path}/end").raise_for_status()
        yield url


def test_the_identity_tab_shows_the_scripted_proposal(browser: Browser, demo_site: str) -> None:
    pending = httpx.get(f"{demo_site}/v1/characters/{CHARACTER}/identity/pending").json()
    (change,) = pending["changes"]
    with open_page(browser, demo_site, DESKTOP) as (page, _log):
        page.goto(f"{demo_site}/#/{CHARACTER}/character/identity")
        card = page.locator(f'.pending-change[data-change-id="{change["id"]}"]')
        expect(card.locator(".proposed-by")).to_contain_text("scripted demo model")
        expect(card.locator(".proposed-by")).to_contain_text("not by a language model")
        expect(card.locator(".diff-after ins")).to_contain_text(SCRIPTED_LABEL)
        page.goto(f"{demo_site}/#/{CHARACTER}/character/diary")
        entry = page.locator(".diary-entry").first
        expect(entry).to_contain_text("written by the scripted demo model")
        expect(entry.locator(".diary-text")).to_contain_text("Scripted demo diary")
