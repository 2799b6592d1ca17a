"""The moves of every game Cairn referees, for type checkers, editors and move builders.

Made from the games' declarations by ``./run contract`` (service/move_contract.py); do not edit it. A
``TypedDict`` per move type and a union per game state the moves as GET legal-moves lists them;
:data:`MOVE_FIELDS` gives each game's move types with their fields, each ``True`` when required.
"""
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class ResolveChanceMove(TypedDict):
    type: Literal["resolve_chance"]
    outcome: list[str]


class ResignMove(TypedDict):
    type: Literal["resign"]


class AbandonMove(TypedDict):
    type: Literal["abandon"]
    reason: NotRequired[str]


class ClaimTimeoutMove(TypedDict):
    type: Literal["claim_timeout"]
    flagged: str


class RequestTakebackMove(TypedDict):
    type: Literal["request_takeback"]


class AcceptTakebackMove(TypedDict):
    type: Literal["accept_takeback"]


class DeclineTakebackMove(TypedDict):
    type: Literal["decline_takeback"]


# Borealis: Arctic Expeditions (borealis)

class BorealisMulliganMove(TypedDict):
    type: Literal["mulligan"]
    discard_card_ids: list[str]


class BorealisObserveMove(TypedDict):
    type: Literal["observe"]
    card_id: str
    location: str


class BorealisReorganiseMove(TypedDict):
    type: Literal["reorganise"]
    discard_card_ids: list[str]
    target_location: NotRequired[str | None]


class BorealisRefreshPoolMove(TypedDict):
    type: Literal["refresh_pool"]


class BorealisTakeCardMove(TypedDict):
    type: Literal["take_card"]
    pool_slot: int


class BorealisDrawBlindMove(TypedDict):
    type: Literal["draw_blind"]


class BorealisClaimGoalMove(TypedDict):
    type: Literal["claim_goal"]
    goal_id: str


class BorealisChooseFarewellLocationMove(TypedDict):
    type: Literal["choose_farewell_location"]
    location: str


BorealisMove = (
    BorealisMulliganMove | BorealisObserveMove | BorealisReorganiseMove | BorealisRefreshPoolMove |
    BorealisTakeCardMove | BorealisDrawBlindMove | BorealisClaimGoalMove | BorealisChooseFarewellLocationMove |
    ResolveChanceMove | ResignMove | AbandonMove | ClaimTimeoutMove | RequestTakebackMove | AcceptTakebackMove |
    DeclineTakebackMove
)


# I C E Expedition (ice-expedition)

class IceExpeditionChooseGuildMove(TypedDict):
    type: Literal["choose_guild"]
    guild: str


class IceExpeditionKeepRequestMove(TypedDict):
    type: Literal["keep_request"]
    card: str


class IceExpeditionMoveMove(TypedDict):
    type: Literal["move"]
    leader: str
    to: str
    archaeologists: int


class IceExpeditionExcavateMove(TypedDict):
    type: Literal["excavate"]
    leader: str
    cryo: bool
    tile: str | None


class IceExpeditionSetUpCampMove(TypedDict):
    type: Literal["set_up_camp"]
    to: str
    archaeologists: int


class IceExpeditionRecruitMove(TypedDict):
    type: Literal["recruit"]
    kind: str
    camp: str
    archaeologists: int


class IceExpeditionCheckRegistryMove(TypedDict):
    type: Literal["check_registry"]


class IceExpeditionOverworkMove(TypedDict):
    type: Literal["overwork"]


class IceExpeditionPlanMove(TypedDict):
    type: Literal["plan"]


class IceExpeditionResendMove(TypedDict):
    type: Literal["resend"]


class IceExpeditionSendToCityMove(TypedDict):
    type: Literal["send_to_city"]
    artifact: str


class IceExpeditionStopSendingMove(TypedDict):
    type: Literal["stop_sending"]


IceExpeditionPlaySnowTileMove = TypedDict("IceExpeditionPlaySnowTileMove", {
    "type": Literal["play_snow_tile"],
    "tile": str,
    "from": NotRequired[str],
    "to": NotRequired[str],
    "archaeologists": NotRequired[int],
    "at": NotRequired[str],
    "leader": NotRequired[str | None],
    "player": NotRequired[str],
    "slot": NotRequired[str | None],
})


