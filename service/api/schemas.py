"""Request bodies and query strings, checked with marshmallow before anything is read or written.

A failed check names the first offending field, so a client learns what to
fix without the service having looked at the game at all: a body field is a
422 ``invalid_field``, a query parameter a 400 ``invalid_query`` (the URL
itself is wrong, whatever the game). Every number has explicit bounds, so
none reaches Redis out of the range its commands take (stream ids and
offsets are 64-bit there; a larger number is an error reply, not a page).
"""
from __future__ import annotations

from datetime import UTC
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from domain.core.chance import CHANCE_MODES, SERVER
from domain.core.takeback import TAKEBACK_MODES
from service.api.errors import ApiError

SEAT_PATTERN = r"^p[1-9][0-9]*$"
GAME_STATUSES = ("active", "ended", "scored")
# A version fits a JSON number exactly (and a Redis stream id); no game will get near either bound.
MAX_VERSION = 2**53
MAX_COUNT = 10**9
VERSION_RANGE = validate.Range(min=1, max=MAX_VERSION)
COUNT_RANGE = validate.Range(min=1, max=MAX_COUNT)


class CreateGameSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)), required=True, validate=validate.Length(min=1, max=16)
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    chance_mode = fields.String(load_default=SERVER, validate=validate.OneOf(CHANCE_MODES))
    seed = fields.String(validate=validate.Length(min=8, max=256))
    # Seats nobody holds yet (TABLE-SEAT-1): they get a token when taken (POST /games/{id}/seats/{seat}/join).
    open_seats = fields.List(fields.String(validate=validate.Regexp(SEAT_PATTERN)), load_default=list,
                             validate=validate.Length(max=16))
    # Who answers a takeback request (TABLE-TAKEBACK-2): the other seats unless the game says otherwise.
    takebacks = fields.String(validate=validate.OneOf(TAKEBACK_MODES))
    # A time control (TABLE-CLOCK-1), checked by domain.core.clock, which names the field at fault.
    clock = fields.Raw()

    @validates_schema
    def seed_only_in_server_mode(self, data: dict, **_: Any) -> None:
        if "seed" in data and data["chance_mode"] != SERVER:
            raise ValidationError("a seed is only used in server mode: table mode draws physical cards", "seed")


class MoveSchema(Schema):
    """A game command plus the two reserved fields ``expected_version`` and ``seat``; the rest is the game's."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    expected_version = fields.Integer(strict=True, validate=VERSION_RANGE)
    seat = fields.String(validate=validate.Regexp(SEAT_PATTERN))


class ListGamesQuery(Schema):
    game = fields.String()
    status = fields.String(validate=validate.OneOf(GAME_STATUSES))
    player = fields.String()
    open = fields.Boolean(truthy={"1", "true"}, falsy={"0", "false"})
    created_after = fields.AwareDateTime(default_timezone=UTC)
    created_before = fields.AwareDateTime(default_timezone=UTC)
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_COUNT))
    limit = fields.Integer(load_default=50, validate=COUNT_RANGE)


class EventsQuery(Schema):
    from_ = fields.Integer(data_key="from", load_default=1, validate=VERSION_RANGE)
    limit = fields.Integer(load_default=100, validate=COUNT_RANGE)


class StateQuery(Schema):
    at = fields.Integer(validate=VERSION_RANGE)


class StreamQuery(Schema):
    from_ = fields.Integer(data_key="from", validate=VERSION_RANGE)
    token = fields.String()
    view = fields.Boolean(truthy={"1", "true"}, falsy={"0", "false"})


class LegalMovesQuery(Schema):
    seat = fields.String(validate=validate.Regexp(SEAT_PATTERN))


def first_error(messages: dict | list, prefix: str = "") -> tuple[str, str]:
    """The first offending field (dotted path) and its message, from marshmallow's nested errors."""
    if isinstance(messages, list):
        return prefix or "body", "; ".join(str(item) for item in messages)
    key, value = next(iter(messages.items()))
    path = f"{prefix}.{key}" if prefix else str(key)
    if key == "_schema":
        path = prefix or "body"
    return first_error(value, path) if isinstance(value, dict) else (path, "; ".join(map(str, value)))


def load(schema: Schema, data: Any, *, where: str = "body") -> dict:
    """``schema.load(data)``, or a problem naming the field: 422 for the body, 400 for the query."""
    if where == "body" and not isinstance(data, dict):
        raise ApiError(422, "body_not_object", "Request body is not an object", "the JSON body must be an object")
    try:
        return schema.load(data)
    except ValidationError as error:
        path, message = first_error(error.messages)
        if where == "body":
            raise ApiError(422, "invalid_field", "Invalid field", f"{path}: {message}", field=path) from None
        raise ApiError(400, "invalid_query", "Invalid query parameter", f"{path}: {message}", field=path) from None
