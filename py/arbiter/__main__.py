"""`python -m arbiter roll|odds|systems SYSTEM '<json request>' [--seed N | --dice '[faces]']`: the API as JSON on
stdout (--dice: the faces a table rolled, in the order rolled, instead of the app's dice)."""

from __future__ import annotations

import argparse
import json
import sys

from . import api
from .errors import RulesError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arbiter", description=__doc__)
    parser.add_argument("command", choices=["roll", "odds", "systems"])
    parser.add_argument("system", nargs="?")
    parser.add_argument("request", nargs="?", default="{}", help="the request as JSON")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--dice", default=None, help="the faces a table rolled, as a JSON list, in the order rolled")
    args = parser.parse_args(argv)
    try:
        if args.command == "systems":
            result = api.systems()
        else:
            try:
                request = json.loads(args.request)
            except json.JSONDecodeError as exc:
                raise RulesError(f"'request' must be JSON: {exc}") from None
            if args.command == "roll":
                result = api.roll(args.system, request, args.seed, _faces(args.dice))
            else:
                result = api.odds(args.system, request)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


def _faces(text: str | None):
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(f"'dice' must be JSON: {exc}") from None


if __name__ == "__main__":
    sys.exit(main())
