"""Every page the service serves works offline: the page and ``/docs`` refer to no other
host (in ``src``, ``href``, CSS ``url()`` or module imports), and every file
they refer to is served by the service itself, non-empty."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi.routing import APIRoute
from starlette.responses import HTMLResponse

from tests.api.harness import Api

pytestmark = pytest.mark.anyio
BASE = "http://testserver"
PAGES = ("/", "/docs", "/docs/oauth2-redirect")
_ATTRIBUTE = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")
_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']""")
_ABSOLUTE = re.compile(r"""["'(=\s](?:https?:)?//[a-z0-9.-]+""", re.IGNORECASE)


def references(path: str, text: str) -> list[str]:
    """What a served file refers to: attributes in HTML, url() in CSS, imports in our JS."""
    if path.endswith(".css"):
        return _CSS_URL.findall(text)
    if path.endswith(".js"):
        return _IMPORT.findall(text)
    return _ATTRIBUTE.findall(text) + _CSS_URL.findall(text)


def is_local(reference: str, base: str) -> bool:
    target = urlsplit(urljoin(base, reference))
    return target.scheme in ("http", "https", "data", "blob") and (
        target.scheme in ("data", "blob") or target.netloc == "testserver"
    )


async def test_the_page_list_covers_every_html_route(api: Api) -> None:
    html_routes = {
        route.path
        for route in api.app.routes
        if isinstance(route, APIRoute) and route.response_class is HTMLResponse
    }
    assert html_routes == set(PAGES)


async def crawl(api: Api, page: str) -> dict[str, str]:
    """The page and every file it reaches, by URL: all must be served, non-empty, local."""
    seen: dict[str, str] = {}
    waiting = [urljoin(BASE, page)]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        response = await api.client.get(url)
        assert response.status_code == 200, url
        assert response.content, f"{url} is empty"
        seen[url] = response.text if _is_text(url) else ""
        for reference in references(urlsplit(url).path, seen[url]):
            assert is_local(reference, url), f"{url} refers to another host: {reference}"
            target = urljoin(url, reference).split("#")[0]
            if urlsplit(target).scheme == "http" and _ours(target):
                waiting.append(target)
    return seen


def _is_text(url: str) -> bool:
    path = urlsplit(url).path
    vendor = path.startswith("/docs-assets/") and path.endswith(".js")
    return not vendor and not path.endswith((".png", ".svg"))


def _ours(url: str) -> bool:
    return urlsplit(url).path != "/openapi.json"


@pytest.mark.parametrize("page", PAGES)
async def test_a_page_refers_to_no_other_host(api: Api, page: str) -> None:
    served = await crawl(api, page)
    html = served[urljoin(BASE, page)]
    assert not _ABSOLUTE.search(html.replace("window.location.origin", "")), html


async def test_the_docs_load_swagger_ui_from_the_service(api: Api) -> None:
    files = {urlsplit(url).path for url in await crawl(api, "/docs")}
    assert {
        "/docs-assets/swagger-ui-bundle.js",
        "/docs-assets/swagger-ui.css",
        "/docs-assets/favicon.png",
    } <= files
    response = await api.client.get("/docs")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    bundle = await api.client.get("/docs-assets/swagger-ui-bundle.js")
    assert len(bundle.content) > 100_000 and b"SwaggerUIBundle" in bundle.content


async def test_the_web_page_reaches_all_its_modules(api: Api) -> None:
    files = {urlsplit(url).path for url in await crawl(api, "/")}
    assert {"/assets/app.js", "/assets/viewers.js", "/assets/app.css"} <= files


async def test_the_checks_see_an_outside_host() -> None:
    page = '<script src="https://cdn.jsdelivr.net/x.js"></script><a href="//evil.example/">'
    found = references("/docs", page)
    assert [is_local(reference, BASE + "/docs") for reference in found] == [False, False]
    assert _ABSOLUTE.search(page)
    css = "body { background: url('https://fonts.example/x.woff') }"
    assert not is_local(references("/a.css", css)[0], BASE + "/a.css")
    assert not is_local(references("/a.js", 'import x from "https://esm.sh/x";')[0], BASE)
