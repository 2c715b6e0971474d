#!/usr/bin/env python3
"""How much the process that runs before it moves a timed run of dalembert.

    python3 bench/preceding.py            # 12 rounds, the flat 10-link chain
    python3 bench/preceding.py 20 5       # 20 rounds, the flat 5-link chain

The benchmark of record (bench/multibody.py) alternates the sides of a comparison run by run, so
the flat chain's run follows SymEngine's process of the round before. This script times the same
run, `dalembert derive --emit c` of the flat n-link chain (the benchmark's own `derive_series`:
a fresh process, its wall time, its output folder removed before it), right after each of three processes, in
rounds that alternate them:

- another run of the same derivation (what an isolated measurement sees);
- SymEngine's derivation of the chain of joints (bench/symengine_ref.py bodies n), which the
  benchmark runs just before the flat chain;
- a Python process that touches 300 MB and exits (a large working set, no CAS).

It prints the min and the median of each. The disk is flushed before the rounds (as the
benchmark's `settled()` does). Nothing runs in parallel: Symbolica without a licence key allows
one process at a time.
"""
import os
import statistics
import subprocess
import sys

import models
from multibody import ROOT, WORK, derive_series, settled, venv_python

BENCH = os.path.dirname(os.path.abspath(__file__))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    python = venv_python()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target", "release", "dalembert")
    case = os.path.join(WORK, "preceding")
    os.makedirs(case, exist_ok=True)
    # The benchmark's own timed run of the flat chain (`derive --emit c`, its folder removed first).
    derive, _, _ = derive_series(binary, models.pendulum_cart(n)[0], "flat", case)
    before = {
        "the same derivation": derive,
        f"SymEngine's chain of joints (n = {n})": lambda: subprocess.run(
            [python, os.path.join(BENCH, "symengine_ref.py"), "bodies", str(n),
             os.path.join(case, "symengine")], capture_output=True, check=True),
        "a Python process touching 300 MB": lambda: subprocess.run(
            [sys.executable, "-c", "x = bytearray(300_000_000); s = sum(x[::4096])"],
            capture_output=True, check=True),
    }
    times = {label: [] for label in before}
    settled()
    for _ in range(rounds):
        for label, run in before.items():
            run()
            times[label].append(derive())
    print(f"dalembert derive --emit c, flat {n}-link chain, {rounds} runs after each (ms):")
    for label, walls in times.items():
        print(f"  after {label}: min {min(walls) * 1e3:.1f}, "
              f"median {statistics.median(walls) * 1e3:.1f}")


if __name__ == "__main__":
    main()
