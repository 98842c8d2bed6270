"""Ability Test (seed 004), the character sheet: Attributes, Skills, Items and Convictions with their limits and
XP costs, the Difficulty and Significance tables, and what a player declares before the dice (FIELDS, Request).

Ability is the two Attributes (one Type I, one Type II) plus Skill and Item levels plus the Significance of each
activated Conviction (plus, later, a Scheme die's d6 and any Exertion spent after the roll).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import fields
from ..errors import RulesError
from ..stored import Id, ListOf, MayBeAbsent, Record, int_map, named_list

SIDES = 6
MAX_DIFFICULTY = 4
MAX_ATTRIBUTE = 5
MAX_SKILL = 10
MAX_ITEM = 5
MAX_UNIQUE_TRAITS = (
    10  # the text gives Unique Traits no number: a whole number added to Ability, like Item (ability_test-14)
)
MAX_CONVICTIONS = 6
MAX_MASTERIES = 10
NEGATE_COST = 2  # "subtract two dice from the Scheme (see below) to negate it"
MAX_XP = 99_999  # "Experience can be stored indefinitely": the sheet's limit, not the text's (ability_test-17)
MAX_EXERTION_POOL = 99  # the text gives the Exertion pool no size (ability_test-19)
MAX_SHEET_CONVICTIONS = 50  # "There is no limit to how many Convictions a character may have" (ability_test-22)
MAX_CONVICTION_TEXT = 200

DIFFICULTY = (
    (1, "Unusually Easy", "Navigating a crowded street, or climbing the rigging in calm weather."),
    (
        2,
        "Standard Difficulty",
        "Chasing someone through a busy market, or keeping a ship on course during choppy winds.",
    ),
    (
        3,
        "Unusually Difficult",
        "Secretly following someone who is using the Weird to obscure their position, or "
        "steering a ship through a hurricane.",
    ),
    (
        4,
        "Effectively Impossible",
        "Tracking an Otherworlder who is using both invisibility and short-range "
        "teleportation, or boarding an enemy ship during a legendary monsoon while avoiding "
        "enemy cannon fire.",
    ),
)
SIGNIFICANCE = (
    (1, "Valued", "“I’m not just gonna stand here and do nothing!”"),
    (2, "Momentous", "“You’re going to have to go through me first.”"),
    (3, "Pivotal", "“I swear upon my life, it shall be done.”"),
)
GRADES = ((1, "Below average"), (2, "Average"), (3, "Above average"), (4, "Outstanding"), (5, "Incredible"))
TYPE1 = (
    ("Mental", "the use of knowledge, willpower, understanding, and wit"),
    ("Physical", "the use of one’s body and the physical space"),
    ("Social", "the use of words and emotions"),
    ("Weird", "the use of magic, Orichalcum, and/or special abilities."),
)
TYPE2 = (
    ("Control", "manipulation, finesse, and subtlety"),
    ("Endurance", "determination, resilience, and staying power"),
    ("Power", "forcefulness, speed, and strength"),
    ("Presence", "awareness, concentration, and sanity"),
)

# The most Exertion that can matter: enough to beat the highest total with the lowest Ability (two Attributes at 1).
MAX_EXERTION = SIDES * MAX_DIFFICULTY - 2 + 1

FIELDS = (
    fields.Int(
        "type1",
        "Type I Attribute",
        1,
        MAX_ATTRIBUTE,
        default=2,
        help="Mental, Physical, Social or Weird: a character’s potential, graded 1 to 5.",
    ),
    fields.Int(
        "type2",
        "Type II Attribute",
        1,
        MAX_ATTRIBUTE,
        default=2,
        help="Control, Endurance, Power or Presence: the ability to harness and apply their talent, graded 1 to 5.",
    ),
    fields.Int(
        "skill",
        "Skill levels",
        0,
        MAX_SKILL,
        default=0,
        help="Each level allows the player to increase their Ability by 1 when performing a Test in which "
        "the Skill is relevant.",
    ),
    fields.Int(
        "item",
        "Item levels",
        0,
        MAX_ITEM,
        default=0,
        help="The levels of an Item determine how much a character’s Ability is increased when the item is being used.",
    ),
    fields.Int(
        "unique_traits",
        "Unique Traits",
        0,
        MAX_UNIQUE_TRAITS,
        default=0,
        help="Ability can benefit from Unique Traits: what they add to Ability on this Test (0 for none).",
    ),
    fields.IntList(
        "convictions",
        "Convictions activated (Significance)",
        1,
        3,
        0,
        MAX_CONVICTIONS,
        default=(),
        help="Each activated Conviction costs one Exertion (none when declared relevant to this Scene "
        "already) and adds its Significance: 1 Valued, 2 Momentous, 3 Pivotal.",
    ),
    fields.Int(
        "convictions_declared",
        "Of these, declared relevant to this Scene already",
        0,
        MAX_CONVICTIONS,
        default=0,
        help="A Conviction declared relevant to the Scene on an earlier Test adds its Significance "
        "again without another Exertion.",
    ),
    fields.Int(
        "difficulty",
        "Difficulty (dice)",
        1,
        MAX_DIFFICULTY,
        default=2,
        help="1 Unusually Easy, 2 Standard Difficulty, 3 Unusually Difficult, 4 Effectively Impossible.",
    ),
    fields.Int(
        "masteries",
        "Masteries",
        0,
        MAX_MASTERIES,
        default=0,
        help="Reroll up to this many dice, once, when both the Skill and its Masteries are relevant "
        "(Masteries need Skill levels 1 or more).",
    ),
    fields.Bool(
        "scheme_die",
        "Use a Scheme die",
        default=False,
        help="The Narrator rolls a die before the Difficulty dice; its result is added to Ability. "
        "No die goes back into the Scheme on this Test.",
        once=True,
    ),
)


# --- XP costs ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class XpCost:
    """One way to spend XP: `base` XP, plus the current rank or score when `plus_current`."""

    kind: str
    label: str
    base: int
    plus_current: bool
    current_min: int
    current_max: int
    limit: str

    def cost(self, current: int) -> int:
        return self.base + (current if self.plus_current else 0)

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "label": self.label,
            "base": self.base,
            "plus_current": self.plus_current,
            "current_min": self.current_min,
            "current_max": self.current_max,
            "limit": self.limit,
            "costs": [{"current": c, "cost": self.cost(c)} for c in range(self.current_min, self.current_max + 1)],
        }


XP_PER_SCENE = 1  # "Experience (XP) is awarded at the rate of 1 per Scene"
XP_COSTS = (
    XpCost("new_skill", "Begin a new Skill with 1 rank", 2, False, 0, 0, "a new Skill begins with 1 rank"),
    XpCost("new_item", "Begin a new Item with 1 rank", 3, False, 0, 0, "a new Item begins with 1 rank"),
    XpCost(
        "advance_skill",
        "Advance an existing Skill by 1 rank",
        2,
        True,
        1,
        MAX_SKILL - 1,
        "A character may have a maximum of 10 levels in a Skill",
    ),
    XpCost(
        "advance_standard_item",
        "Advance an existing Standard Item by 1 rank",
        2,
        True,
        1,
        MAX_ITEM - 1,
        "Items have a maximum of 5 levels",
    ),
    XpCost(
        "advance_attribute",
        "Advance an Attribute by 1",
        3,
        True,
        1,
        MAX_ATTRIBUTE - 1,
        "All Attributes are graded on a scale of 1 to 5",
    ),
)
XP_UNPRICED = {
    "advance_unique_item": "the text says Unique items require less XP to advance but gives no number, "
    "so Arbiter does not price it",
    "advance_focused_skill": "the text says Focused Skills cost slightly less XP to advance but gives no number, "
    "so Arbiter does not price it",
}
XP_BY_KIND = {c.kind: c for c in XP_COSTS}


def xp_cost(kind: Any, current: Any = 0) -> int:
    """The XP to spend on `kind` for something now at rank or score `current` (0 for something new)."""
    if isinstance(kind, str) and kind in XP_UNPRICED:
        raise RulesError(f"'kind' {kind} has no price: {XP_UNPRICED[kind]}")
    if not isinstance(kind, str) or kind not in XP_BY_KIND:
        raise RulesError(f"'kind' must be one of {', '.join(XP_BY_KIND)}, got {kind!r}")
    c = XP_BY_KIND[kind]
    if isinstance(current, bool) or not isinstance(current, int):
        raise RulesError(
            f"'current' must be a whole number from {c.current_min} to {c.current_max} for {kind}, got {current!r}"
        )
    if not c.current_min <= current <= c.current_max:
        raise RulesError(
            f"'current' must be from {c.current_min} to {c.current_max} for {kind} ({c.limit}), got {current}"
        )
    return c.cost(current)


EXTRAS = {
    "difficulty": [{"value": v, "label": name, "example": e} for v, name, e in DIFFICULTY],
    "significance": [{"value": v, "label": name, "example": e} for v, name, e in SIGNIFICANCE],
    "grades": [{"value": v, "label": name} for v, name in GRADES],
    "attributes": {
        "type1": [{"name": n, "help": h} for n, h in TYPE1],
        "type2": [{"name": n, "help": h} for n, h in TYPE2],
    },
    "negate_setback_cost": NEGATE_COST,
    "xp_per_scene": XP_PER_SCENE,
    "xp_costs": [c.to_json() for c in XP_COSTS],
    "xp_unpriced": [{"kind": k, "reason": r} for k, r in XP_UNPRICED.items()],
}


# --- what the player declares ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """What the player declares before any dice are rolled."""

    type1: int
    type2: int
    skill: int
    item: int
    convictions: tuple[int, ...]
    difficulty: int
    masteries: int
    scheme_die: bool
    convictions_declared: int = 0  # of the activated Convictions, those declared relevant to this Scene already
    unique_traits: int = 0  # added to Ability, like Item (ability_test-14)

    @classmethod
    def of(cls, req: dict) -> Request:
        """The parsed request; Masteries need a relevant Skill (ability_test-5); Convictions declared earlier this
        Scene are among those activated (ability_test-25)."""
        if req["masteries"] and not req["skill"]:
            raise RulesError(
                f"'masteries': Masteries need a relevant Skill (Skill levels 1 or more), got masteries "
                f"{req['masteries']} with skill 0",
                path="masteries",
                says=f"need a relevant Skill (Skill levels 1 or more), got {req['masteries']} with Skill levels 0",
            )
        n = len(req["convictions"])
        if req.get("convictions_declared", 0) > n:
            raise RulesError(
                f"'convictions_declared' must be from 0 to {n} (the Convictions activated), "
                f"got {req['convictions_declared']}"
            )
        return cls(**req)

    @property
    def exertion_for_convictions(self) -> int:
        """One Exertion per activated Conviction not yet declared relevant to this Scene."""
        return len(self.convictions) - self.convictions_declared

    @property
    def base_ability(self) -> int:
        """Two Attributes plus Skill, Item, Unique Traits and each activated Conviction's Significance."""
        return self.type1 + self.type2 + self.skill + self.item + self.unique_traits + sum(self.convictions)

    @property
    def rerolls(self) -> int:
        """How many dice the Masteries may reroll: no more than the dice rolled."""
        return min(self.masteries, self.difficulty)

    def to_json(self) -> dict:
        return {
            "type1": self.type1,
            "type2": self.type2,
            "skill": self.skill,
            "item": self.item,
            "unique_traits": self.unique_traits,
            "convictions": list(self.convictions),
            "difficulty": self.difficulty,
            "masteries": self.masteries,
            "scheme_die": self.scheme_die,
            "convictions_declared": self.convictions_declared,
        }

    def ability_step(self) -> str:
        parts = [f"{self.type1} (Type I)", f"{self.type2} (Type II)"]
        if self.skill:
            parts.append(f"{self.skill} (Skill)")
        if self.item:
            parts.append(f"{self.item} (Item)")
        if self.unique_traits:
            parts.append(f"{self.unique_traits} (Unique Traits)")
        for s in self.convictions:
            parts.append(f"{s} (Conviction: {SIGNIFICANCE[s - 1][1]})")
        step = f"Ability {self.base_ability} = {' + '.join(parts)}"
        n, declared = self.exertion_for_convictions, self.convictions_declared
        if n:
            step += f"; {n} Exertion spent to activate {n} Conviction{'s' if n > 1 else ''}"
        if declared:
            step += (
                f"; {declared} Conviction{'s' if declared > 1 else ''} declared relevant to this Scene already: "
                f"no Exertion"
            )
        return step


