"""Every operation of api_spec.yaml has its method on the Python client, and every such method an operation.

The spec is read when the test runs, so an operation added to the contract
without a client method fails here with the method to write.
"""
from __future__ import annotations

import inspect
import re

import yaml
from cairn_client import Client

from tests.contract import SPEC_PATH

METHODS = ("get", "put", "post", "delete", "patch")


def spec_operations() -> dict[tuple[str, str], str]:
    """``(METHOD, path)`` -> the client method's name: the operationId in snake case, else one from the path."""
    paths = yaml.safe_load(SPEC_PATH.read_text())["paths"]
    found = {}
    for path, item in paths.items():
        for method in METHODS:
            if method in item:
                found[(method.upper(), path)] = method_name(item[method].get("operationId"), method, path)
    return found


def method_name(operation_id: str | None, method: str, path: str) -> str:
    if operation_id:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()
    words = [part for part in re.split(r"[^a-zA-Z0-9]+", path) if part and not path_parameter(part, path)]
    return "_".join([method, *words]).lower()


def path_parameter(word: str, path: str) -> bool:
    return "{" + word + "}" in path


def client_operations() -> dict[tuple[str, str], str]:
    return {member.operation: name for name, member in inspect.getmembers(Client, inspect.isfunction)
            if hasattr(member, "operation")}


def test_every_operation_of_the_spec_has_a_client_method():
    covered = client_operations()
    missing = [f"{method} {path}: Client.{name}, marked @operation({method!r}, {path!r})"
               for (method, path), name in spec_operations().items() if (method, path) not in covered]
    assert not missing, "operations of api_spec.yaml without a client method:\n" + "\n".join(missing)


def test_each_method_is_named_after_its_operation_and_none_is_left_over():
    wanted = spec_operations()
    covered = client_operations()
    misnamed = {key: name for key, name in covered.items() if key in wanted and wanted[key] != name}
    assert not misnamed, f"methods not named after their operationId: {misnamed}"
    left_over = [key for key in covered if key not in wanted]
    assert not left_over, f"client methods for operations the spec no longer has: {left_over}"

