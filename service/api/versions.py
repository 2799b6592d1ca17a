"""Versions on the wire: a game's ETag is its version, and a move names the version it was decided against."""
from __future__ import annotations

import re

from flask import request

from service.api.errors import ApiError

_IF_MATCH = re.compile(r'^\s*(?:W/)?"?([1-9][0-9]*)"?\s*$')


def etag(version: int) -> str:
    return f'"{version}"'


def expected_version(from_body: int | None) -> int:
    """The version from ``If-Match`` or the body field; 428 when neither is sent, 400 when they disagree."""
    header = request.headers.get("If-Match")
    from_header = None
    if header is not None:
        matched = _IF_MATCH.match(header)
        if not matched:
            raise ApiError(400, "invalid_if_match", "Invalid If-Match",
                           'If-Match must hold one game version, e.g. If-Match: "7"', field="If-Match")
        from_header = int(matched.group(1))
    if from_header is not None and from_body is not None and from_header != from_body:
        raise ApiError(400, "expected_version_mismatch", "Two different expected versions",
                       f"If-Match says {from_header} but expected_version says {from_body}",
                       field="expected_version")
    version = from_header if from_header is not None else from_body
    if version is None:
        raise ApiError(428, "expected_version_required", "Expected version required",
                       "send the version you decided against as If-Match or as expected_version",
                       field="expected_version")
    return version
