#!/usr/bin/env python3
"""The multibody benchmark: an n-link pendulum on a cart, written as a flat Lagrangian and with
bodies and joints, against SymPy, Pinocchio and a hand-written articulated-body algorithm.

    python3 bench/multibody.py              # chain n = 5 .. 100 (SymPy up to 30), snake N = 5, 10, 20
    python3 bench/multibody.py --quick      # chain n = 5, 10, snake N = 5
    python3 bench/multibody.py --sympy-max 60
    python3 bench/multibody.py --symengine-max 60
    python3 bench/multibody.py --symengine-bodies-max 20  # SymEngine's 30-link bodies: ~5 min a run
    python3 bench/multibody.py --no-goldens  # skip the table of every golden's time
    python3 bench/multibody.py --snake-sympy-max 10   # SymPy's 20-link snake takes ~10 min a run
    python3 bench/multibody.py --report     # rewrite docs/benchmarks.md from the last run
    python3 bench/multibody.py --snake-only # measure the snake again, keep the last chain rows

Everything is measured in this run, in fresh processes, RUNS (3) times a side, and MANY_RUNS (15)
times for a series of the chain or the snake whose runs take under CHEAP_S (0.2 s; the median of
its first three), where a busy moment of the machine moves a run most; the tables give the min and
the median of each. The runs of the sides of a comparison alternate (dalembert's
flat and bodies specs, SymPy, SymEngine's flat and bodies derivations, then again), so that a
machine that slows for a while slows every side alike. For each n it
1. derives both specs with the release binary, `dalembert derive --emit c --profile` (wall
   time of the whole process, and the time in process that `--profile` reports last) and reads
   the operation counts from the emitted banners;
2. runs SymPy 1.14's `n_link_pendulum_on_cart` derive + cse (bench/sympy_ref.py, timed inside
   the process, imports not counted) for n up to --sympy-max, and SymEngine 0.15's derive + cse
   of the same Lagrangian, in absolute angles (flat) and in joint angles (bodies), by
   differentiation (bench/symengine_ref.py) for n up to --symengine-max (30); SymEngine's mass
   matrix and forcing of the flat Lagrangian are checked against dalembert's emitted
   `implicit` at a state;
3. runs Pinocchio's `aba` from Python (bench/pin_ref.py): the time per call and, separately, the
   time per call of a Python function that does nothing (the call overhead included in the
   first);
4. compiles the bodies spec's emitted C (gcc -O2, timed) with a hand-written articulated-body
   algorithm (bench/aba_chain.c) into one harness, checks that the emitted `forward_dynamics`,
   the hand-written algorithm and Pinocchio give the same accelerations at random states, times
   one call of each (the fastest of 5 alternating windows of the same calls), and counts the
   instructions of one call of each with valgrind's callgrind;
   also times gcc -O2 on the C of `--form tree` (forward_dynamics and inverse_dynamics alone);
5. fits the exponent of the operation count and of the time per call over n = 10 .. 100;
6. at n = 5, 10, 20 derives both specs once more with `--profile` (untimed) and tabulates where
   the time goes, stage by stage;
7. times the fixed cost of a run: `dalembert --version` and a one-coordinate spec derived with
   `--emit json` and `--emit c`, 9 fresh runs each;
8. derives every golden with the default flags, 3 fresh runs each;
9. derives the N-link wheeled snake (flat spec, N nonholonomic constraints) against SymPy's
   LagrangesMethod, 3 fresh runs a side;
10. writes docs/benchmarks.md.

Nothing runs in parallel: Symbolica without a licence key allows one process at a time.
"""
import glob
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
WORK = os.path.join(ROOT, "target", "bench-multibody")
VENV = os.path.join(ROOT, "target", "bench-venv")
PINS = ["sympy==1.14.0", "mpmath==1.3.0", "pin", "symengine==0.15.0"]
RUNS = 3
# A series whose first RUNS runs have a median under CHEAP_S seconds runs MANY_RUNS times in all.
CHEAP_S = 0.2
MANY_RUNS = 15
sys.path.insert(0, BENCH)
import arguments  # noqa: E402
import models  # noqa: E402


def run(cmd, timeout=None, **kw):
    """Runs a command in a fresh process; returns (wall seconds, completed process)."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}")
    return wall, proc


def venv_python():
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"creating {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    check = subprocess.run([python, "-c", "import sympy, pinocchio, symengine; print(sympy.__version__)"],
                           capture_output=True, text=True)
    if check.returncode != 0 or check.stdout.strip() != "1.14.0":
        subprocess.run([python, "-m", "pip", "install", "--quiet"] + PINS, check=True)
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


def summary(values):
    return {"min": min(values), "median": statistics.median(values), "runs": values}


HARNESS = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include "NAME.h"
int aba_chain(int n, const double *x, const double *p, const double *u, double *xdot);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define K SAMPLES
#define WINDOWS 5
static const double X[K][NSTATE] = XDATA;
static const double P[NPAR] = PDATA;
static const double U[K][1] = UDATA;
int main(int argc, char **argv) {
    double a[NSTATE], b[NSTATE];
    volatile double sink = 0.0;
    int reps = argc > 2 ? atoi(argv[2]) : REPS;
    if (argc > 1 && strcmp(argv[1], "fd") == 0) {
        for (int r = 0; r < reps; r++) { NAME_forward_dynamics(0.0, X[r % K], P, U[r % K], NULL, a); sink += a[NSTATE - 1]; }
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "aba") == 0) {
        for (int r = 0; r < reps; r++) { aba_chain(NLINKS, X[r % K], P, U[r % K], b); sink += b[NSTATE - 1]; }
        return 0;
    }
    double worst = 0.0;
    printf("{\"accelerations\": [");
    for (int k = 0; k < K; k++) {
        if (NAME_forward_dynamics(0.0, X[k], P, U[k], NULL, a) != 0) { printf("]}\n"); return 1; }
        aba_chain(NLINKS, X[k], P, U[k], b);
        for (int i = NSTATE / 2; i < NSTATE; i++) {
            double rel = fabs(a[i] - b[i]) / fmax(1.0, fabs(b[i]));
            if (!(rel <= worst)) worst = rel;
        }
        printf(k ? ", [" : "[");
        for (int i = NSTATE / 2; i < NSTATE; i++) printf(i > NSTATE / 2 ? ", %.17g" : "%.17g", a[i]);
        printf("]");
    }
    /* WINDOWS timed windows of `reps` calls each, the two alternating; the fastest of each
       side's is its time (a window that an interrupt or another process cut into is slower). */
    double emitted = 1e300, hand = 1e300;
    for (int w = 0; w < WINDOWS; w++) {
        double t0 = now();
        for (int r = 0; r < reps; r++) { NAME_forward_dynamics(0.0, X[r % K], P, U[r % K], NULL, a); sink += a[NSTATE - 1]; }
        double t1 = now();
        for (int r = 0; r < reps; r++) { aba_chain(NLINKS, X[r % K], P, U[r % K], b); sink += b[NSTATE - 1]; }
        double t2 = now();
        if (t1 - t0 < emitted) emitted = t1 - t0;
        if (t2 - t1 < hand) hand = t2 - t1;
    }
    printf("], \"max_rel_diff\": %.3e, \"emitted_ns\": %.2f, \"hand_ns\": %.2f}\n", worst,
           1e9 * emitted / reps, 1e9 * hand / reps);
    return 0;
}
"""


