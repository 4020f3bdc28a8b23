"""A phone-sized screen (the sidebar becomes a drawer), and a service that asks for keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.browsing import DESKTOP, PHONE, Site, open_page, open_viewer, screenshot
from tests.web.harness import (
    build_app,
    make_characters_dir,
    make_settings,
    serve,
    skip_without_browser,
)
from tests.web.seed import CHARACTER, MINJUN_TURNS, OTHER_CHARACTER, store_turns

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, Page, expect  # noqa: E402

SECRET = "web-test-secret"


def _fits_the_width(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_phone_drawer_opens_picks_a_viewer_and_closes(phone: Page, site: Site) -> None:
    phone.goto(f"{site.url}/#/{CHARACTER}")
    expect(phone.locator("#welcome-summary")).to_contain_text("remembers")
    toggle = phone.get_by_role("button", name="Viewers")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(phone.locator("#viewer-list")).not_to_be_visible()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(phone.get_by_label("Search viewers")).to_be_focused()
    expect(phone.locator("#sidebar")).to_have_css("transform", "none")  # slid fully in
    screenshot(phone, "drawer-390")
    phone.keyboard.press("Escape")
    expect(phone.locator("#viewer-list")).not_to_be_visible()
    expect(toggle).to_be_focused()
    toggle.click()
    phone.locator('#viewer-list li[data-viewer="minjun"] a').click()
    expect(phone.locator("#viewer-title")).to_have_text("minjun")
    expect(phone.locator("#viewer-list")).not_to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    assert _fits_the_width(phone)
    screenshot(phone, "facts-390")


def test_every_tab_fits_a_phone(phone: Page, site: Site) -> None:
    open_viewer(phone, site, CHARACTER, "minjun")
    for tab in ("Profile", "Episodes", "Emotions", "Search", "Chat"):
        phone.get_by_role("tab", name=tab).click()
        panel = phone.locator(f"#panel-{tab.lower()}")
        expect(panel).to_be_visible()
        if tab == "Emotions":
            chart = phone.locator("svg.emotion-chart")
            expect(chart).to_be_visible()
            # the chart is redrawn (replaced) as its data lands: measure a drawn one, in
            # the same step that finds it
            drawn = phone.wait_for_function(
                "() => { const chart = document.querySelector('svg.emotion-chart');"
                " const width = chart ? chart.getBoundingClientRect().width : 0;"
                " return width > 0 ? width : null; }"
            )
            width = float(drawn.json_value())
            assert 0 < width <= PHONE["width"]
        assert _fits_the_width(phone), tab
        screenshot(phone, f"{tab.lower()}-390")
    phone.goto(f"{site.url}/#/{CHARACTER}/character/identity")
    expect(phone.locator(".version").first).to_be_visible()
    assert _fits_the_width(phone)
    screenshot(phone, "identity-390")


@pytest.fixture(scope="module")
def keyed_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A service with one API key, for haru only."""
    root: Path = tmp_path_factory.mktemp("keyed")
    characters = make_characters_dir(root, CHARACTER, OTHER_CHARACTER)
    app = build_app(make_settings(root / "data", characters, api_keys=f"{SECRET}:{CHARACTER}"))
    headers = {"Authorization": f"Bearer {SECRET}"}
    with serve(app) as url, httpx.Client(base_url=url, headers=headers, timeout=30.0) as client:
        store_turns(client, "minjun", MINJUN_TURNS[:2])
        yield Site(url, client)


def test_the_page_asks_for_a_key_and_uses_it(browser: Browser, keyed_site: Site) -> None:
    anonymous = httpx.get(keyed_site.url + "/")
    assert anonymous.status_code == 200, "the page itself holds no data and needs no key"
    assert httpx.get(keyed_site.url + "/v1/characters").status_code == 401
    with open_page(browser, keyed_site.url, DESKTOP) as (page, log):
        page.goto(keyed_site.url + "/")
        dialog = page.get_by_role("dialog", name="API key needed")
        expect(dialog).to_be_visible()
        screenshot(page, "api-key-1280")
        dialog.get_by_label("API key").fill("not-the-key")
        dialog.get_by_role("button", name="Use key").click()
        expect(dialog).to_contain_text("That key was refused")
        dialog.get_by_label("API key").fill(SECRET)
        dialog.get_by_role("button", name="Use key").click()
        expect(dialog).to_be_hidden()
        expect(page.get_by_role("combobox", name="Character").locator("option")).to_have_text(
            [CHARACTER]
        )
        expect(page.locator('#viewer-list li[data-viewer="minjun"]')).to_be_visible()
        assert page.evaluate("() => sessionStorage.getItem('omoide.apiKey')") == SECRET
        page.reload()
        expect(page.locator('#viewer-list li[data-viewer="minjun"]')).to_be_visible()
        expect(dialog).to_be_hidden()
    assert f"Bearer {SECRET}" in log.authorizations
    assert "Bearer not-the-key" in log.authorizations
