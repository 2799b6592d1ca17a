"""The game's component data: every ASSUMED number and table of the spec lives in ``data/*.json``, each file
checked against its ``data/*.schema.json`` when loaded."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from domain.core.data import load_data

FOLDER = Path(__file__).parent / "data"
NAMES = ("params", "board", "tiles", "guilds", "cards")


@dataclass
class Catalogue:
    params: dict
    board: dict
    tiles: dict
    guilds: dict
    cards: dict
    versions: dict

    @cached_property
    def artifacts(self) -> dict[str, dict]:
        """Every artifact by id, with the layer it was dug from."""
        return {
            art["id"]: {**art, "layer": int(layer)}
            for layer, items in self.tiles["artifacts_by_layer"].items()
            for art in items
        }

    @cached_property
    def fronts(self) -> dict[str, dict]:
        return {front["id"]: front for front in self.tiles["snow_fronts"]}

    @cached_property
    def requests(self) -> dict[str, dict]:
        return {card["id"]: card for card in self.cards["requests"]}

    @cached_property
    def decrees(self) -> dict[str, dict]:
        return {card["id"]: card for card in self.cards["decrees"]}

    @cached_property
    def guild_rp(self) -> dict[str, int]:
        return {guild["id"]: guild["starting_rp"] for guild in self.guilds["guilds"]}


def load_catalogue() -> Catalogue:
    loaded = {name: load_data(FOLDER, name) for name in NAMES}
    return Catalogue(**{name: value for name, (value, _) in loaded.items()},
                    versions={name: version for name, (_, version) in loaded.items()})
