"""SymEngine reference derivations for the benchmark (run inside the bench's virtual environment).

    python symengine_ref.py flat N OUT_DIR
    python symengine_ref.py bodies N OUT_DIR

SymEngine (the C++ CAS that SymPy's mechanics once used as its fast backend) has no mechanics
module, so this derives the n-link pendulum on a cart (the physics of SymPy's
`n_link_pendulum_on_cart(n)`, `bench/models.py`) the way a user of a fast CAS does by hand:

- `flat`: the Lagrangian in absolute angles q1..qn, as the flat spec writes it;
- `bodies`: the same Lagrangian in relative joint angles (the bodies spec's coordinates: a
  prismatic joint x and revolute joints whose angles add up, q_i = φ_1 + … + φ_i);

then the mass matrix W = ∂²L/∂v∂v and the forcing b = Q + ∂L/∂q − (∂²L/∂v∂q) v by
differentiation (Q: the force F on the cart), and `cse` of all of W and b. It writes
OUT_DIR/symengine_<family>_<n>.json: derive and cse times (s, timed inside the process, imports
not counted), the operation count after cse (SymEngine's `count_ops`), and W and b evaluated at
a fixed state (so that the caller can check them against dalembert's emitted functions).
"""
import json
import os
import sys
import time

import symengine as se


def lagrangian(n, relative):
    """L, the coordinates, the velocities, and the generalised forces (F on the cart)."""
    x, xd, g, F = se.symbols("x xd g F")
    m = [se.Symbol(f"m{i}") for i in range(n + 1)]
    l = [se.Symbol(f"l{i}") for i in range(1, n + 1)]
    coords = [se.Symbol(f"q{i}") for i in range(1, n + 1)]
    rates = [se.Symbol(f"qd{i}") for i in range(1, n + 1)]
    if relative:
        # Absolute angles as sums of the joint angles, their rates likewise.
        angles = [sum(coords[: i + 1]) for i in range(n)]
        omegas = [sum(rates[: i + 1]) for i in range(n)]
    else:
        angles, omegas = list(coords), list(rates)
    L = m[0] / 2 * xd**2
    vx, vy, height = xd, se.Integer(0), se.Integer(0)
    for i in range(n):
        vx = vx - l[i] * se.cos(angles[i]) * omegas[i]
        vy = vy + l[i] * se.sin(angles[i]) * omegas[i]
        height = height + l[i] * se.cos(angles[i])
        L = L + m[i + 1] / 2 * (vx**2 + vy**2) - m[i + 1] * g * height
    q = [x] + list(coords)
    v = [xd] + list(rates)
    forces = [F] + [se.Integer(0)] * n
    params = [g] + list(m) + list(l)
    return L, q, v, forces, params, [F]


def derive(n, relative):
    L, q, v, forces, params, inputs = lagrangian(n, relative)
    momenta = [L.diff(vi) for vi in v]
    W = [[p.diff(vj) for vj in v] for p in momenta]
    b = [
        forces[i] + L.diff(q[i]) - sum(momenta[i].diff(q[j]) * v[j] for j in range(len(q)))
        for i in range(len(q))
    ]
    return W, b, q + v, params, inputs


def main():
    family, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    start = time.perf_counter()
    W, b, state, params, inputs = derive(n, family == "bodies")
    derived = time.perf_counter()
    entries = [e for row in W for e in row] + b
    replacements, reduced = se.cse(entries)
    done = time.perf_counter()
    ops = sum(se.count_ops(e) for _, e in replacements) + sum(se.count_ops(e) for e in reduced)
    # W and b at a fixed state (not timed), for the caller's check against dalembert.
    point = {s: 0.1 * (k + 1) for k, s in enumerate(state)}
    point.update({p: (9.81 if str(p) == "g" else 1.0 + 0.1 * k) for k, p in enumerate(params)})
    point.update({u: 0.5 for u in inputs})
    values = [float(e.subs(point)) for e in entries]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"symengine_{family}_{n}.json"), "w") as f:
        json.dump(
            {
                "derive_s": derived - start,
                "cse_s": done - derived,
                "ops_after_cse": int(ops),
                "entries": len(entries),
                "values": values,
                "symengine": se.__version__,
            },
            f,
        )


if __name__ == "__main__":
    main()
