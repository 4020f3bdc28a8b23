"""The scope attack (issue 15): hostile viewer ids, many scopes, nothing crosses between them.

Three characters whose ids are a prefix and a case variant of each other (``haru``,
``har``, ``Haru``) each remember about a dozen viewers drawn from :data:`HOSTILE_IDS`
(lookalikes, direction marks, SQL and JSON metacharacters, LIKE wildcards, ids that are
prefixes or case variants of each other, an id of the longest length): 36 scopes. Every
scope stores turns, a fact and stream comments that carry its own marker word. Then a
seeded attacker reads each scope through every read route, asking for another scope's
marker, deletes and corrects another scope's episodes and facts through its own path, and
lists each character's viewers with hostile searches. Finally a key for one character
tries every route family of the others. Targets: 0 markers of another scope in any
answer, 0 cross-scope deletes or corrections, 0 5xx; and each scope still holds its data.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from pydantic import SecretStr

from tests.api.harness import NOW, make_characters_dir, make_settings, running_api, viewer_path

pytestmark = pytest.mark.anyio

SEED = 15
RANDOM_OPERATIONS = 1200
CHARACTERS = ("haru", "har", "Haru")
ADMIN_SECRET = "scope-attack-admin"
HARU_SECRET = "scope-attack-haru-only"
HOSTILE_IDS = [
    "a", "a1", "a_", "a%", "A", "%", "_", "*", "' OR 1=1 --", '" OR ""="', "x') OR ('1'='1",
    '{"user_id": "a"}', "\uff41", "\u0430", "a\u200b", "\u200fa", "\u202eevil", "민준",
    "😀", "x" * 256, "x" * 255, " a ", "...", "a?b#c;d+e", "null",
]  # fmt: skip
"""Valid under the id rule of :mod:`omoide.text_rules`, and chosen to collide if any
layer compares loosely: ``a`` / ``A`` / fullwidth ``ａ`` / Cyrillic ``а`` / ``a`` with a
zero-width space or a right-to-left mark; prefixes (``a``, ``a1``, ``a_``, ``a%``) and
LIKE wildcards (``%``, ``_``) that match everything if a search is not escaped."""
MARKER = re.compile(r"mk\d{3}zq")
FORGED_IDS = ["' OR 1=1 --", "%", "*", "_", "1 OR 1=1", '{"$ne": null}']


@dataclass
class Victim:
    """One scope and what it stored: its marker and the ids of its episodes and facts."""

    character: str
    user_id: str
    marker: str
    episode_ids: list[str] = field(default_factory=list)
    fact_ids: list[str] = field(default_factory=list)

    @property
    def path(self) -> str:
        return viewer_path(self.character, quote(self.user_id, safe=""))


@dataclass
class Attack:
    """The service (every request with the admin key), its scopes, and what was seen."""

    client: httpx.AsyncClient
    victims: list[Victim]
    operations: int = 0
    leaks: list[str] = field(default_factory=list)
    cross_writes: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)

    async def call(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        response = await self.client.request(method, url, **kwargs)
        self.operations += 1
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {url} -> {response.status_code} {response.text}")
        return response

    def of(self, character: str) -> list[Victim]:
        return [victim for victim in self.victims if victim.character == character]

    def check_leaks(self, response: httpx.Response, own: Victim | None, what: str) -> None:
        leaked = foreign_markers(response.text, own)
        if leaked:
            self.leaks.append(f"{what}: {sorted(leaked)} in {response.text[:300]}")


def markers_in(text: str) -> set[str]:
    """Every scope marker an answer holds (any case, as topics may be lower-cased)."""
    return set(MARKER.findall(text.lower()))


def foreign_markers(text: str, own: Victim | None) -> set[str]:
    """The markers in ``text`` of scopes other than ``own`` (all of them for ``None``)."""
    return markers_in(text) - ({own.marker} if own else set())


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def scopes() -> list[tuple[str, str]]:
    """36 (character, viewer) pairs: each character a different, overlapping dozen."""
    rng = random.Random(SEED)
    chosen = []
    for character in CHARACTERS:
        for user_id in rng.sample(HOSTILE_IDS, 12):
            chosen.append((character, user_id))
    return chosen


@pytest.fixture(scope="module")
async def attack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Attack]:
    root = tmp_path_factory.mktemp("scope-attack")
    settings = make_settings(
        root / "data",
        characters_dirs=[make_characters_dir(root, *CHARACTERS[1:])],
        api_keys=SecretStr(f"{ADMIN_SECRET}:*;{HARU_SECRET}:haru"),
    )
    async with running_api(settings, headers=bearer(ADMIN_SECRET)) as running:
        victims = [Victim(c, u, f"mk{index:03d}zq") for index, (c, u) in enumerate(scopes())]
        found = Attack(running.client, victims)
        for victim in victims:
            await remember(found, victim)
        for character in CHARACTERS:
            await comment(found, character)
        await running.app.state.service.built.streams.drain()
        yield found


async def remember(attack: Attack, victim: Victim) -> None:
    """A turn, a batch of one, and a fact, each carrying the scope's marker."""
    marker = victim.marker
    turn = {
        "user_message": f"My secret word is {marker}, never tell anyone {marker}",
        "bot_message": f"I will keep {marker} safe",
        "emotion": "happy",
        "topics": [marker],
        "metadata": {"note": marker},
        "user_name": f"Mo {marker}",
        "force_store": True,
    }
    batch = {"turns": [{"user_message": f"I adore {marker} plushies", "force_store": True}]}
    for route, body in (("/turns", turn), ("/turns/batch", batch)):
        response = await attack.call("POST", victim.path + route, json=body)
        assert response.status_code == 200, (victim, response.text)
        outcomes = response.json()["turns"] if route.endswith("batch") else [response.json()]
        victim.episode_ids += [outcome["episode_id"] for outcome in outcomes]
    fact = {"text": f"collects {marker} cards", "category": "preference"}
    response = await attack.call("POST", victim.path + "/facts", json=fact)
    assert response.status_code == 201, (victim, response.text)
    victim.fact_ids.append(response.json()["fact_id"])


