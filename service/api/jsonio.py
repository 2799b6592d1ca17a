"""JSON in and out of the API with orjson: encoding answers and parsing bodies is a fair share of a move's cost.

orjson is also strict where the standard library is lenient: it refuses
``NaN`` and ``Infinity``, which are not JSON, so they never reach a game or
a hash.
"""
from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON with orjson underneath; keys keep their order (answers list fields as the spec does)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any):
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps(obj), mimetype=self.mimetype)


def dumps(obj: Any) -> bytes:
    """Anything Flask's own encoder takes (dates, dataclasses, UUIDs natively; the rest via its ``default``)."""
    return orjson.dumps(obj, default=DefaultJSONProvider.default, option=_OPTIONS)


def loads(data: str | bytes) -> Any:
    """Strict JSON: :class:`ValueError` for anything else, ``NaN`` included."""
    return orjson.loads(data)
