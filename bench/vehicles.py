#!/usr/bin/env python3
"""How long dalembert takes on the wheeled-vehicle goldens, each in fresh processes.

    python3 bench/vehicles.py            # 3 runs a side, the table on stdout and in target/bench/vehicles.md

For each vehicle golden it times the release binary's whole process (`dalembert derive` of the
spec, and `dalembert linearize` at the golden's `point` where it has one), three times, and
reports the minimum and the median wall time and the largest peak resident memory. The binary
is built first (`cargo build --release`). Nothing runs in parallel: Symbolica without a licence
key allows one process at a time.
"""
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arguments  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "dalembert")
RUNS = 3
# (golden folder, command): every golden whose system rolls on wheels through contact items.
CASES = [
    ("golden/multibody/two_wheeled_robot", "derive"),
    ("golden/multibody/rolling_disc", "derive"),
    ("golden/multibody/rolling_torus", "derive"),
    ("golden/linearize/rolling_disc", "linearize"),
    ("golden/vehicles/bicycle", "derive"),
    ("golden/vehicles/bicycle", "linearize"),
]


def run_once(folder, command, out):
    spec = os.path.join(ROOT, folder, "spec.mech")
    args = [BINARY, command, spec, "-o", out]
    if command == "linearize":
        with open(os.path.join(ROOT, folder, "point")) as f:
            args += ["--at", f.read().strip()]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errors)
        # The child's own peak resident memory (not the build's, nor an earlier child's).
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            sys.exit(f"{folder}: dalembert {command} failed:\n{errors.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def measure(folder, command):
    times, peaks = [], []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as out:
            elapsed, peak = run_once(folder, command, out)
            times.append(elapsed)
            peaks.append(peak)
    return min(times), statistics.median(times), max(peaks)


def main():
    arguments.check(__doc__)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    rows = [
        "| golden | command | min (s) | median (s) | peak RSS (MiB) |",
        "|---|---|---|---|---|",
    ]
    for folder, command in CASES:
        best, median, peak = measure(folder, command)
        rows.append(f"| `{folder}` | `{command}` | {best:.2f} | {median:.2f} | {peak:.0f} |")
        print(rows[-1], flush=True)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"
    report = "\n".join(
        [
            "# Wheeled vehicles: dalembert's wall time per process",
            "",
            f"Written by `python3 bench/vehicles.py` ({RUNS} fresh processes a side) on {machine}.",
            "The peak memory is the largest resident set of the three runs of that command (`wait4`).",
            "",
            *rows,
            "",
        ]
    )
    os.makedirs(os.path.join(ROOT, "target", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "target", "bench", "vehicles.md"), "w") as f:
        f.write(report)


if __name__ == "__main__":
    main()