def c_array(rows):
    return "{" + ", ".join("{" + ", ".join(repr(v) for v in row) + "}" for row in rows) + "}"


def samples(n, params, rng, k=16):
    nq = n + 1
    xs = [[rng.uniform(-1, 1)] + [rng.uniform(-3.1, 3.1) for _ in range(n)]
          + [rng.uniform(-1, 1) for _ in range(nq)] for _ in range(k)]
    p = [9.81 if name == "g" else rng.uniform(0.5, 2.0) for name in params]
    us = [[rng.uniform(-1, 1)] for _ in range(k)]
    return xs, p, us


DERIVE_TIMEOUT = 120


class Failed(Exception):
    """A run of a series that failed or took too long: the series ends there."""


def derive_series(binary, spec, name, case):
    """`spec` written to `case/name.mech`, and a run of `dalembert derive --emit c --profile` of
    it (one fresh process: its wall time; Failed when it fails or takes more than
    DERIVE_TIMEOUT seconds), with the paths of the C file and of the output folder it writes,
    and the list to which each run appends its time in process (the `in process` line that
    `--profile` prints last: from reading the spec to the last file written, the process's start
    and exit left out, as the references' times leave out Python's start and imports)."""
    path = os.path.join(case, f"{name}.mech")
    with open(path, "w") as f:
        f.write(spec)
    out = os.path.join(case, name)
    inside = []

    def one():
        shutil.rmtree(out, ignore_errors=True)
        cmd = [binary, "derive", path, "--emit", "c", "-o", out, "--profile",
               "--timeout", str(DERIVE_TIMEOUT)]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            reason = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed"
            raise Failed(reason[:200])
        inside.append(in_process(proc.stderr))
        return wall

    system = spec.split("system ", 1)[1].split()[0]
    return one, os.path.join(out, f"{system}.c"), out, inside


def in_process(stderr):
    """The seconds of the `in process: X ms (...)` line `--profile` prints last."""
    for line in reversed(stderr.splitlines()):
        if line.startswith("in process: "):
            return float(line[len("in process: "):].split(" ms", 1)[0]) / 1e3
    sys.exit(f"no `in process` line in the output of --profile:\n{stderr}")


def interleaved(series):
    """RUNS rounds, each running every series of `series` (label: a function making one run and
    returning its time) once, in order: the sides of a comparison alternate run by run, so that
    each meets the machine as the others do (a machine that slows for a while slows them all).
    Then more rounds, up to MANY_RUNS in all, of the series whose median so far is under CHEAP_S
    (still alternating among themselves): a short run is the one a busy moment moves most.
    The summary of each label's times; a series whose run failed is not run again and is
    summarised as {"failed": reason}."""
    times = {label: [] for label in series}
    failed = {}
    for round_ in range(MANY_RUNS):
        for label, one in series.items():
            if label in failed:
                continue
            if round_ >= RUNS and statistics.median(times[label]) >= CHEAP_S:
                continue
            try:
                times[label].append(one())
            except Failed as e:
                failed[label] = str(e)
    return {label: {"failed": failed[label]} if label in failed else summary(times[label])
            for label in series}


REFERENCE_TIMEOUT = 900


PROFILE_SIZES = (5, 10, 20)


def profile(binary, spec_path, out):
    """One more, untimed, derivation of `spec_path` with `--profile`: the stages it printed, as
    (depth, name, milliseconds, entries), parents before their children."""
    shutil.rmtree(out, ignore_errors=True)
    proc = subprocess.run([binary, "derive", spec_path, "--emit", "c", "-o", out, "--profile",
                           "--timeout", str(DERIVE_TIMEOUT)], capture_output=True, text=True)
    lines = proc.stderr.splitlines()
    start = next((k for k, l in enumerate(lines) if l.startswith("stage ")), None)
    if start is None:
        return None
    stages = []
    for line in lines[start + 1:]:
        parts = line.rsplit(None, 2)
        if len(parts) != 3:
            break
        name, ms, entries = parts
        depth = (len(name) - len(name.lstrip(" "))) // 2
        stages.append((depth, name.strip(), float(ms), int(entries)))
    return stages


FLOOR_RUNS = 9


