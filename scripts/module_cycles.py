#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a cycle, or a command module of the
command line imports another command.

Every path outside comments and strings is resolved to the module it names: `crate::a::b`
from the crate root, `super::` from the parent of the module the code is in (inline `mod`
blocks count, at any depth), `self::` and a first segment naming a child module from the
module itself, and `use` trees (`use crate::{a, b::{c, d}}`) path by path; the deepest
known module of the path is the one named. An edge between two modules counts between
their ancestors that are siblings: `commands::generate::area` using `commands::convert`
is `generate -> convert` under `commands`, and `a::x` using `b` is `a -> b` at the top
level. A path to an ancestor or descendant (a parent dispatching to its children, a child
using its parent's types, `use super::*` in tests) is no edge. A cycle of sibling modules
under any parent (the crate's top-level modules included) means they cannot be understood,
tested or moved apart.

`COMMANDS` names the folders of command modules: a module under `convert-cli/src/commands/`
must not import another command module (shared code lives outside `commands/`). CI runs
this over every crate of the workspace (scripts/test_module_cycles.py tests it):

    python3 scripts/module_cycles.py            # exit 1 and the findings if any
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_functions import code_mask, matching_brace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# Crate directory (relative to the root) -> the module whose children are commands.
COMMANDS = {"convert-cli": ("commands",)}
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
INLINE_MOD_RE = re.compile(rf"\bmod\s+({IDENT})\s*\{{")
USE_RE = re.compile(r"\buse\s+([^;]*);")
PATH_RE = re.compile(rf"(?<![A-Za-z0-9_:])(?:{IDENT}\s*::\s*)+{IDENT}")
TOKEN_RE = re.compile(rf"::|{IDENT}|[{{}},*]")


def file_module(src, path):
    """The module path of a source file: () for lib.rs and main.rs."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod" or parts in (["lib"], ["main"]):
        parts = parts[:-1]
    return tuple(parts)


def scopes(code, module):
    """(start, end, module path) of the file and of every inline `mod NAME { … }` in it,
    innermost last for a position."""
    found = [(0, len(code), module)]
    for m in INLINE_MOD_RE.finditer(code):
        end = matching_brace(code, m.end() - 1)
        outer = [s for s in found if s[0] <= m.start() <= s[1]][-1][2]
        found.append((m.end(), end, outer + (m.group(1),)))
    return found


def use_paths(tree):
    """Every path of a `use` tree, as segment lists (`*` and `self` name the prefix)."""
    tokens = TOKEN_RE.findall(tree)
    paths, pos = [], 0

    def parse(prefix):
        nonlocal pos
        path = list(prefix)
        while pos < len(tokens):
            tok = tokens[pos]
            pos += 1
            if tok == "{":
                while pos < len(tokens) and tokens[pos] != "}":
                    parse(path)
                    if pos < len(tokens) and tokens[pos] == ",":
                        pos += 1
                pos += 1
                return
            if tok in (",", "}"):
                pos -= 1
                break
            if tok == "as":
                pos += 1  # the alias
            elif tok not in ("::", "*", "self"):
                path.append(tok)
        paths.append(path)

    while pos < len(tokens):
        parse([])
        pos += 1
    return [p for p in paths if p]


def resolve(segments, module, known):
    """The deepest known module a path names, or None (another crate, a local item)."""
    first = segments[0]
    if first == "crate":
        at, rest = (), segments[1:]
    elif first in ("self", "super"):
        at, rest = module, segments
        while rest and rest[0] in ("self", "super"):
            if rest[0] == "super":
                if not at:
                    return None
                at = at[:-1]
            rest = rest[1:]
    elif module + (first,) in known:
        at, rest = module, segments
    else:
        return None
    for seg in rest:
        if at + (seg,) not in known:
            break
        at = at + (seg,)
    return at


def references(code, module):
    """(module the code is in, path) for every `use` path and every other `a::b` path."""
    found = []
    regions = scopes(code, module)

    def module_at(pos):
        return [s for s in regions if s[0] <= pos <= s[1]][-1][2]

    for m in USE_RE.finditer(code):
        found.extend((module_at(m.start()), p) for p in use_paths(m.group(1)))
    rest = USE_RE.sub(lambda m: " " * len(m.group(0)), code)
    for m in PATH_RE.finditer(rest):
        segments = [s.strip() for s in m.group(0).split("::")]
        found.append((module_at(m.start()), segments))
    return found, [r[2] for r in regions]


def module_edges(src):
    """Every (from module, to module) of a crate's source folder (src/bin/ excluded: other
    crates)."""
    codes = {}
    known = set()
    for path in sorted(src.rglob("*.rs")):
        if path.relative_to(src).parts[0] == "bin":
            continue
        module = file_module(src, path)
        codes[path] = (module, code_mask(path.read_text(encoding="utf-8")))
        known.update(module[:k] for k in range(len(module) + 1))
    refs = []
    for module, code in codes.values():
        found, inline = references(code, module)
        known.update(inline)
        refs.extend(found)
    edges = set()
    for module, segments in refs:
        target = resolve(segments, module, known)
        if target is not None and target != module:
            edges.add((module, target))
    return edges


def sibling_graphs(edges):
    """parent module -> {child: {children it uses}}: each edge between the ancestors of its
    ends that share a parent; none between an ancestor and its descendant."""
    graphs = {}
    for a, b in edges:
        common = 0
        while common < min(len(a), len(b)) and a[common] == b[common]:
            common += 1
        if common in (len(a), len(b)):
            continue
        graph = graphs.setdefault(a[:common], {})
        graph.setdefault(a[common], set()).add(b[common])
        graph.setdefault(b[common], set())
    return graphs


def cycles(graph):
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
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


def command_imports(edges, commands):
    """(from command, to command) for every module under `commands` that uses another
    command's module."""
    n = len(commands)
    return sorted({(a[n], b[n]) for a, b in edges
                   if a[:n] == commands and b[:n] == commands
                   and len(a) > n and len(b) > n and a[n] != b[n]})


def crate_findings(src, commands=None):
    """The findings of one crate's source folder, as lines."""
    edges = module_edges(src)
    lines = []
    graphs = sibling_graphs(edges)
    for parent in sorted(graphs):
        for cycle in cycles(graphs[parent]):
            names = ["::".join(parent + (c,)) for c in cycle]
            lines.append(f"module cycle {' -> '.join(names)}")
    if commands:
        for a, b in command_imports(edges, commands):
            where = "::".join(commands)
            lines.append(f"command module {where}::{a} imports command module {where}::{b}")
    return lines


def check(root, commands=None):
    """Prints every finding of the crates under `root`; returns their count."""
    commands = COMMANDS if commands is None else commands
    crates = sorted(p.parent for p in root.glob("**/Cargo.toml")
                    if "target" not in p.relative_to(root).parts
                    and (p.parent / "src").is_dir())
    bad = 0
    for crate in crates:
        rel = crate.relative_to(root).as_posix()
        for line in crate_findings(crate / "src", commands.get(rel)):
            print(f"{rel}: {line}")
            bad += 1
    print(f"module cycles and command imports: {bad} in {len(crates)} crates")
    return bad


def main():
    return 1 if check(ROOT) else 0


if __name__ == "__main__":
    sys.exit(main())
