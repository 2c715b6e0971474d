#!/usr/bin/env python3
"""dalembert against SymPy, side by side, on the two families of bench/models.py.

    python3 bench/run.py            # pendulum n = 5, 10, 20, 30 and snake N = 2, 5, 10, 20
    python3 bench/run.py --quick    # pendulum n = 5, 10 and snake N = 2, 5 (a smoke run)
    python3 bench/run.py --fresh    # recompute SymPy's results instead of reusing them
    python3 bench/run.py --report   # rewrite the report from the last run's results

For each system it
1. writes the dalembert spec (bench/models.py) and derives it with the release binary,
   `dalembert derive --emit c` (wall time of the whole process, best of 5, and peak RSS);
2. runs the SymPy reference (bench/sympy_ref.py: KanesMethod / LagrangesMethod, then cse) in a
   virtual environment with a pinned SymPy (derive + cse time measured inside the process, so
   Python's start-up and imports are not counted against SymPy; peak RSS of the process);
3. compiles both C files with gcc -O2 (timed), links them into one harness, checks that both give
   the same accelerations at random states (relative 1e-9), and times one right-hand-side call of
   each;
4. writes target/bench/benchmarks.md with the table and the machine it ran on. It reuses SymPy's
   earlier results, so it is not the benchmark of record: docs/benchmarks.md is written by
   bench/multibody.py, which measures every reference in the same run.

Nothing here runs in parallel: Symbolica without a licence key allows one process at a time.
"""
import hashlib
import json
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
WORK = os.path.join(ROOT, "target", "bench")
VENV = os.path.join(ROOT, "target", "bench-venv")
SYMPY = "sympy==1.14.0"
MPMATH = "mpmath==1.3.0"
sys.path.insert(0, BENCH)
import arguments  # noqa: E402
import models  # noqa: E402


def run(cmd, **kw):
    """Runs a command; returns (wall seconds, peak RSS in KiB, completed process)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{out}\n{err}")
    return wall, usage.ru_maxrss, subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def venv_python():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"creating {VENV} with {SYMPY}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    check = subprocess.run([python, "-c", "import sympy; print(sympy.__version__)"],
                           capture_output=True, text=True)
    if check.returncode != 0 or check.stdout.strip() != SYMPY.split("==")[1]:
        subprocess.run([python, "-m", "pip", "install", "--quiet", SYMPY, MPMATH], check=True)
    return python


def op_counts(c_file):
    """{function: total ops} from the banner of an emitted C file."""
    counts = {}
    with open(c_file) as f:
        for line in f:
            if not line.startswith(" *"):
                if counts:
                    break
                continue
            name, _, rest = line[3:].partition(":")
            if " ops" in rest:
                total = rest.rsplit("= ", 1)[-1] if "= " in rest else rest
                counts[name.strip()] = int(total.split()[0])
    return counts


HARNESS = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <math.h>
#include <time.h>
#include "NAME.h"
int NAME_sympy_accel(const double *x, const double *p, const double *u, double *accel);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define K SAMPLES
static const double X[K][NSTATE] = XDATA;
static const double P[K][NPAR + 1] = PDATA;
static const double U[K][NIN + 1] = UDATA;
int main(void) {
    double xdot[NSTATE], acc[NQ], worst = 0.0;
    for (int k = 0; k < K; k++) {
        if (NAME_rhs(0.0, X[k], P[k], U[k], NULL, xdot) != 0) { printf("{\"error\": \"dalembert rhs failed\"}\n"); return 1; }
        if (NAME_sympy_accel(X[k], P[k], U[k], acc) != 0) { printf("{\"error\": \"sympy solve failed\"}\n"); return 1; }
        for (int i = 0; i < NQ; i++) {
            double a = xdot[NQ + i], b = acc[i];
            double rel = fabs(a - b) / fmax(1.0, fmax(fabs(a), fabs(b)));
            if (!(rel <= worst)) worst = rel;
        }
    }
    volatile double sink = 0.0;
    int reps = REPS;
    double t0 = now();
    for (int r = 0; r < reps; r++) { NAME_rhs(0.0, X[r % K], P[r % K], U[r % K], NULL, xdot); sink += xdot[NSTATE - 1]; }
    double t1 = now();
    for (int r = 0; r < reps; r++) { NAME_sympy_accel(X[r % K], P[r % K], U[r % K], acc); sink += acc[NQ - 1]; }
    double t2 = now();
    printf("{\"max_rel_diff\": %.3e, \"dalembert_ns\": %.1f, \"sympy_ns\": %.1f}\n", worst,
           1e9 * (t1 - t0) / reps, 1e9 * (t2 - t1) / reps);
    return 0;
}
"""