class IceExpeditionUseGuildAbilityMove(TypedDict):
    type: Literal["use_guild_ability"]
    count: NotRequired[int]


class IceExpeditionUseArtifactEffectMove(TypedDict):
    type: Literal["use_artifact_effect"]
    artifact_type: str
    parameters: NotRequired[dict[str, Any]]


class IceExpeditionDiscardSnowTileMove(TypedDict):
    type: Literal["discard_snow_tile"]
    tile: str


class IceExpeditionEndTurnMove(TypedDict):
    type: Literal["end_turn"]


class IceExpeditionEndDayMove(TypedDict):
    type: Literal["end_day"]


class IceExpeditionKeepTileMove(TypedDict):
    type: Literal["keep_tile"]
    tile: str


class IceExpeditionRelocateMove(TypedDict):
    type: Literal["relocate"]
    explorer: str
    to: str


class IceExpeditionChooseTileMove(TypedDict):
    type: Literal["choose_tile"]
    at: str


class IceExpeditionPlaceSnowflakeMove(TypedDict):
    type: Literal["place_snowflake"]
    slot: str


class IceExpeditionPlaceExplorersMove(TypedDict):
    type: Literal["place_explorers"]
    shares: list[int]
    leaders: dict[str, str]


class IceExpeditionPlaceLeaderMove(TypedDict):
    type: Literal["place_leader"]
    to: str


class IceExpeditionMoveCampMove(TypedDict):
    type: Literal["move_camp"]
    to: str


IceExpeditionMove = (
    IceExpeditionChooseGuildMove | IceExpeditionKeepRequestMove | IceExpeditionMoveMove | IceExpeditionExcavateMove |
    IceExpeditionSetUpCampMove | IceExpeditionRecruitMove | IceExpeditionCheckRegistryMove |
    IceExpeditionOverworkMove | IceExpeditionPlanMove | IceExpeditionResendMove | IceExpeditionSendToCityMove |
    IceExpeditionStopSendingMove | IceExpeditionPlaySnowTileMove | IceExpeditionUseGuildAbilityMove |
    IceExpeditionUseArtifactEffectMove | IceExpeditionDiscardSnowTileMove | IceExpeditionEndTurnMove |
    IceExpeditionEndDayMove | IceExpeditionKeepTileMove | IceExpeditionRelocateMove | IceExpeditionChooseTileMove |
    IceExpeditionPlaceSnowflakeMove | IceExpeditionPlaceExplorersMove | IceExpeditionPlaceLeaderMove |
    IceExpeditionMoveCampMove | ResolveChanceMove | ResignMove | AbandonMove | ClaimTimeoutMove |
    RequestTakebackMove | AcceptTakebackMove | DeclineTakebackMove
)


# Expedition: Northwest Passage (northwest-passage)

class NorthwestPassageDraftPickMove(TypedDict):
    type: Literal["draft_pick"]
    source: str


class NorthwestPassageDrawTileMove(TypedDict):
    type: Literal["draw_tile"]
    source: str
    pay_from: NotRequired[str]


class NorthwestPassageRefreshAndDrawMove(TypedDict):
    type: Literal["refresh_and_draw"]
    pay_from: str


class NorthwestPassagePlaceTileMove(TypedDict):
    type: Literal["place_tile"]
    tile_id: str
    anchor_x: int
    anchor_y: int
    rotation: int
    flip: bool
    pay_from: str


class NorthwestPassageFillHoleMove(TypedDict):
    type: Literal["fill_hole"]
    hole_x: int
    hole_y: int
    source: str
    rotation: int
    flip: bool


class NorthwestPassageTransferCrewMove(TypedDict):
    type: Literal["transfer_crew"]
    direction: str
    from_available: int
    from_resting: int


class NorthwestPassageMoveShipMove(TypedDict):
    type: Literal["move_ship"]
    to: str


class NorthwestPassageMoveSledMove(TypedDict):
    type: Literal["move_sled"]
    to: str


