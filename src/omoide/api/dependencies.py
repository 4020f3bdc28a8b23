"""Request dependencies: the service, the caller, and a checked character or viewer scope.

Order matters and is fixed here: the key is checked first (401), then whether it may use
the character (403), and only then whether the character exists (404), so a caller without
access learns nothing about which characters exist.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from omoide.api.auth import Caller, is_local_request
from omoide.api.runtime import Service
from omoide.chat.conversation import Conversation
from omoide.domain import Scope
from omoide.errors import BackendUnavailable, ConfigError, NotFound
from omoide.text_rules import check_id

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="Bearer",
    description="`Authorization: Bearer <key>`, a key from `omoide keys create`",
)
api_key_header = APIKeyHeader(
    name="X-API-Key",
    auto_error=False,
    scheme_name="ApiKey",
    description="The same key, in the `X-API-Key` header",
)


def get_service(request: Request) -> Service:
    service = getattr(request.app.state, "service", None)
    if not isinstance(service, Service):
        raise ConfigError("the service is not running (its lifespan has not started)")
    return service


ServiceDep = Annotated[Service, Depends(get_service)]


async def get_caller(
    request: Request,
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    header_key: Annotated[str | None, Depends(api_key_header)],
) -> Caller:
    """Who is calling; 401 without a valid key (unless no keys exist and it is loopback)."""
    secret = credentials.credentials if credentials is not None else header_key
    peer = request.client.host if request.client is not None else None
    trusted = service.built.settings.forwarded_allow_ips
    local = is_local_request(peer, request.headers.items(), trusted)
    return await service.keys.identify(secret, local=local)


CallerDep = Annotated[Caller, Depends(get_caller)]


async def checked_character(
    character_id: Annotated[str, Path(description="A character id, e.g. haru")],
    caller: CallerDep,
    service: ServiceDep,
) -> str:
    """The path's character: 422 if it is no id, 403 if the key may not use it, 404 if it
    does not exist."""
    check_id(character_id, name="character_id")
    await check_character(character_id, caller, service)
    return character_id


async def check_character(character_id: str, caller: Caller, service: Service) -> None:
    """403 if the caller may not use the character, 404 if it does not exist."""
    caller.authorize(character_id)
    try:
        await service.built.characters.load(character_id)
    except NotFound as exc:  # the library's message names server folders: keep them private
        raise NotFound(f"character {character_id!r} not found") from exc


CharacterDep = Annotated[str, Depends(checked_character)]


async def allowed_characters(caller: Caller, service: Service) -> list[str]:
    """The characters that exist and this caller may use, sorted."""
    ids = await service.built.characters.list_ids()
    return [each for each in ids if caller.allows(each)]


def get_conversation(service: ServiceDep) -> Conversation:
    """The chat use case; BackendUnavailable (503) when no language model is configured."""
    conversation = service.built.conversation
    if conversation is None:
        raise BackendUnavailable(
            "chat needs a language model and none is configured (OMOIDE_LLM is 'none')"
        )
    return conversation


ConversationDep = Annotated[Conversation, Depends(get_conversation)]


async def viewer_scope(
    character_id: CharacterDep,
    user_id: Annotated[str, Path(description="The viewer's id, as the platform gives it")],
) -> Scope:
    """The path's (character, viewer) scope; 422 for an id that is not valid."""
    return Scope(character_id, check_id(user_id, name="user_id"))


ScopeDep = Annotated[Scope, Depends(viewer_scope)]
