"""Ability Test (seed 004), the Scene (for api.table): XP at 1 per Scene, and Convictions declared relevant to it.

"When performing a Test, before rolling, a character may spend one Exertion to declare one of their Convictions
relevant to the Scene." A Conviction so declared stays relevant until the Scene ends: activating it again on a later
Test adds its Significance without another Exertion. `new_scene` awards the Scene's XP and clears the declarations.
The sheet keeps the declared Convictions' ids in `scene_convictions`; a sheet without that key has none declared.
"""

from __future__ import annotations

from typing import Any

from .. import fields
from ..errors import RulesError
from ..stored import Id
from .sheet import MAX_EXERTION_POOL, MAX_XP, SCENE_CONVICTIONS, SHEET, XP_PER_SCENE

_EXERTION = fields.Int(
    "exertion", "Exertion", 0, MAX_EXERTION_POOL, 0, help="One Exertion declares a Conviction relevant to the Scene."
)
_XP = fields.Int("xp", "Experience (XP)", 0, MAX_XP, 0, help="Experience (XP) is awarded at the rate of 1 per Scene.")
_CONVICTIONS = next(f for f in SHEET.fields if f.name == "convictions")  # each with its id, text and significance
_CONVICTION = Id(
    "conviction",
    "The Conviction to activate (its id)",
    optional=True,
    help="Empty: one Exertion is spent and no Conviction is recorded as declared (the old call).",
)


def _conviction(state: dict, cid: str) -> str:
    """The words naming the sheet's Conviction `cid` in a note; refused when the sheet has no such Conviction."""
    for c in fields.read_state(state, (_CONVICTIONS,), ("convictions",))["convictions"]:
        if c["id"] == cid:
            return f"“{c['text']}”" if c["text"] else "a Conviction"
    raise RulesError(f"'args.conviction': no Conviction on the sheet has the id {cid!r}")


def activate_conviction(state: Any, args: Any = None) -> dict:
    """Spend one Exertion to declare one of their Convictions relevant to the Scene; a Conviction declared already
    this Scene adds its Significance again with no Exertion charged (`exertion_charged` says which)."""
    cid = fields.read_args(args, (_CONVICTION,), "activate_conviction")["conviction"]
    exertion = fields.read_state(state, (_EXERTION,), ("exertion",))["exertion"]
    if not cid:  # no Conviction named: spend the Exertion, record nothing (as before Scenes were kept)
        if exertion == 0:
            raise RulesError(
                "'state.exertion' is 0: activating a Conviction costs one Exertion",
                says="has no Exertion left: activating a Conviction costs one",
                holder=True,
            )
        return fields.new_state(
            state,
            f"Spent 1 Exertion to activate a Conviction ({exertion - 1} left)",
            exertion=exertion - 1,
            exertion_charged=1,
        )
    declared = list(fields.read_state(state, (SCENE_CONVICTIONS,), ())["scene_convictions"])
    words = _conviction(state, cid)
    if cid in declared:
        return fields.new_state(
            state,
            f"{words} is declared relevant to this Scene already: its Significance adds "
            f"again, no Exertion is charged ({exertion} left)",
            exertion_charged=0,
        )
    if exertion == 0:
        raise RulesError(
            f"'state.exertion' is 0: declaring {words} relevant to the Scene costs one Exertion",
            says=f"has no Exertion left: declaring {words} relevant to the Scene costs one",
            holder=True,
        )
    return fields.new_state(
        state,
        f"Spent 1 Exertion to declare {words} relevant to this Scene ({exertion - 1} left)",
        exertion=exertion - 1,
        scene_convictions=[*declared, cid],
        exertion_charged=1,
    )


def new_scene(state: Any, args: Any = None) -> dict:
    """A new Scene: the Scene's XP is awarded (1 per Scene) and no Conviction is declared relevant any more."""
    fields.read_args(args, (), "new_scene")
    xp = fields.read_state(state, (_XP,), ("xp",))["xp"]
    declared = fields.read_state(state, (SCENE_CONVICTIONS,), ())["scene_convictions"]
    if xp + XP_PER_SCENE > MAX_XP:
        raise RulesError(f"'state.xp' would go above {MAX_XP}, the most the sheet holds ({xp} + {XP_PER_SCENE})")
    n = len(declared)
    cleared = (
        f"; the {n} Conviction{'s' if n > 1 else ''} declared relevant to the last Scene "
        f"{'are' if n > 1 else 'is'} no longer declared"
        if n
        else ""
    )
    return fields.new_state(
        state,
        f"New Scene: earned {XP_PER_SCENE} XP ({xp + XP_PER_SCENE} XP){cleared}",
        xp=xp + XP_PER_SCENE,
        scene_convictions=[],
    )


TABLE = {"activate_conviction": activate_conviction, "new_scene": new_scene}

TABLE_OPS = [
    fields.table_op(
        "activate_conviction",
        "Activate a Conviction",
        "Spend one Exertion to declare one of their "
        "Convictions relevant to the Scene; one declared already this Scene adds its Significance again "
        'with no Exertion charged. Returns the state with "exertion_charged" (0 or 1).',
        (_EXERTION, _CONVICTIONS, SCENE_CONVICTIONS),
        (_CONVICTION,),
    ),
    fields.table_op(
        "new_scene",
        "New Scene",
        "Experience (XP) is awarded at the rate of 1 per Scene; the "
        "Convictions declared relevant to the last Scene are declared no more.",
        (_XP, SCENE_CONVICTIONS),
    ),
]