class NorthwestPassageExploreMove(TypedDict):
    type: Literal["explore"]
    token_id: str
    pay_from: str


class NorthwestPassageDiscoverMove(TypedDict):
    type: Literal["discover"]
    token_id: str
    pay_from: str


class NorthwestPassageEndTurnMove(TypedDict):
    type: Literal["end_turn"]


class NorthwestPassagePassMove(TypedDict):
    type: Literal["pass"]


NorthwestPassageMove = (
    NorthwestPassageDraftPickMove | NorthwestPassageDrawTileMove | NorthwestPassageRefreshAndDrawMove |
    NorthwestPassagePlaceTileMove | NorthwestPassageFillHoleMove | NorthwestPassageTransferCrewMove |
    NorthwestPassageMoveShipMove | NorthwestPassageMoveSledMove | NorthwestPassageExploreMove |
    NorthwestPassageDiscoverMove | NorthwestPassageEndTurnMove | NorthwestPassagePassMove | ResolveChanceMove |
    ResignMove | AbandonMove | ClaimTimeoutMove | RequestTakebackMove | AcceptTakebackMove | DeclineTakebackMove
)


# Through Ice and Snow (through-ice-and-snow)

class ThroughIceAndSnowChooseInvestorMove(TypedDict):
    type: Literal["choose_investor"]
    card: str


class ThroughIceAndSnowChooseCartographyMove(TypedDict):
    type: Literal["choose_cartography"]
    card: str


class ThroughIceAndSnowTakeActionMove(TypedDict):
    type: Literal["take_action"]
    space: str
    lead: str | None
    crew: dict[str, int]
    card: NotRequired[str]
    upgrade: NotRequired[int]
    deposit: NotRequired[str]
    slot: NotRequired[int]
    survival_deposit: NotRequired[str]
    creature_payment: NotRequired[str]


class ThroughIceAndSnowPassMove(TypedDict):
    type: Literal["pass"]


class ThroughIceAndSnowChooseDestinationMove(TypedDict):
    type: Literal["choose_destination"]
    anchor: str


class ThroughIceAndSnowPlaceMapSectionMove(TypedDict):
    type: Literal["place_map_section"]
    section: str
    side: str


class ThroughIceAndSnowChooseVoyageTypeMove(TypedDict):
    type: Literal["choose_voyage_type"]
    voyage: str


class ThroughIceAndSnowInukGuideMapMove(TypedDict):
    type: Literal["inuk_guide_map"]
    map: bool


class ThroughIceAndSnowChooseDiscardMove(TypedDict):
    type: Literal["choose_discard"]
    resource: str


class ThroughIceAndSnowChooseSickCrewMove(TypedDict):
    type: Literal["choose_sick_crew"]
    crew: dict[str, int]


class ThroughIceAndSnowResolveFoodShortageMove(TypedDict):
    type: Literal["resolve_food_shortage"]
    card: str


class ThroughIceAndSnowLowerFoodForCabinMove(TypedDict):
    type: Literal["lower_food_for_cabin"]
    amount: int
    cans: NotRequired[int]


class ThroughIceAndSnowCollectResourceMove(TypedDict):
    type: Literal["collect_resource"]
    resource: str


class ThroughIceAndSnowUseBoilerMove(TypedDict):
    type: Literal["use_boiler"]
    use: bool


class ThroughIceAndSnowMastChooseMove(TypedDict):
    type: Literal["mast_choose"]
    card: str


class ThroughIceAndSnowDamagedCompassRedirectMove(TypedDict):
    type: Literal["damaged_compass_redirect"]
    anchor: str | None


class ThroughIceAndSnowChooseLegendaryCardMove(TypedDict):
    type: Literal["choose_legendary_card"]
    kind: str
    card: str


class ThroughIceAndSnowMcclureTradeMove(TypedDict):
    type: Literal["mcclure_trade"]
    times: int


class ThroughIceAndSnowBelcherOverrideMove(TypedDict):
    type: Literal["belcher_override"]
    use: bool


class ThroughIceAndSnowCollinsonChartMove(TypedDict):
    type: Literal["collinson_chart"]
    region: str


