"""The printed (or ASSUMED) components of Through Ice and Snow, loaded once from ``data/``.

Every value the spec marks ASSUMED lives in a JSON file validated against its
schema; this module only indexes them and checks that the files agree with
each other (a route to an unknown anchor is a data error, not a wrong ruling
mid-game).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from domain.core.data import load_data
from domain.core.errors import DataError

DATA = Path(__file__).parent / "data"
FILES = ("map", "tracks", "species", "hunting", "cartography", "action_board", "events", "investors", "upgrades",
         "components", "scenarios", "creatures", "legendary", "walking")
# Food cans exist only once the ship is abandoned (Walking on Ice), and then count as resources (TIS-WALK-6).
RESOURCES = ("dynamite", "wood", "rifle", "dog", "food_can")
CREW_TYPES = ("captain", "carpenter", "scientist", "sailor", "inuk")
OFFICERS = ("captain", "carpenter", "scientist")


@dataclass(frozen=True)
class Catalogue:
    """Indexed component data; ``versions`` go into ``game_created``."""

    versions: dict
    map: dict
    anchors: dict
    routes_from: dict
    tracks: dict
    species: dict
    hunting: dict
    cartography: dict
    spaces: dict
    warehouses: dict
    vow_resources: dict
    events: dict
    event_decks: dict
    extra_decks: dict
    legendary_decks: dict
    investors: dict
    upgrades: dict
    slots: list
    components: dict
    scenarios: dict
    creatures: dict
    legendary: dict
    walking: dict

    def area(self, track: str, value: int) -> str | None:
        """The named area (death, scurvy, mutiny) of a health or morale space."""
        return self.tracks[track]["areas"].get(str(value))


def load(folder: Path = DATA) -> Catalogue:
    """Load and cross-check every data file; :class:`DataError` names the file and field at fault."""

    def _check(condition: bool, name: str, where: str, message: str) -> None:
        if not condition:
            raise DataError(str(folder / f"{name}.json"), where, message)

    loaded = {name: load_data(folder, name) for name in FILES}
    value = {name: pair[0] for name, pair in loaded.items()}
    board = value["map"]
    anchors = board["anchors"]
    sections = {section["id"] for section in board["sections"]}
    routes_from: dict[str, list[dict]] = {}
    for index, route in enumerate(board["routes"]):
        for end in ("from", "to"):
            _check(route[end] in anchors, "map", f"routes/{index}/{end}", f"unknown anchor {route[end]!r}")
        _check(route["section"] in sections, "map", f"routes/{index}/section", "unknown section")
        routes_from.setdefault(route["from"], []).append(route)
    for anchor_id, anchor in anchors.items():
        for section in anchor["sections"]:
            _check(section in sections, "map", f"anchors/{anchor_id}/sections", f"unknown section {section!r}")
    _check(board["start"] in anchors and board["final_anchor"] in anchors, "map", "start", "unknown anchor")
    sides = {section["id"]: section["sides"] for section in board["sections"]}
    for anchor_id in anchors:
        if anchor_id == board["final_anchor"] or anchors[anchor_id].get("final"):
            continue
        leaving = routes_from.get(anchor_id, [])
        for section in {route["section"] for route in leaving} or {"-"}:
            for side in anchors[anchor_id].get("sides", sides.get(section, ["-"])):
                # the fleet can neither go back nor stay (TIS-VOY-2): every anchor but the last needs a way on
                _check(any(route["section"] == section and side in route["sides"] for route in leaving), "map",
                       f"anchors/{anchor_id}", f"no route leaves it on side {side} of section {section}")
    species = {card["id"]: card for card in value["species"]["cards"]}
    hunting = {card["id"]: card for card in value["hunting"]["cards"]}
    # TIS-DUAL-2: a dual species card is also a hunting card, and always needs the Fishing boat
    hunting.update({card["id"]: {**card, "dual": True, "needs_fishing_boat": True, "whale": False}
                    for card in value["hunting"]["dual_species"]})
    cartography = {card["id"]: card for card in value["cartography"]["cards"]}
    regions = {anchor["region"] for anchor in anchors.values()}
    for card in cartography.values():
        for region in card["regions"]:
            _check(region in regions, "cartography", card["id"], f"region {region!r} is on no anchor")
    events = {card["number"]: card for card in value["events"]["cards"]}
    for mode, decks in value["events"]["decks"].items():
        for deck, numbers in decks.items():
            for number in numbers:
                _check(number in events, "events", f"decks/{mode}/{deck}", f"unknown card {number}")
    spaces = {space["id"]: space for space in value["action_board"]["spaces"]}
    lost = value["scenarios"]["lost_expedition"]
    _check(lost["survivors_card"] in lost["search_cards"], "scenarios", "lost_expedition/survivors_card",
           "not one of the search cards")
    _check(lost["objective_species"] in {card["species"] for card in species.values()}, "scenarios",
           "lost_expedition/objective_species", "no species card of that name")
    for card in value["creatures"]["cards"]:
        _check(card.get("action") is None or card["action"] in spaces, "creatures", str(card["number"]),
               f"unknown action space {card.get('action')!r}")
    magnetic = value["scenarios"]["magnetic_north_pole"]
    for anchor_id in magnetic["start_anchors"]:
        _check(anchor_id in anchors, "scenarios", "magnetic_north_pole/start_anchors", f"unknown anchor {anchor_id!r}")
    _check(lost["first_region"] in regions, "scenarios", "lost_expedition/first_region", "no anchor in that region")
    return Catalogue(
        versions={name: pair[1] for name, pair in loaded.items()},
        map=board,
        anchors=anchors,
        routes_from=routes_from,
        tracks=value["tracks"],
        species=species,
        hunting=hunting,
        cartography=cartography,
        spaces=spaces,
        warehouses=value["action_board"]["warehouses"],
        vow_resources=value["action_board"]["vow_resources"],
        events=events,
        event_decks=value["events"]["decks"],
        extra_decks=value["events"]["extra_decks"],
        legendary_decks=value["events"]["legendary_decks"],
        investors={card["id"]: card for card in value["investors"]["cards"]},
        upgrades={tile["number"]: tile for tile in value["upgrades"]["tiles"]},
        slots=value["upgrades"]["slots"],
        components=value["components"],
        scenarios=value["scenarios"],
        creatures={card["number"]: card for card in value["creatures"]["cards"]},
        legendary=value["legendary"],
        walking=value["walking"],
    )


CAT = load()