def floor_times(binary):
    """The fixed cost of a run, FLOOR_RUNS fresh processes each: `dalembert --version` (the
    process alone), and a one-coordinate spec derived with `--emit json` and with `--emit c`
    (the C output adds its templates)."""
    case = os.path.join(WORK, "floor")
    os.makedirs(case, exist_ok=True)
    spec = os.path.join(case, "oscillator.mech")
    with open(spec, "w") as f:
        f.write(models.oscillator())
    out = os.path.join(case, "out")
    commands = {
        "version": [binary, "--version"],
        "json": [binary, "derive", spec, "--emit", "json", "-o", out],
        "c": [binary, "derive", spec, "--emit", "c", "-o", out],
    }
    floor = {}
    for name, cmd in commands.items():
        walls = []
        for _ in range(FLOOR_RUNS):
            shutil.rmtree(out, ignore_errors=True)
            start = time.perf_counter()
            subprocess.run(cmd, capture_output=True, check=True)
            walls.append(time.perf_counter() - start)
        floor[name] = summary(walls)
    return floor


def golden_times(binary):
    """Every golden spec derived with the default flags (`dalembert derive SPEC`, JSON and
    LaTeX), RUNS fresh processes each: (golden, summary of wall times, route note)."""
    specs = sorted(glob.glob(os.path.join(ROOT, "golden", "**", "spec.mech"), recursive=True))
    out = os.path.join(WORK, "golden")
    rows = []
    for spec in specs:
        name = os.path.relpath(os.path.dirname(spec), os.path.join(ROOT, "golden"))
        walls = []
        for _ in range(RUNS):
            shutil.rmtree(out, ignore_errors=True)
            start = time.perf_counter()
            proc = subprocess.run([binary, "derive", spec, "-o", out], capture_output=True,
                                  text=True)
            walls.append(time.perf_counter() - start)
            if proc.returncode != 0:
                break
        route = "failed" if proc.returncode != 0 else (
            "implicit" if "implicit form:" in proc.stderr else "")
        rows.append((name, summary(walls), route))
    return rows


def reference_series(python, script, args, case, label, result, found):
    """A run of a reference derivation (`script args OUT`, derive + cse timed inside the process)
    in `case/label`: its time, with OUT/`result` read into `found`; Failed past
    REFERENCE_TIMEOUT seconds."""
    def one():
        out = os.path.join(case, label)
        shutil.rmtree(out, ignore_errors=True)
        try:
            run([python, os.path.join(BENCH, script)] + args + [out], timeout=REFERENCE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failed(f"more than {REFERENCE_TIMEOUT} s")
        with open(os.path.join(out, result)) as f:
            found.clear()
            found.update(json.load(f))
        return found["derive_s"] + found["cse_s"]

    return one


def sympy_series(python, n, case, found, family="pendulum"):
    """SymPy's derivation (bench/sympy_ref.py), its results read into `found`."""
    name = f"pendulum_cart_{n}" if family == "pendulum" else f"snake_{n}"
    return reference_series(python, "sympy_ref.py", [family, str(n)], case, "sympy",
                            f"sympy_{name}.json", found)


def symengine_series(python, n, case, family, found):
    """SymEngine's derivation of the chain's Lagrangian (`flat` or `bodies`,
    bench/symengine_ref.py), its results (times, operations after cse, W and the forcing at the
    script's state) read into `found`."""
    return reference_series(python, "symengine_ref.py", [family, str(n)], case,
                            f"symengine-{family}", f"symengine_{family}_{n}.json", found)


IMPLICIT_HARNESS = r"""
#include <stdio.h>
#include "NAME.h"
int main(void) {
    double x[NSTATE], p[NPAR], u[1] = {0.5}, mass[NV * NV], forcing[NV];
    for (int k = 0; k < NSTATE; k++) x[k] = 0.1 * (k + 1);
    for (int k = 0; k < NPAR; k++) p[k] = k == 0 ? 9.81 : 1.0 + 0.1 * k;
    if (NAME_implicit(0.0, x, p, u, NULL, mass, forcing, NULL, NULL) != 0) return 1;
    for (int k = 0; k < NV * NV; k++) printf("%.17g\n", mass[k]);
    for (int k = 0; k < NV; k++) printf("%.17g\n", forcing[k]);
    return 0;
}
"""


def implicit_difference(c_file, out, n, values):
    """The largest relative difference between SymEngine's W and forcing (`values`, at the state
    and parameters symengine_ref.py fixes) and the flat spec's emitted `implicit` there."""
    name = f"pendulum_cart_{n}"
    nv = n + 1
    harness = (IMPLICIT_HARNESS.replace("NAME", name).replace("NSTATE", str(2 * nv))
               .replace("NPAR", str(2 * n + 2)).replace("NV", str(nv)))
    source = os.path.join(out, "implicit_check.c")
    with open(source, "w") as f:
        f.write(harness)
    exe = os.path.join(out, "implicit_check")
    run(["gcc", "-std=c99", "-O1", "-I", out, source, c_file, "-o", exe, "-lm"])
    _, proc = run([exe])
    emitted = [float(v) for v in proc.stdout.split()]
    return max(abs(a - b) / max(1.0, abs(b)) for a, b in zip(emitted, values))


def bench_snake(n, python, binary, sympy_max):
    """The N-link wheeled snake (N nonholonomic constraints, flat spec) against SymPy's
    LagrangesMethod with the same constraints (for N up to `sympy_max`)."""
    settled()
    case = os.path.join(WORK, f"snake{n}")
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    spec, _, _ = models.snake(n)
    row = {"n": n}
    derive_run, c_file, _, _ = derive_series(binary, spec, "snake", case)
    series = {"derive": derive_run}
    sympy = {}
    if n <= sympy_max:
        series["sympy"] = sympy_series(python, n, case, sympy, "snake")
    row.update(interleaved(series))
    row["rhs_ops"] = op_counts(c_file).get("rhs") if ok(row["derive"]) else None
    if n <= sympy_max:
        row["sympy_ops"] = sympy.get("ops_after_cse") if ok(row["sympy"]) else None
    else:
        row["sympy"], row["sympy_ops"] = {"failed": f"not run (--snake-sympy-max {sympy_max})"}, None
    return row


def callgrind(exe, mode, function, calls):
    """Instructions per call of `function`: callgrind collecting only inside it."""
    out = exe + f".{mode}.callgrind"
    run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         f"--toggle-collect={function}", exe, mode, str(calls)])
    total = 0
    with open(out) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                total = int(line.split()[1])
    return total / calls


