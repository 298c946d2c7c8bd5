"""Per-module figures of the last `make mutation` run, read from mutmut's mutants/ folder:
`python -m tests.mutation_summary`. A timeout counts as killed (the mutant made a test hang)."""

import json
import sys
from collections import Counter
from pathlib import Path

KILLED = {
    1: "killed",
    3: "killed",
    36: "killed",
    24: "killed",
    -24: "killed",
    152: "killed",
    255: "killed",
    -9: "killed",
    -11: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
}


def summary(root=Path("mutants")):
    """module -> Counter of killed / survived / no tests / other."""
    figures = {}
    for meta in sorted(root.rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"].values()
        module = str(meta.relative_to(root)).removesuffix(".meta")
        figures[module] = Counter(KILLED.get(code, "other") for code in codes)
    return figures


def main():
    figures = summary()
    if not figures:
        sys.exit("no mutants/ here: run make mutation first")
    print(f"{'module':32} {'mutants':>7} {'killed':>7} {'survived':>8} {'no tests':>8}")
    for module, counts in [*figures.items(), ("all", sum(figures.values(), Counter()))]:
        print(
            f"{module:32} {counts.total():7} {counts['killed']:7} {counts['survived']:8} "
            f"{counts['no tests']:8}"
        )


if __name__ == "__main__":
    main()
