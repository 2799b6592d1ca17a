"""What the I C E Expedition board names and places: the slot lattice, guilds, artifacts, cards, tile backs.

The slot positions come from the game's board data, so the drawing puts every tile where the rules'
geometry has it; the printed names of backs, fronts and decrees are the rules' own words (the data files
hold only their ids).
"""
from __future__ import annotations

from functools import cache

from domain.ice_expedition.catalogue import load_catalogue

TERRAINS = {"T-ENC": "Encampment", "T-TUN": "Tunnel", "T-RIF": "Rift", "T-NUN": "Nunatak", "T-CLR": "Clear"}
EFFECTS = {
    "F-SPID": "White Spiders", "F-TERM": "Polar Termite Swarm", "F-MANT": "Ice Manta Ray",
    "F-SMIL": "Boreal Smilodon", "F-SAIL": "Ice Sailboat", "F-ROPE": "Abseiling Rope", "F-WRCK": "Wreck",
    "F-SURV": "Expedition Survivors", "F-TALI": "Talisman", "F-CHAR": "Charisma Stone", "F-RUNE": "Explosive Rune",
    "F-WHIS": "Storm Whistle",
}
DECREES = {
    "D-A1": "1 RP per Anima-1 artifact", "D-PR": "2 RP per prismatic artifact", "D-A2": "2 RP per Anima-2 artifact",
    "D-REQ": "2 RP per fulfilled request", "D-TYP": "1 RP per Anima of {type}",
    "D-DIST": "1 RP per distinct type and shape", "D-SH2": "2 RP per 2 shapes of a type",
    "D-SH3": "4 RP per 3 shapes of a type",
}


@cache
def components() -> dict:
    game = load_catalogue()
    return {
        "layers": [{"z": layer["z"], "name": layer["name"], "kind": layer["kind"], "slots": layer["slots"]}
                   for layer in game.board["layers"]],
        "neighbour_offsets": game.board["neighbour_offsets"],
        # the slots over a tile of an even layer, then of an odd one (the geometry's U and V offsets)
        "above_offsets": [game.board["offsets_u"], game.board["offsets_v"]],
        "guilds": {guild["id"]: guild["name"] for guild in game.guilds["guilds"]},
        "artifacts": {key: [art["type"], art["shape"], art["anima"]] for key, art in game.artifacts.items()},
        "terrains": TERRAINS,
        "effects": EFFECTS,
        "decrees": {card["id"]: DECREES[card["kind"]].format(type=card.get("artifact_type", ""))
                    for card in game.cards["decrees"]},
        "requests": {card["id"]: {key: value for key, value in card.items() if key != "id"}
                     for card in game.cards["requests"]},
    }
