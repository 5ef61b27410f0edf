#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a test draws two or more random numbers in one unsequenced expression.

C++ leaves the evaluation order of a call's arguments (and of the operands of most binary
operators) unspecified: GCC 12 evaluates `Vec3(u(rng), u(rng), u(rng))` right to left and
clang 14 left to right, so one seed ran different configurations in the Release (GCC) and the
sanitizer (clang) builds and a failing seed printed by one did not reproduce under the other.
Tests draw in sequence instead: tests/support/draws.hpp's helpers, a braced list
(`Vec3{u(rng), u(rng), u(rng)}`, evaluated left to right), or one named local per draw.

Usage: python3 tools/check_sequenced_draws.py [--root DIR] [FILE...]
Scans tests/**/*.cpp and *.hpp under the repository root (or the files given), prints
file:line for each offending expression, exits 1 if there is any (run by ctest as
tests_sequenced_draws).

How it works (a bracket-matching scan, not a C++ parser):
- comments, string/char literals and preprocessor lines are blanked first;
- a "draw" is `IDENT(rng)`, `rng()`, or any call with a bare `rng` argument
  (`draw_vec3(u, rng)`, `std::shuffle(b, e, rng)`); the engine must be named `rng` or `rng_`
  (every test's engine is);
- the text is split into nested (), [] and {} groups. Inside a group, the expression is cut
  into sequenced pieces at `;`, `&&`, `||`, `?`, `:` and `<<` (and, in a {} group - a braced
  list or a block - also at `,`, which is sequenced there). A piece is flagged when it holds
  two or more "units": a draw, or a nested group that contains a draw (a braced list counts
  as one unit: its own draws are in order, but it is unsequenced against its siblings).
Limits: an engine of another name is not seen; draws hidden in a helper that does not take
`rng` as an argument are not seen; a ternary or `&&` inside one argument list cuts the whole
list, so `f(u(rng), c ? v(rng) : 0)` is missed; `a[u(rng)] = v(rng)` (sequenced since C++17)
is flagged anyway - write it as two statements. Macro definitions are not scanned.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINE = {"rng", "rng_"}
TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.']*|::|&&|\|\||<<|\S")
CUTS_PAREN = {";", "&&", "||", "?", ":", "<<"}
CUTS_BRACE = CUTS_PAREN | {","}
OPEN = {"(": ")", "[": "]", "{": "}"}
SCOPES = {"namespace", "struct", "class", "union", "enum", "extern"}
CONTROL = {"if", "for", "while", "switch", "catch"}
BODY_AFTER = {"else", "do", "try", "namespace", "mutable", "noexcept", "const", "override",
              "final", "constexpr", ")", ";", "{", "}", ":"}


def blank(text: str) -> str:
    """Comments, string and char literals, and preprocessor lines become spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Group:
    def __init__(self, kind, line):
        self.kind = kind  # "(", "[", "{" or "" for the file
        self.line = line
        self.items = []  # tokens (str, line) and Groups

    def args(self):
        """Top-level comma-separated arguments as lists of items."""
        out, cur = [], []
        for it in self.items:
            if isinstance(it, tuple) and it[0] == ",":
                out.append(cur)
                cur = []
            else:
                cur.append(it)
        out.append(cur)
        return out


def parse(text: str) -> Group:
    root = Group("", 1)
    stack = [root]
    for lineno, line in enumerate(text.split("\n"), 1):
        for tok in TOKEN.findall(line):
            if tok in OPEN:
                g = Group(tok, lineno)
                stack[-1].items.append(g)
                stack.append(g)
            elif tok in (")", "]", "}"):
                if len(stack) > 1 and OPEN[stack[-1].kind] == tok:
                    stack.pop()
            else:
                stack[-1].items.append((tok, lineno))
    return root


def is_draw_call(items, k):
    """items[k] is a "(" group that draws: `(rng)` after a name, `rng()`, or a bare rng argument."""
    g = items[k]
    if not isinstance(g, Group) or g.kind != "(":
        return False
    prev = items[k - 1] if k > 0 else None
    if isinstance(prev, tuple) and prev[0] in ENGINE and not g.items:
        return True  # rng()
    for arg in g.args():
        if len(arg) == 1 and isinstance(arg[0], tuple) and arg[0][0] in ENGINE:
            return True
    return False


def has_draw(g: Group) -> bool:
    for k, it in enumerate(g.items):
        if isinstance(it, Group) and (is_draw_call(g.items, k) or has_draw(it)):
            return True
    return False


def first_line(it):
    return it[1] if isinstance(it, tuple) else it.line


def scan(g: Group, found: set):
    block = g.kind in ("{", "")
    cuts = CUTS_BRACE if block else CUTS_PAREN
    units = []

    words = set()  # the names in the current piece

    def cut():
        if len(units) >= 2:
            found.add(units[1])
        units.clear()
        words.clear()

    for k, it in enumerate(g.items):
        prev = g.items[k - 1] if k > 0 else None
        if isinstance(it, tuple):
            if it[0] in cuts:
                cut()
            else:
                words.add(it[0])
            continue
        if is_draw_call(g.items, k):
            units.append(it.line)
            scan(it, found)  # its own arguments are evaluated (unsequenced) before it draws
            continue
        # In a block, a body ({ after `)`, `]`, else, do, ...) and an if/for/while/switch
        # condition are statements of their own: cut before and after them.
        body = block and it.kind == "{" and (
            isinstance(prev, Group) or (isinstance(prev, tuple) and prev[0] in BODY_AFTER)
            or words & SCOPES)
        condition = block and it.kind == "(" and isinstance(prev, tuple) and prev[0] in CONTROL
        if body or condition:
            cut()
            scan(it, found)
            continue
        if has_draw(it):
            units.append(it.line)
            scan(it, found)
    cut()


def check(path: pathlib.Path):
    found = set()
    scan(parse(blank(path.read_text(encoding="utf-8", errors="replace"))), found)
    return sorted(found)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=pathlib.Path, default=ROOT)
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    a = ap.parse_args()
    files = a.files or sorted(p for p in (a.root / "tests").rglob("*")
                              if p.suffix in (".cpp", ".hpp") and p.is_file())
    count = 0
    for f in files:
        for line in check(f):
            rel = f.relative_to(a.root) if f.is_absolute() and f.is_relative_to(a.root) else f
            print(f"{rel}:{line}: two or more random draws in one unsequenced expression")
            count += 1
    if count:
        print(f"{count} unsequenced multi-draw expression(s); draw in order: "
              "tests/support/draws.hpp, a braced list, or one named local per draw",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
