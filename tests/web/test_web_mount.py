"""The page and every file it needs are served by the app itself (no browser needed)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

from fastapi import FastAPI

from omoide.web import CONTENT_SECURITY_POLICY, mount_web
from tests.web.browsing import Site

IMPORT = re.compile(r"""^\s*import\s[^'"]*?from\s+["'](\./[\w.-]+\.js)["'];""", re.MULTILINE)
MARKUP_SINKS = re.compile(
    r"\.(?:inner|outer)HTML\b|insertAdjacentHTML|document\.write|\beval\(|new Function\("
    r"|createContextualFragment|DOMParser"
)


class _References(HTMLParser):
    """Every src and href in a document."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.found.append(value)


def test_every_file_the_page_needs_is_served_by_the_app(site: Site) -> None:
    index = site.client.get("/")
    assert index.status_code == 200
    assert index.headers["content-type"].startswith("text/html")
    assert index.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    parser = _References()
    parser.feed(index.text)
    assert parser.found, "the page references no files"
    pending = [reference for reference in parser.found]
    seen: set[str] = set()
    while pending:
        reference = pending.pop()
        assert urlsplit(reference).netloc == "", f"{reference} is not served by the app"
        path = "/" + reference.removeprefix("./").removeprefix("/")
        if path in seen:
            continue
        seen.add(path)
        answer = site.client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["x-content-type-options"] == "nosniff"
        if path.endswith(".js"):
            assert "javascript" in answer.headers["content-type"]
            pending += [
                f"/assets/{name.removeprefix('./')}" for name in IMPORT.findall(answer.text)
            ]
    modules = {path for path in seen if path.endswith(".js")}
    assert "/assets/app.js" in modules
    assert len(modules) > 10, f"the module graph was not followed: {sorted(modules)}"


def test_only_the_assets_folder_is_served(site: Site) -> None:
    for path in ("/assets/%2e%2e/__init__.py", "/assets/..%2f__init__.py", "/assets/missing.js"):
        answer = site.client.get(path)
        assert answer.status_code == 404, path
        assert "mount_web" not in answer.text


def test_no_script_writes_markup() -> None:
    """Data reaches the page only through text nodes: no innerHTML or similar anywhere."""
    from importlib import resources

    assets = resources.files("omoide.web").joinpath("assets")
    scripts = [item for item in assets.iterdir() if item.name.endswith(".js")]
    assert scripts
    for script in scripts:
        found = MARKUP_SINKS.findall(script.read_text(encoding="utf-8"))
        assert found == [], f"{script.name} uses {found}"


def test_mounting_twice_changes_nothing() -> None:
    app = FastAPI()
    mount_web(app)
    routes = len(app.router.routes)
    mount_web(app)
    assert len(app.router.routes) == routes
