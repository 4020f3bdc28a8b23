"""Searching by what a message is about, not by its being chat: queries without the chat
direction.

Every message a viewer sends shares one thing with every other: it is casual chat. In a
sentence embedding that is a common direction, and it dominates the similarity of short
texts: "my cousins are dragging me to the seafront tomorrow" is closer to "stream
tomorrow?" than to "I've been scared of birds since a pigeon hit my face". Removing the
common component of a space's vectors before comparing them ("all-but-the-top", Mu and
Viswanath 2018; the mean-centring step of hubness reduction) leaves what a text is about.

The chat direction of an embedder is the mean vector of small-talk messages written in
Korean, Japanese, Chinese and English for the disclosure model (``benchmarks/disclosure``,
no benchmark data), shipped in :mod:`omoide.embed.chat_centroids` by ``python -m
benchmarks.centroid``. :class:`CentredQueries` subtracts it from every query vector and
makes the result unit length again; stored vectors are unchanged, so a store ranks by
``v . (q - m)``, the cosine less the memory's own likeness to chat. The relevance scale is
calibrated on the same centred queries (:mod:`omoide.memory.relevance`). On the companion
suite's held-out cases the key exchange's rank by meaning alone rose from top-5 in 44 %
of cases to 67 % (``python -m benchmarks.centroid.ranks``; ``docs/benchmarks.md``, session
12), and LongMemEval's recall rose on both halves; LoCoMo's fell (its BM25 hits, which carry
it, lose ground to centred cosines in the fusion). The cosine a search reports, and the
page shows as raw relevance, is the one computed against the centred query. An embedder
with no shipped centroid searches with its plain query vectors;
``OMOIDE_CENTRE_QUERIES=false`` turns centring off.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from omoide.domain import Matrix, Vector
from omoide.embed.base import Embedder
from omoide.embed.fused import FusedEmbedder
from omoide.errors import ConfigError

CENTROIDS_PACKAGE = "omoide.embed.chat_centroids"
STRENGTH = 1.0
"""How much of the chat direction a query loses. Half (0.5) was measured: the companion
suite's held-out cases 93.0 → 91.9 %, LoCoMo dev recall@10 with USE 0.594 → 0.617 (0.652
with plain queries), LongMemEval unchanged (``docs/benchmarks.md``, session 12)."""


@dataclass(frozen=True, slots=True)
class ChatCentroid:
    """The mean vector of chat messages for one embedder, and a short digest naming it."""

    embedder: str
    vector: Vector
    digest: str
    segments: tuple[tuple[int, int, float], ...] = ()
    """For a fused embedder (:mod:`omoide.embed.fused`), each part's slice of the query and
    its scale there: every part is centred in its own space, on its own part of
    ``vector``. Empty: the query is centred as one vector."""

    def centre(self, query: Vector) -> Vector:
        """``query`` without the chat direction, unit length."""
        if not self.segments:
            return centred(query, self.vector)
        plain = np.asarray(query, dtype=np.float32)
        pieces = [
            centred(plain[start:stop] / scale, self.vector[start:stop]) * scale
            for start, stop, scale in self.segments
        ]
        return np.concatenate(pieces).astype(np.float32)


def centroid_key(model_name: str) -> str:
    """An embedder's model name without its package version (``use:multilingual-v3``)."""
    return model_name.partition("@")[0]


def centroid_file_name(model_name: str) -> str:
    key = centroid_key(model_name)
    return "".join(character if character.isalnum() else "-" for character in key) + ".json"


def centroid_document(embedder: str, vector: Vector, **about: object) -> dict[str, object]:
    """The JSON document of a centroid (``about``: where it came from, for people)."""
    return {"embedder": embedder, **about, "vector": [round(float(x), 7) for x in vector]}


def load_chat_centroid(model_name: str, dimensions: int) -> ChatCentroid | None:
    """The centroid shipped for ``model_name``; ``None`` when none was computed for it."""
    resource = resources.files(CENTROIDS_PACKAGE).joinpath(centroid_file_name(model_name))
    if not resource.is_file():
        return None
    return centroid_from_text(resource.read_text(encoding="utf-8"), model_name, dimensions)


def centroid_from_text(text: str, model_name: str, dimensions: int) -> ChatCentroid:
    """The centroid a file's ``text`` holds, checked: for ``model_name``, ``dimensions``
    finite numbers, a mean of unit vectors (shorter than one)."""
    try:
        document = json.loads(text)
        embedder = str(document["embedder"])
        vector = np.asarray(document["vector"], dtype=np.float32)
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"the chat centroid file for {model_name} is malformed: {exc}") from exc
    if embedder != centroid_key(model_name):
        raise ConfigError(f"the chat centroid for {model_name} was computed for {embedder}")
    if vector.shape != (dimensions,) or not np.all(np.isfinite(vector)):
        raise ConfigError(f"the chat centroid for {model_name} is not {dimensions} numbers")
    if float(np.linalg.norm(vector)) >= 1.0:
        raise ConfigError(f"the chat centroid for {model_name} is no mean of unit vectors")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12] + f"x{STRENGTH:g}"
    return ChatCentroid(embedder=embedder, vector=vector * STRENGTH, digest=digest)


def chat_centroid_for(embedder: Embedder) -> ChatCentroid | None:
    """The chat centroid of ``embedder``: the one shipped for its model, or for a fused
    embedder its parts' centroids side by side (``None`` unless every part has one)."""
    if not isinstance(embedder, FusedEmbedder):
        return load_chat_centroid(embedder.model_name, embedder.dimensions)
    found = [
        load_chat_centroid(part.embedder.model_name, part.embedder.dimensions)
        for part in embedder.parts
    ]
    centroids = [centroid for centroid in found if centroid is not None]
    if len(centroids) < len(found):
        return None
    digest = hashlib.sha256(
        "+".join(
            f"{part.weight:.3g}*{c.digest}"
            for part, c in zip(embedder.parts, centroids, strict=True)
        ).encode()
    ).hexdigest()[:12]
    return ChatCentroid(
        embedder=embedder.model_name,
        vector=np.concatenate([centroid.vector for centroid in centroids]).astype(np.float32),
        digest=f"{digest}x{STRENGTH:g}",
        segments=tuple((part.start, part.stop, part.scale) for part in embedder.parts),
    )


def centred(query: Vector, centroid: Vector) -> Vector:
    """``query`` less ``centroid``, unit length again (the query itself if they coincide)."""
    difference = np.asarray(query, dtype=np.float32) - centroid
    norm = float(np.linalg.norm(difference))
    if not math.isfinite(norm) or norm < 1e-6:
        return np.asarray(query, dtype=np.float32)
    return (difference / norm).astype(np.float32)


class CentredQueries:
    """Wraps ``inner``: documents pass through, queries come back without the chat
    direction (:func:`centred`). Same ``model_name`` and ``dimensions``."""

    def __init__(self, inner: Embedder, centroid: ChatCentroid) -> None:
        if centroid.vector.shape != (inner.dimensions,):
            raise ConfigError(
                f"the chat centroid has {centroid.vector.shape[0]} dimensions, "
                f"the embedder {inner.dimensions}"
            )
        self._inner = inner
        self._centroid = centroid

    @property
    def centroid(self) -> ChatCentroid:
        return self._centroid

    @property
    def model_name(self) -> str:
        return self._inner.model_name

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    async def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return await self._inner.embed_documents(texts)

    async def embed_query(self, text: str) -> Vector:
        return self._centroid.centre(await self._inner.embed_query(text))

    async def aclose(self) -> None:
        """The wrapped embedder belongs to whoever built it."""
