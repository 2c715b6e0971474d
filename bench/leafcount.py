#!/usr/bin/env python3
"""Leaf counts of the expressions dalembert prints, against SymPy's best simplification.

    python3 bench/leafcount.py            # every golden; writes docs/simplification.md
    python3 bench/leafcount.py --check    # exit 1 if an expression is larger than SymPy's best
    python3 bench/leafcount.py --jobs 2   # SymPy in two processes (same counts unless a call nears its limit)

For every committed golden JSON (golden/**/expected/*.json) it reads the printed expressions: the
equations, the multipliers, the energy, and the Hamiltonian side's equations. Each is parsed by
SymPy from its `python` form (as a user who lambdifies it gets it) and measured by its leaf count,
the symbols and numbers of its printed form (`sin(x)**2` has two: `x` and `2`). SymPy 1.14's `simplify`,
`trigsimp` and `factor` are applied to the same expression, each with a time limit; the best of
those that finish is SymPy's leaf count. An expression of more than --max-leaves leaves (by
default none: every expression is compared) is not given to SymPy and is counted apart.

Nothing here runs dalembert: it reads the committed outputs, so it may run beside anything.
"""
import argparse
import datetime
import glob
import json
import multiprocessing
import re
import os
import platform
import signal
import sys
import time

import sympy as sp
from sympy.parsing.sympy_parser import parse_expr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ["equations", "multipliers", "energy"]


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


ATOM = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(?![A-Za-z_0-9(])|[0-9]+(?:\.[0-9]+)?")


def leaves(text):
    """The leaves of an expression as printed: its symbols and numbers, each occurrence once
    (`(a + b)/2` has three, `sin(x)**2` two). Counted on the printed text, so that SymPy's and
    dalembert's trees, which store `x/2` and `a - b` differently, are measured alike."""
    return len(ATOM.findall(text))


def forms(value, path):
    """(path, python form) for every expression below `value`."""
    if isinstance(value, dict):
        if isinstance(value.get("python"), str):
            yield path, value["python"]
        else:
            for k, v in value.items():
                yield from forms(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from forms(v, f"{path}[{i}]")


def best_sympy(e, seconds):
    """SymPy's smallest leaf count over simplify, trigsimp and factor, and which gave it."""
    best, how, timed_out = leaves(sp.sstr(e)), "as given", []
    for name, f in [("factor", sp.factor), ("trigsimp", sp.trigsimp), ("simplify", sp.simplify)]:
        signal.alarm(seconds)
        try:
            r = f(e)
            n = leaves(sp.sstr(r))
            if n < best:
                best, how = n, name
        except Timeout:
            timed_out.append(name)
        except Exception:
            pass
        finally:
            signal.alarm(0)
    return best, how, timed_out


def measure(item):
    """(case, where, leaves as printed, SymPy's best, by what) of one expression, or None when
    SymPy cannot parse it or it is a single leaf; SymPy's best is None above `max_leaves`."""
    case, where, text, identifiers, seconds, max_leaves = item
    signal.signal(signal.SIGALRM, on_alarm)
    names = {py: sp.Symbol(py) for py in identifiers}
    try:
        e = parse_expr(text, local_dict=names)
    except Exception:
        return None
    n = leaves(text)
    if n <= 1:
        return None
    if n > max_leaves:
        return case, where, n, None, None
    best, how, _ = best_sympy(e, seconds)
    return case, where, n, best, how


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--max-leaves", type=int, default=100000)
    parser.add_argument("--jobs", type=int, default=1, help="SymPy processes (default 1)")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "simplification.md"))
    parser.add_argument("--golden", default=os.path.join(ROOT, "golden"), help="the goldens' folder")
    args = parser.parse_args()
    started = time.time()
    cases, items = [], []
    for path in sorted(glob.glob(os.path.join(args.golden, "**", "expected", "*.json"), recursive=True)):
        if path.endswith("-linear.json"):
            continue
        doc = json.load(open(path))
        ids = sorted(doc.get("identifiers", {}).values())
        found = []
        for key in KEYS:
            found.extend(forms(doc.get(key), key))
        ham = doc.get("hamiltonian")
        if isinstance(ham, dict):
            found.extend(forms(ham.get("equations"), "hamiltonian.equations"))
        case = os.path.relpath(path, args.golden).replace("/expected/", ": ")
        cases.append(case)
        items.extend((case, where, text, ids, args.seconds, args.max_leaves) for where, text in found)
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(measure, items, chunksize=1)
    else:
        results = [measure(item) for item in items]
    rows, worse = [], []
    for case in cases:
        count = ours = theirs = larger = skipped = 0
        for r in results:
            if r is None or r[0] != case:
                continue
            _, where, n, best, how = r
            count += 1
            if best is None:
                skipped += 1
                continue
            ours += n
            theirs += best
            if n > best:
                larger += 1
                worse.append((case, where, n, best, how))
        rows.append((case, count, skipped, ours, theirs, larger))
    elapsed = time.time() - started
    lines = [
        "# Simplification: leaf counts against SymPy",
        "",
        f"Generated by `python3 bench/leafcount.py` on {datetime.date.today().isoformat()}. Do not edit: rerun the script.",
        "",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, SymPy {sp.__version__}; {elapsed:.0f} s with {args.jobs} SymPy process(es).",
        "",
        "For every golden, the expressions its JSON prints (`equations`, `multipliers`, `energy`, the",
        "Hamiltonian side's `equations`), as SymPy parses their `python` forms. *leaves*: the symbols and",
        "numbers of the expression as printed (`(a + b)/2` has three, `sin(x)**2` two; SymPy's results",
        "printed by `sstr`), so that both are measured on what a reader sees. *SymPy best*: the smallest leaf count of SymPy's `simplify`,",
        "`trigsimp` and `factor` of the same expression (each stopped after"
        f" {args.seconds} s), or of the expression itself. *larger*: expressions dalembert prints with more leaves than",
        f"SymPy's best. Expressions of more than {args.max_leaves} leaves are not given to SymPy (*not compared*).",
        "",
        "| golden | expressions | not compared | dalembert leaves | SymPy best | larger |",
        "|---|---|---|---|---|---|",
    ]
    for case, count, skipped, ours, theirs, larger in rows:
        if count:
            lines.append(f"| {case} | {count} | {skipped} | {ours} | {theirs} | {larger} |")
    total = [sum(r[i] for r in rows) for i in range(1, 6)]
    lines.append(f"| **all** | {total[0]} | {total[1]} | {total[2]} | {total[3]} | {total[4]} |")
    lines.append("")
    if worse:
        lines.append("## Where SymPy finds a smaller form")
        lines.append("")
        lines.append("| golden | expression | dalembert | SymPy | by |")
        lines.append("|---|---|---|---|---|")
        for case, where, n, best, how in worse:
            lines.append(f"| {case} | `{where}` | {n} | {best} | {how} |")
        lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"{total[0]} expressions, {total[4]} larger than SymPy's best; wrote {args.out}")
    if args.check and worse:
        sys.exit(1)


if __name__ == "__main__":
    main()
