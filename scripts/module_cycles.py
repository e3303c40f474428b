#!/usr/bin/env python3
"""Fails when the top-level modules of a crate import each other in a cycle.

Every `crate::NAME` reference outside comments counts as an edge from the module it is in
(the first path component under src/) to module NAME. A cycle means two modules cannot be
understood, tested or moved apart; CI runs this over every crate of the workspace:

    python3 scripts/module_cycles.py            # all crates; exit 1 and the cycles if any
"""

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_graph(src):
    graph = {}
    for path in src.rglob("*.rs"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts in (["lib"], ["main"]) or not parts:
            continue
        text = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
        uses = set(re.findall(r"crate::([a-z_][a-z0-9_]*)", text))
        graph.setdefault(parts[0], set()).update(u for u in uses if u != parts[0])
    return graph


def cycles(graph):
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def main():
    crates = sorted(p.parent for p in ROOT.glob("**/Cargo.toml")
                    if "target" not in p.parts and (p.parent / "src").is_dir())
    bad = 0
    for crate in crates:
        for cycle in cycles(module_graph(crate / "src")):
            print(f"{crate.relative_to(ROOT)}: module cycle {' -> '.join(cycle)}")
            bad += 1
    print(f"module cycles: {bad} in {len(crates)} crates")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
