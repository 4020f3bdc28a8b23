"""The composition root: the only place objects are built, from one :class:`Settings`.

==========================  ==============================================================
``root``                    :class:`Omoide` and :func:`build` (everything, closed together)
``models``                  the embedder and the chat model the settings name
``storage``                 where things are kept: files, or PostgreSQL + Qdrant
``server``                  the server profile's half of ``storage`` (the ``server`` extra)
``memory``                  the memory pipeline: remembering and recalling
``streams``                 the stream service, over the same parts as the rest
==========================  ==============================================================
"""

from omoide.wiring.memory import memory_config
from omoide.wiring.models import build_chat_model, build_embedder
from omoide.wiring.root import Omoide, Resources, build
from omoide.wiring.storage import open_key_store, server_config, server_extra
from omoide.wiring.streams import StreamParts, build_streams, stream_config, stream_model

__all__ = [
    "Omoide",
    "Resources",
    "StreamParts",
    "build",
    "build_chat_model",
    "build_embedder",
    "build_streams",
    "memory_config",
    "open_key_store",
    "server_config",
    "server_extra",
    "stream_config",
    "stream_model",
]