def settled():
    """Every file written so far flushed to disk (`sync`), so that no timed run waits behind the
    writeback of an earlier step's files (the previous size's C, its objects and binaries): a run
    of dalembert flushes its own outputs, and a flush queues behind whatever the file system has
    yet to write. In one run, a one-coordinate spec's JSON took 6.5 ms (min of 9 runs) right after
    the 100-link chain's compilations, and 5.3 ms alone a few minutes later."""
    os.sync()


def bench(n, python, binary, rng, sympy_max, symengine_max=30, symengine_bodies_max=30):
    settled()
    case = os.path.join(WORK, f"n{n}")
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    flat_spec, _, _ = models.pendulum_cart(n)
    bodies_spec, params, _ = models.pendulum_cart_bodies(n)
    row = {"n": n, "aba_formula": 223 * n - 231}
    flat_run, flat_c, _, flat_inside = derive_series(binary, flat_spec, "flat", case)
    bodies_run, bodies_c, bodies_out, bodies_inside = derive_series(binary, bodies_spec, "bodies",
                                                                    case)
    series = {"flat_derive": flat_run, "bodies_derive": bodies_run}
    sympy, symengine_flat, symengine_bodies = {}, {}, {}
    if n <= sympy_max:
        series["sympy"] = sympy_series(python, n, case, sympy)
    if n <= symengine_max:
        series["symengine_flat"] = symengine_series(python, n, case, "flat", symengine_flat)
        if n <= symengine_bodies_max:
            series["symengine_bodies"] = symengine_series(python, n, case, "bodies",
                                                          symengine_bodies)
    row.update(interleaved(series))
    for key, inside in (("flat", flat_inside), ("bodies", bodies_inside)):
        row[f"{key}_in_process"] = summary(inside) if ok(row[f"{key}_derive"]) else None
    flat_c = flat_c if ok(row["flat_derive"]) else None
    bodies_c = bodies_c if ok(row["bodies_derive"]) else None
    if n in PROFILE_SIZES:
        for name in ("flat", "bodies"):
            row[f"profile_{name}"] = profile(binary, os.path.join(case, f"{name}.mech"),
                                             os.path.join(case, f"{name}-profile"))
    flat_ops = op_counts(flat_c) if flat_c else {}
    bodies_ops = op_counts(bodies_c) if bodies_c else {}
    row["flat_rhs_ops"] = flat_ops.get("rhs")
    row["bodies_rhs_ops"] = bodies_ops.get("rhs")
    row["forward_dynamics_ops"] = bodies_ops.get("forward_dynamics")
    row["inverse_dynamics_ops"] = bodies_ops.get("inverse_dynamics")
    if "sympy" in row:
        row["sympy_ops"] = sympy.get("ops_after_cse") if ok(row["sympy"]) else None
    if "symengine_flat" in row:
        found = ok(row["symengine_flat"])
        row["symengine_flat_ops"] = symengine_flat.get("ops_after_cse") if found else None
        values = symengine_flat.get("values") if found else None
        if "symengine_bodies" in row:
            row["symengine_bodies_ops"] = (symengine_bodies.get("ops_after_cse")
                                           if ok(row["symengine_bodies"]) else None)
        if values is not None and flat_c is not None:
            diff = implicit_difference(flat_c, os.path.dirname(flat_c), n, values)
            if diff > 1e-9:
                sys.exit(f"n = {n}: SymEngine's W and forcing differ from the emitted implicit"
                         f" form by {diff:.1e}")
            row["symengine_diff"] = diff
    xs, p, us = samples(n, params, rng)
    sample_file = os.path.join(case, "samples.json")
    with open(sample_file, "w") as f:
        json.dump({"x": xs, "p": [p] * len(xs), "u": us}, f)
    pin_runs = []
    for r in range(RUNS):
        out = os.path.join(case, f"pin-{r}.json")
        run([python, os.path.join(BENCH, "pin_ref.py"), str(n), sample_file, out])
        with open(out) as f:
            pin_runs.append(json.load(f))
    row["pinocchio_ns"] = summary([r["aba_ns"] for r in pin_runs])
    row["python_call_ns"] = summary([r["python_call_ns"] for r in pin_runs])
    row["pinocchio_version"] = pin_runs[0]["pinocchio"]
    if bodies_c is None:
        return row
    # The emitted C and the hand-written algorithm in one harness.
    obj = os.path.join(case, "bodies.o")
    compile_s = []
    for _ in range(RUNS):
        wall, _ = run(["gcc", "-std=c99", "-O2", "-c", bodies_c, "-o", obj, "-I", bodies_out])
        compile_s.append(wall)
    row["gcc_bodies_s"] = summary(compile_s)
    # `--form tree`: only forward_dynamics and inverse_dynamics, what a controller needs.
    tree_out = os.path.join(case, "tree")
    run([binary, "derive", os.path.join(case, "bodies.mech"), "--emit", "c", "--form", "tree",
         "-o", tree_out])
    tree_obj = os.path.join(case, "tree.o")
    tree_s = []
    for _ in range(RUNS):
        wall, _ = run(["gcc", "-std=c99", "-O2", "-c", os.path.join(tree_out, f"chain_{n}.c"),
                       "-o", tree_obj, "-I", tree_out])
        tree_s.append(wall)
    row["gcc_tree_s"] = summary(tree_s)
    calls = max(2000, 2_000_000 // max(row["forward_dynamics_ops"] or 1, 1))
    system = f"chain_{n}"
    harness = (HARNESS.replace("NAME", system).replace("SAMPLES", str(len(xs)))
               .replace("NSTATE", str(2 * (n + 1))).replace("NPAR", str(len(p)))
               .replace("NLINKS", str(n)).replace("XDATA", c_array(xs))
               .replace("PDATA", "{" + ", ".join(repr(v) for v in p) + "}")
               .replace("UDATA", c_array(us)).replace("REPS", str(calls)))
    harness_c = os.path.join(case, "harness.c")
    with open(harness_c, "w") as f:
        f.write(harness)
    exe = os.path.join(case, "harness")
    run(["gcc", "-std=c99", "-O2", "-I", bodies_out, harness_c, obj,
         os.path.join(BENCH, "aba_chain.c"), "-o", exe, "-lm"])
    timings = []
    for _ in range(RUNS):
        _, proc = run([exe])
        timings.append(json.loads(proc.stdout))
    worst = max(t["max_rel_diff"] for t in timings)
    pin_diff = max(
        abs(a - b) / max(1.0, abs(b))
        for emitted, pin in zip(timings[0]["accelerations"], pin_runs[0]["accelerations"])
        for a, b in zip(emitted, pin))
    if worst > 1e-9 or pin_diff > 1e-9:
        sys.exit(f"n = {n}: forward_dynamics differs from the hand-written ABA by {worst:.1e}"
                 f" and from Pinocchio by {pin_diff:.1e}")
    row["max_rel_diff"] = max(worst, pin_diff)
    row["emitted_ns"] = summary([t["emitted_ns"] for t in timings])
    row["hand_ns"] = summary([t["hand_ns"] for t in timings])
    if shutil.which("valgrind"):
        row["emitted_instructions"] = callgrind(exe, "fd", f"{system}_forward_dynamics", 200)
        row["hand_instructions"] = callgrind(exe, "aba", "aba_chain", 200)
    return row


def exponent(rows, key, lo=10):
    """The least-squares slope of log value against log n over n ≥ lo (over every n measured
    when fewer than three are ≥ lo), and the range fitted."""
    have = [r for r in rows if r.get(key) is not None and value(r[key]) is not None]
    fitted = [r for r in have if r["n"] >= lo]
    if len(fitted) < 3:
        fitted = have
    pts = [(math.log(r["n"]), math.log(value(r[key]))) for r in fitted]
    if len(pts) < 3:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    return slope, f"{fitted[0]['n']} .. {fitted[-1]['n']}"


def value(v):
    return v.get("min") if isinstance(v, dict) else v


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return (f"{model}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} "
            f"{platform.release()}; {rustc}; {gcc}; Python {platform.python_version()}")


def mm(v, fmt, scale=1):
    if not v:
        return "–"
    if "failed" in v:
        return "not run" if v["failed"].startswith("not run") else "did not finish"
    return f"{fmt.format(v['min'] * scale)} / {fmt.format(v['median'] * scale)}"


def ok(v):
    return v is not None and "failed" not in v


def ratio_of(s, d, fmt="{:.0f}"):
    if not ok(s) or not ok(d):
        return "–"
    return f"{fmt.format(s['min'] / d['min'])}× / {fmt.format(s['median'] / d['median'])}×"


def snake_table(snakes):
    lines = [
        "",
        "## The wheeled snake (nonholonomic), flat spec, against SymPy",
        "",
        "An N-link planar snake with a wheel at the centre of each link (N nonholonomic"
        " constraints, `bench/models.py`); SymPy derives it with `LagrangesMethod` and the same"
        " constraints (`bench/sympy_ref.py`). *rhs ops*: the emitted right-hand side (closed form,"
        " or the implicit form and its numeric solve).",
        "",
        "| N | derive s | SymPy s | ratio | SymPy ops | rhs ops |",
        "|---|---|---|---|---|---|",
    ]
    for r in snakes:
        lines.append(
            f"| {r['n']} | {mm(r['derive'], '{:.3f}')} | {mm(r['sympy'], '{:.2f}')} |"
            f" {ratio_of(r['sympy'], r['derive'])} | {r.get('sympy_ops') or '–'} |"
            f" {r.get('rhs_ops') or '–'} |")
    return lines


def profile_table(rows, key):
    """The stages of the `--profile` runs of one spec (`key`: profile_flat or profile_bodies),
    one column per size: milliseconds (entries)."""
    profiled = [r for r in rows if r.get(key)]
    if not profiled:
        return []
    order = []
    for r in profiled:
        path = []
        for depth, name, _, _ in r[key]:
            path = path[:depth] + [name]
            if tuple(path) not in order:
                order.append(tuple(path))
    cells = {}
    for r in profiled:
        path = []
        for depth, name, ms, entries in r[key]:
            path = path[:depth] + [name]
            cells[(tuple(path), r["n"])] = f"{ms:.1f} ({entries})"
    lines = ["| stage | " + " | ".join(f"n = {r['n']}" for r in profiled) + " |",
             "|---|" + "---|" * len(profiled)]
    for path in order:
        label = "&nbsp;&nbsp;" * (len(path) - 1) + path[-1]
        lines.append(f"| {label} | " + " | ".join(cells.get((path, r["n"]), "–")
                                                  for r in profiled) + " |")
    return lines


def golden_table(goldens):
    lines = ["", "## Every golden with the default flags", "",
             "`dalembert derive golden/<name>/spec.mech` (JSON and LaTeX, the default targets),"
             f" wall time of the whole process, {RUNS} fresh runs each (min / median); *route*:"
             " `implicit` where the closed form did not fit and the implicit form was derived.",
             "", "| golden | s | route |", "|---|---|---|"]
    for name, times, route in goldens:
        lines.append(f"| {name} | {mm(times, '{:.2f}')} | {route} |")
    return lines


def floor_table(floor):
    return ["", "## The fixed cost of a run", "",
            f"Wall time of the whole process, {FLOOR_RUNS} fresh runs each (min / median, ms):"
            " `dalembert --version` (starting the process), and a one-coordinate spec (a"
            " harmonic oscillator, `bench/models.py`) derived with `--emit json` and with"
            " `--emit c`. Every row of the tables above pays at least the last; the references'"
            " times start after their interpreter and imports.", "",
            "| run | ms |", "|---|---|",
            f"| `dalembert --version` | {mm(floor['version'], '{:.1f}', 1000)} |",
            f"| one coordinate, `--emit json` | {mm(floor['json'], '{:.1f}', 1000)} |",
            f"| one coordinate, `--emit c` | {mm(floor['c'], '{:.1f}', 1000)} |"]


def report(rows, args, snakes=(), goldens=(), floor=None):
    pin = rows[0]["pinocchio_version"]
    lines = [
        "# Benchmarks: the pendulum chain, flat and with bodies, and the wheeled snake",
        "",
        f"Generated by `python3 bench/multibody.py{args}` on {time.strftime('%Y-%m-%d')}."
        " Do not edit: rerun the script. Every number below was measured by it, each row in the"
        " same run as its references.",
        "",
        f"Machine: {machine()}; SymPy 1.14.0, SymEngine 0.15.0, Pinocchio {pin}.",
        "",
        "The system is SymPy's `n_link_pendulum_on_cart(n)` physics: a cart pushed along x by F"
        " and n massless links with point masses at their tips (`bench/models.py`). The *flat*"
        " spec writes its Lagrangian in absolute angles; the *bodies* spec describes a prismatic"
        " joint and n revolute joints (relative angles). Each cell is *min / median* of"
        f" {RUNS} runs, each in a fresh process, or {MANY_RUNS} for a series whose first"
        f" {RUNS} runs have a median under {CHEAP_S} s (a short run is the one a busy moment of"
        " the machine moves most); the runs of dalembert and of its references alternate, one of"
        " each in turn.",
        "",
        "- *derive s*: wall time of `dalembert derive --emit c --profile` (the whole process;"
        " `--profile` adds its table of stages to stderr). *SymPy s*:"
        " derive + `cse` of `mass_matrix_full` and `forcing_full`, timed inside Python (imports"
        " not counted). *ratio*: SymPy / dalembert, min/min and median/median.",
        "- *ops*: from the emitted banners. `rhs` is the flat or bodies spec's right-hand side (a"
        " closed form, or the implicit form plus the emitted numeric solve);"
        " `forward_dynamics` is the articulated-body algorithm emitted for the bodies spec;"
        " ABA is Featherstone's count for the chain, 223n − 231.",
        "- *ns/call*: one evaluation of the accelerations. *emitted*: the bodies spec's"
        " `forward_dynamics`; *hand*: `bench/aba_chain.c`, a plain articulated-body algorithm"
        " written by hand (6-vectors, loops over bodies); both `gcc -O2`, in one harness, each"
        " timed as the fastest of 5 windows of the same calls (the two alternating)."
        " *Pinocchio*: `pinocchio.aba` called from Python in a loop; *Python call*: the same loop"
        " calling a Python function that does nothing, the overhead included in Pinocchio's time."
        " *instr/call*: instructions of one call under `valgrind --tool=callgrind` (repeatable on"
        " a busy machine, unlike seconds). *gcc -O2 s*: compiling the bodies spec's whole C file;"
        " *tree*: the C of `--form tree` (forward_dynamics and inverse_dynamics alone).",
        "- The emitted `forward_dynamics`, the hand-written algorithm and Pinocchio agree at 16"
        " random states (largest relative difference: *diff*).",
        "",
        "## The pendulum chain: dalembert against SymPy",
        "",
        "| n | flat derive s | bodies derive s | SymPy s | ratio flat | ratio bodies | SymPy ops | flat rhs ops | bodies rhs ops |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s = r.get("sympy")

        def ratio(d):
            return ratio_of(s, d)
        lines.append(
            f"| {r['n']} | {mm(r['flat_derive'], '{:.3f}')} | {mm(r['bodies_derive'], '{:.3f}')} |"
            f" {mm(s, '{:.2f}')} | {ratio(r['flat_derive'])} | {ratio(r['bodies_derive'])} |"
            f" {r.get('sympy_ops', '–')} | {r['flat_rhs_ops']} | {r['bodies_rhs_ops']} |")
    lines += [
        "",
        "## The pendulum chain: dalembert against SymEngine",
        "",
        "SymEngine 0.15 has no mechanics module: `bench/symengine_ref.py` builds the chain's"
        " Lagrangian in absolute angles (*flat*, the flat spec's) and in joint angles (*bodies*,"
        " the bodies spec's coordinates), the mass matrix and the forcing by differentiation,"
        " then `cse` of all their entries, timed inside Python (imports not counted). *ratio*:"
        " SymEngine / dalembert, min/min and median/median (above 1: dalembert is faster)."
        " *ops*: SymEngine's `count_ops` after cse. *diff*: SymEngine's flat W and forcing"
        " against the flat spec's emitted `implicit` at one state (largest relative difference).",
        "",
        "| n | flat derive s | SymEngine flat s | ratio flat | bodies derive s | SymEngine bodies s | ratio bodies | SymEngine flat ops | SymEngine bodies ops | diff |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "symengine_flat" not in r:
            continue
        diff = r.get("symengine_diff")
        lines.append(
            f"| {r['n']} | {mm(r['flat_derive'], '{:.3f}')} | {mm(r['symengine_flat'], '{:.3f}')} |"
            f" {ratio_of(r['symengine_flat'], r['flat_derive'], '{:.1f}')} |"
            f" {mm(r['bodies_derive'], '{:.3f}')} | {mm(r.get('symengine_bodies'), '{:.3f}')} |"
            f" {ratio_of(r.get('symengine_bodies'), r['bodies_derive'], '{:.1f}')} |"
            f" {r.get('symengine_flat_ops') or '–'} | {r.get('symengine_bodies_ops') or '–'} |"
            f" {'–' if diff is None else f'{diff:.1e}'} |")
    lines += [
        "",
        "The same runs timed alike: *in process s* is the time each dalembert run above reports"
        " itself (`--profile`'s last line: from reading the spec to the last file written, its C"
        " flushed to disk), which leaves out the process's start and exit as SymEngine's time"
        " leaves out Python's start and imports. The targets below are judged on the whole"
        " process (the table above).",
        "",
        "| n | flat in process s | SymEngine flat s | ratio flat | bodies in process s | SymEngine bodies s | ratio bodies |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "symengine_flat" not in r or not r.get("flat_in_process"):
            continue
        lines.append(
            f"| {r['n']} | {mm(r['flat_in_process'], '{:.4f}')} |"
            f" {mm(r['symengine_flat'], '{:.4f}')} |"
            f" {ratio_of(r['symengine_flat'], r['flat_in_process'], '{:.1f}')} |"
            f" {mm(r.get('bodies_in_process'), '{:.4f}')} |"
            f" {mm(r.get('symengine_bodies'), '{:.4f}')} |"
            f" {ratio_of(r.get('symengine_bodies'), r.get('bodies_in_process'), '{:.1f}')} |")
    lines += [
        "",
        "## The emitted articulated-body algorithm",
        "",
        "| n | forward_dynamics ops | ABA 223n − 231 | ratio | inverse_dynamics ops | emitted ns/call | hand ns/call | Pinocchio ns/call | Python call ns | instr/call emitted | instr/call hand | gcc -O2 s | gcc -O2 tree s | diff |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        fd = r["forward_dynamics_ops"]
        if fd is None:
            lines.append(f"| {r['n']} | – | {r['aba_formula']} | – | – | – | – |"
                         f" {mm(r['pinocchio_ns'], '{:.0f}')} | {mm(r['python_call_ns'], '{:.0f}')} | – | – | – | – | – |")
            continue
        lines.append(
            f"| {r['n']} | {fd} | {r['aba_formula']} | {fd / r['aba_formula']:.2f} |"
            f" {r['inverse_dynamics_ops']} | {mm(r['emitted_ns'], '{:.0f}')} | {mm(r['hand_ns'], '{:.0f}')} |"
            f" {mm(r['pinocchio_ns'], '{:.0f}')} | {mm(r['python_call_ns'], '{:.0f}')} |"
            f" {r.get('emitted_instructions', 0):.0f} | {r.get('hand_instructions', 0):.0f} |"
            f" {mm(r['gcc_bodies_s'], '{:.2f}')} | {mm(r.get('gcc_tree_s'), '{:.2f}')} |"
            f" {r['max_rel_diff']:.1e} |")
    fits = {
        "forward_dynamics ops": exponent(rows, "forward_dynamics_ops"),
        "emitted ns/call (min)": exponent(rows, "emitted_ns"),
        "emitted instructions/call": exponent(rows, "emitted_instructions"),
        "hand ns/call (min)": exponent(rows, "hand_ns"),
        "bodies derive s (min)": exponent(rows, "bodies_derive"),
        "flat derive s (min)": exponent(rows, "flat_derive"),
        "flat rhs ops": exponent(rows, "flat_rhs_ops"),
    }
    lines += ["", "Exponents (least squares of log value against log n, over n ≥ 10 where three"
              " sizes were measured, else over every size measured):", "",
              "| quantity | exponent | over n = |", "|---|---|---|"]
    for k, v in fits.items():
        lines.append(f"| {k} | {'–' if v is None else f'{v[0]:.2f}'} | {'–' if v is None else v[1]} |")
    if snakes:
        lines += snake_table(snakes)
    for key, label in (("profile_flat", "flat"), ("profile_bodies", "bodies")):
        table = profile_table(rows, key)
        if table:
            lines += ["", f"## Where the time goes: the {label} spec", "",
                      f"One more run of `dalembert derive --emit c --profile` per size, untimed"
                      " by the tables above: the wall milliseconds of each stage (and how many"
                      " times it was entered), nested as the pipeline nests them; a parent's time"
                      " includes its children's. `simplify`, `cse`, `elimination`, `jacobian`,"
                      " `e-graph` and `trig contraction` are counted where they are called from.",
                      ""] + table
    if floor:
        lines += floor_table(floor)
    if goldens:
        lines += golden_table(goldens)
    lines += ["", "## Targets (this run)", "", "| target | measured | met |", "|---|---|---|"]

    def add(text, measured, ok):
        lines.append(f"| {text} | {measured} | {'yes' if ok else '**no**'} |")

    by = {r["n"]: r for r in rows}
    for n in (10, 20, 30):
        r = by.get(n)
        if not r or not ok(r.get("sympy")):
            continue
        s = r["sympy"]
        for label, key in (("flat", "flat_derive"), ("bodies", "bodies_derive")):
            d = r[key]
            if not ok(d):
                add(f"derive + emit ≥ 100× SymPy derive + cse, {label} spec, n = {n}", "did not finish", False)
                continue
            lo, med = s["min"] / d["min"], s["median"] / d["median"]
            add(f"derive + emit ≥ 100× SymPy derive + cse, {label} spec, n = {n} (min/min, median/median)",
                f"{lo:.0f}×, {med:.0f}×", lo >= 100 and med >= 100)
    for n in (5, 10, 20, 30):
        r = by.get(n)
        if not r:
            continue
        for label, key in (("flat", "flat"), ("bodies", "bodies")):
            s, d = r.get(f"symengine_{key}"), r[f"{key}_derive"]
            if not ok(s) or not ok(d):
                continue
            lo, med = s["min"] / d["min"], s["median"] / d["median"]
            add(f"derive + emit ≥ 2× SymEngine derive + cse, {label} spec, n = {n} (min/min, median/median)",
                f"{lo:.1f}×, {med:.1f}×", lo >= 2 and med >= 2)
    if 30 in by and by[30]["forward_dynamics_ops"]:
        r = by[30]
        q = r["forward_dynamics_ops"] / r["aba_formula"]
        add("forward_dynamics ops ≤ 2 × (223n − 231) at n = 30", f"{r['forward_dynamics_ops']} = {q:.2f} ×", q <= 2)
    for key, label in (("forward_dynamics ops", "ops"), ("emitted ns/call (min)", "time per call")):
        e = fits[key]
        if e is not None:
            add(f"{label} of forward_dynamics grows with exponent ≤ 1.15 over n = 10 .. 100",
                f"{e[0]:.2f} (over n = {e[1]})", e[0] <= 1.15 and e[1].endswith("100"))
    for n in (10, 30):
        r = by.get(n)
        if r and "emitted_ns" in r:
            q = r["emitted_ns"]["min"] / r["hand_ns"]["min"]
            add(f"emitted C ≤ 1.5 × the hand-written ABA per call, n = {n} (min/min)", f"{q:.2f} ×", q <= 1.5)
            faster = r["emitted_ns"]["min"] < r["pinocchio_ns"]["min"]
            add(f"emitted C faster than Pinocchio from Python, n = {n}",
                f"{r['emitted_ns']['min']:.0f} ns against {r['pinocchio_ns']['min']:.0f} ns", faster)
    if 100 in by:
        for label, key, limit in (("bodies", "bodies_derive", 1), ("flat", "flat_derive", 10)):
            d = by[100][key]
            if ok(d):
                add(f"derive + emit of the 100-link chain ({label} spec) < {limit} s", f"{d['min']:.2f} s", d["min"] < limit)
            else:
                add(f"derive + emit of the 100-link chain ({label} spec) < {limit} s", "did not finish: " + d["failed"], False)
    if goldens:
        slowest = max(goldens, key=lambda g: value(g[1]) or 0)
        add("every golden derives with the default flags in under 2 s (min)",
            f"slowest: {slowest[0]}, {mm(slowest[1], '{:.2f}')} s",
            all(ok(g[1]) and g[1]["min"] < 2 for g in goldens))
    analysis = os.path.join(BENCH, "analysis.md")
    if os.path.exists(analysis):
        with open(analysis) as f:
            lines += ["", f.read().rstrip()]
    return "\n".join(lines) + "\n"


FLAGS = ("--quick", "--no-goldens", "--report", "--snake-only")
VALUED = ("--sympy-max", "--symengine-max", "--symengine-bodies-max", "--snake-sympy-max")


def main():
    arguments.check(__doc__, FLAGS, VALUED)
    if "--report" in sys.argv:
        # Rewrite docs/benchmarks.md from the last run's results (after editing analysis.md).
        with open(os.path.join(WORK, "results.json")) as f:
            results = json.load(f)
        with open(os.path.join(WORK, "arguments")) as f:
            args = f.read()
        with open(os.path.join(ROOT, "docs", "benchmarks.md"), "w") as f:
            f.write(report(results["chain"], args, results["snake"], results.get("goldens", []),
                           results.get("floor")))
        return
    quick = "--quick" in sys.argv
    sympy_max = 30
    if "--sympy-max" in sys.argv:
        sympy_max = int(sys.argv[sys.argv.index("--sympy-max") + 1])
    symengine_max = 30
    if "--symengine-max" in sys.argv:
        symengine_max = int(sys.argv[sys.argv.index("--symengine-max") + 1])
    symengine_bodies_max = symengine_max
    if "--symengine-bodies-max" in sys.argv:
        symengine_bodies_max = int(sys.argv[sys.argv.index("--symengine-bodies-max") + 1])
    snake_sympy_max = 20
    if "--snake-sympy-max" in sys.argv:
        snake_sympy_max = int(sys.argv[sys.argv.index("--snake-sympy-max") + 1])
    sizes = (5, 10) if quick else (5, 10, 20, 30, 60, 100)
    snake_sizes = (5,) if quick else (5, 10, 20)
    python = venv_python()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, "target", "release", "dalembert")
    rng = random.Random(20261126)
    rows = []
    if "--snake-only" in sys.argv:
        # The chain rows of the last run are kept (each was measured with its references in
        # that run); only the snake is measured again.
        with open(os.path.join(WORK, "results.json")) as f:
            rows = json.load(f)["chain"]
        sys.argv.append("--no-goldens")
        with open(os.path.join(WORK, "arguments")) as f:
            previous = f.read().strip()
        sizes = ()
    for n in sizes:
        print(f"n = {n} ...", flush=True)
        row = bench(n, python, binary, rng, sympy_max, symengine_max, symengine_bodies_max)
        print(json.dumps(row), flush=True)
        rows.append(row)
    # After the chain, away from the build's disk writes, which slow the flushes of a run.
    settled()
    floor = floor_times(binary)
    print(json.dumps({"floor": floor}), flush=True)
    settled()
    goldens = [] if quick or "--no-goldens" in sys.argv else golden_times(binary)
    snakes = []
    for n in snake_sizes:
        print(f"snake N = {n} ...", flush=True)
        row = bench_snake(n, python, binary, snake_sympy_max)
        print(json.dumps(row), flush=True)
        snakes.append(row)
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump({"chain": rows, "snake": snakes, "goldens": goldens, "floor": floor}, f,
                  indent=1)
    args = "".join(f" {a}" for a in sys.argv[1:])
    if "--snake-only" in sys.argv:
        args += f"` (the snake) after the chain's run, `python3 bench/multibody.py {previous}"
    with open(os.path.join(WORK, "arguments"), "w") as f:
        f.write(args)
    text = report(rows, args, snakes, goldens, floor)
    with open(os.path.join(ROOT, "docs", "benchmarks.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
