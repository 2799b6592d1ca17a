"""I C E Expedition (first edition): dig through stacked tiles for artifacts and send them to the city."""
from domain.ice_expedition.rules import IceExpedition

RULES = IceExpedition()
