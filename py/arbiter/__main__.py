"""`python -m arbiter roll|odds|systems SYSTEM '<json request>' [--seed N]`: the API as JSON on stdout."""

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
                result = api.roll(args.system, request, args.seed)
            else:
                result = api.odds(args.system, request)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
