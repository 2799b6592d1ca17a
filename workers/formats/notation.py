"""The Cairn notation: a game record people can read, in the spirit of chess's PGN (docs/notation.md).

Tag pairs carry the header; then one line per move, numbered by the version
of its first event::

    [Game "high-card"]
    [P1 "Ann"]

    2. * deal -> card-7 {chance}
    4. p1 swap card=card-7
    9. end

A move is ``<seat> <type> key=value ...`` (the command as the seat submitted
it, so every game is written without a per-game grammar); ``*`` marks a chance
outcome and ``?`` a move or outcome hidden from the record's reader (a move is
shown to every reader unless it names another seat's secret); ``{...}`` and ``;``
start comments. :func:`replay_notation` submits the moves and outcomes again
through the rules.

A game with a clock (TABLE-CLOCK-1) has a ``Clock`` tag (its settings) and a ``Started`` tag (the time of
its creation), and each line gives the time of its first event after the version (``4. @2026-12-07T01:00:03.250000Z
p1 keep``): the clock is folded from those times, so a timeout claim replays as the server judged it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from domain.core.canonical import canonical_json
from domain.core.chance import TABLE, derive_outcome
from domain.core.clock import TIMEOUT_CLAIMED
from domain.core.errors import IllegalMove
from domain.core.events import ORGANISER, Event, JsonObject, full_data, seat_of
from domain.core.match import RESOLVE_CHANCE, Match, apply_event, replaying, start, submit
from domain.core.rules import Rules
from domain.core.table import score_sheet
from domain.core.takeback import MOVES_TAKEN_BACK, Earlier
from domain.registry import get_rules
from service.store.envelope import Envelope
from workers.formats import ExportInput, TextOut, words

BARE = re.compile(r"[A-Za-z0-9_#@.:/+\-]+")
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+("(?:[^"\\]|\\.)*")\]\s*$')
NUMBER = re.compile(r"(\d+)\.\s+")
TIME = re.compile(r"@(\S+)\s+")
HIDDEN = "?"
MARKERS = {"game_ended": "end", "game_scored": "scored"}


class NotationError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class ReplayError(ValueError):
    """A parsed record the rules do not accept, at ``version``; ``check`` is ``adjudication`` or ``chance``."""

    def __init__(self, version: int, message: str, check: str = "adjudication") -> None:
        super().__init__(f"version {version}: {message}")
        self.version = version
        self.message = message
        self.check = check


@dataclass(frozen=True)
class Move:
    """A seat's command; ``None`` when the record withheld it from its reader."""

    version: int
    seat: str
    command: dict | None
    time: str | None = None


@dataclass(frozen=True)
class Chance:
    version: int
    key: str
    outcome: list[str] | None
    time: str | None = None


@dataclass(frozen=True)
class Marker:
    version: int
    kind: str
    time: str | None = None


Line = Move | Chance | Marker


@dataclass
class Notation:
    tags: dict[str, str] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)


def token(value: object) -> str:
    """A value as written after ``key=``: bare when unambiguous, else canonical JSON."""
    if isinstance(value, str) and BARE.fullmatch(value) and not _is_json(value):
        return value
    return canonical_json(value)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _key(name: str) -> str:
    return name if KEY.fullmatch(name) else canonical_json(name)


