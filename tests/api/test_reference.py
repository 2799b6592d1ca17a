"""The API reference a person can use offline: /docs renders the whole contract, every game's moves and an
anchor for every error code, loads nothing from elsewhere, and docs/ links only inside the repository."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import jsonschema
import pytest
import yaml

from domain.registry import game_names, get_rules
from service.api.errors import _HTTP_CODES
from tests.contract import SPEC_PATH

ROOT = SPEC_PATH.parent
DOCUMENT = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
OPERATIONS = [(path, method, operation) for path, item in DOCUMENT["paths"].items()
              for method, operation in item.items() if method in ("get", "post")]
# How the code names a problem's code: ApiError(status, "code", ...), IllegalMove("code", ...) and the helpers
# that take a code first.
RAISED = re.compile(r'(?:ApiError\(\s*\d{3},\s*|IllegalMove\(\s*|refuse\(\s*)"([a-z_]+)"')
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


class Page(HTMLParser):
    """The ids the page defines, and every URL it would load or link to."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids.add(value)
            if name in ("href", "src", "action") and value:
                self.urls.append(value)


@pytest.fixture
def page(api) -> Page:
    answer = api.get("/docs")
    assert answer.status_code == 200
    parsed = Page()
    parsed.feed(answer.text)
    parsed.text = answer.text
    return parsed


def codes_raised() -> set[str]:
    codes = {code for code, _title in _HTTP_CODES.values()}
    for folder in ("service", "domain", "workers"):
        for source in (ROOT / folder).rglob("*.py"):
            codes |= set(RAISED.findall(source.read_text(encoding="utf-8")))
    return codes | set(DOCUMENT["x-error-codes"])


def test_every_error_code_the_service_can_answer_has_its_anchor(page):
    missing = sorted(code for code in codes_raised() if f"error-{code}" not in page.ids)
    assert not missing, f"/docs has no #error-<code> entry for {missing}"


def test_a_rule_refusal_links_to_an_entry_naming_the_rule(api, page):
    game = api.create("borealis", 2, options={"goal_claim_mode": "manual"})
    view = api.get(f"/games/{game['game_id']}").json()
    refused = api.post(f"/games/{game['game_id']}/moves", game["seats"][0]["token"],
                       json={"type": "claim_goal", "goal_id": "no-such-goal"},
                       headers={"If-Match": f'"{view["version"]}"'})
    problem = refused.json()
    assert problem["type"].removeprefix("/docs#") in page.ids
    row = page.text.split(f"id=error-{problem['code']}>", 1)[1].split("<tr", 1)[0]
    assert "Borealis" in row and problem["rule_id"] in row


def test_every_operation_is_shown_with_its_schemas_and_a_true_example(page):
    components = {"components": DOCUMENT["components"]}
    for path, method, operation in OPERATIONS:
        assert f"op-{operation['operationId']}" in page.ids
        examples = []
        for response in operation["responses"].values():
            if "$ref" in response:
                response = DOCUMENT["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
            examples += [(content["schema"], content["example"]) for content in response.get("content", {}).values()
                         if "example" in content]
        assert examples, f"{method.upper()} {path} has no example"
        for schema, example in examples:
            jsonschema.validate(example, {**components, **schema})
    for name in DOCUMENT["components"]["schemas"]:
        assert f"schema-{name}" in page.ids


def test_every_game_is_shown_with_each_move_it_declares_and_its_fields(page):
    for name in game_names():
        rules = get_rules(name)
        assert f"game-{name}" in page.ids
        for move in rules.move_types():
            assert f"move-{name}-{move['type']}" in page.ids
            row = page.text.split(f"id=move-{name}-{move['type']}>", 1)[1].split("<tr", 1)[0]
            assert all(f"<code>{field}</code>" in row for field in move["fields"])


def test_the_page_loads_nothing_and_links_nowhere_outside_the_service(page):
    assert page.urls, "the page links to the contract at least"
    outside = [url for url in page.urls if re.match(r"^(?:[a-z][a-z0-9+.-]*:)?//", url, re.IGNORECASE)]
    assert not outside
    assert "<script" not in page.text and "@import" not in page.text


def test_every_link_in_docs_stays_inside_the_repository():
    for document in (ROOT / "docs").rglob("*.md"):
        text = document.read_text(encoding="utf-8")
        for target in MARKDOWN_LINK.findall(text):
            assert not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE), f"{document.name} links to {target}"
            file_part = target.split("#", 1)[0]
            if file_part:
                resolved = (document.parent / file_part).resolve()
                assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{document.name}: {target} is not here"
        for mentioned in re.findall(r"`(\.\./[^`\s]+)`", text):
            resolved = (document.parent / mentioned).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{document.name} points outside: {mentioned}"
