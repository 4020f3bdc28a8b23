"""The page works offline (it asks no other host) and renders data only as text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from omoide.api.app import create_app
from omoide.embed.hashing import HashingEmbedder
from tests.web.browsing import DESKTOP, Site, open_page, open_viewer, screenshot
from tests.web.harness import make_characters_dir, make_settings, serve, skip_without_browser
from tests.web.seed import CHARACTER, XSS

skip_without_browser(module=True)  # before importing Playwright
from playwright.sync_api import Browser, Page, expect  # noqa: E402


def test_the_page_asks_no_other_host_for_anything(browser: Browser, site: Site) -> None:
    """Every tab of a viewer and of the character: all requests go to the service."""
    with open_page(browser, site.url, DESKTOP) as (page, log):
        open_viewer(page, site, CHARACTER, "minjun")
        for tab in ("Episodes", "Emotions", "Search", "Chat", "Facts"):
            page.get_by_role("tab", name=tab).click()
            expect(page.get_by_role("tab", name=tab)).to_have_attribute("aria-selected", "true")
        page.get_by_role("link", name="Character").click()
        for tab in ("Identity", "Chat", "Diary"):
            page.get_by_role("tab", name=tab).click()
        expect(page.locator(".diary-entry").first).to_be_visible()
        assert any("/assets/app.css" in url for url in log.local_requests)
        assert any("/v1/characters/haru/diary" in url for url in log.local_requests)
    assert log.foreign_requests == []


def test_memories_containing_markup_show_as_text(page: Page, site: Site) -> None:
    facts = site.get("/v1/characters/haru/users/mallory/facts")
    open_viewer(page, site, CHARACTER, "mallory")
    expect(page.locator(".fact-text").first).to_have_text(facts[0]["text"])
    page.get_by_role("tab", name="Episodes").click()
    expect(page.locator(".episode .said p").first).to_have_text(f"I like {XSS} pictures")
    expect(page.locator(".episode .reply p").first).to_have_text(XSS)
    assert page.locator("main img").count() == 0
    assert page.evaluate("() => window.__xss") is None
    screenshot(page, "markup-as-text-1280")


@pytest.fixture(scope="module")
def plain_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service exactly as ``create_app`` builds it (the seeded site adds test routes)."""
    root = tmp_path_factory.mktemp("docs")
    settings = make_settings(root / "data", make_characters_dir(root, CHARACTER), api_keys=None)
    with serve(create_app(settings, embedder=HashingEmbedder(256))) as url:
        yield url


def test_the_api_docs_ask_no_other_host(browser: Browser, plain_service: str) -> None:
    """Swagger UI at /docs renders from the service's own files."""
    with open_page(browser, plain_service, DESKTOP) as (page, log):
        page.goto(f"{plain_service}/docs")
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("omoide")
        expect(page.locator(".opblock").first).to_be_visible()
        assert any("/docs-assets/swagger-ui-bundle.js" in url for url in log.local_requests)
    assert log.foreign_requests == []