def tags_for(header: dict) -> list[tuple[str, str]]:
    """The tag pairs of a record's header, in a fixed order."""
    tags = [("Game", header["game"]), ("Title", header["title"]), ("GameId", header["game_id"]),
            ("RulesVersion", header["rules_version"]), ("DataVersions", canonical_json(header["data_versions"])),
            ("Options", canonical_json(header["options"])), ("ChanceMode", header["chance_mode"])]
    tags += [(seat["seat"].upper(), seat["name"]) for seat in header["players"]]
    opened = [seat["seat"] for seat in header["players"] if seat.get("open")]
    if opened:
        tags.append(("OpenSeats", canonical_json(opened)))
    if header.get("takebacks") is not None:
        tags.append(("Takebacks", header["takebacks"]))
    if header.get("clock") is not None:
        tags.append(("Clock", canonical_json(header["clock"])))
    if header["seed_hash"] is not None:
        tags.append(("SeedHash", header["seed_hash"]))
    if header["seed"] is not None:
        tags.append(("Seed", header["seed"]))
    tags += [("Version", str(header["version"])), ("HeadHash", header["head_hash"]), ("Reader", header["reader"])]
    if header.get("signature") is not None:
        tags.append(("Signature", canonical_json(header["signature"])))
    if header["score_sheet"] is not None:
        tags.append(("Result", result_text(header["score_sheet"])))
        tags.append(("ScoreSheet", canonical_json(header["score_sheet"])))
    return tags


def result_text(sheet: dict) -> str:
    """``1. p2 (9); 2. p1 (4)``: the ranking with totals, as a human reads a result."""
    totals = sheet.get("totals", {})
    places = [f"{place['rank']}. " + ", ".join(f"{seat} ({totals.get(seat, '-')})" for seat in place["seats"])
              for place in sheet.get("ranking", [])]
    return "; ".join(places) or sheet.get("outcome", "")


def write_notation(out: TextOut, source: ExportInput) -> None:
    tags = tags_for(source.header)
    timed = source.header.get("clock") is not None
    if timed:
        tags.insert(next(index for index, (name, _) in enumerate(tags) if name == "Clock") + 1,
                    ("Started", next(iter(source.envelopes()))["time"]))
    for name, value in tags:
        out.write(f"[{name} {json.dumps(value, ensure_ascii=False)}]\n")
    out.write("\n")
    clocks = clock_notes(source.envelopes()) if timed else None
    for line in move_lines(shown_with_public_moves(source), timed=timed, clocks=clocks):
        out.write(line + "\n")


def clock_notes(envelopes: Iterable[Envelope]) -> Iterator[str]:
    """For each event of a game with a clock, each seat's time left after its batch (``p1 8.750 s, p2 10.000
    s``), the increments its follow-ups gave included: the clocks are public, so every reader's record shows
    them, folded from the whole history."""
    match: Match[Any] | None = None
    for batch in _batches(envelopes):
        for envelope in batch:
            match = start(get_rules(envelope["data"]["game"]), envelope) if match is None else \
                apply_event(match, envelope)
        shown = match.clock.view()["seats"] if match is not None and match.clock is not None else {}
        note = ", ".join(f"{seat} {entry['remaining_ms'] / 1000:.3f} s" for seat, entry in shown.items())
        yield from [note] * len(batch)


def shown_with_public_moves(source: ExportInput) -> Iterator[Envelope]:
    """The envelopes as the record's reader is shown them, with every withheld command put back that names
    nothing the reader may not know.

    The events endpoint withholds other seats' commands until the end, since a
    command can name a card from a hand. Most name only what their events show
    anyway (the face-up discards of a mulligan, the card observed). So the
    game is folded alongside: a command is shown when each of the other seats'
    secrets it names (the game's own :meth:`~domain.core.rules.Rules.secrets`,
    just before the move) is public in the batch the reader is shown.
    """
    if source.revealed or source.reader == ORGANISER:
        yield from source.redacted()
        return
    match: Match[Any] | None = None
    folded: list[Envelope] = []
    earlier = replaying(folded, get_rules)
    for batch in _batches(source.envelopes()):
        shown = [source.shown(envelope) for envelope in batch]
        command = batch[0].get("command")
        if match is not None and shown[0].get("command_redacted") and command is not None and \
                _names_nothing_hidden(match, command, shown, source.reader):
            restored = shown[0].copy()
            del restored["command_redacted"]
            restored["command"] = command
            shown[0] = restored
        yield from shown
        for envelope in batch:
            folded.append(envelope)
            match = start(get_rules(envelope["data"]["game"]), envelope) if match is None else \
                apply_event(match, envelope, earlier)