def c_array(rows):
    return "{" + ", ".join("{" + ", ".join(repr(v) for v in row) + "}" for row in rows) + "}"


def samples(family, n, params, inputs, k, rng):
    """Random states, parameters and inputs (angles in (-pi, pi), rates in (-1, 1), masses and
    lengths in (0.5, 2), g = 9.81)."""
    nq = n + 1 if family == "pendulum" else n + 2
    xs, ps, us = [], [], []
    for _ in range(k):
        q = [rng.uniform(-1, 1)] * (1 if family == "pendulum" else 0)
        if family == "snake":
            q = [rng.uniform(-1, 1), rng.uniform(-1, 1)]
        q += [rng.uniform(-3.1, 3.1) for _ in range(nq - len(q))]
        v = [rng.uniform(-1, 1) for _ in range(nq)]
        xs.append(q + v)
        ps.append([9.81 if p == "g" else rng.uniform(0.5, 2.0) for p in params] + [0.0])
        us.append([rng.uniform(-1, 1) for _ in inputs] + [0.0])
    return nq, xs, ps, us


def sympy_reference(family, n, name, python, fresh):
    """SymPy's derivation of one system: run bench/sympy_ref.py, or reuse its earlier result in
    target/bench/sympy/<name> when bench/sympy_ref.py and the SymPy pin are unchanged (SymPy
    takes minutes on the large systems; --fresh recomputes)."""
    out = os.path.join(WORK, "sympy", name)
    stamp = hashlib.sha256(open(os.path.join(BENCH, "sympy_ref.py"), "rb").read()).hexdigest()
    stamp += " " + SYMPY
    result = os.path.join(out, f"sympy_{name}.json")
    if not fresh and os.path.exists(result):
        with open(result) as f:
            cached = json.load(f)
        if cached.get("stamp") == stamp:
            print(f"  (SymPy result reused from {out})", flush=True)
            return cached
    shutil.rmtree(out, ignore_errors=True)
    _, rss, _ = run([python, os.path.join(BENCH, "sympy_ref.py"), family, str(n), out])
    with open(result) as f:
        sym = json.load(f)
    sym["stamp"] = stamp
    sym["rss_kib"] = rss
    with open(result, "w") as f:
        json.dump(sym, f)
    return sym


