#!/usr/bin/env python3
"""No loops among the project's C files (docs/architecture.md, "Rules").

Two kinds, in include/, src/, tools/, dev/, web/ and python/ (fuzz/, tests/ and
examples/ only use them):
  1. #include cycles: a.h includes b.h includes a.h.
  2. Unit loops: a unit is one .c file; unit A uses unit B when A names a
     function or variable that B defines (non-static), through whatever
     header declares it. A cycle (a.c uses b.c uses a.c) means the two
     cannot be layered, built or tested one without the other: that is
     the loop a shared "grab-bag" header hides, since both sides include it.
Prints each loop with the names that close it; exit 1 when there is one,
in the library as anywhere else.
Usage: check_include_loops.py [ROOT]
"""
import os
import re
import sys

DIRS = ("include", "src", "tools", "dev", "web", "python")
INCLUDE_PATH = ("include", "tools/cmd", "src")

STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# A definition at column 0 that is not static: a function (its parameter
# list, then a body) or a variable with an initializer.
FUNC_DEF = re.compile(r'^(?!static\b|typedef\b|extern\b|return\b|else\b|if\b)'
                      r'[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{', re.M)
DATA_DEF = re.compile(r'^(?!static\b|typedef\b|extern\b|return\b)'
                      r'[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=', re.M)
TOKEN = re.compile(r'[A-Za-z_]\w*')


def strip(text):
    """Comments and string/char literals out, newlines kept (line anchors)."""
    def blank(m):
        s = m.group(0)
        return '""' if s[0] == '"' else ("''" if s[0] == "'" else "\n" * s.count("\n") or " ")
    text = STRIP.sub(blank, text)
    # preprocessor lines other than #include name nothing to link against
    return re.sub(r'^\s*#(?!\s*include).*?(?<!\\)$', '', text, flags=re.M | re.S)


def sources(root):
    out = []
    for d in DIRS:
        for base, _, names in os.walk(os.path.join(root, d)):
            for n in names:
                if n.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(base, n), root))
    return sorted(out)


def resolve(root, src, name):
    for d in (os.path.dirname(src),) + INCLUDE_PATH:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    args = sys.argv[1:]
    root = args[0] if args else "."
    files = sources(root)
    text, raw_includes = {}, {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            raw = fh.read()
        # names before the literals are blanked; comments out first
        raw_includes[f] = INCLUDE.findall(re.sub(r'/\*.*?\*/|//[^\n]*', " ", raw, flags=re.S))
        text[f] = strip(raw)
    bad = 0

    includes = {f: set() for f in files}
    for f in files:
        for name in raw_includes[f]:
            p = resolve(root, f, name)
            if p in includes:
                includes[f].add(p)
    for comp in cycles(includes):
        bad += 1
        print("include loop: " + " -> ".join(comp))
        for a in comp:
            for b in sorted(includes[a] & set(comp)):
                print("  %s includes %s" % (a, b))

    owner = {}
    for f in files:
        if f.endswith(".c"):
            for m in list(FUNC_DEF.finditer(text[f])) + list(DATA_DEF.finditer(text[f])):
                owner.setdefault(m.group(1), f)
    uses = {f: {} for f in files if f.endswith(".c")}
    for f in uses:
        for tok in set(TOKEN.findall(text[f])):
            o = owner.get(tok)
            if o and o != f:
                uses[f].setdefault(o, set()).add(tok)
    graph = {f: set(u) for f, u in uses.items()}
    for comp in cycles(graph):
        bad += 1
        print("unit loop: " + ", ".join(comp))
        for a in comp:
            for b in sorted(graph[a] & set(comp)):
                names = sorted(uses[a][b])
                more = " ..." if len(names) > 4 else ""
                print("  %s uses %s: %s%s" % (a, b, ", ".join(names[:4]), more))
    if bad:
        print("check_include_loops: %d loop(s); split the shared header or move the "
              "shared code down a layer (docs/architecture.md, Rules)" % bad)
        return 1
    print("check_include_loops: %d files, no include loops, no unit loops" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