def _batches(envelopes: Iterable[Envelope]) -> Iterator[list[Envelope]]:
    """Consecutive envelopes of one command (one ``command_id``)."""
    batch: list[Envelope] = []
    for envelope in envelopes:
        if batch and envelope["command_id"] != batch[0]["command_id"]:
            yield batch
            batch = []
        batch.append(envelope)
    if batch:
        yield batch


def _names_nothing_hidden(before: Match[Any], command: JsonObject, shown: list[Envelope], reader: str | None) -> bool:
    secrets = before.rules.secrets(before.state)
    hidden = set().union(*(tokens for seat, tokens in secrets.items() if seat != reader))
    return not (_strings(command) & hidden) - _strings(shown)


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values()))
    if isinstance(value, list | tuple):
        return set().union(*map(_strings, value))
    return set()


def move_lines(shown: Iterable[Envelope], *, timed: bool = False, clocks: Iterator[str] | None = None) -> Iterator[str]:
    """One line per command, chance outcome and end marker, from envelopes as the reader is shown them;
    ``timed`` (a game with a clock), each with its event's time, and a seat's move with the time left on
    the clocks after it (``clocks``: a note per envelope, in step with ``shown``).

    The other events of a batch follow from its command, so they get no line. A granted timeout claim says
    whose clock ran out.
    """
    for envelope in shown:
        left = f" {{left: {next(clocks)}}}" if clocks is not None else ""
        number = f"{envelope['version']}." + (f" @{envelope['time']}" if timed else "")
        kind = envelope["type"]
        command = envelope.get("command")
        if kind == "chance_resolved":
            yield f"{number} * {token(envelope['data']['key'])} -> {_outcome(envelope)}"
        elif kind == MOVES_TAKEN_BACK:
            yield f"; {taken_back_text(envelope['data'])}"
        elif kind in MARKERS:
            yield f"{number} {MARKERS[kind]}"
        elif envelope.get("command_redacted"):
            yield f"{number} {envelope['seat']} {HIDDEN} {{move withheld from this reader: {words(kind)}}}"
        elif command is not None and command.get("type") != RESOLVE_CHANCE:
            ran_out = f" {{{envelope['data']['flagged']}'s clock ran out}}" if kind == TIMEOUT_CLAIMED else ""
            yield f"{number} {move_text(command.get('seat') or seat_of(envelope), command)}{ran_out}{left}"


def taken_back_text(data: dict) -> str:
    """What an accepted takeback undid, as the comment line after the acceptance (TABLE-TAKEBACK-3)."""
    first, last = data["to_version"] + 1, data["from_version"]
    versions = f"version {first}" if first == last else f"versions {first}-{last}"
    return f"{versions} taken back: the game is as at version {data['to_version']}"


def move_text(seat: str, command: dict) -> str:
    """``p1 swap card=card-7``: the command's fields in order, its actor (``seat``) in front."""
    fields = " ".join(f"{_key(name)}={token(value)}" for name, value in command.items()
                      if name not in ("type", "seat"))
    return f"{seat} {token(command['type'])}" + (f" {fields}" if fields else "")


def _outcome(shown: Envelope) -> str:
    if "redacted" in shown:
        return f"{HIDDEN} {{hidden from this reader}}"
    seen_by = f" {{seen by {', '.join(shown['secret_to'])}}}" if shown.get("secret_to") else ""
    return ",".join(token(item) for item in full_data(shown)["outcome"]) + seen_by


def parse_notation(text: str) -> Notation:
    notation = Notation()
    in_tags = True
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if in_tags and line.startswith("["):
            match = TAG.match(line)
            if match is None:
                raise NotationError(number, f"malformed tag pair: {line}")
            notation.tags[match.group(1)] = json.loads(match.group(2))
            continue
        in_tags = False
        notation.lines.append(_parse_line(line, number))
    return notation


