"""The README's curl walkthrough and docs/clients.md's Python examples, run as written against a real server.

A reader copies these examples and expects the answers they show, on every
run. The walkthrough's commands run in bash with curl, each answer shown after
a command is compared with the one received (a shown value with ``…``, or the
game id the walkthrough assigns, stands for whatever the server gave), and a
command with no answer shown must not be refused. The Python examples run in
one namespace, in the order a reader meets them, but for the refusal example,
which the text says runs on p1's turn, before the game is played out.
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
from pathlib import Path

import requests
from cairn_client import RandomPolicy
from cairn_client.bot import SeatBot

ROOT = Path(__file__).resolve().parents[2]
# An answer shown cut short: "…" where the rest of an object or list would be.
CUT = re.compile(r",\s*…(?=\s*[}\]])")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
ANSWER_END = "<<<answer-end>>>"
# A shell function in front of the walkthrough: each curl's answer on its own, whatever the command's layout.
CURL = f'curl() {{ command curl "$@"; echo; echo "{ANSWER_END}"; }}\n'


def section(path: Path, heading: str) -> str:
    text = path.read_text()
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + len(heading) + 2)
    return text[start:end if end >= 0 else len(text)]


def blocks(text: str) -> list[tuple[str, str]]:
    return [(match.group(1), match.group(2)) for match in FENCE.finditer(text)]


def matches(shown, received, placeholders: set[str]) -> bool:
    """Whether an answer received is the one shown: every key shown, with its value (lists whole), since an
    object shown may be cut short."""
    if isinstance(shown, dict):
        return isinstance(received, dict) and all(
            key in received and matches(value, received[key], placeholders) for key, value in shown.items())
    if isinstance(shown, list):
        return (isinstance(received, list) and len(shown) == len(received)
                and all(matches(a, b, placeholders) for a, b in zip(shown, received, strict=True)))
    if isinstance(shown, str) and ("…" in shown or shown in placeholders):
        return isinstance(received, str) and bool(received)
    return shown == received


def run_curl(script: str, base_url: str, variables: dict[str, str]) -> list[str]:
    script = script.replace("localhost:8000", base_url.removeprefix("http://"))
    finished = subprocess.run(["bash", "-c", CURL + script], capture_output=True, text=True, timeout=60,
                              env={"PATH": "/usr/bin:/bin", **variables})
    assert finished.returncode == 0, finished.stderr
    return [answer.strip() for answer in finished.stdout.split(ANSWER_END)[:-1]]


def test_the_readme_walkthrough_answers_what_it_shows(base_url):
    walkthrough = section(ROOT / "README.md", "## Playing a game with curl")
    assignment = re.search(r"^GAME=(\w+); P1=(\S+); P2=(\S+)$", walkthrough, re.MULTILINE)
    assert assignment, "the walkthrough names the game and the tokens it keeps"
    placeholders = {assignment.group(1)}
    variables: dict[str, str] = {}
    pending: list[str] = []
    commands = 0
    for language, body in blocks(walkthrough):
        if language == "sh":
            for unchecked in pending:
                assert "code" not in json.loads(unchecked), f"a command with no answer shown was refused: {unchecked}"
            pending = run_curl(body.replace(assignment.group(0), ""), base_url, variables)
            commands += len(pending)
        elif language == "json":
            shown, received = json.loads(CUT.sub("", body)), json.loads(pending.pop())
            assert matches(shown, received, placeholders), f"shown {shown}\nreceived {received}"
            if "seats" in received:
                variables = {"GAME": received["game_id"],
                             **{seat["seat"].upper(): seat["token"] for seat in received["seats"]}}
    assert commands == 8 and variables
    for path in re.findall(r"`(/games/\$GAME/[^`]+)`", walkthrough):
        if not path.endswith("/stream"):
            url = base_url + path.replace("$GAME", variables["GAME"])
            assert requests.get(url, timeout=30).status_code == 200, path
    table = re.search(r"`http://localhost:8000(/games/\$GAME/table\?token=\$P1)`", walkthrough)
    assert table, "the walkthrough links the table page"
    page = requests.get(base_url + table.group(1).replace("$GAME", variables["GAME"]).replace("$P1", variables["P1"]),
                        timeout=30)
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]


def test_the_takeback_examples_of_the_api_docs_answer_what_they_show(base_url):
    """docs/api.md "Taking back moves": each shown answer is the last of its block's commands, the others
    must not be refused; the game's id and tokens come from the creation's answer."""
    examples = section(ROOT / "docs/api.md", "### Taking back moves")
    examples = examples[:examples.index("\n### ", 10)]
    variables: dict[str, str] = {}
    pending: list[str] = []
    shown_answers = 0
    for language, body in blocks(examples):
        if language == "sh":
            assert not pending, f"an answer was not shown: {pending}"
            pending = run_curl(body, base_url, variables)
        elif language == "json":
            shown, received = json.loads(CUT.sub("", body)), json.loads(pending.pop())
            for unchecked in pending:
                assert "code" not in json.loads(unchecked), f"a command with no answer shown was refused: {unchecked}"
            pending = []
            assert matches(shown, received, set()), f"shown {shown}\nreceived {received}"
            shown_answers += 1
            if "organiser_token" in received:
                variables = {"GAME": received["game_id"],
                             **{seat["seat"].upper(): seat["token"] for seat in received["seats"]}}
    assert shown_answers == 6 and variables


def python_examples() -> dict[str, list[str]]:
    """docs/clients.md's Python examples by the heading of their section."""
    text = (ROOT / "docs/clients.md").read_text()
    found: dict[str, list[str]] = {}
    for part in re.split(r"^(?=## )", text, flags=re.MULTILINE)[1:]:
        heading = part.splitlines()[0].removeprefix("## ")
        found[heading] = [body for language, body in blocks(part) if language == "python"]
    return found