def bench_case(family, n, python, binary, rng, fresh):
    spec, params, inputs = {"pendulum": models.pendulum_cart, "snake": models.snake}[family](n)
    name = f"pendulum_cart_{n}" if family == "pendulum" else f"snake_{n}"
    case = os.path.join(WORK, "cases", name)
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    spec_path = os.path.join(case, "spec.mech")
    with open(spec_path, "w") as f:
        f.write(spec)
    out = os.path.join(case, "dalembert")
    walls = []
    rss = 0
    for _ in range(5):
        shutil.rmtree(out, ignore_errors=True)
        wall, peak, _ = run([binary, "derive", spec_path, "--emit", "c", "-o", out])
        walls.append(wall)
        rss = max(rss, peak)
    dal_time = min(walls)
    counts = op_counts(os.path.join(out, f"{name}.c"))
    sym = sympy_reference(family, n, name, python, fresh)
    sym_out = os.path.join(WORK, "sympy", name)
    sym_rss = sym["rss_kib"]
    sym_time = sym["derive_s"] + sym["cse_s"]
    objects = {}
    compile_s = {}
    for label, src in [("dalembert", os.path.join(out, f"{name}.c")),
                       ("sympy", os.path.join(sym_out, f"sympy_{name}.c"))]:
        obj = os.path.join(case, f"{label}.o")
        wall, _, _ = run(["gcc", "-std=c99", "-O2", "-c", src, "-o", obj, "-I", out])
        compile_s[label] = wall
        objects[label] = obj
    nq, xs, ps, us = samples(family, n, params, inputs, 16, rng)
    reps = max(2000, 4_000_000 // max(counts.get("rhs", 1), 1))
    harness = (HARNESS.replace("NAME", name).replace("SAMPLES", "16")
               .replace("NSTATE", str(2 * nq)).replace("NPAR", str(len(params)))
               .replace("NIN", str(len(inputs))).replace("NQ", str(nq))
               .replace("XDATA", c_array(xs)).replace("PDATA", c_array(ps))
               .replace("UDATA", c_array(us)).replace("REPS", str(reps)))
    harness_c = os.path.join(case, "harness.c")
    with open(harness_c, "w") as f:
        f.write(harness)
    exe = os.path.join(case, "harness")
    run(["gcc", "-std=c99", "-O2", "-I", out, harness_c, objects["dalembert"], objects["sympy"],
         "-o", exe, "-lm"])
    _, _, proc = run([exe])
    result = json.loads(proc.stdout)
    if "error" in result:
        sys.exit(f"{name}: {result['error']}")
    if not result["max_rel_diff"] <= 1e-9:
        sys.exit(f"{name}: dalembert and SymPy accelerations differ by {result['max_rel_diff']:.3e}")
    return {
        "name": name,
        "family": family,
        "n": n,
        "dalembert_s": dal_time,
        "sympy_s": sym_time,
        "sympy_derive_s": sym["derive_s"],
        "sympy_cse_s": sym["cse_s"],
        "ratio": sym_time / dal_time,
        "dalembert_rss_mib": rss / 1024,
        "sympy_rss_mib": sym_rss / 1024,
        "implicit_ops": counts.get("implicit"),
        "rhs_ops": counts.get("rhs"),
        "sympy_ops": sym["ops_after_cse"],
        "aba_ops": 223 * n - 231 if family == "pendulum" else None,
        "gcc_dalembert_s": compile_s["dalembert"],
        "gcc_sympy_s": compile_s["sympy"],
        "max_rel_diff": result["max_rel_diff"],
        "dalembert_ns": result["dalembert_ns"],
        "sympy_ns": result["sympy_ns"],
    }


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return (f"{model}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} "
            f"{platform.release()}; {rustc}; {gcc}; Python {platform.python_version()}, {SYMPY}")


def report(rows, quick):
    lines = [
        "# Benchmarks: dalembert against SymPy",
        "",
        "Generated by `python3 bench/run.py" + (" --quick" if quick else "") + "` on "
        + time.strftime("%Y-%m-%d") + ". Do not edit: rerun the script.",
        "",
        f"Machine: {machine()}.",
        "",
        "Systems (`bench/models.py`): `pendulum_cart_n` is SymPy's `n_link_pendulum_on_cart(n)`"
        " (KanesMethod); `snake_N` is an N-link wheeled snake with N nonholonomic constraints"
        " (SymPy: LagrangesMethod with `nonhol_coneqs`). Both tools give the same accelerations at"
        " 16 random states (column *diff*: largest relative difference).",
        "",
        "- *time*: dalembert = wall time of `dalembert derive --emit c` (whole process, best of 5);"
        " SymPy = derive + `cse` of `mass_matrix_full` and `forcing_full`, measured inside Python"
        " (imports not counted). *ratio* = SymPy / dalembert.",
        "- *RSS*: peak resident memory of each process (MiB).",
        "- *ops*: dalembert's implicit form (`implicit`: W, forcing, constraint Jacobian and bias)"
        " and explicit right-hand side (`rhs`: the same program plus the emitted numeric LDLᵀ"
        " solve, counted in flops); SymPy: `count_ops` after `cse` of M and F."
        " ABA: Featherstone's articulated-body algorithm, 223n − 231.",
        "- *gcc*: `gcc -std=c99 -O2 -c` of each tool's C (SymPy's: cse'd M, F and a Gaussian"
        " elimination). *ns/call*: one right-hand side (accelerations) in one harness.",
        "",
        "| system | dalembert s | SymPy s | ratio | RSS MiB (d / S) | implicit ops | rhs ops |"
        " SymPy ops | implicit / SymPy | ABA | gcc s (d / S) | ns/call (d / S) | diff |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['dalembert_s']:.3f} | {r['sympy_s']:.2f} | {r['ratio']:.0f}× |"
            f" {r['dalembert_rss_mib']:.0f} / {r['sympy_rss_mib']:.0f} |"
            f" {r['implicit_ops']} | {r['rhs_ops']} | {r['sympy_ops']} |"
            f" {r['implicit_ops'] / r['sympy_ops']:.2f} | {r['aba_ops'] or '–'} |"
            f" {r['gcc_dalembert_s']:.2f} / {r['gcc_sympy_s']:.2f} |"
            f" {r['dalembert_ns']:.0f} / {r['sympy_ns']:.0f} | {r['max_rel_diff']:.1e} |"
        )
    lines.append("")
    lines += targets(rows)
    analysis = os.path.join(BENCH, "analysis.md")
    if os.path.exists(analysis):
        with open(analysis) as f:
            lines += ["", f.read().rstrip(), ""]
    return "\n".join(lines)


def targets(rows):
    """The targets of issue 4, each checked against this run."""
    by = {r["name"]: r for r in rows}
    out = ["## Targets (this run)", "", "| target | measured | met |", "|---|---|---|"]

    def add(text, value, ok):
        out.append(f"| {text} | {value} | {'yes' if ok else '**no**'} |")

    for name in ["pendulum_cart_10", "pendulum_cart_20", "pendulum_cart_30", "snake_10", "snake_20"]:
        if name in by:
            r = by[name]["ratio"]
            add(f"derive + emit ≥ 100× faster than SymPy derive + cse ({name})", f"{r:.0f}×", r >= 100)
    for r in rows:
        q = r["implicit_ops"] / r["sympy_ops"]
        add(f"implicit-form ops ≤ 0.7 × SymPy's after cse ({r['name']})", f"{q:.2f}", q <= 0.7)
    if "pendulum_cart_30" in by:
        r = by["pendulum_cart_30"]
        q = r["rhs_ops"] / r["aba_ops"]
        add("explicit rhs (with the numeric solve) ≤ 2 × ABA (223n − 231) at n = 30",
            f"{r['rhs_ops']} = {q:.2f} × {r['aba_ops']}", q <= 2)
        g = r["gcc_sympy_s"] / r["gcc_dalembert_s"]
        add("emitted C compiles ≥ 10× faster than SymPy's at n = 30",
            f"{r['gcc_sympy_s']:.1f} s / {r['gcc_dalembert_s']:.1f} s = {g:.1f}×", g >= 10)
    return out


def main():
    arguments.check(__doc__, ("--quick", "--fresh", "--report"))
    if "--report" in sys.argv:
        # Rewrite docs/benchmarks.md from the last run's results (after editing analysis.md).
        with open(os.path.join(WORK, "results.json")) as f:
            rows = json.load(f)
        quick = len(rows) < 8
        with open(os.path.join(WORK, "benchmarks.md"), "w") as f:
            f.write(report(rows, quick))
        return
    quick = "--quick" in sys.argv
    fresh = "--fresh" in sys.argv
    cases = ([("pendulum", n) for n in (5, 10)] + [("snake", n) for n in (2, 5)] if quick else
             [("pendulum", n) for n in (5, 10, 20, 30)] + [("snake", n) for n in (2, 5, 10, 20)])
    python = venv_python()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target", "release", "dalembert")
    rng = random.Random(20261122)
    rows = []
    for family, n in cases:
        print(f"{family} {n} ...", flush=True)
        row = bench_case(family, n, python, binary, rng, fresh)
        print(json.dumps(row), flush=True)
        rows.append(row)
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    text = report(rows, quick)
    with open(os.path.join(WORK, "benchmarks.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
