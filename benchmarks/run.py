"""Run Thirteen's benchmark suites and print their reports as JSON lines.

Usage: ``python benchmarks/run.py [SUITE ...]`` (the same suites as ``thirteen bench``). Every
suite measures its reference implementations in the same process and reports ratios, so the
numbers compare across machines.
"""

from __future__ import annotations

import json
import sys

from thirteen.bench import SUITES, suite


def main(names: list[str]) -> int:
    for name in names or list(SUITES):
        if name not in SUITES:
            print(f"unknown suite {name!r}; suites: {', '.join(SUITES)}", file=sys.stderr)
            return 2
        print(json.dumps(suite(name)().to_json()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
