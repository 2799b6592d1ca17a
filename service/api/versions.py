"""Versions on the wire: ETags name a game's version (and whose view an answer is), and a move names the
version it was decided against, in ``If-Match`` (RFC 9110) or in its body.

A view's tag is ``"<version>"`` for the public and ``"<version>;<reader>"``
for a token's reader, so one reader's tag never revalidates another
reader's view. ``If-Match`` is read with the strong comparison RFC 9110
asks for: a weak tag never matches. Its forms:

- ``*``: true of any game that exists; the version then comes from the body;
- a list of tags: the strong tags this service gives (``"8"``, ``"8;p1"``)
  must all name one version, which is then the expected version; tags of
  any other kind never match, so a list of nothing else is a 412;
- anything that is not an entity-tag list is a 400.
"""
from __future__ import annotations

import re

from flask import request

from service.api.errors import ApiError
from service.api.schemas import MAX_VERSION

# RFC 9110 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
_ENTITY_TAG = re.compile(r'(W/)?"([\x21\x23-\x7e\x80-\xff]*)"')
_OWS = " \t"
# At most 16 digits: 2**53 has 16, and int() of thousands of digits is an error, not a number.
_VERSION_TAG = re.compile(r"^([1-9][0-9]{0,15})(?:;(?:organiser|p[1-9][0-9]*))?$")


def etag(version: int, reader: str | None = None) -> str:
    """The tag of an answer at ``version``; shaped for ``reader`` (``None``: the public, or the game itself)."""
    return f'"{version};{reader}"' if reader else f'"{version}"'


def shaped_for(reader: str | None) -> dict[str, str]:
    """Headers of an answer that depends on the request's token: caches keep one per token, and shared caches
    none of a token's answers. Every such answer must be revalidated: the game may have moved since."""
    return {"Vary": "Authorization", "Cache-Control": "private, no-cache" if reader else "no-cache"}


def not_modified(tag: str) -> bool:
    """Whether ``If-None-Match`` holds ``tag`` (weak comparison, as RFC 9110 asks for If-None-Match)."""
    return request.if_none_match.contains_weak(tag.strip('"'))


def expected_version(from_body: int | None) -> int:
    """The version from ``If-Match`` or the body field; 428 when neither is sent, 400 when they disagree."""
    from_header = _if_match_version(request.headers.get("If-Match"))
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


def _if_match_version(header: str | None) -> int | None:
    """The one version the header's strong tags name; ``None`` without the header or for ``*``."""
    if header is None or header.strip(_OWS) == "*":
        return None
    versions = set()
    for weak, opaque in _entity_tags(header):
        matched = None if weak else _VERSION_TAG.match(opaque)
        if matched and int(matched.group(1)) <= MAX_VERSION:
            versions.add(int(matched.group(1)))
    if len(versions) > 1:
        raise _invalid_if_match("If-Match names more than one version; a move is decided against one")
    if not versions:
        raise ApiError(412, "precondition_failed", "Precondition failed",
                       "If-Match holds no strong tag of a game version (a weak tag W/\"...\" never matches)",
                       field="If-Match")
    return versions.pop()


def _entity_tags(header: str) -> list[tuple[bool, str]]:
    """``(weak, opaque)`` for each entity-tag of a comma-separated list (RFC 9110 5.6.1: empty elements are
    allowed, but one tag at least); 400 for anything else."""
    tags, position, end = [], 0, len(header)
    while position < end:
        if header[position] in _OWS + ",":
            position += 1
            continue
        matched = _ENTITY_TAG.match(header, position)
        if matched is None:
            raise _invalid_if_match('If-Match must be * or a list of entity-tags, e.g. If-Match: "7"')
        tags.append((matched.group(1) is not None, matched.group(2)))
        position = matched.end()
        while position < end and header[position] in _OWS:
            position += 1
        if position < end and header[position] != ",":
            raise _invalid_if_match('If-Match must be * or a list of entity-tags, e.g. If-Match: "7"')
    if not tags:
        raise _invalid_if_match('If-Match must be * or a list of entity-tags, e.g. If-Match: "7"')
    return tags


def _invalid_if_match(detail: str) -> ApiError:
    return ApiError(400, "invalid_if_match", "Invalid If-Match", detail, field="If-Match")
