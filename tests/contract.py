"""Every answer a test receives, held to api_spec.yaml: its operation, status, media type, headers and body.

The checks are openapi-core's for a response: the path and method are an operation of the spec, the status
is one of its responses (exactly, by its range such as ``5XX``, or ``default``), the Content-Type is one it
declares, each declared header that is present (and each required one) fits its schema, and the body,
read as its media type says, fits the schema. Each schema is compiled once, by jsonschema-rs, against the
whole document so its ``$ref`` resolve: openapi-core resolved and checked every schema anew on each answer,
nine milliseconds of a test's client work per answer and a third of the suite's time.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jsonschema_rs
import yaml

SPEC_PATH = Path(__file__).resolve().parents[1] / "api_spec.yaml"
JSON_TYPES = {"application/json", "application/problem+json"}


class ContractViolation(AssertionError):
    """An answer the spec does not describe."""


def _read(media_type: str, body: bytes) -> Any:
    if media_type in JSON_TYPES:
        return json.loads(body)
    if media_type == "application/yaml":
        return yaml.safe_load(body)
    return body.decode("utf-8")


@dataclass(frozen=True)
class Operation:
    pattern: re.Pattern[str]
    template: str
    responses: Mapping[str, Any]


class Contract:
    def __init__(self, spec_path: Path = SPEC_PATH) -> None:
        self.document: dict[str, Any] = yaml.safe_load(spec_path.read_text())
        self.operations: dict[str, list[Operation]] = {}
        for template, item in self.document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(template)) + "$")
            for method, operation in item.items():
                if method in {"get", "post", "put", "patch", "delete"}:
                    self.operations.setdefault(method.upper(), []).append(
                        Operation(pattern, template, operation["responses"]))
        for listed in self.operations.values():  # a literal segment wins over a template's parameter
            listed.sort(key=lambda operation: (operation.template.count("{"), -len(operation.template)))

    def check(self, method: str, url: str, status: int, headers: Mapping[str, str], body: bytes) -> None:
        path = urlsplit(url).path
        operation = next((each for each in self.operations.get(method.upper(), []) if each.pattern.match(path)),
                         None)
        if operation is None:
            raise ContractViolation(f"{method} {path} is no operation of the spec")
        where = f"{method} {operation.template} {status}"
        key = next((key for key in (str(status), f"{str(status)[0]}XX", "default") if key in operation.responses),
                   None)
        if key is None:
            raise ContractViolation(f"{where}: the spec gives no such status")
        pointer = ["paths", operation.template, method.lower(), "responses", key]
        response = operation.responses[key]
        if "$ref" in response:
            pointer = [part.replace("~1", "/").replace("~0", "~") for part in
                       response["$ref"].removeprefix("#/").split("/")]
            response = self.resolve(response["$ref"])
        for name, declared in (response.get("headers") or {}).items():
            if "$ref" in declared:
                declared = self.resolve(declared["$ref"])
            value = headers.get(name)
            if value is None:
                if declared.get("required"):
                    raise ContractViolation(f"{where}: the required header {name} is missing")
                continue
            self.fits(self.inline_validator(json.dumps(declared["schema"])), value, f"{where}: header {name}")
        content = response.get("content")
        if not content:
            return
        media_type = headers.get("Content-Type", "").split(";")[0].strip()
        if media_type not in content:
            raise ContractViolation(f"{where}: Content-Type {media_type!r} is not one of {sorted(content)}")
        if "schema" not in content[media_type]:
            return
        try:
            read = _read(media_type, body)
        except ValueError as error:
            raise ContractViolation(f"{where}: the body is not {media_type}: {error}") from error
        self.fits(self.validator((*pointer, "content", media_type, "schema")), read, where)

    def check_response(self, response: Any) -> None:
        """A ``requests`` response (read whole) against the spec."""
        self.check(response.request.method, response.request.url, response.status_code, response.headers,
                   response.content)

    def resolve(self, reference: str) -> Any:
        found: Any = self.document
        for part in reference.removeprefix("#/").split("/"):
            found = found[part.replace("~1", "/").replace("~0", "~")]
        return found

    @staticmethod
    def fits(validator: Callable[[Any], Any], value: Any, where: str) -> None:
        try:
            validator(value)
        except jsonschema_rs.ValidationError as error:
            raise ContractViolation(f"{where}: {error.message} at {list(error.instance_path)}") from error

    @cache  # noqa: B019 (one Contract lives as long as the run)
    def validator(self, pointer: tuple[str, ...]) -> Callable[[Any], Any]:
        """The schema at ``pointer`` (its segments unescaped), compiled once against the whole document."""
        fragment = "/".join(quote(part.replace("~", "~0").replace("/", "~1"), safe="~") for part in pointer)
        return jsonschema_rs.validator_for({**self.document, "$ref": f"#/{fragment}"}, validate_formats=True).validate

    @cache  # noqa: B019
    def inline_validator(self, schema: str) -> Callable[[Any], Any]:
        return jsonschema_rs.validator_for(json.loads(schema), validate_formats=True).validate


CONTRACT = Contract()