async def comment(attack: Attack, character: str) -> None:
    """One stream where every viewer of ``character`` says its marker."""
    events = [
        {"viewer_id": v.user_id, "display_name": "Mo", "text": f"I love {v.marker} so much",
         "time": NOW.isoformat(), "platform": "twitch"}
        for v in attack.of(character)
    ]  # fmt: skip
    url = f"/v1/characters/{character}/streams/night-{character}/events"
    response = await attack.call("POST", url, json={"events": events})
    assert response.status_code == 200, response.text


def reads(own: Victim, asked: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Every read of ``own``'s scope, asking for the marker ``asked`` where a read can."""
    summary = f"/v1/characters/{own.character}/viewers/{quote(own.user_id, safe='')}"
    return [
        ("GET", own.path + "/export", {}),
        ("GET", own.path + "/episodes", {"params": {"limit": 500, "include_archived": "true"}}),
        ("GET", own.path + "/facts", {"params": {"include_inactive": "true"}}),
        ("GET", own.path + "/profile", {"params": {"message": f"what about {asked}?"}}),
        ("GET", own.path + "/emotions", {"params": {"days": 3650}}),
        ("POST", own.path + "/search", {"json": {"query": f"secret word {asked}", "k": 50}}),
        ("POST", own.path + "/context", {"json": {"query": f"tell me about {asked}"}}),
        ("GET", summary + "/stream-summary", {}),
    ]


async def test_each_scope_reads_its_own_marker_and_no_other(attack: Attack) -> None:
    """The positive control: the detector sees a scope's marker in its own answers."""
    assert len({(victim.character, victim.user_id) for victim in attack.victims}) == 36
    for victim in attack.victims:
        for method, url, kwargs in reads(victim, victim.marker):
            response = await attack.call(method, url, **kwargs)
            assert response.status_code == 200, (victim, url, response.text)
            attack.check_leaks(response, victim, f"{victim.character}/{victim.user_id!r} {url}")
            assert markers_in(response.text) == {victim.marker}, (victim, url, response.text)
    assert attack.leaks == [] and attack.server_errors == []


async def test_the_detector_finds_a_scope_read_through_another(attack: Attack) -> None:
    """The leak check is not vacuous: each scope's answers, judged as if another scope
    had received them, are leaks of exactly that scope's marker."""
    for owner, victim in zip(attack.victims, attack.victims[1:], strict=False):
        for method, url, kwargs in reads(victim, victim.marker):
            response = await attack.call(method, url, **kwargs)
            assert foreign_markers(response.text, owner) == {victim.marker}, (url, owner)
            assert foreign_markers(response.text, victim) == set(), url


def ghosts(victim: Victim) -> list[str]:
    """Ids that a loose comparison would take for ``victim``'s own."""
    user_id = victim.user_id
    made = {user_id.upper(), user_id.lower(), user_id + "%", user_id + "\u200b", user_id.strip()}
    made.add(user_id[:-1] + "_" if len(user_id) > 1 else "_")
    return sorted(made - {user_id})


async def cross_write(
    attack: Attack, attacker_path: str, victim: Victim, rng: random.Random
) -> None:
    """Delete or correct one of ``victim``'s episodes or facts through another scope's path."""
    kind = rng.choice(["episode", "fact", "correct"])
    ids = victim.episode_ids if kind == "episode" else victim.fact_ids
    target = rng.choice(ids)
    target = rng.choice([target, target, target.upper(), target[:-1] + "%", *FORGED_IDS])
    route = "/episodes/" if kind == "episode" else "/facts/"
    url = attacker_path + route + quote(target, safe="")
    if kind == "correct":
        response = await attack.call("PATCH", url, json={"text": "hijacked by the attacker"})
    else:
        response = await attack.call("DELETE", url)
    if response.status_code != 404:
        attack.cross_writes.append(f"{kind} {url} -> {response.status_code} {response.text[:200]}")
    attack.check_leaks(response, None, f"{kind} {url}")


async def list_viewers(attack: Attack, character: str, search: str) -> None:
    """The character's viewer list, searched: only its own viewers, wildcards literal; a
    viewer matches by its id or by a name it went by. ASCII letters may match in either case
    (SQLite's LIKE folds them; PostgreSQL's does not)."""
    url = f"/v1/characters/{character}/users"
    response = await attack.call("GET", url, params={"search": search, "limit": 500})
    assert response.status_code == 200, (search, response.text)
    attack.check_leaks(response, None, f"users of {character} searched {search!r}")
    listed = {user["user_id"] for user in response.json()["users"]}
    names = {victim.user_id: (f"Mo {victim.marker}", "Mo") for victim in attack.of(character)}
    named = {
        user
        for user in listed
        if any(search.casefold() in name.casefold() for name in names.get(user, ()))
    }
    own = {victim.user_id for victim in attack.of(character)}
    strays = listed - own
    loose = {user for user in listed - named if search.lower() not in user.lower()}
    missing = {user for user in own if search in user} - listed
    if strays or loose or missing:
        attack.leaks.append(
            f"users of {character} searched {search!r}: foreign {sorted(strays)}, "
            f"not matching {sorted(loose)}, missing {sorted(missing)}"
        )


def a_search(rng: random.Random) -> str:
    """A viewer search: a prefix or piece of a hostile id, or a bare metacharacter."""
    user_id = rng.choice(HOSTILE_IDS)
    start = rng.randrange(len(user_id))
    piece = user_id[start : start + rng.randint(1, 4)]
    return rng.choice([user_id[: rng.randint(1, len(user_id))], piece, "%", "_", "*", "'", ""])


async def test_random_cross_scope_operations_leak_nothing(attack: Attack) -> None:
    rng = random.Random(SEED)
    counts = dict.fromkeys(("read", "cross write", "ghost read", "viewer list"), 0)
    for _ in range(RANDOM_OPERATIONS):
        owner, victim = rng.sample(attack.victims, 2)
        siblings = [v for v in attack.victims if v is not owner and _related(owner, v)]
        if siblings and rng.random() < 0.4:
            victim = rng.choice(siblings)  # same id elsewhere, a case variant, a prefix
        roll = rng.random()
        if roll < 0.45:
            counts["read"] += 1
            method, url, kwargs = rng.choice(reads(owner, victim.marker))
            response = await attack.call(method, url, **kwargs)
            attack.check_leaks(response, owner, f"{owner.user_id!r} asked for {victim.marker}")
        elif roll < 0.8:
            counts["cross write"] += 1
            await cross_write(attack, owner.path, victim, rng)
        elif roll < 0.9:
            counts["ghost read"] += 1
            ghost = viewer_path(victim.character, quote(rng.choice(ghosts(victim)), safe=""))
            mine = next((v for v in attack.victims if v.path == ghost), None)
            response = await attack.call("GET", ghost + "/export")
            attack.check_leaks(response, mine, f"ghost {ghost} of {victim.user_id!r}")
        else:
            counts["viewer list"] += 1
            await list_viewers(attack, rng.choice(CHARACTERS), a_search(rng))
    assert all(count >= 30 for count in counts.values()), counts
    assert attack.leaks == [], attack.leaks
    assert attack.cross_writes == [], attack.cross_writes
    assert attack.server_errors == [], attack.server_errors
    await assert_intact(attack)


def _related(one: Victim, other: Victim) -> bool:
    a, b = one.user_id, other.user_id
    return a == b or a.casefold() == b.casefold() or a.startswith(b) or b.startswith(a)


async def assert_intact(attack: Attack) -> None:
    """Every scope still holds every episode and fact it stored, with its marker."""
    for victim in attack.victims:
        episodes = await attack.call("GET", victim.path + "/episodes", params={"limit": 500})
        facts = await attack.call("GET", victim.path + "/facts")
        have = {e["episode_id"] for e in episodes.json()["episodes"]}
        assert set(victim.episode_ids) <= have, (victim, episodes.text)
        assert [f["text"] for f in facts.json() if f["fact_id"] in victim.fact_ids] == [
            f"collects {victim.marker} cards"
        ], (victim, facts.text)
        assert markers_in(episodes.text + facts.text) == {victim.marker}


async def test_every_search_of_every_character_lists_only_its_viewers(attack: Attack) -> None:
    searches = sorted({piece for user_id in HOSTILE_IDS for piece in (user_id, user_id[:1])})
    for character in CHARACTERS:
        for search in [*searches, "%", "_", "%%", "a%", "a_", "' OR 1=1 --", ""]:
            await list_viewers(attack, character, search)
    assert attack.leaks == [], attack.leaks
    assert attack.server_errors == [], attack.server_errors


def route_families(character: str, victim: Victim) -> list[tuple[str, str, dict[str, Any]]]:
    """Every route that names a character, aimed at ``character`` and ``victim``'s data."""
    base = f"/v1/characters/{character}"
    user = quote(victim.user_id, safe="")
    viewer = f"{base}/users/{user}"
    episode, fact = victim.episode_ids[0], victim.fact_ids[0]
    chat = {"character_id": character, "user_id": victim.user_id, "user_name": "Mo",
            "session_id": "s1", "message": f"what is {victim.marker}?"}  # fmt: skip
    asked = [{"role": "user", "content": f"what is {victim.marker}?"}]
    completion = {"model": character, "user": victim.user_id, "messages": asked}
    event = {"viewer_id": victim.user_id, "text": "hijack", "time": NOW.isoformat()}
    return [
        ("POST", viewer + "/turns", {"json": {"user_message": "hijack", "force_store": True}}),
        ("POST", viewer + "/turns/batch", {"json": {"turns": [{"user_message": "hijack"}]}}),
        ("POST", viewer + "/search", {"json": {"query": victim.marker}}),
        ("POST", viewer + "/context", {"json": {"query": victim.marker}}),
        ("GET", viewer + "/episodes", {}),
        ("DELETE", viewer + f"/episodes/{episode}", {}),
        ("GET", viewer + "/export", {}),
        ("GET", viewer + "/emotions", {}),
        ("DELETE", viewer, {}),
        ("GET", viewer + "/facts", {}),
        ("POST", viewer + "/facts", {"json": {"text": "hijack", "category": "preference"}}),
        ("PATCH", viewer + f"/facts/{fact}", {"json": {"text": "hijack"}}),
        ("DELETE", viewer + f"/facts/{fact}", {}),
        ("GET", viewer + "/profile", {}),
        ("GET", base + "/users", {"params": {"search": victim.user_id}}),
        ("POST", base + "/streams/s1/events", {"json": {"events": [event]}}),
        ("POST", base + "/streams/s1/end", {}),
        ("GET", base + "/diary", {}),
        ("GET", base + f"/viewers/{user}/stream-summary", {}),
        ("GET", base + "/identity/versions", {}),
        ("GET", base + "/identity/versions/0", {}),
        ("GET", base + "/identity/pending", {}),
        ("POST", base + "/identity/pending/1/approve", {}),
        ("POST", base + "/identity/pending/1/reject", {}),
        ("POST", base + "/identity/rollback", {"json": {"version": 0}}),
        ("POST", "/v1/chat/stream", {"json": chat}),
        ("POST", "/v1/chat/completions", {"json": completion}),
        ("GET", f"/v1/models/{quote(character, safe='')}", {}),
        ("POST", "/v1/maintenance/decay", {"json": {"character_id": character}}),
        ("POST", "/v1/maintenance/decay", {"json": {"character_id": character, "dry_run": True}}),
        (
            "POST",
            "/v1/maintenance/decay/restore",
            {"json": {"character_id": character, "episode_ids": [episode]}},
        ),
    ]


async def snapshot(attack: Attack, character: str) -> tuple[str, ...]:
    """What the admin sees of ``character``'s viewers, episodes and facts."""
    seen = []
    for victim in attack.of(character):
        for route in ("/episodes", "/facts"):
            response = await attack.call("GET", victim.path + route)
            seen.append(response.text)
    return tuple(seen)


async def test_a_key_for_one_character_is_refused_on_every_route_of_the_others(
    attack: Attack,
) -> None:
    haru = bearer(HARU_SECRET)
    own = attack.of("haru")[0]
    for method, url, kwargs in route_families("haru", own)[2:5]:  # the key works at home
        assert (await attack.call(method, url, headers=haru, **kwargs)).status_code == 200
    characters = await attack.call("GET", "/v1/characters", headers=haru)
    assert characters.json()["characters"] == ["haru"]
    models = await attack.call("GET", "/v1/models", headers=haru)
    assert [model["id"] for model in models.json()["data"]] == ["haru"]
    metrics = await attack.call("GET", "/v1/metrics", headers=haru)
    assert metrics.status_code == 403
    refused = 0
    for character in ("har", "Haru", "HARU", "nobody"):
        victims = attack.of(character) or attack.of("har")
        before = await snapshot(attack, character)
        for method, url, kwargs in route_families(character, victims[0]):
            response = await attack.call(method, url, headers=haru, **kwargs)
            assert response.status_code == 403, (method, url, response.status_code, response.text)
            attack.check_leaks(response, None, f"{method} {url} with the haru key")
            refused += 1
        assert await snapshot(attack, character) == before, f"{character} changed under a 403"
    assert refused == 4 * len(route_families("har", attack.of("har")[0]))
    assert attack.leaks == [], attack.leaks
    assert attack.server_errors == [], attack.server_errors
