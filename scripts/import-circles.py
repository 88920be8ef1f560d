#!/usr/bin/env python3
"""The import circles of the workspace's crates, as text or as a Graphviz picture.

A module names another through `use crate::…` / `super::…` (groups included, test modules
and comment lines left out, a module naming its own ancestors or descendants not counted);
modules that name each other round a loop make a circle (a strongly connected component).
tests/studio/architecture.rs counts the same circles and holds them to a ratchet; this script
draws them for ARCHITECTURE.md:

    scripts/import-circles.py [ROOT]                 # list the circles
    scripts/import-circles.py [ROOT] --dot > c.dot   # dot -Tpng c.dot > circles.png
"""
import os
import re
import sys


def modules(src):
    out = {}
    for folder, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(folder, f)
            parts = os.path.relpath(path, src)[:-3].split(os.sep)
            if parts[-1] == "mod" or parts in (["lib"], ["main"]):
                parts = parts[:-1]
            text = open(path, encoding="utf-8").read().split("#[cfg(test)]\nmod tests")[0]
            text = "\n".join(l for l in text.split("\n") if not l.lstrip().startswith("//"))
            out["::".join(parts)] = text
    return out


def paths_after(text):
    """The paths named just after `crate::` or `super::`, groups expanded."""
    prefix, word, i = [], "", 0
    while i < len(text):
        c = text[i]
        if c.isalnum() or c == "_":
            word += c
        elif text.startswith("::", i):
            prefix.append(word)
            word = ""
            i += 1
        elif c == "{":
            depth, j = 1, i + 1
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            group, items, level, item = text[i + 1 : j - 1], [], 0, ""
            for g in group + ",":
                level += {"{": 1, "}": -1}.get(g, 0)
                if g == "," and level == 0:
                    items.append(item.strip())
                    item = ""
                else:
                    item += g
            return [prefix + p for it in items if it for p in paths_after(it)]
        else:
            break
        i += 1
    return [prefix + [word]]


def edges(mods):
    out = {m: set() for m in mods}
    for m, text in mods.items():
        here = [p for p in m.split("::") if p]
        for hit in re.finditer(r"(?<![\w:])(crate::|(?:super::)+)", text):
            base = [] if hit.group(1) == "crate::" else here[: len(here) - hit.group(1).count("super")]
            for path in paths_after(text[hit.end() :]):
                full, target = list(base), None
                for seg in path:
                    full.append(seg)
                    if "::".join(full) in mods:
                        target = "::".join(full)
                if target is None:
                    continue
                a, b = m, target
                if a == b or not a or not b or a.startswith(b + "::") or b.startswith(a + "::"):
                    continue
                out[m].add(target)
    return out


def circles(graph):
    index, low, stack, on, found, n = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def crates(root):
    out = [("level-studio", os.path.join(root, "src"))]
    for parent in ("crates", "crates/games"):
        for name in sorted(os.listdir(os.path.join(root, parent))):
            src = os.path.join(root, parent, name, "src")
            if os.path.isdir(src):
                out.append((name, src))
    return sorted(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = args[0] if args else "."
    found = []
    for name, src in crates(root):
        graph = edges(modules(src))
        for c in circles(graph):
            found.append((name, c, {m: graph[m] & set(c) for m in c}))
    if "--dot" not in sys.argv:
        for name, c, _ in found:
            print(f"{name}: {' ⇄ '.join(c)}")
        print(f"{len(found)} import circles")
        return
    title = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--title=")), "")
    print("digraph circles {")
    print(f'  graph [rankdir=LR, fontname="sans", label="{title}: {len(found)} circles", labelloc=t];')
    print('  node [shape=box, fontname="sans", fontsize=10, style=filled, fillcolor="#fde2e2"];')
    for i, (name, c, sub) in enumerate(found):
        print(f'  subgraph cluster_{i} {{ label="{name}"; fontsize=11;')
        for m in c:
            print(f'    "{name}/{m}" [label="{m}"];')
        for m, targets in sub.items():
            for t in sorted(targets):
                print(f'    "{name}/{m}" -> "{name}/{t}";')
        print("  }")
    print("}")


if __name__ == "__main__":
    main()
