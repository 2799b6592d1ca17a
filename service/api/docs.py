"""The contract, as served: the OpenAPI document and a reference page a person can read without any network.

The page is rendered on the server from the same document, so it cannot
drift from the spec, and it loads nothing from anywhere: no script, no font,
no stylesheet beyond its own. It shows each operation with its parameters,
request and response schemas and an example; every schema of the spec; each
game's options and move types, from the games' own declarations
(:meth:`~domain.core.rules.Rules.move_types`); and an anchor
(``#error-<code>``) for every code a problem's ``type`` can name, the
service's and the rules' alike.
"""
from __future__ import annotations

import json
from functools import cache
from html import escape

import yaml
from flask import Blueprint, Response

from domain.registry import game_names, get_rules
from service.api.context import services
from service.api.refusals import rule_refusals
from service.move_contract import union_name

blueprint = Blueprint("docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")
REF_PREFIX = "#/components/schemas/"
STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:68rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
h1{margin-bottom:0}code,pre{font:13px ui-monospace,monospace;background:#f1f3f6;padding:0 .25rem}
pre{padding:.5rem;overflow-x:auto;white-space:pre-wrap}nav a{margin-right:.8rem}
.op{border-top:1px solid #d5dae1;padding:.5rem 0}.method{font-weight:bold;text-transform:uppercase;width:4rem;
display:inline-block}table{border-collapse:collapse;margin:.3rem 0}td,th{border-bottom:1px solid #e4e7ec;
padding:.2rem .6rem;text-align:left;vertical-align:top}.muted{color:#5b6575}
"""


@blueprint.get("/openapi.yaml")
def spec():
    return Response(services().spec_text, mimetype="application/yaml")


@blueprint.get("/docs")
def page():
    return Response(render(services().spec_text), mimetype="text/html")


@cache
def render(spec_text: str) -> str:
    document = yaml.safe_load(spec_text)
    info = document["info"]
    parts = [
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(info['title'])} API</title>",
        f"<style>{STYLE}</style><h1>{escape(info['title'])} API {escape(info['version'])}</h1>",
        "<nav><a href=#endpoints>Endpoints</a><a href=#games>Games and their moves</a>"
        "<a href=#schemas>Schemas</a><a href=#errors>Error codes</a></nav>",
        f"<p>{escape(info.get('summary', ''))}</p><pre>{escape(info.get('description', ''))}</pre>",
        "<p>The machine-readable contract: <a href=/openapi.yaml>/openapi.yaml</a>. The games, each with its "
        "table page (<code>/games/{game_id}/table</code>, the board to play on in a browser) and replay: "
        "<a href=/>the front page</a>.</p>",
        "<h2 id=endpoints>Endpoints</h2>",
    ]
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                parts.append(_operation(path, method, item[method], item.get("parameters", []),
                                        document["components"]["responses"]))
    parts.append(_games())
    parts.append("<h2 id=schemas>Schemas</h2>")
    for name, schema in document["components"]["schemas"].items():
        parts.append(f"<h3 id=schema-{escape(name)}>{escape(name)}</h3>{_schema(schema)}")
    parts.append(_errors(document.get("x-error-codes", {})))
    return "".join(parts)


def _operation(path: str, method: str, operation: dict, shared: list[dict], responses: dict) -> str:
    parameters = [p for p in [*shared, *operation.get("parameters", [])] if "name" in p]
    rows = "".join(
        f"<tr><td><code>{escape(p['name'])}</code><td>{escape(p['in'])}{' (required)' if p.get('required') else ''}"
        f"<td>{_type(p.get('schema', {}))}<td>{escape(p.get('description', ''))}"
        for p in parameters
    )
    operation_id = operation.get("operationId", f"{method}-{path}")
    parts = [
        f"<div class=op id=op-{escape(operation_id)}><h3><span class=method>{method}</span> "
        f"<code>{escape(path)}</code></h3><p><b>{escape(operation.get('summary', ''))}</b></p>"
        f"<pre>{escape(operation.get('description', '').strip())}</pre>",
    ]
    if rows:
        parts.append(f"<table><tr><th>parameter<th>in<th>type<th>notes{rows}</table>")
    body = operation.get("requestBody", {}).get("content", {})
    for media_type, content in body.items():
        parts.append(f"<p>Request body (<code>{escape(media_type)}</code>):</p>{_schema(content.get('schema', {}))}")
    parts.append("<table><tr><th>status<th>answer")
    for status, response in operation.get("responses", {}).items():
        parts.append(f"<tr><td>{escape(str(status))}<td>{_response(response)}")
    parts.append("</table>")
    example = _example(operation, responses)
    if example is not None:
        parts.append(f"<p>Example answer:</p><pre>{escape(example)}</pre>")
    return "".join(parts) + "</div>"


def _response(response: dict) -> str:
    if "$ref" in response:
        name = response["$ref"].rsplit("/", 1)[-1]
        return f"<span class=muted>{escape(name)}</span>"
    parts = [escape(response.get("description", ""))]
    for media_type, content in response.get("content", {}).items():
        parts.append(f"<br><code>{escape(media_type)}</code> {_type(content.get('schema', {}))}")
    return "".join(parts)


def _example(operation: dict, responses: dict) -> str | None:
    """The first example of the operation's answers (``responses``: the shared ones, for a ``$ref``), as pretty
    JSON (or text)."""
    for response in operation.get("responses", {}).values():
        if "$ref" in response:
            response = responses[response["$ref"].rsplit("/", 1)[-1]]
        for content in response.get("content", {}).values():
            if "example" in content:
                value = content["example"]
                return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)
    return None


def _type(schema: dict) -> str:
    """A schema in a few words: a link for a named schema, else its type, enum, pattern or items."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(REF_PREFIX)
        return f"<a href=#schema-{escape(name)}>{escape(name)}</a>"
    if "allOf" in schema:
        return " and ".join(_type(part) for part in schema["allOf"])
    if "oneOf" in schema:
        return "one of " + ", ".join(_type(part) for part in schema["oneOf"])
    kind = schema.get("type", "any")
    words = escape(" or ".join(kind) if isinstance(kind, list) else str(kind))
    if "enum" in schema:
        words += " (" + ", ".join(f"<code>{escape(json.dumps(value))}</code>" for value in schema["enum"]) + ")"
    if "const" in schema:
        words += f" <code>{escape(json.dumps(schema['const']))}</code>"
    if "items" in schema:
        words += f" of {_type(schema['items'])}"
    if isinstance(schema.get("additionalProperties"), dict):
        words += f" of {_type(schema['additionalProperties'])} by name"
    if "pattern" in schema:
        words += f" matching <code>{escape(schema['pattern'])}</code>"
    return words


def _schema(schema: dict) -> str:
    """An object's fields as a table (required ones marked); any other schema in a few words."""
    if "allOf" in schema:
        return "".join(_schema(part) for part in schema["allOf"])
    description = f"<p>{escape(schema['description'])}</p>" if "description" in schema else ""
    properties = schema.get("properties")
    if not properties:
        return description + f"<p>{_type(schema)}</p>"
    required = set(schema.get("required", []))
    rows = "".join(
        f"<tr><td><code>{escape(name)}</code>{' *' if name in required else ''}<td>{_type(field)}"
        f"<td>{escape(field.get('description', ''))}"
        for name, field in properties.items()
    )
    return description + f"<table><tr><th>field (* required)<th>type<th>notes{rows}</table>"


def _games() -> str:
    parts = ["<h2 id=games>Games and their moves</h2><p>Each move is posted as <code>{\"type\": ..., field: "
             "value, ...}</code>; <code>GET /games/{id}/legal-moves</code> lists the complete moves a seat may make "
             "now, and any field not listed here is refused as <code>unknown_field</code>.</p>"]
    for name in game_names():
        rules = get_rules(name)
        parts.append(f"<h3 id=game-{escape(name)}>{escape(rules.title)} (<code>{escape(name)}</code>)</h3>"
                     f"<p>{escape(', '.join(map(str, rules.player_counts)))} players; rules version "
                     f"{escape(rules.rules_version)}.</p>")
        options = rules.options_schema.get("properties", {})
        if options:
            rows = "".join(f"<tr><td><code>{escape(option)}</code><td>{_type(schema)}"
                           f"<td>{escape(json.dumps(schema['default'])) if 'default' in schema else ''}"
                           f"<td>{escape(schema.get('description', ''))}" for option, schema in options.items())
            parts.append(f"<table><tr><th>option<th>values<th>default<th>notes{rows}</table>")
        rows = "".join(
            f"<tr id=move-{escape(name)}-{escape(move['type'])}><td><code>{escape(move['type'])}</code>"
            f"<td>{escape(move['description'])}<td>{escape(move['rule_id'] or '')}<td>"
            + ("<br>".join(_move_field(field, shown) for field, shown in move["fields"].items())
               or "<span class=muted>none</span>")
            for move in rules.move_types()
        )
        if rows:
            parts.append(f"<p>As one schema: <a href=#schema-{escape(union_name(name))}>{escape(union_name(name))}"
                         f"</a>.</p><table><tr><th>move<th>what it does<th>rule<th>fields (* required){rows}</table>")
    return "".join(parts)


def _move_field(name: str, shown: dict) -> str:
    """A move's field in a line: its name (starred when required), JSON type and description."""
    kinds = shown["type"] if isinstance(shown["type"], list) else [shown["type"]]
    words = " or ".join(kinds)
    if "items" in shown:
        items = shown["items"] if isinstance(shown["items"], list) else [shown["items"]]
        words += " of " + " or ".join(items)
    if "values" in shown:
        words += " (" + ", ".join(json.dumps(value) for value in shown["values"]) + ")"
    star = " *" if shown["required"] else ""
    return f"<code>{escape(name)}</code>{star} <span class=muted>{escape(words)}</span>: {escape(shown['description'])}"


def _errors(service_codes: dict[str, str]) -> str:
    parts = ["<h2 id=errors>Error codes</h2><p>Every problem answer's <code>type</code> is "
             "<code>/docs#error-&lt;code&gt;</code>, an entry below.</p><table><tr><th>code<th>meaning"]
    for code, meaning in service_codes.items():
        parts.append(f"<tr id=error-{escape(code)}><td><code>{escape(code)}</code><td>{escape(meaning)}")
    parts.append("</table><h3 id=rule-refusals>Refusals by the rules</h3><p>A move the rules refuse keeps the "
                 "rules' own code; its <code>rule_id</code> names the rule in that game's specification.</p>"
                 "<table><tr><th>code<th>games<th>rules cited")
    for code, refusal in sorted(rule_refusals().items()):
        anchor = "" if code in service_codes else f" id=error-{escape(code)}"
        parts.append(f"<tr{anchor}><td><code>{escape(code)}</code><td>{escape(', '.join(sorted(refusal.games)))}"
                     f"<td>{escape(', '.join(sorted(refusal.rules)))}")
    return "".join(parts) + "</table>"
