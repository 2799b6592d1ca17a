"""Loading a game's data files: component data the printed games do not give us.

Every file is JSON with a JSON Schema beside it (``name.json`` and
``name.schema.json``) and is checked when loaded, so a malformed edit stops
the service with the file and the field named instead of surfacing as a
wrong ruling mid-game.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from domain.core.canonical import canonical_json, sha256_hex
from domain.core.errors import DataError


def load_data(folder: Path, name: str) -> tuple[Any, str]:
    """The validated content of ``folder/name.json`` and its version (a short content hash)."""
    path = folder / f"{name}.json"
    schema_path = folder / f"{name}.schema.json"
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise DataError(str(error.filename), "-", "file not found") from None
    except json.JSONDecodeError as error:
        raise DataError(str(path), f"line {error.lineno}", error.msg) from None
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError as error:
        field = "/".join(str(part) for part in error.absolute_path) or "(root)"
        raise DataError(str(path), field, error.message) from None
    return value, sha256_hex(canonical_json(value))[:16]