class ThroughIceAndSnowKellettPeekMove(TypedDict):
    type: Literal["kellett_peek"]
    deck: str


class ThroughIceAndSnowAbandonShipMove(TypedDict):
    type: Literal["abandon_ship"]
    abandon: bool


class ThroughIceAndSnowChooseCargoMove(TypedDict):
    type: Literal["choose_cargo"]
    keep: dict[str, int]


class ThroughIceAndSnowReturnUpgradeMove(TypedDict):
    type: Literal["return_upgrade"]
    upgrade: int


class ThroughIceAndSnowDiscardFoodCanMove(TypedDict):
    type: Literal["discard_food_can"]
    count: int


class ThroughIceAndSnowLetSailorDieMove(TypedDict):
    type: Literal["let_sailor_die"]


class ThroughIceAndSnowChooseStartAnchorMove(TypedDict):
    type: Literal["choose_start_anchor"]
    anchor: str


class ThroughIceAndSnowChooseFreeUpgradeMove(TypedDict):
    type: Literal["choose_free_upgrade"]
    upgrade: int


class ThroughIceAndSnowActivateTreatmentMove(TypedDict):
    type: Literal["activate_treatment"]
    card: str | None
    requirement: NotRequired[int]
    crew: NotRequired[dict[str, int]]
    species: NotRequired[list[str]]


ThroughIceAndSnowMove = (
    ThroughIceAndSnowChooseInvestorMove | ThroughIceAndSnowChooseCartographyMove | ThroughIceAndSnowTakeActionMove |
    ThroughIceAndSnowPassMove | ThroughIceAndSnowChooseDestinationMove | ThroughIceAndSnowPlaceMapSectionMove |
    ThroughIceAndSnowChooseVoyageTypeMove | ThroughIceAndSnowInukGuideMapMove | ThroughIceAndSnowChooseDiscardMove |
    ThroughIceAndSnowChooseSickCrewMove | ThroughIceAndSnowResolveFoodShortageMove |
    ThroughIceAndSnowLowerFoodForCabinMove | ThroughIceAndSnowCollectResourceMove | ThroughIceAndSnowUseBoilerMove |
    ThroughIceAndSnowMastChooseMove | ThroughIceAndSnowDamagedCompassRedirectMove |
    ThroughIceAndSnowChooseLegendaryCardMove | ThroughIceAndSnowMcclureTradeMove |
    ThroughIceAndSnowBelcherOverrideMove | ThroughIceAndSnowCollinsonChartMove | ThroughIceAndSnowKellettPeekMove |
    ThroughIceAndSnowAbandonShipMove | ThroughIceAndSnowChooseCargoMove | ThroughIceAndSnowReturnUpgradeMove |
    ThroughIceAndSnowDiscardFoodCanMove | ThroughIceAndSnowLetSailorDieMove | ThroughIceAndSnowChooseStartAnchorMove |
    ThroughIceAndSnowChooseFreeUpgradeMove | ThroughIceAndSnowActivateTreatmentMove | ResolveChanceMove | ResignMove |
    AbandonMove | ClaimTimeoutMove | RequestTakebackMove | AcceptTakebackMove | DeclineTakebackMove
)


