#!/usr/bin/env python3
"""Lists the import edges among the files of src/api (test modules aside) and fails when they form
a circle: the API is one module per endpoint with no import circle among its files (issue 15).

    python3 scripts/api-cycles.py
"""
import os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "api")


def module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, "/")
    return "mod" if rel == "mod" else rel.removesuffix("/mod")


def targets(text, me):
    """The api modules a file's code (not its tests) names."""
    text = text.split("#[cfg(test)]")[0]
    # Comments name modules without using them.
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
    found = set()
    for m in re.finditer(r"crate::api::((?:routes::)?[a-z_]+)", text):
        found.add(m.group(1).replace("::", "/"))
    parent = me.rsplit("/", 1)[0] if "/" in me else None
    names = [m.group(1) for m in re.finditer(r"\bsuper::([a-z_]+)", text)]
    for m in re.finditer(r"\bsuper::\{([^}]*)\}", text):
        names += [n.strip().split("::")[0] for n in m.group(1).split(",")]
    for m in re.finditer(r"crate::api::\{([^}]*)\}", text):
        found.update(n.strip().split("::")[0] for n in m.group(1).split(","))
    for name in names:
        if name:
            found.add(f"{parent}/{name}" if parent else name)
    return found


def main():
    files = {}
    for dirpath, _, names in os.walk(ROOT):
        for n in names:
            if n.endswith(".rs"):
                p = os.path.join(dirpath, n)
                files[module_of(p)] = p
    graph = {}
    for me, p in files.items():
        with open(p) as f:
            text = f.read()
        edges = {t for t in targets(text, me) if t in files and t != me}
        graph[me] = edges
    # `mod.rs` files declare and re-export their children: edges to them are not uses, and a
    # child naming its parent means its siblings.
    graph["mod"] = set()
    for me in list(graph):
        if me.startswith("routes/"):
            graph[me] = {t for t in graph[me] if t != "routes"}
    # Find a cycle by depth-first search.
    state = {}

    def visit(n, stack):
        state[n] = 1
        for t in sorted(graph.get(n, ())):
            if state.get(t) == 1:
                return stack + [n, t]
            if t not in state:
                found = visit(t, stack + [n])
                if found:
                    return found
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            cycle = visit(n, [])
            if cycle:
                start = cycle.index(cycle[-1])
                print("import circle: " + " -> ".join(cycle[start:]))
                return 1
    for n in sorted(graph):
        print(f"{n}: {', '.join(sorted(graph[n])) or '-'}")
    print("no import circle among the files of src/api")
    return 0


if __name__ == "__main__":
    sys.exit(main())
