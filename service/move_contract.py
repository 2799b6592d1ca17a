"""The games' move declarations as the contract and the Python client state them, made from the declarations alone.

Each game declares its moves once (``domain/<game>/move_types.py``). From them this module writes the move
schemas at the end of ``api_spec.yaml`` (one schema per move type and one union per game, ``oneOf`` by
``type`` with a discriminator), the client's ``cairn_client/moves.py`` (a ``TypedDict`` per move type, a
union per game, and the table of every game's move fields) and the table of move fields in each game's page
``docs/games/<game>.md`` (between two markers; the page's own table says who moves when and what refuses it).
``python -m service.move_contract`` (``./run contract``) writes them; ``--check`` exits 1 if any differs from
what the declarations make, as a test checks too.
"""
from __future__ import annotations

import argparse
import keyword
import sys
from pathlib import Path

import yaml

from domain.core.move_types import CHANCE_MOVE, Field, MoveType
from domain.core.table import TABLE_MOVES
from domain.registry import game_names, get_rules

ROOT = Path(__file__).resolve().parents[1]
SPEC_PATH = ROOT / "api_spec.yaml"
CLIENT_PATH = ROOT / "clients" / "python" / "cairn_client" / "moves.py"
DOCS_PATH = ROOT / "docs" / "games"
DOCS_START = "<!-- The move fields below are made from the game's declarations by ./run contract; do not edit them. -->"
DOCS_END = "<!-- End of the move fields. -->"
# The line after which api_spec.yaml holds the generated schemas, to its end.
SPEC_MARKER = "    # The move schemas below are made from the games' declarations by ./run contract; do not edit them."
# The engine's moves, the same in every game: the organiser's draw and the table's (resign, abandon).
ENGINE_MOVES = (CHANCE_MOVE, *TABLE_MOVES.values())
PYTHON_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "array": "list",
                "object": "dict", "null": "None"}


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def schema_name(game: str, move: MoveType) -> str:
    """``BorealisObserveMove``: the game's name and the move type's, so no two games' (nor a game's union) meet."""
    return camel(move.type) + "Move" if move in ENGINE_MOVES else camel(game) + camel(move.type) + "Move"


def union_name(game: str) -> str:
    return camel(game) + "Move"


def field_schema(field: Field) -> dict:
    schema: dict = {"type": field.type if isinstance(field.type, str) else list(field.type)}
    if field.items is not None:
        items = {"type": field.items if isinstance(field.items, str) else list(field.items)}
        schema["items" if "array" in field.types else "additionalProperties"] = items
    if field.values is not None:
        schema["enum"] = list(field.values)
    schema["description"] = field.description
    return schema


def move_schema(move: MoveType) -> dict:
    rule = f" ({move.rule_id})." if move.rule_id else "."
    return {
        "type": "object",
        "description": move.description.rstrip(".") + rule,
        "required": ["type", *(field.name for field in move.fields if field.required)],
        "additionalProperties": False,
        "properties": {"type": {"const": move.type}, **{field.name: field_schema(field) for field in move.fields}},
    }


