"""Bearer tokens: one per seat and one for the organiser, made at creation and shown once.

The store keeps only ``sha256(token)``, so a leaked database does not leak
the right to move. A token names a reader of one game: ``p1``..``pN`` or
``organiser``; any other game refuses it.
"""
from __future__ import annotations

import secrets
from typing import Literal, overload

from flask import request

from domain.core.events import ORGANISER
from service.api.context import prelude_for
from service.api.errors import ApiError
from service.store import EventStore

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh bearer token that does not start with ``-``.

    A token is pasted into command lines (``cairn bot --token T``, ``curl``); one that began with a
    dash would be taken there for an option. Drawing again when it does costs under 0.03 of its 256 bits.
    """
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not token.startswith("-"):
            return token


def new_tokens(seats: list[str]) -> dict[str, str]:
    """A fresh token per seat and for the organiser (reader -> plain token)."""
    return {reader: new_token() for reader in [*seats, ORGANISER]}


def presented_token(allow_query: bool = False) -> str | None:
    """The request's bearer token; the ``token`` query parameter only where a browser cannot send headers (SSE)."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "token_malformed", "Malformed credentials",
                           "send the token as 'Authorization: Bearer <token>'", headers=_challenge())
        return token.strip()
    if allow_query:
        return request.args.get("token") or None
    return None


@overload
def reader_for(store: EventStore, game_id: str, *, required: Literal[True], allow_query: bool = False) -> str: ...


@overload
def reader_for(store: EventStore, game_id: str, *, required: bool, allow_query: bool = False) -> str | None: ...


def reader_for(store: EventStore, game_id: str, *, required: bool, allow_query: bool = False) -> str | None:
    """The reader the request's token stands for in ``game_id``; ``None`` is the public."""
    token = presented_token(allow_query)
    if token is None:
        if required:
            raise ApiError(401, "token_missing", "Token required",
                           "this request needs a seat or organiser token of the game", headers=_challenge())
        return None
    prelude = prelude_for(game_id)
    if prelude is not None and prelude.token == token:
        reader = prelude.reader
    else:
        reader = store.reader_for_token(game_id, token)
    if reader is None:
        raise ApiError(401, "token_invalid", "Unknown token", "the token does not belong to this game",
                       headers=_challenge())
    return reader


def _challenge() -> dict[str, str]:
    return {"WWW-Authenticate": 'Bearer realm="cairn"'}
