"""Decay from the page: preview (nothing changes), run, restore one episode or all since a
time; the viewer's header counts agree with the episode list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.browsing import DESKTOP, Site, open_page, open_viewer, screenshot
from tests.web.harness import (
    build_app,
    make_characters_dir,
    make_settings,
    serve,
    skip_without_browser,
)
from tests.web.seed import CHARACTER, FORGET_TURNS, store_turns, viewer_path

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, Page, expect  # noqa: E402

VIEWER = "kim"
EPISODES = viewer_path(VIEWER) + "/episodes"


@pytest.fixture(scope="module")
def decay_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A service of its own: decay changes a whole character."""
    root: Path = tmp_path_factory.mktemp("decay")
    app = build_app(
        make_settings(root / "data", make_characters_dir(root, CHARACTER), api_keys=None)
    )
    with serve(app) as url, httpx.Client(base_url=url, timeout=30.0) as client:
        store_turns(client, VIEWER, FORGET_TURNS)
        yield Site(url, client)


@pytest.fixture
def decay_page(browser: Browser, decay_site: Site) -> Iterator[Page]:
    with open_page(browser, decay_site.url, DESKTOP) as (opened, _log):
        yield opened


def total(site: Site, *, archived: bool = False) -> int:
    found: int = site.get(EPISODES, include_archived=archived)["total"]
    return found


def test_preview_run_and_restore_from_the_page(decay_page: Page, decay_site: Site) -> None:
    page, site = decay_page, decay_site
    stored = total(site)
    page.goto(f"{site.url}/#/{CHARACTER}/character/decay")
    page.get_by_label("As of").fill("2035-01-01T00:00")

    page.get_by_role("button", name="Preview").click()

    expect(page.locator("#decay-preview")).to_contain_text(f"{stored} would be archived")
    expect(page.locator("#decay-preview")).to_contain_text("Nothing changed")
    assert total(site) == stored
    screenshot(page, "decay-preview-1280")

    page.locator("#panel-decay").get_by_role("button", name="Run decay").click()
    page.get_by_role("dialog", name="Run decay now?").get_by_role(
        "button", name="Run decay"
    ).click()

    expect(page.locator("#decay-report")).to_contain_text(f"Archived {stored} of")
    assert (total(site), total(site, archived=True)) == (0, stored)

    open_viewer(page, site, CHARACTER, VIEWER, "episodes")
    expect(page.locator("#viewer-meta")).to_contain_text(f"0 episodes ({stored} more archived)")
    expect(page.locator("#episodes-summary")).to_contain_text("0 episodes")
    page.get_by_label("Include archived (faded) episodes").check()
    page.get_by_role("button", name="Restore episode").first.click()
    expect(page.locator("#status")).to_contain_text("Episode restored")
    assert total(site) == 1
    expect(page.locator("#viewer-meta")).to_contain_text(f"1 episode ({stored - 1} more archived)")

    page.goto(f"{site.url}/#/{CHARACTER}/character/decay")
    page.get_by_label("Archived since").fill("2034-12-31T00:00")
    page.locator("#panel-decay").get_by_role("button", name="Restore", exact=True).click()
    expect(page.locator("#decay-restored")).to_contain_text(f"Restored {stored - 1} archived")
    assert total(site) == stored