# Per game, each move type's fields, True when required.
MOVE_FIELDS: dict[str, dict[str, dict[str, bool]]] = {
    "borealis": {
        "mulligan": {"discard_card_ids": True},
        "observe": {"card_id": True, "location": True},
        "reorganise": {"discard_card_ids": True, "target_location": False},
        "refresh_pool": {},
        "take_card": {"pool_slot": True},
        "draw_blind": {},
        "claim_goal": {"goal_id": True},
        "choose_farewell_location": {"location": True},
        "resolve_chance": {"outcome": True},
        "resign": {},
        "abandon": {"reason": False},
        "claim_timeout": {"flagged": True},
        "request_takeback": {},
        "accept_takeback": {},
        "decline_takeback": {},
    },
    "ice-expedition": {
        "choose_guild": {"guild": True},
        "keep_request": {"card": True},
        "move": {"leader": True, "to": True, "archaeologists": True},
        "excavate": {"leader": True, "cryo": True, "tile": True},
        "set_up_camp": {"to": True, "archaeologists": True},
        "recruit": {"kind": True, "camp": True, "archaeologists": True},
        "check_registry": {},
        "overwork": {},
        "plan": {},
        "resend": {},
        "send_to_city": {"artifact": True},
        "stop_sending": {},
        "play_snow_tile": {
            "tile": True,
            "from": False,
            "to": False,
            "archaeologists": False,
            "at": False,
            "leader": False,
            "player": False,
            "slot": False,
        },
        "use_guild_ability": {"count": False},
        "use_artifact_effect": {"artifact_type": True, "parameters": False},
        "discard_snow_tile": {"tile": True},
        "end_turn": {},
        "end_day": {},
        "keep_tile": {"tile": True},
        "relocate": {"explorer": True, "to": True},
        "choose_tile": {"at": True},
        "place_snowflake": {"slot": True},
        "place_explorers": {"shares": True, "leaders": True},
        "place_leader": {"to": True},
        "move_camp": {"to": True},
        "resolve_chance": {"outcome": True},
        "resign": {},
        "abandon": {"reason": False},
        "claim_timeout": {"flagged": True},
        "request_takeback": {},
        "accept_takeback": {},
        "decline_takeback": {},
    },
    "northwest-passage": {
        "draft_pick": {"source": True},
        "draw_tile": {"source": True, "pay_from": False},
        "refresh_and_draw": {"pay_from": True},
        "place_tile": {
            "tile_id": True,
            "anchor_x": True,
            "anchor_y": True,
            "rotation": True,
            "flip": True,
            "pay_from": True,
        },
        "fill_hole": {"hole_x": True, "hole_y": True, "source": True, "rotation": True, "flip": True},
        "transfer_crew": {"direction": True, "from_available": True, "from_resting": True},
        "move_ship": {"to": True},
        "move_sled": {"to": True},
        "explore": {"token_id": True, "pay_from": True},
        "discover": {"token_id": True, "pay_from": True},
        "end_turn": {},
        "pass": {},
        "resolve_chance": {"outcome": True},
        "resign": {},
        "abandon": {"reason": False},
        "claim_timeout": {"flagged": True},
        "request_takeback": {},
        "accept_takeback": {},
        "decline_takeback": {},
    },
    "through-ice-and-snow": {
        "choose_investor": {"card": True},
        "choose_cartography": {"card": True},
        "take_action": {
            "space": True,
            "lead": True,
            "crew": True,
            "card": False,
            "upgrade": False,
            "deposit": False,
            "slot": False,
            "survival_deposit": False,
            "creature_payment": False,
        },
        "pass": {},
        "choose_destination": {"anchor": True},
        "place_map_section": {"section": True, "side": True},
        "choose_voyage_type": {"voyage": True},
        "inuk_guide_map": {"map": True},
        "choose_discard": {"resource": True},
        "choose_sick_crew": {"crew": True},
        "resolve_food_shortage": {"card": True},
        "lower_food_for_cabin": {"amount": True, "cans": False},
        "collect_resource": {"resource": True},
        "use_boiler": {"use": True},
        "mast_choose": {"card": True},
        "damaged_compass_redirect": {"anchor": True},
        "choose_legendary_card": {"kind": True, "card": True},
        "mcclure_trade": {"times": True},
        "belcher_override": {"use": True},
        "collinson_chart": {"region": True},
        "kellett_peek": {"deck": True},
        "abandon_ship": {"abandon": True},
        "choose_cargo": {"keep": True},
        "return_upgrade": {"upgrade": True},
        "discard_food_can": {"count": True},
        "let_sailor_die": {},
        "choose_start_anchor": {"anchor": True},
        "choose_free_upgrade": {"upgrade": True},
        "activate_treatment": {"card": True, "requirement": False, "crew": False, "species": False},
        "resolve_chance": {"outcome": True},
        "resign": {},
        "abandon": {"reason": False},
        "claim_timeout": {"flagged": True},
        "request_takeback": {},
        "accept_takeback": {},
        "decline_takeback": {},
    },
}
