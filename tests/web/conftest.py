"""Fixtures for the memory browser tests: a seeded service, headless Chromium, pages.

The browser tests need Playwright's Python package and Debian's ``chromium``; without
them they are skipped, with the reason, unless ``OMOIDE_TEST_BROWSER=required`` (set it in
CI), which makes a missing browser fail them. The serving tests need neither.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

import httpx
import pytest

from tests.web.browsing import CHROMIUM_ARGS, DESKTOP, PHONE, Site, open_page
from tests.web.harness import (
    CHROMIUM,
    build_app,
    make_characters_dir,
    make_settings,
    serve,
    skip_without_browser,
)
from tests.web.seed import CHARACTER, OTHER_CHARACTER, seed_streams, seed_viewers

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

EXPECT_TIMEOUT_MS: Final = 10_000


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One seeded service for all the web tests. Tests that change memories keep to their
    own viewers, and take expected counts from the API rather than from constants."""
    root = tmp_path_factory.mktemp("web")
    characters = make_characters_dir(root, CHARACTER, OTHER_CHARACTER)
    app = build_app(make_settings(root / "data", characters, api_keys=None))
    with serve(app) as url, httpx.Client(base_url=url, timeout=30.0) as client:
        seed_viewers(client)
        seed_streams(client)
        yield Site(url, client)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the web tests; Playwright's event loop ends with them."""
    skip_without_browser()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        expect.set_options(timeout=EXPECT_TIMEOUT_MS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, site: Site) -> Iterator[Page]:
    """A desktop-sized page (1280 x 800)."""
    with open_page(browser, site.url, DESKTOP) as (opened, _log):
        yield opened


@pytest.fixture
def phone(browser: Browser, site: Site) -> Iterator[Page]:
    """A phone-sized page (390 x 844)."""
    with open_page(browser, site.url, PHONE) as (opened, _log):
        yield opened