def _parse_line(line: str, number: int) -> Line:
    head = NUMBER.match(line)
    if head is None:
        raise NotationError(number, "a move line starts with its version, e.g. '4. p1 keep'")
    version = int(head.group(1))
    stamp = TIME.match(line, head.end())
    time = stamp.group(1) if stamp is not None else None
    words = _Scanner(line, stamp.end() if stamp is not None else head.end(), number)
    first = words.word()
    if first == "*":
        key = words.word()
        words.expect("->")
        if words.peek_bare() == HIDDEN:
            words.value()
            words.end()
            return Chance(version, key, None, time)
        outcome = [words.word()]
        while words.take(","):
            outcome.append(words.word())
        words.end()
        return Chance(version, key, outcome, time)
    if first in MARKERS.values():
        words.end()
        return Marker(version, first, time)
    kind = words.word()
    if kind == HIDDEN:
        words.end()
        return Move(version, first, None, time)
    command: dict = {"type": kind}
    while not words.at_end():
        name = words.key()
        words.expect("=")
        command[name] = words.value()
    return Move(version, first, command, time)


class _Scanner:
    """Reads the tokens of one movetext line: bare words, JSON values, ``{comments}`` and ``; comments``."""

    def __init__(self, text: str, position: int, number: int) -> None:
        self.text = text
        self.position = position
        self.number = number

    def _skip(self) -> None:
        while self.position < len(self.text):
            char = self.text[self.position]
            if char.isspace():
                self.position += 1
            elif char == "{" and (self.position == 0 or self.text[self.position - 1] != "="):
                close = self.text.find("}", self.position)
                if close < 0:
                    raise NotationError(self.number, "unclosed {comment}")
                self.position = close + 1
            elif char == ";":
                self.position = len(self.text)
            else:
                return

    def at_end(self) -> bool:
        self._skip()
        return self.position >= len(self.text)

    def end(self) -> None:
        if not self.at_end():
            raise NotationError(self.number, f"unexpected {self.text[self.position:]!r}")

    def take(self, literal: str) -> bool:
        if self.text.startswith(literal, self.position):
            self.position += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        self._skip()
        if not self.take(literal):
            raise NotationError(self.number, f"expected {literal!r} at column {self.position + 1}")

    def peek_bare(self) -> str:
        self._skip()
        found = BARE.match(self.text, self.position) or re.compile(r"\S+").match(self.text, self.position)
        return found.group(0) if found else ""

    def key(self) -> str:
        self._skip()
        if self.text.startswith('"', self.position):
            name = self._json()
            if not isinstance(name, str):
                raise NotationError(self.number, f"expected a field name at column {self.position + 1}")
            return name
        found = KEY.match(self.text, self.position)
        if found is None:
            raise NotationError(self.number, f"expected a field name at column {self.position + 1}")
        self.position = found.end()
        return found.group(0)

    def word(self) -> str:
        """A value that names something (a seat, a move type, a chance key, a drawn item): a string."""
        at = self.position
        value = self.value()
        if not isinstance(value, str):
            raise NotationError(self.number, f"expected a word at column {at + 1}, not {value!r}")
        return value

    def value(self) -> object:
        """A JSON value when one parses up to a delimiter, else a bare word (or ``*``/``?``)."""
        if self.at_end():
            raise NotationError(self.number, "the line ends too early")
        if self.text[self.position] in "*?":
            self.position += 1
            return self.text[self.position - 1]
        start = self.position
        try:
            value = self._json()
            if self.position >= len(self.text) or self.text[self.position] in " \t,;{":
                return value
        except NotationError:
            pass
        self.position = start
        found = BARE.match(self.text, self.position)
        if found is None:
            raise NotationError(self.number, f"cannot read a value at column {self.position + 1}")
        self.position = found.end()
        return found.group(0)

    def _json(self) -> object:
        try:
            value, self.position = json.JSONDecoder().raw_decode(self.text, self.position)
        except ValueError:
            raise NotationError(self.number, f"malformed JSON value at column {self.position + 1}") from None
        return value


