"""A monkey at the table (issue 29): a seeded run of human-speed actions in real Chromium on a phone (360 × 640, touch,
the built site, real Pyodide, real IndexedDB), each procedure rolled as a character of its own created on the Table
view, checked after every action (monkey.py says how):

- a log entry's request is what the form showed at its tap (recorded in the tap itself);
- one log entry per roll: a burst of taps on Roll within 0.6 s is one roll; a single tap rolls or says why not;
- what the player typed stays (typing across fields at 0–300 ms gaps, some right after a tap on Roll);
- each character's Will, Exertion, XP, Insight, Gear and Harm, and the Scheme, are what they were at the start less
  what the log's notes say was paid plus what they say was gained (a night of rest, a New Scene, a Scheme die added);
- an open face pad marks the previous outcome stale, and a tap on its follow-ups logs nothing;
- after a reload, a form that says "Rolling as" someone holds what their sheet's Fill gives;
- no page error (the `phone` fixture's watch).

`python3 build.py test` runs the short run: a few seeds of a few actions each, the dice's speed Off. `python3 build.py
bench` runs the long one (LONG_ACTIONS actions, every procedure, at the speed the seed draws) and prints its seed and
action count; `build.py test` skips it unless ARBITER_MONKEY_LONG=1.

On failure the message names the invariant, the seed and the numbered trace of actions, with the line that replays
it. The environment steers a run (all optional):

    ARBITER_MONKEY_SEEDS=7,8     the short run's seeds (instead of SEEDS); the first is also the long run's
    ARBITER_MONKEY_ACTIONS=40    actions per run (the short run's default: SHORT_ACTIONS; the long run's: LONG_ACTIONS)
    ARBITER_MONKEY_ONLY=burst,pad  only these kinds of action (monkey.ACTIONS: roll burst type follow_up pad view
                                 sheet_op new_scene reload), besides each character's first roll
    ARBITER_MONKEY_SPEED=quick   the dice's speed (off, quick, full)

To see the monkey catch a bug planted in the page (issue 29's Done-when), plant it, build, and run with the kinds of
action that reach it; each must fail with the invariant named:

- a dropped revision check (the form takes a worker's answer for an older revision into its fields): ONLY=type,roll
  → "what the player typed stays" or "a log entry's request is what the form showed at its tap";
- a pad that leaves follow-ups live (the pad open, the previous outcome's follow-ups not disabled): ONLY=pad,roll
  → "an open pad marks the previous outcome stale" / "an open pad leaves no follow-up of the previous outcome usable";
- a lock released at landing (Roll takes a new roll as soon as the dice land): ONLY=burst → "one log entry per roll
  (a burst of taps is one roll)".

Before issue 29's fixes the short run's seeds found the issue's own bugs (see SEEDS).
"""

from __future__ import annotations

import os

import pytest

from monkey import INIT_SCRIPT, NAMES, Monkey
from page_helpers import SLOW_WORKER, open_app

SHORT_ACTIONS = 8  # per seed, with each character's first roll
LONG_ACTIONS = 320
SPEEDS = ("full", "quick", "off")
SHORT_COMMAND = "python3 build.py test tests/browser/test_monkey.py -k no_invariant"
LONG_COMMAND = "ARBITER_MONKEY_LONG=1 python3 build.py test tests/browser/test_monkey.py -k long"

SEEDS = {  # seed -> the procedures rolled as characters (together all five kinds of sheet)
    1: ("ten_again", "two_dice"),  # before issue 29's fixes: a burst of taps logged two rolls (TwoRolls)
    2: ("ability_test", "threat"),
    12: ("arbitration", "ten_again"),  # before them: a reload left the form on the defaults (ReloadDetached)
}


def env_int(name, default):
    return int(os.environ.get(name) or default)


def env_list(name):
    return tuple(x.strip() for x in os.environ.get(name, "").split(",") if x.strip())


def chosen_seeds():
    """The short run's seeds as pytest params: SEEDS, or the environment's."""
    asked = [int(s) for s in env_list("ARBITER_MONKEY_SEEDS")]
    if asked:
        return [pytest.param(s, SEEDS.get(s, tuple(NAMES)), id=f"seed{s}") for s in asked]
    return [pytest.param(s, systems, id=f"seed{s}") for s, systems in SEEDS.items()]


def run(phone, watch, seed, systems, actions, speed, command):
    """A monkey's run on the phone page: the app opened with the tap recorder, then `actions` actions."""
    phone.add_init_script(INIT_SCRIPT)
    phone.add_init_script(SLOW_WORKER)  # a slow phone: the worker's answers come late, while the player goes on
    phone.emulate_media(reduced_motion="reduce")
    open_app(phone, "", 360, 640)
    monkey = Monkey(
        phone, seed, systems=systems, speed=speed, only=env_list("ARBITER_MONKEY_ONLY"), watch=watch, command=command
    )
    monkey.play(actions)
    return monkey


@pytest.mark.parametrize(("seed", "systems"), chosen_seeds())
def test_the_monkey_breaks_no_invariant(phone, watch, seed, systems):
    """A short seeded run (speed Off): after every action each invariant of the module's docstring holds."""
    speed = os.environ.get("ARBITER_MONKEY_SPEED", "off")
    actions = env_int("ARBITER_MONKEY_ACTIONS", SHORT_ACTIONS)
    run(phone, watch, seed, systems, actions, speed, SHORT_COMMAND)


@pytest.mark.benchmark(group="monkey")
def test_bench_the_long_monkey(phone, watch, benchmark, request, capsys):
    """The long run (build.py bench): LONG_ACTIONS actions over every procedure, each invariant checked after each."""
    if not (request.config.getoption("benchmark_only", False) or os.environ.get("ARBITER_MONKEY_LONG") == "1"):
        pytest.skip("the long monkey runs in `python3 build.py bench` (or with ARBITER_MONKEY_LONG=1)")
    seed = ([int(s) for s in env_list("ARBITER_MONKEY_SEEDS")] or [28])[0]
    actions = env_int("ARBITER_MONKEY_ACTIONS", LONG_ACTIONS)
    speed = os.environ.get("ARBITER_MONKEY_SPEED") or SPEEDS[seed % len(SPEEDS)]
    with capsys.disabled():
        print(f"\nthe long monkey: seed {seed}, {actions} actions, speed {speed}", flush=True)
    monkey = benchmark.pedantic(
        run, (phone, watch, seed, tuple(NAMES), actions, speed, LONG_COMMAND), rounds=1, iterations=1
    )
    benchmark.extra_info.update(seed=seed, actions=len(monkey.trace), speed=speed)
    with capsys.disabled():
        print(f"the long monkey: seed {seed}, {len(monkey.trace)} actions played, every invariant held", flush=True)
