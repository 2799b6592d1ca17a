"""Every command of Northwest Passage, with its fields and the rule behind it (rules/northwest-passage.md)."""
from __future__ import annotations

from domain.core.move_types import Field, MoveType, MoveTypes
from domain.northwest_passage.lattice import ROTATIONS
from domain.northwest_passage.state import VESSELS

SOURCE = Field("source", "string", "a tile of the display, or a small tile type of the supply")
PAY_FROM = Field("pay_from", "string", "the vessel whose crew pay", values=VESSELS)
ROTATION = Field("rotation", "integer", "quarter turns, in degrees", values=ROTATIONS)
FLIP = Field("flip", "boolean", "whether the tile is flipped")

MOVES = MoveTypes((
    MoveType("draft_pick", "During the draft, the drafting seat takes a tile (NWP-ACT-1).", "NWP-CMD-1", (SOURCE,)),
    MoveType("draw_tile", "Your turn, cost 1: draw a tile; right after refresh_and_draw, the free draw takes source "
             "only (NWP-ACT-2).", "NWP-ACT-1",
             (SOURCE, Field("pay_from", "string", "the vessel whose crew pay; none for the draw after a refresh",
                            required=False, values=VESSELS))),
    MoveType("refresh_and_draw", "Your turn, cost 2: refresh the display, then draw from it.", "NWP-ACT-2",
             (PAY_FROM,)),
    MoveType("place_tile", "Your turn, cost 1, paid by the vessel the tile touches: place a reserve tile "
             "(NWP-GEO-4, NWP-GEO-5).", "NWP-CMD-4",
             (Field("tile_id", "string", "a tile in your reserve"), Field("anchor_x", "integer", "column"),
              Field("anchor_y", "integer", "row"), ROTATION, FLIP, PAY_FROM)),
    MoveType("fill_hole", "While a hole choice is pending: fill the first open hole (NWP-CMD-5).", "NWP-ACT-4",
             (Field("hole_x", "integer", "column"), Field("hole_y", "integer", "row"),
              Field("source", "string", "a reserve tile id, or a small type id from the supply"), ROTATION, FLIP)),
    MoveType("transfer_crew", "Your turn, cost 1, paid by the vessel the crew leave: move crew between ship and "
             "sled.", "NWP-ACT-5",
             (Field("direction", "string", "where the crew go", values=("to_sled", "to_ship")),
              Field("from_available", "integer", "available crew moved"),
              Field("from_resting", "integer", "resting crew moved"))),
    MoveType("move_ship", "Your turn, cost 1: sail to a tile by a sea route.", "NWP-ACT-6",
             (Field("to", "string", "a tile id, G or N"),)),
    MoveType("move_sled", "Your turn, cost 1: move the sled by a land route or over ice.", "NWP-ACT-7",
             (Field("to", "string", "a tile id, G or N"),)),
    MoveType("explore", "Your turn, cost 3: explore a wreck or strait on the payer's tile.", "NWP-ACT-8",
             (Field("token_id", "string", "a wreck or strait token"), PAY_FROM)),
    MoveType("discover", "Your turn, cost 2: discover Inuit or a cairn on the payer's tile.", "NWP-ACT-9",
             (Field("token_id", "string", "an Inuit or cairn token"), PAY_FROM)),
    MoveType("end_turn", "After at least one action: end your turn.", "NWP-ROUND-2"),
    MoveType("pass", "Your turn: pass, ending your round.", "NWP-ACT-10"),
))