def replay_notation(notation: Notation, rules: Rules, seed: str | None = None) -> Match:
    """Submit every move and chance outcome again, as a table-mode game: the rules check each one.

    With the game's revealed ``seed``, every chance outcome must also be the one the seed draws at its version.
    """
    tags = notation.tags
    seats = sorted(((name.lower(), value) for name, value in tags.items() if re.fullmatch(r"P\d+", name)),
                   key=lambda pair: int(pair[0][1:]))
    created: Event = {"type": "game_created", "seat": None, "data": {
        "game": tags["Game"], "rules_version": tags["RulesVersion"], "data_versions": json.loads(tags["DataVersions"]),
        "options": json.loads(tags["Options"]), "seats": [{"seat": seat, "name": name, **open_flag(seat, tags)}
                                                          for seat, name in seats],
        "chance_mode": TABLE, "seed_hash": None, **({"takebacks": tags["Takebacks"]} if "Takebacks" in tags else {}),
        **clock_of(tags)}}
    match = start(rules, created, tags.get("Started"))
    folded: list[Event] = [created]
    earlier = replaying(folded, lambda _game: rules)
    for line in notation.lines:
        expected = match.version if isinstance(line, Marker) and line.kind == "end" else match.version + 1
        if line.version != expected:
            raise ReplayError(line.version, f"version {expected} was expected here")
        try:
            _replay_line(match, line, seed, folded, earlier)
        except IllegalMove as refusal:
            raise ReplayError(line.version, f"the rules refuse it: {refusal.message}") from None
    return match


def clock_of(tags: dict[str, str]) -> JsonObject:
    """``{"clock": ...}`` for a game created with a clock (the ``Clock`` tag), so its clock replays."""
    return {"clock": json.loads(tags["Clock"])} if "Clock" in tags else {}


def open_flag(seat: str, tags: dict[str, str]) -> dict[str, bool]:
    """``{"open": True}`` for a seat the game was created with open (the ``OpenSeats`` tag), so its join replays."""
    return {"open": True} if seat in json.loads(tags.get("OpenSeats", "[]")) else {}


def _replay_line(match: Match, line: Line, seed: str | None, folded: list[Event], earlier: Earlier) -> None:
    """Submit ``line`` and fold its events into ``match`` and onto ``folded``, the history so far, which
    ``earlier`` re-folds for a takeback to rewind into."""
    if isinstance(line, Chance):
        if line.outcome is None:
            raise ReplayError(line.version, "the outcome is hidden in this record")
        node = match.rules.chance_node(match.state)
        if node is None or node.key != line.key:
            raise ReplayError(line.version, f"no chance decision {line.key!r} is pending")
        if seed is not None and line.outcome != derive_outcome(seed, line.version, node):
            raise ReplayError(line.version, f"the outcome of {node.key} is not the one the seed draws", "chance")
        events = submit(match, ORGANISER, {"type": RESOLVE_CHANCE, "outcome": line.outcome}, now=line.time)
    elif isinstance(line, Marker):
        if line.kind == "end" and not match.ended:
            raise ReplayError(line.version, "the rules say the game is not over")
        if line.kind == "scored":
            scored: Event = {"type": "game_scored", "seat": None, "data": {"score_sheet": score_sheet(match)}}
            apply_event(match, scored, time=line.time)
            folded.append(scored)
        return
    elif line.command is None:
        raise ReplayError(line.version, "the move is withheld from this record's reader")
    else:
        events = submit(match, line.seat, line.command, earlier=earlier, now=line.time)
    for event in events:
        apply_event(match, event, earlier, time=line.time)
    folded.extend(events)

