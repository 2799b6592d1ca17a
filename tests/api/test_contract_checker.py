"""The checker every test's answers pass through refuses what the spec does not describe: a test of the tests,
since a checker that let everything through would leave every contract assertion of the suite unable to fail."""
from __future__ import annotations

import copy
import json

import pytest

from tests.contract import CONTRACT, ContractViolation

VIEW_URL = "http://127.0.0.1:1/games/b764a32087cdbff3"
VIEW = CONTRACT.document["paths"]["/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"][
    "example"]
HEADERS = {"Content-Type": "application/json", "ETag": '"9;p1"', "Vary": "Authorization",
           "Cache-Control": "private, no-cache"}


def check(status: int = 200, headers: dict | None = None, body: object = VIEW, url: str = VIEW_URL,
          method: str = "GET") -> None:
    CONTRACT.check(method, url, status, HEADERS if headers is None else headers, json.dumps(body).encode())


def test_the_specs_own_example_of_a_view_is_accepted():
    check()


def without(field: str) -> dict:
    body = copy.deepcopy(VIEW)
    del body[field]
    return body


@pytest.mark.parametrize(("answer", "said"), [
    ({"body": without("version")}, "version"),
    ({"body": {**VIEW, "version": "nine"}}, "nine"),
    ({"status": 207}, "no such status"),
    ({"headers": {**HEADERS, "Content-Type": "text/plain"}}, "Content-Type"),
    ({"headers": {**HEADERS, "ETag": "W/9"}}, "header ETag"),
    ({"url": "http://127.0.0.1:1/nowhere"}, "no operation"),
    ({"method": "DELETE"}, "no operation"),
], ids=["missing-field", "wrong-type", "undocumented-status", "wrong-media-type", "bad-header", "unknown-path",
        "unknown-method"])
def test_an_answer_the_spec_does_not_describe_is_refused(answer, said):
    with pytest.raises(ContractViolation, match=said):
        check(**answer)


def test_a_problem_answered_by_a_status_range_is_held_to_the_problem_schema():
    problem = {"type": "about:blank", "title": "Store unavailable", "status": 503, "code": "store_unavailable",
               "detail": "Redis did not answer", "rule_id": None, "field": None}
    headers = {"Content-Type": "application/problem+json", "Retry-After": "1"}
    check(503, headers, problem)
    with pytest.raises(ContractViolation):
        check(503, headers, {"title": 3})