def run_python(example: str, namespace: dict) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, "docs/clients.md", "exec"), namespace)  # noqa: S102 (the documentation's own code)
    return printed.getvalue()


def test_the_python_clients_examples_run_as_written(base_url, worker, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    examples = python_examples()
    namespace: dict = {}
    create, stale, declared = examples["Create a game and play it"]
    create = create.replace("http://127.0.0.1:8000", base_url)
    played = run_python(create, namespace)
    assert played.split()[0] == str(namespace["game"]["version"] + 1), "p1's mulligan is one event"
    run_python(stale, namespace)
    run_python(declared, namespace)
    (refusal,) = examples["Errors"]
    assert run_python(refusal, namespace).strip() == "not_in_hand BOR-OBS-1 card_id"

    cairn, game_id, tokens = namespace["cairn"], namespace["game_id"], namespace["tokens"]
    everyone = {**tokens, "organiser": namespace["game"]["organiser_token"]}
    SeatBot(cairn, game_id, everyone, RandomPolicy(3), random.Random(3)).play()
    cairn.wait_for_score(game_id)
    for example in examples["Follow a game live"]:
        run_python(example, namespace)
    (history,) = examples["Read the history"]
    run_python(history + '\nfound = [summary["game_id"] for summary in cairn.iter_games(status="ended", '
               'player="ootah")]\n', namespace)
    assert namespace["state"]["version"] == 12 and namespace["found"] == [game_id]
    (records,) = examples["Exports, audits, scores and jobs"]
    progress = run_python(records, namespace)
    assert progress.splitlines()[-1].startswith("finished")
    assert (tmp_path / "game.json").read_bytes() == namespace["record"]
    assert namespace["report"]["ok"] is True and namespace["score"]
    (tables,) = examples["Tables: open seats, tokens, resigning"]
    run_python(tables, namespace)
    assert namespace["table"]["game_id"] in namespace["waiting"]
    assert namespace["joined"]["seat"] == "p2" and namespace["resigned"]["status"] == "ended"
    (takebacks,) = examples["Takebacks"]
    run_python(takebacks, namespace)
    assert namespace["asked"]["events"][0]["type"] == "takeback_requested"
    assert [event["type"] for event in namespace["granted"]["events"]] == ["takeback_accepted", "moves_taken_back"]
    assert namespace["rewound"]["taken_back"] == [[9, 9]] and namespace["rewound"]["takeback"] is None
    (clocks,) = examples["Clocks"]
    assert run_python(clocks, namespace).startswith("clock_running p1's clock is still running: ")
    assert namespace["clock"]["mode"] == "fischer" and namespace["clock"]["seats"]["p1"]["running"] is True
