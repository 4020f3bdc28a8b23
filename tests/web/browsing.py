"""Driving the memory browser: Debian's Chromium through Playwright, a watched page.

Every page records the requests it makes (one to another host fails the test: the page
must work offline), the script errors it raises and the page files the service failed to
serve (any of them fails the test).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote, urlsplit

import httpx

if TYPE_CHECKING:  # importable without Playwright: the serving tests need no browser
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        Page,
        Request,
        Response,
        ViewportSize,
    )

CHROMIUM_ARGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP: Final[ViewportSize] = {"width": 1280, "height": 800}
PHONE: Final[ViewportSize] = {"width": 390, "height": 844}
ARTIFACTS: Final = Path(__file__).resolve().parents[1] / "artifacts" / "web"
POLL_SECONDS: Final = 20.0


@dataclass(frozen=True, slots=True)
class Site:
    """A running, seeded service and an HTTP client for checking what the page did."""

    url: str
    client: httpx.Client

    def get(self, path: str, **params: Any) -> Any:
        response = self.client.get(path, params=params)
        response.raise_for_status()
        return response.json()


@dataclass
class PageLog:
    """What a page asked for and what went wrong in it."""

    origin: str
    foreign_requests: list[str] = field(default_factory=list)
    script_errors: list[str] = field(default_factory=list)
    failed_assets: list[str] = field(default_factory=list)
    local_requests: list[str] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)


def _watch(context: BrowserContext, page: Page, log: PageLog) -> None:
    def request(sent: Request) -> None:
        parts = urlsplit(sent.url)
        if parts.scheme in ("data", "blob") or f"{parts.scheme}://{parts.netloc}" == log.origin:
            log.local_requests.append(sent.url)
            header = sent.headers.get("authorization")
            if header:
                log.authorizations.append(header)
        else:
            log.foreign_requests.append(sent.url)

    def response(answer: Response) -> None:
        path = urlsplit(answer.url).path
        if (path == "/" or path.startswith("/assets/")) and answer.status >= 400:
            log.failed_assets.append(f"{answer.status} {answer.url}")

    context.on("request", request)
    context.on("response", response)
    page.on("pageerror", lambda error: log.script_errors.append(str(error)))


@contextmanager
def open_page(
    browser: Browser, site_url: str, viewport: ViewportSize
) -> Iterator[tuple[Page, PageLog]]:
    """A fresh browser context (no stored key) for ``site_url``; afterwards fails the test
    on script errors, requests to other hosts, or page files the service could not serve."""
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    page = context.new_page()
    log = PageLog(origin=site_url)
    _watch(context, page, log)
    try:
        yield page, log
    finally:
        context.close()
    assert log.script_errors == [], log.script_errors
    assert log.foreign_requests == [], log.foreign_requests
    assert log.failed_assets == [], log.failed_assets


def screenshot(page: Page, name: str) -> Path:
    """Keep a full-page screenshot as a test artifact: tests/artifacts/web/NAME.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / f"{name}.png"
    page.evaluate("() => window.scrollTo(0, 0)")  # sticky bars would be drawn mid-page
    page.screenshot(path=str(target), full_page=True)
    return target


def viewer_hash(character: str, viewer: str, tab: str = "facts") -> str:
    return f"#/{quote(character, safe='')}/viewers/{quote(viewer, safe='')}/{tab}"


def open_viewer(page: Page, site: Site, character: str, viewer: str, tab: str = "facts") -> None:
    """Load the page on a viewer's tab and wait until that tab's panel is shown."""
    page.goto(f"{site.url}/{viewer_hash(character, viewer, tab)}")
    page.locator(f"#panel-{tab}").wait_for(state="visible")
    page.locator("#viewer-title").filter(has_text=viewer).wait_for()


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def wait_until(condition: Callable[[], bool], *, seconds: float = POLL_SECONDS) -> None:
    """Poll ``condition`` (work the service does in the background) until it holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not hold in time")
        time.sleep(0.05)