def move_schemas() -> dict[str, dict]:
    """Every game's move union and its moves' schemas, and the engine's moves that every union holds."""
    schemas: dict[str, dict] = {schema_name("", move): move_schema(move) for move in ENGINE_MOVES}
    for game in game_names():
        moves = list(get_rules(game).declared_moves.values())
        mapping = {move.type: f"#/components/schemas/{schema_name(game, move)}" for move in [*moves, *ENGINE_MOVES]}
        schemas[union_name(game)] = {
            "description": f"A move of {get_rules(game).title}, as GET legal-moves lists it (the organiser's "
                           f"{CHANCE_MOVE.type} included) or a table move every game has (resign, abandon); post "
                           "it with the version in If-Match or expected_version.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
        schemas.update((schema_name(game, move), move_schema(move)) for move in moves)
    return schemas


def spec_text(current: str) -> str:
    """``current`` (api_spec.yaml's text) with the generated schemas after :data:`SPEC_MARKER` made anew."""
    head = current.split(SPEC_MARKER + "\n", 1)[0].rstrip("\n") + "\n"
    body = yaml.safe_dump(move_schemas(), sort_keys=False, width=116, allow_unicode=True, default_flow_style=None)
    return head + SPEC_MARKER + "\n" + "".join(f"    {line}\n" for line in body.splitlines())


def _python_type(kinds: tuple[str, ...], items: tuple[str, ...]) -> str:
    inner = " | ".join(PYTHON_TYPES[kind] for kind in items) or "Any"
    words = [f"list[{inner}]" if kind == "array" else f"dict[str, {inner}]" if kind == "object"
             else PYTHON_TYPES[kind] for kind in kinds]
    return " | ".join(words)


def _typed_dict(name: str, move: MoveType) -> str:
    """A ``TypedDict`` for ``move``: a class, or the call form when a field's name is a Python keyword."""
    entries = [("type", f'Literal["{move.type}"]')]
    for field in move.fields:
        kind = _python_type(field.types, field.item_types)
        entries.append((field.name, kind if field.required else f"NotRequired[{kind}]"))
    if any(keyword.iskeyword(key) or not key.isidentifier() for key, _ in entries):
        lines = "".join(f'    "{key}": {kind},\n' for key, kind in entries)
        return f'\n\n{name} = TypedDict("{name}", {{\n{lines}}})\n'
    lines = "".join(f"    {key}: {kind}\n" for key, kind in entries)
    return f"\n\nclass {name}(TypedDict):\n{lines}"


def _fields_table(move: MoveType) -> str:
    """One move's row of :data:`MOVE_FIELDS`, on one line if it fits, else a field a line."""
    fields = [f'"{field.name}": {field.required}' for field in move.fields]
    row = f'        "{move.type}": {{{", ".join(fields)}}}'
    if len(row) <= 118:
        return row
    return f'        "{move.type}": {{\n' + "".join(f"            {field},\n" for field in fields) + "        }"


def client_text() -> str:
    """The client's ``moves`` module."""
    parts = [
        '"""The moves of every game Cairn referees, for type checkers, editors and move builders.\n\n'
        "Made from the games' declarations by ``./run contract`` (service/move_contract.py); do not edit it. A\n"
        "``TypedDict`` per move type and a union per game state the moves as GET legal-moves lists them;\n"
        ":data:`MOVE_FIELDS` gives each game's move types with their fields, each ``True`` when required.\n"
        '"""\n',
        "from __future__ import annotations\n\nfrom typing import Any, Literal, NotRequired, TypedDict\n",
        *(_typed_dict(schema_name("", move), move) for move in ENGINE_MOVES),
    ]
    table = []
    for game in game_names():
        moves = list(get_rules(game).declared_moves.values())
        parts.append(f"\n\n# {get_rules(game).title} ({game})")
        parts.extend(_typed_dict(schema_name(game, move), move) for move in moves)
        members = " | ".join(schema_name(game, move) for move in [*moves, *ENGINE_MOVES])
        parts.append(f"\n\n{union_name(game)} = (\n    " + _wrap(members.split(" | "), " | ", 4) + "\n)\n")
        rows = ",\n".join(_fields_table(move) for move in [*moves, *ENGINE_MOVES])
        table.append(f'    "{game}": {{\n{rows},\n    }},\n')
    parts.append("\n\n# Per game, each move type's fields, True when required.\n"
                 "MOVE_FIELDS: dict[str, dict[str, dict[str, bool]]] = {\n" + "".join(table) + "}\n")
    return "".join(parts)


def docs_path(game: str) -> Path:
    return DOCS_PATH / f"{game}.md"


def _field_words(field: Field) -> str:
    kinds = " or ".join(field.types)
    if field.item_types:
        kinds += " of " + " or ".join(field.item_types)
    values = f", one of {', '.join(f'`{value}`' for value in field.values)}" if field.values is not None else ""
    optional = ", optional" if not field.required else ""
    return f"`{field.name}` ({kinds}{values}{optional}): {field.description}"


def docs_text(game: str, current: str) -> str:
    """``current`` (the game's page) with the table between :data:`DOCS_START` and :data:`DOCS_END` made anew."""
    head, rest = current.split(DOCS_START + "\n", 1)
    tail = rest.split(DOCS_END, 1)[1]
    rows = ["| `type` | fields | rule |", "|---|---|---|"]
    for move in [*get_rules(game).declared_moves.values(), *ENGINE_MOVES]:
        fields = "; ".join(_field_words(field) for field in move.fields) or "none"
        rows.append(f"| `{move.type}` | {fields} | {move.rule_id or ''} |")
    return head + DOCS_START + "\n" + "\n".join(rows) + "\n" + DOCS_END + tail


def _wrap(words: list[str], joiner: str, indent: int, width: int = 116) -> str:
    lines, line = [], ""
    for word in words:
        candidate = word if not line else line + joiner + word
        if len(candidate) + indent > width and line:
            lines.append(line + joiner.rstrip())
            line = word
        else:
            line = candidate
    lines.append(line)
    return ("\n" + " " * indent).join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.move_contract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file differs, writing nothing")
    check = parser.parse_args(argv).check
    stale = []
    made = [(SPEC_PATH, spec_text(SPEC_PATH.read_text(encoding="utf-8"))), (CLIENT_PATH, client_text())]
    made += [(docs_path(game), docs_text(game, docs_path(game).read_text(encoding="utf-8"))) for game in game_names()]
    for path, text in made:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path} {'differs from the declarations' if check else 'written'}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
