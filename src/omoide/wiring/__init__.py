"""The composition root: the only place objects are built, from one :class:`Settings`.

==========================  ==============================================================
``root``                    :class:`Omoide` and :func:`build` (everything, closed together)
``reader``                  :func:`open_reader`: the read use cases over the store files
                            alone (the CLI's reading commands)
``models``                  the embedder and the chat model the settings name
``storage``                 where things are kept: files, or PostgreSQL + Qdrant
``server``                  the server profile's half of ``storage`` (the ``server`` extra)
``memory``                  the memory pipeline: remembering and recalling
``recall``                  its recall half, which the read path's search and reply
                            section build alone
``streams``                 the stream service, over the same parts as the rest
==========================  ==============================================================

Each name is imported from its module on first use, so that ``open_reader`` loads none of
what ``build`` needs (the embedders, the memory pipeline, the stream service).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from omoide.lazy_names import names_on_first_use

if TYPE_CHECKING:
    from omoide.wiring.models import build_chat_model, build_embedder
    from omoide.wiring.reader import Reader, open_reader
    from omoide.wiring.recall import memory_config
    from omoide.wiring.root import Omoide, Resources, build
    from omoide.wiring.storage import open_key_store, server_config, server_extra
    from omoide.wiring.streams import StreamParts, build_streams, stream_config, stream_model

_HOMES = {
    "Omoide": "root",
    "Reader": "reader",
    "Resources": "root",
    "StreamParts": "streams",
    "build": "root",
    "build_chat_model": "models",
    "build_embedder": "models",
    "build_streams": "streams",
    "memory_config": "recall",
    "open_key_store": "storage",
    "open_reader": "reader",
    "server_config": "storage",
    "server_extra": "storage",
    "stream_config": "streams",
    "stream_model": "streams",
}

__all__ = [
    "Omoide",
    "Reader",
    "Resources",
    "StreamParts",
    "build",
    "build_chat_model",
    "build_embedder",
    "build_streams",
    "memory_config",
    "open_key_store",
    "open_reader",
    "server_config",
    "server_extra",
    "stream_config",
    "stream_model",
]


__getattr__ = names_on_first_use(__name__, _HOMES, globals())
