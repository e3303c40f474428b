#!/usr/bin/env python3
"""Fails when a Rust function in the workspace's non-test sources runs over 150 body lines.

A function that long cannot be read in one sitting: split it along its own headings into named
functions. Linear tables (a validator's rule list, a dump's field table) may stay long; they and
the functions still waiting to be split are named, with a reason, in
scripts/long_functions_allow.txt (one entry a line: `path | function | reason`, `#` comments).

    python3 scripts/long_functions.py            # exit 1 and the offenders if any
    python3 scripts/long_functions.py --list     # every function over the limit, allowed or not

Body lines are the lines strictly between the line of the opening brace and the line of the
closing one. Test code is left out: files under tests/, benches/, examples/, fuzz/ and
modules marked `#[cfg(test)]`.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 150
ALLOWLIST = Path(__file__).resolve().parent / "long_functions_allow.txt"
SKIP_DIRS = {"target", "tests", "benches", "examples", "fuzz", ".git", "node_modules"}
FN_RE = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
TEST_MOD_RE = re.compile(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{")


def code_mask(text):
    """The text with comments, strings and char literals blanked (newlines kept), so that the
    braces left are the code's own."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif (m := re.match(r'b?r(#*)"', text[i:i + 260])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = '"' + m.group(1)
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            blank(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            if text.startswith("\\", i + 1):
                j = text.find("'", i + 3)
                j = n if j < 0 else j + 1
                blank(i, j)
                i = j
            elif i + 2 < n and text[i + 2] == "'":
                blank(i, i + 3)
                i += 3
            else:
                i += 1  # a lifetime or label
        else:
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def long_functions(path, limit=LIMIT):
    """(function, body lines, first line) for each function of `path` over `limit`."""
    text = path.read_text(encoding="utf-8")
    code = code_mask(text)
    skipped = []
    for m in TEST_MOD_RE.finditer(code):
        skipped.append((m.start(), matching_brace(code, m.end() - 1)))
    found = []
    for m in FN_RE.finditer(code):
        if any(a <= m.start() <= b for a, b in skipped):
            continue
        # The body starts at the first `{` before any `;` (a trait's declaration has none).
        k = m.end()
        while k < len(code) and code[k] not in "{;":
            k += 1
        if k >= len(code) or code[k] == ";":
            continue
        end = matching_brace(code, k)
        body = code.count("\n", k, end) - 1
        if body > limit:
            line = code.count("\n", 0, m.start()) + 1
            found.append((m.group(1), body, line))
    return found


def sources(root):
    for path in sorted(root.rglob("*.rs")):
        rel = path.relative_to(root)
        if SKIP_DIRS.intersection(rel.parts[:-1]) or path.name == "build.rs":
            continue
        yield path


def read_allowlist(path):
    allowed = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 3 or not all(fields):
            raise SystemExit(f"{path}:{number}: expected `path | function | reason`, got {raw!r}")
        allowed[(fields[0], fields[1])] = fields[2]
    return allowed


def check(root, allowlist, limit=LIMIT, show_all=False):
    """Prints the offenders (and, with show_all, the allowed ones); returns how many offend."""
    allowed = read_allowlist(allowlist) if allowlist.exists() else {}
    seen, bad = set(), 0
    for path in sources(root):
        rel = path.relative_to(root).as_posix()
        for name, body, line in long_functions(path, limit):
            seen.add((rel, name))
            reason = allowed.get((rel, name))
            if reason is None:
                bad += 1
                print(f"{rel}:{line}: fn {name} has {body} body lines (limit {limit}): split it "
                      f"along its headings, or name it in {allowlist.name} with a reason")
            elif show_all:
                print(f"{rel}:{line}: fn {name} has {body} body lines (allowed: {reason})")
    for rel, name in sorted(set(allowed) - seen):
        print(f"{allowlist.name}: {rel} | {name} is no longer over {limit} lines (or gone): "
              f"remove the entry")
        bad += 1
    return bad


def main():
    bad = check(ROOT, ALLOWLIST, show_all="--list" in sys.argv[1:])
    if bad:
        print(f"{bad} function(s) over {LIMIT} body lines without an allowlist entry", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
