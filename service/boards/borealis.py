"""What the Borealis board names: each animal card's species, vehicle, stars and scientist colours, the
flag tracks of each player board, the goals and the scoring cards, read from the game's own data files."""
from __future__ import annotations

from functools import cache

from domain.borealis.catalogue import load_catalogue


@cache
def components() -> dict:
    catalogue = load_catalogue()
    return {
        # card id -> [species, vehicle, extra stars, colour moved left, colour moved right]
        "cards": {card.card_id: [card.species, card.vehicle, card.extra_stars, card.move_left_colour,
                                 card.move_right_colour] for card in catalogue.cards.values()},
        # board id -> location -> spaces 0..7 as [vehicles, stars]
        "tracks": {board_id: {location: [[list(space.vehicles), space.stars] for space in spaces]
                              for location, spaces in tracks.items()}
                   for board_id, tracks in catalogue.boards.items()},
        "goals": {goal.goal_id: {"title": goal.title, "type": goal.type, "threshold": goal.threshold}
                  for goal in catalogue.goals.values()},
        "scoring_cards": {card.card_id: {"name": card.name, "rule": card.rule_id}
                          for card in catalogue.scoring_cards.values()},
        "set_points": list(catalogue.set_points),
    }
