"""The contract, as served: the OpenAPI document and a page a person can read without any network.

The page is rendered here from the same document, so it cannot drift from
the spec; each error code has an anchor (``#error-<code>``) that the
``type`` of every problem response links to.
"""
from __future__ import annotations

from functools import cache
from html import escape

import yaml
from flask import Blueprint, Response

from service.api.context import services

blueprint = Blueprint("docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")
STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
h1{margin-bottom:0}code,pre{font:13px ui-monospace,monospace;background:#f1f3f6;padding:0 .25rem}
.op{border-top:1px solid #d5dae1;padding:.5rem 0}.method{font-weight:bold;text-transform:uppercase;width:4rem;
display:inline-block}table{border-collapse:collapse}td,th{border-bottom:1px solid #e4e7ec;padding:.2rem .6rem;
text-align:left;vertical-align:top}
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
        f"<p>{escape(info.get('summary', ''))}</p><pre>{escape(info.get('description', ''))}</pre>",
        "<p>The machine-readable contract: <a href=/openapi.yaml>/openapi.yaml</a>.</p><h2>Endpoints</h2>",
    ]
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                parts.append(_operation(path, method, item[method], item.get("parameters", [])))
    parts.append("<h2 id=errors>Error codes</h2><table><tr><th>code<th>meaning")
    for code, meaning in document.get("x-error-codes", {}).items():
        parts.append(f"<tr id=error-{escape(code)}><td><code>{escape(code)}</code><td>{escape(meaning)}")
    parts.append("</table><p>Any other <code>code</code> comes from a game's rules; its <code>rule_id</code> "
                 "names the rule in that game's specification.</p>")
    return "".join(parts)


def _operation(path: str, method: str, operation: dict, shared: list[dict]) -> str:
    parameters = [p for p in [*shared, *operation.get("parameters", [])] if "name" in p]
    rows = "".join(
        f"<tr><td><code>{escape(p['name'])}</code><td>{escape(p['in'])}<td>{escape(p.get('description', ''))}"
        for p in parameters
    )
    statuses = ", ".join(escape(str(status)) for status in operation.get("responses", {}))
    return (
        f"<div class=op><h3><span class=method>{method}</span> <code>{escape(path)}</code></h3>"
        f"<p><b>{escape(operation.get('summary', ''))}</b></p><p>{escape(operation.get('description', ''))}</p>"
        + (f"<table><tr><th>parameter<th>in<th>notes{rows}</table>" if rows else "")
        + f"<p>Responses: {statuses}</p></div>"
    )
