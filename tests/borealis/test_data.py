"""The component data files: loaded through their schemas, and as the spec describes them."""
from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from domain.borealis import RULES
from domain.borealis.catalogue import DATA, FILES, load_catalogue
from domain.core import DataError

CATALOGUE = RULES.catalogue


def test_one_hundred_unique_animal_cards_balanced_by_species_and_vehicle():
    """§2.5, §10.3: 20 per species, 20 per vehicle, 21 extra stars exactly on same-colour pairs."""
    cards = list(CATALOGUE.cards.values())
    assert len(cards) == len({card.card_id for card in cards}) == 100
    assert set(Counter(card.species for card in cards).values()) == {20}
    assert set(Counter(card.vehicle for card in cards).values()) == {20}
    starred = [card for card in cards if card.extra_stars]
    assert len(starred) == 21
    assert all((card.move_left_colour == card.move_right_colour) == bool(card.extra_stars) for card in cards)


def test_boards_share_star_values_and_side_two_has_four_patterns():
    """§2.9, §10.2: BOR-SETUP-1 side I for everyone, four different side II boards."""
    assert CATALOGUE.boards_of_side("II") == ["II-1", "II-2", "II-3", "II-4"]
    for tracks in CATALOGUE.boards.values():
        assert [space.stars for space in tracks["LEFT"]] == [0, 1, 2, 3, 5, 8, 11, 15]
        assert [space.stars for space in tracks["MIDDLE"]] == [0, 1, 2, 3, 4, 6, 8, 11]
        assert [space.stars for space in tracks["RIGHT"]] == [0, 1, 2, 3, 5, 8, 11, 15]
    patterns = {tuple(space.vehicles for space in CATALOGUE.boards[b]["LEFT"]) for b in CATALOGUE.boards}
    assert len(patterns) == 5


def test_four_goals_of_each_type_and_ten_scoring_cards():
    """§2.6, §2.7, §10.5."""
    assert {kind: len(CATALOGUE.goals_of_type(kind)) for kind in ("animal", "scientist", "vehicle")} == {
        "animal": 4, "scientist": 4, "vehicle": 4}
    assert len(CATALOGUE.scoring_cards) == 10


def copy_data(into):
    for name in FILES:
        for suffix in (".json", ".schema.json"):
            shutil.copy(DATA / f"{name}{suffix}", into / f"{name}{suffix}")


def test_a_malformed_data_file_is_refused_with_its_field(tmp_path):
    """Data files are checked against their schemas before any game uses them."""
    copy_data(tmp_path)
    cards = json.loads((tmp_path / "cards.json").read_text())
    cards["cards"][3]["vehicle"] = "hovercraft"
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(DataError) as refused:
        load_catalogue(tmp_path)
    assert refused.value.field == "cards/3/vehicle"


def test_the_game_records_the_version_of_every_data_file():
    assert set(RULES.data_versions()) == set(FILES)


def test_a_goal_type_without_cards_is_refused(tmp_path):
    """BOR-SETUP-6 draws one goal of each type, so each type needs a card."""
    copy_data(tmp_path)
    goals = json.loads((tmp_path / "goals.json").read_text())
    goals["goals"] = [goal for goal in goals["goals"] if goal["type"] != "vehicle"]
    (tmp_path / "goals.json").write_text(json.dumps(goals))
    with pytest.raises(DataError) as refused:
        load_catalogue(tmp_path)
    assert refused.value.field == "goals"
