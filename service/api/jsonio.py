"""JSON in and out of the API with orjson: encoding answers and parsing bodies is a fair share of a move's cost.

orjson is also strict where the standard library is lenient: it refuses
``NaN`` and ``Infinity``, which are not JSON, so they never reach a game or
a hash. But it reads an integer beyond 64 bits as a float, changing its
value, so a body that holds a number that long is read by the standard
library, as strictly.
"""
from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS
# 19 digits in a row: maybe an integer orjson would not keep exactly (a string of digits merely reads slower).
_LONG_NUMBER = re.compile(rb"\d{19}")


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON with orjson underneath; keys keep their order (answers list fields as the spec does)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        # Flask types the app's response_class as werkzeug's sans-IO Response, whose first parameter is the
        # status and which it returns; a Flask app's is flask.Response, whose first parameter is the body.
        return self._app.response_class(dumps(obj), mimetype=self.mimetype)  # type: ignore[arg-type,return-value]


def dumps(obj: Any) -> bytes:
    """Anything Flask's own encoder takes (dates, dataclasses, UUIDs natively; the rest via its ``default``)."""
    return orjson.dumps(obj, default=DefaultJSONProvider.default, option=_OPTIONS)


def loads(data: str | bytes) -> Any:
    """Strict JSON: :class:`ValueError` for anything else, ``NaN`` included."""
    raw = data.encode() if isinstance(data, str) else data
    if _LONG_NUMBER.search(raw):
        return json.loads(raw, parse_constant=_not_json)
    return orjson.loads(raw)


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")