# --- the character sheet the table keeps, and the request it fills ------------------------------------------------

ATTRIBUTES = tuple(name for name, _ in TYPE1 + TYPE2)
SCENE_CONVICTIONS = ListOf(
    "scene_convictions",
    "Convictions declared relevant to this Scene",
    Id("scene_convictions", "Conviction"),
    MAX_SHEET_CONVICTIONS,
    unique=True,
    help="Their ids; new_scene clears them. A sheet kept before this list: none declared.",
)
SHEET = Record(
    "sheet",
    "Ability Test",
    (
        int_map("attributes", "Attributes", ATTRIBUTES, 1, MAX_ATTRIBUTE, 2),
        named_list(
            "skills",
            "Skills",
            (
                fields.Int("level", "Level", 0, MAX_SKILL),
                fields.Bool("focused", "Focused"),
                fields.Int("masteries", "Masteries", 0, MAX_MASTERIES),
            ),
        ),
        named_list("items", "Items", (fields.Bool("unique", "Unique"), fields.Int("level", "Level", 0, MAX_ITEM))),
        ListOf(
            "convictions",
            "Convictions",
            Record(
                "convictions",
                "Convictions",
                (
                    Id("id"),
                    fields.Text("text", "Conviction", MAX_CONVICTION_TEXT),
                    fields.Int("significance", "Significance", 1, len(SIGNIFICANCE), 1),
                ),
            ),
            MAX_SHEET_CONVICTIONS,
        ),
        fields.Int("exertion", "Exertion", 0, MAX_EXERTION_POOL),
        fields.Int("xp", "XP", 0, MAX_XP),
        fields.Bool("moved_this_session", "Significance moved this Session"),
        MayBeAbsent(SCENE_CONVICTIONS),
        MayBeAbsent(
            fields.Int(
                "unique_traits",
                "Unique Traits",
                0,
                MAX_UNIQUE_TRAITS,
                0,
                help="What the character's Unique Traits add to Ability (a sheet kept before: 0).",
            )
        ),
    ),
)
CHOICES = (
    fields.Choice("type1", "Type I attribute", tuple((name, name) for name, _ in TYPE1), TYPE1[0][0]),
    fields.Choice("type2", "Type II attribute", tuple((name, name) for name, _ in TYPE2), TYPE2[0][0]),
    Id("skill", "Skill", optional=True, help="None: no Skill."),
    fields.Bool("masteries", "The Skill’s Masteries are relevant", default=True),
    Id("item", "Item", optional=True, help="None: no Item."),
    ListOf(
        "convictions",
        "Convictions to activate (1 Exertion each, taken when you roll)",
        Id("conviction"),
        MAX_SHEET_CONVICTIONS,
    ),
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """Two Attributes (one Type I, one Type II), the chosen Skill's level (and its Masteries when relevant), the
    chosen Item's level, the sheet's Unique Traits (absent: 0) and the Significance of each Conviction activated, in
    the sheet's order."""
    skill = next((s for s in sheet["skills"] if s["id"] == choices["skill"]), None)
    convictions = [c["significance"] for c in sheet["convictions"] if c["id"] in choices["convictions"]]
    if len(convictions) > MAX_CONVICTIONS:
        raise RulesError(f"Activate at most {MAX_CONVICTIONS} Convictions (the form holds {MAX_CONVICTIONS}).")
    declared = sum(
        1
        for c in sheet["convictions"]
        if c["id"] in choices["convictions"] and c["id"] in sheet.get("scene_convictions", ())
    )
    out = {
        "type1": sheet["attributes"][choices["type1"]],
        "type2": sheet["attributes"][choices["type2"]],
        "skill": skill["level"] if skill else 0,
        "masteries": skill["masteries"] if skill and choices["masteries"] else 0,
        "item": next((i["level"] for i in sheet["items"] if i["id"] == choices["item"]), 0),
        "unique_traits": sheet.get("unique_traits", 0),
        "convictions": convictions,
        "convictions_declared": declared,
    }
    Request.of(fields.parse(FIELDS, out))  # Masteries need a relevant Skill
    return out
