"""The games this service referees, and how to create each."""
from __future__ import annotations

from flask import Blueprint

from domain.registry import game_names, get_rules

blueprint = Blueprint("rules", __name__)


@blueprint.get("/rules")
def list_rules():
    return {"games": [describe(name) for name in game_names()]}


def describe(name: str) -> dict:
    rules = get_rules(name)
    return {
        "name": rules.name,
        "title": rules.title,
        "rules_version": rules.rules_version,
        "player_counts": list(rules.player_counts),
        "options_schema": rules.options_schema,
    }
