"""Roll Conventions (003), in words: each step of a roll as a player reads it (the pool, the successes, the 1s that
eat them, each 10 rolled again, the outcome) and the roll in one line, from the rules' frozen values."""

from __future__ import annotations

from .rules import WILL_DICE, Hand, Outcome, Roll, Winner, chains


def many(n: int, one: str, more: str) -> str:
    return f"{n if n else 'no'} {one if n == 1 else more}"


def dice_count(n: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def ones(n: int) -> str:
    return "a 1" if n == 1 else f"{n if n else 'no'} 1s"


def signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"- {-n}"


def side_steps(hand: Hand, who: str, dropped: list[tuple[int, ...]] = ()) -> list[str]:
    p = hand.pool
    steps = []
    total = p.pool + p.modifier + (WILL_DICE if hand.will_spent else 0)
    text = f"{who}Pool: {p.pool} dot{'' if p.pool == 1 else 's'}"
    if p.modifier:
        text += f" {signed(p.modifier)}"
    if hand.will_spent:
        text += f" + {WILL_DICE} Will"
    steps.append(f"{text} = {many(total, 'die', 'dice')}" if total > 0 else f"{text} = {total}: no dice")
    if hand.dice:
        steps.append(f"{who}{many(len(hand.dice), 'die', 'dice')}: {' '.join(map(str, hand.dice))}")
    if hand.will_dice:
        when = "up front" if p.will else "after the roll"
        steps.append(
            f"{who}Will expended {when}, {many(len(hand.will_dice), 'die', 'dice')}: "
            f"{' '.join(map(str, hand.will_dice))}"
        )
    if not hand.dice and not hand.will_dice:
        return steps
    faces = hand.dice + hand.will_dice
    hits = sum(1 for f in faces if f >= p.threshold)
    which = "6s, 7s, 8s, 9s and 10s (initiative)" if p.initiative else "8s, 9s and 10s"
    steps.append(f"{who}{which} are successes: {hits}")
    c = hand.count
    if p.eats and c.ones:
        eaten = [faces[i] for i in c.eaten if faces[i] != 1]
        kind = "unskilled" if p.unskilled else "risky"
        if eaten:
            verb = "removes" if len(eaten) == 1 else "remove"
            steps.append(
                f"{who}{kind}: 1s eat successes, 10s first: {ones(len(eaten))} {verb} "
                f"{' '.join(map(str, eaten))}; {ones(c.ones_left)} left"
            )
        else:
            steps.append(f"{who}{kind}: 1s eat successes, but there are none to eat; {ones(c.ones_left)} left")
    elif c.ones:
        steps.append(f"{who}neither unskilled nor risky: {ones(c.ones)} eat{'s' if c.ones == 1 else ''} nothing")
    for chain in dropped:
        steps.append(
            f"{who}a Will 1 ate a 10 before it could roll again: its re-roll "
            f"{' → '.join(map(str, chain))} no longer counts"
        )
    for chain in chains(hand.rerolls):
        gained = sum(1 for f in chain if f >= p.threshold)
        steps.append(
            f"{who}10 rolled again → {' → '.join(map(str, chain))}: +{gained} success{'' if gained == 1 else 'es'}"
        )
    return steps


def steps(r: Roll, dropped: dict[str, list] | None = None) -> list[str]:
    dropped = dropped or {}
    if r.target is None:
        steps = side_steps(r.actor, "", dropped.get("actor", []))
        a = r.actor
        if not a.dice and not a.will_dice:
            steps.append("no dice: failure")
        elif r.outcome is Outcome.BOTCH:
            steps.append(f"no successes left but {ones(a.ones_left)} left: botch")
        else:
            steps.append(f"{many(a.successes, 'success', 'successes')} ({r.required} required): {r.outcome.value}")
        return steps
    steps = side_steps(r.actor, "Actor: ", dropped.get("actor", []))
    steps += side_steps(r.target, "Target: ", dropped.get("target", []))
    for who, hand in (("Actor", r.actor), ("Target", r.target)):
        if hand.botch:
            steps.append(f"{who}: no successes but {ones(hand.ones_left)} left: botch")
    if r.required > 1:  # ten_again-8
        steps.append(f"{r.required} successes required: not used in a contest (who has successes left decides)")
    a, t = r.actor.successes, r.target.successes
    steps.append(
        f"{a} - {t} = {r.net}: "
        + {
            Winner.ACTOR: "the actor has successes left",
            Winner.TARGET: "the target has successes left",
            Winner.TIE: "nobody has successes left: tie",
        }[r.outcome]
    )
    return steps


def again(hand: Hand) -> str:
    """The 10s rolled again, for the one line: ", 10s rolled again: 2", or nothing when none did."""
    n_chains = len(chains(hand.rerolls))
    return f", 10s rolled again: {n_chains}" if n_chains else ""


def summary(r: Roll) -> str:
    """The roll in one line: its outcome, the successes (required, or each side's in a contest), the 10s again."""
    a = r.actor
    if r.target is None:
        head = r.outcome.value.capitalize()
        if not a.dice and not a.will_dice:
            return f"{head}: no dice"
        if r.outcome is Outcome.BOTCH:
            return f"{head}: no successes, {ones(a.ones_left)} left"
        return f"{head}: {many(a.successes, 'success', 'successes')} ({r.required} required){again(a)}"
    t = r.target
    if r.outcome is Winner.TIE:
        return f"Tie: {a.successes} to {t.successes} successes, none left"
    who = "Actor" if r.net > 0 else "Target"
    return f"{who} wins: {a.successes} to {t.successes} successes, {many(abs(r.net), 'success', 'successes')} left"
