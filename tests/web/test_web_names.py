"""Viewers by name on the page: the list and the header show the name the viewer went by
last with the id small beside it, search finds names in any case, and the home view says
how many viewers the character remembers, past the first page."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest

from tests.web.browsing import DESKTOP, Site, open_page
from tests.web.harness import (
    NOW,
    build_app,
    make_characters_dir,
    make_settings,
    serve,
    skip_without_browser,
)
from tests.web.seed import CHARACTER, viewer_path

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, Page, expect  # noqa: E402

CROWD = 57
"""More viewers than one page of the list (50)."""


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A service of its own: Haru remembers 佐藤 (w05, once Satou) and a crowd."""
    root = tmp_path_factory.mktemp("web-names")
    app = build_app(
        make_settings(root / "data", make_characters_dir(root, CHARACTER), api_keys=None)
    )
    with serve(app) as url, httpx.Client(base_url=url, timeout=30.0) as client:
        for index in range(CROWD):
            viewer = "w05" if index == 5 else f"w{index:02}"
            names = ["Satou", "佐藤"] if viewer == "w05" else [f"Fan {index}"]
            turns = [
                {
                    "user_message": f"hello from {name}",
                    "force_store": True,
                    "user_name": name,
                    "timestamp": (NOW - timedelta(hours=CROWD - index, minutes=5 - k)).isoformat(),
                }
                for k, name in enumerate(names)
            ]
            response = client.post(f"{viewer_path(viewer)}/turns/batch", json={"turns": turns})
            response.raise_for_status()
        yield Site(url, client)


@pytest.fixture
def page(browser: Browser, crowd: Site) -> Iterator[Page]:
    with open_page(browser, crowd.url, DESKTOP) as (opened, _log):
        yield opened


def test_the_list_and_header_show_names_with_the_id_small(page: Page, crowd: Site) -> None:
    page.goto(f"{crowd.url}/#/{CHARACTER}")
    expect(page.locator("#welcome-summary")).to_have_text(f"{CHARACTER} remembers {CROWD} viewers.")
    expect(page.locator("#viewer-count")).to_have_text(f"{CROWD} viewers (50 shown)")
    page.get_by_label("Search viewers").fill("satou")
    item = page.locator("#viewer-list li[data-viewer]")
    expect(item).to_have_count(1)
    expect(item.locator(".viewer-name")).to_have_text("佐藤")
    expect(item.locator(".viewer-id")).to_have_text("w05")
    expect(page.locator("#viewer-count")).to_have_text("1 viewer matching “satou”")
    item.locator("a").click()
    expect(page.locator("#viewer-title")).to_have_text("佐藤 w05")
    expect(page.locator("#viewer-title .viewer-id")).to_have_text("w05")
    expect(page.locator("#viewer-meta")).to_contain_text("also went by Satou")


def test_loading_more_reaches_every_viewer(page: Page, crowd: Site) -> None:
    page.goto(f"{crowd.url}/#/{CHARACTER}")
    page.get_by_role("button", name="Load more viewers").click()
    expect(page.locator("#viewer-list li[data-viewer]")).to_have_count(CROWD)
    expect(page.locator("#viewer-count")).to_have_text(f"{CROWD} viewers")
    expect(page.get_by_role("button", name="Load more viewers")).to_be_hidden()
