"""What the Through Ice and Snow board names and places: the map's anchors and routes, the tracks, the cards.

Everything is read from the game's catalogue, so the route drawn is the one the engine sails and a card's
name is the one printed on it; only the fields the drawing shows are kept, to keep the replay file small.
"""
from __future__ import annotations

from functools import cache

from domain.through_ice_and_snow.catalogue import CAT

ANCHOR_FIELDS = ("x", "y", "region", "island", "sections", "final_round", "variant", "final", "species_icons")
ROUTE_FIELDS = ("from", "to", "section", "sides", "variant", "type", "extra_dynamite")
TRACK_FIELDS = ("min", "max", "start")


@cache
def components() -> dict:
    board = CAT.map
    return {
        "start": board["start"], "final_anchor": board["final_anchor"],
        "sections": [section["id"] for section in board["sections"]],
        "anchors": {key: {field: anchor[field] for field in ANCHOR_FIELDS if field in anchor}
                    for key, anchor in CAT.anchors.items()},
        "routes": [{field: route[field] for field in ROUTE_FIELDS if field in route} for route in board["routes"]],
        "tracks": {name: {field: track[field] for field in TRACK_FIELDS if field in track}
                   for name, track in CAT.tracks.items()},
        "species": {key: card["species"] for key, card in CAT.species.items()},
        "hunting": {key: card["prey"] for key, card in CAT.hunting.items()},
        "cartography": {key: card["regions"] for key, card in CAT.cartography.items()},
        "investors": {key: card["name"] for key, card in CAT.investors.items()},
        "upgrades": {str(number): tile["name"] for number, tile in CAT.upgrades.items()},
        "events": {str(number): card["name"] for number, card in {**CAT.events, **CAT.creatures}.items()},
        "explorers": {card["id"]: card["name"] for card in CAT.legendary["explorers"]},
        "ships": {card["id"]: card["name"] for card in CAT.legendary["ships"]},
    }
