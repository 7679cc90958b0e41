#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets under fuzz/corpus/<target>/ from fixtures/.

Each target reads its own input format:
  fen       a FEN (Baroque)
  moves     a FEN line, a rule set line, then one move per line
  legality  a split byte, a FEN, then (from, to, role) byte triples
  legality_rococo  a split byte, a Rococo FEN, then (from, to, role, kind) byte quadruples
  verify    a POST /v1/verify body (JSON), either game
  requests  an operation byte (0 analyze, 1 verify, 2 solve, 3 puzzle, 4 collection), then its body
Run from anywhere; the corpus directories are created or refreshed (generated files only).
"""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CORPUS = ROOT / "fuzz" / "corpus"


def rules_text(rules):
    """A rule set as the CLI's --rules writes it (`abbott`, `abbott,leaper=single`)."""
    if rules is None:
        return "abbott"
    if isinstance(rules, str):
        return rules
    rest = [f"{k}={v}" for k, v in rules.items() if k != "preset"]
    return ",".join([rules.get("preset", "abbott"), *rest])


def load(kind):
    for path in sorted((FIXTURES / kind).glob("*.json")):
        doc = json.loads(path.read_text())
        for case in doc.get("cases", []) + doc.get("puzzles", []):
            yield doc.get("game", "baroque"), case


def perft_fens():
    for path in sorted((FIXTURES / "perft").glob("*.perft")):
        game = path.stem
        rules = None
        for line in path.read_text().splitlines():
            if line.startswith("rules "):
                rules = line.split(" ", 1)[1]
            if line.startswith("fen "):
                yield game, line.split(" ", 1)[1], rules


def main():
    seeds = {t: [] for t in ("fen", "moves", "legality", "legality_rococo", "verify", "requests")}
    diagrams = list(load("diagrams"))
    puzzles = list(load("puzzles"))
    for game, case in diagrams:
        fen, moves, rules = case["fen"], case.get("moves", []), case.get("rules")
        body = {"fen": fen, "moves": moves, "game": game}
        if rules and game == "baroque":
            body["rules"] = rules
        seeds["verify"].append(json.dumps(body).encode())
        seeds["requests"].append(b"\x01" + json.dumps(body).encode())
        analyze = {k: v for k, v in body.items() if k != "moves"}
        seeds["requests"].append(b"\x00" + json.dumps(analyze).encode())
        if game == "baroque":
            seeds["fen"].append(fen.encode())
            seeds["moves"].append("\n".join([fen, rules_text(rules), *moves]).encode())
            raw = fen.encode()
            seeds["legality"].append(bytes([len(raw)]) + raw + bytes([12, 28, 0, 3, 19, 6]))
            post = {"kind": "diagram", "fen": fen, "rules": rules or "abbott", "moves": moves,
                    "captures": case.get("captures", [])}
            seeds["requests"].append(b"\x03" + json.dumps(post).encode())
    for game, case in puzzles:
        solve = {"fen": case["fen"], "mate_in": case["mate_in"], "game": game,
                 "limits": {"nodes": 1000, "millis": 100}}
        if game == "baroque":
            solve["rules"] = case.get("rules", "abbott")
            seeds["fen"].append(case["fen"].encode())
        seeds["requests"].append(b"\x02" + json.dumps(solve).encode())
        post = {"kind": "mate", "fen": case["fen"], "mate_in": case["mate_in"], "game": game}
        seeds["requests"].append(b"\x03" + json.dumps(post).encode())
    for game, fen, rules in perft_fens():
        if game == "rococo":
            raw = fen.encode()
            seeds["legality_rococo"].append(
                bytes([len(raw)]) + raw + bytes([22, 44, 3, 0, 13, 33, 1, 5, 35, 35, 2, 3]))
        if game == "baroque":
            seeds["fen"].append(fen.encode())
            seeds["moves"].append(f"{fen}\n{rules or 'abbott'}\n".encode())
        seeds["verify"].append(json.dumps({"fen": fen, "moves": [], "game": game}).encode())
    for body in (
        {"name": "twos", "mate_in": 2, "count": 5, "rules": "abbott", "seed": 42, "max_pieces": 8},
        {"name": "r", "mate_in": 2.0, "count": 1, "game": "rococo",
         "candidate_limits": {"nodes": 10, "millis": 5}},
        {"name": "a b", "mate_in": 99, "count": 0},
    ):
        seeds["requests"].append(b"\x04" + json.dumps(body).encode())
    seeds["verify"].append(json.dumps({
        "fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo", "coords": "page",
        "moves": ["Ld3xd8"]}).encode())
    for target, items in seeds.items():
        out = CORPUS / target
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("seed-*"):
            old.unlink()
        for i, data in enumerate(dict.fromkeys(items)):
            (out / f"seed-{i:04}").write_bytes(data)
        print(f"{target}: {len(set(items))} seeds")


if __name__ == "__main__":
    main()
