"""SymPy reference derivations for the benchmark (run inside the bench's virtual environment).

    python sympy_ref.py pendulum N OUT_DIR
    python sympy_ref.py snake N OUT_DIR

Derives the equations of motion the way SymPy users do -- KanesMethod through SymPy's own
`n_link_pendulum_on_cart(n)`, LagrangesMethod with nonholonomic constraints for the snake -- then
runs `cse` on mass_matrix_full and forcing_full, and writes:

- OUT_DIR/sympy_<name>.c: the cse'd M(x) and F(x) as C, and a `<name>_sympy_accel` function that
  solves M a = F with Gaussian elimination (partial pivoting) and returns the accelerations of the
  velocity coordinates, with the same argument conventions as dalembert's emitted `rhs`
  (state, parameters, inputs in the spec's order);
- OUT_DIR/sympy_<name>.json: derive and cse times (s), operation count after cse, sizes.
"""
import json
import os
import sys
import time

import sympy as sm
import sympy.physics.mechanics as me
from sympy.physics.mechanics.models import n_link_pendulum_on_cart


def pendulum(n):
    kane = n_link_pendulum_on_cart(n, cart_force=True, joint_torques=False)
    q = list(kane.q)
    u = list(kane.u)
    m = sm.symbols(f"m:{n + 1}")
    l = sm.symbols(f"l:{n}")
    g = sm.Symbol("g")
    F = me.dynamicsymbols("F")
    M = kane.mass_matrix_full
    rhs = kane.forcing_full
    # dalembert's spec order: parameters g, m0..mn, l1..ln (SymPy's l0..l_{n-1}); input F;
    # state x, q1..qn, then their velocities. SymPy's full state is [q, u] in the same order.
    params = [g] + list(m) + list(l)
    return M, rhs, q + u, params, [F], len(q), 0


def snake(n):
    t = me.dynamicsymbols._t
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    x, y = me.dynamicsymbols("x y")
    th = me.dynamicsymbols(f"th1:{n + 1}")
    m = sm.symbols(f"m1:{n + 1}")
    J = sm.symbols(f"J1:{n + 1}")
    l = sm.symbols(f"l1:{n + 1}")
    tau = me.dynamicsymbols(f"tau1:{n}") if n > 1 else []
    joint = O.locatenew("P0", x * N.x + y * N.y)
    joint.set_vel(N, x.diff(t) * N.x + y.diff(t) * N.y)
    bodies, frames, constraints = [], [], []
    for i in range(n):
        B = N.orientnew(f"B{i + 1}", "Axis", [th[i], N.z])
        B.set_ang_vel(N, th[i].diff(t) * N.z)
        C = joint.locatenew(f"C{i + 1}", l[i] / 2 * B.x)
        C.v2pt_theory(joint, N, B)
        body = me.RigidBody(f"link{i + 1}", C, B, m[i], (me.inertia(B, 0, 0, J[i]), C))
        bodies.append(body)
        frames.append(B)
        # The wheel at the centre forbids velocity along B.y.
        constraints.append(C.vel(N).dot(B.y))
        nxt = joint.locatenew(f"P{i + 1}", l[i] * B.x)
        nxt.v2pt_theory(joint, N, B)
        joint = nxt
    forces = []
    for j in range(n - 1):
        forces.append((frames[j], -tau[j] * N.z))
        forces.append((frames[j + 1], tau[j] * N.z))
    L = me.Lagrangian(N, *bodies)
    q = [x, y] + list(th)
    lm = me.LagrangesMethod(L, q, nonhol_coneqs=constraints, forcelist=forces or None, frame=N)
    lm.form_lagranges_equations()
    M = lm.mass_matrix_full
    rhs = lm.forcing_full
    params = list(m) + list(J) + list(l)
    qd = [qi.diff(t) for qi in q]
    return M, rhs, q + qd, params, list(tau), len(q), len(constraints)


def c_name(k):
    return f"s{k}"


def main():
    family, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    name = {"pendulum": f"pendulum_cart_{n}", "snake": f"snake_{n}"}[family]
    start = time.perf_counter()
    M, rhs, state, params, inputs, nq, r = {"pendulum": pendulum, "snake": snake}[family](n)
    derived = time.perf_counter()
    # Plain symbols for the C printer (state, parameters, inputs), substituted before cse so that
    # cse never renames a function of time inside a derivative. Not timed.
    plain = {}
    arrays = [("x", state), ("p", params), ("u", inputs)]
    for array, symbols in arrays:
        for k, s in enumerate(symbols):
            plain[s] = sm.Symbol(f"{array}_{k}_")
    derivatives = {k: v for k, v in plain.items() if isinstance(k, sm.Derivative)}
    functions = {k: v for k, v in plain.items() if not isinstance(k, sm.Derivative)}
    M = me.msubs(M, derivatives, functions)
    rhs = me.msubs(rhs, derivatives, functions)
    leftover = (M.free_symbols | rhs.free_symbols) - set(plain.values())
    leftover = {s for s in leftover if s.name != "t"}
    assert not leftover, f"unmapped symbols {leftover}"
    assert not (M.atoms(sm.Derivative) | rhs.atoms(sm.Derivative)), "derivatives left"
    timed = time.perf_counter()
    replacements, reduced = sm.cse([M, rhs])
    done = time.perf_counter()
    ops = sum(sm.count_ops(e) for _, e in replacements) + sum(sm.count_ops(e) for e in reduced)
    size = M.shape[0]

    def c(e):
        text = sm.ccode(e)
        for array, symbols in arrays:
            for k in range(len(symbols)):
                text = text.replace(f"{array}_{k}_", f"{array}[{k}]")
        return text

    lines = []
    for sym, expr in replacements:
        lines.append(f"    const double {sym} = {c(expr)};")
    Mr, Fr = reduced
    for i in range(size):
        for j in range(size):
            if Mr[i, j] != 0:
                lines.append(f"    A[{i}][{j}] = {c(Mr[i, j])};")
        lines.append(f"    A[{i}][{size}] = {c(Fr[i])};")
    nv = nq  # velocities follow the coordinates in the solution vector
    body = "\n".join(lines)
    code = f"""/* SymPy {sm.__version__} reference for {name}: cse of mass_matrix_full and forcing_full,
 * then Gaussian elimination with partial pivoting. Generated by bench/sympy_ref.py. */
#include <math.h>
#include <string.h>

int {name}_sympy_accel(const double *x, const double *p, const double *u, double *accel)
{{
    double A[{size}][{size + 1}];
    (void)u;
    memset(A, 0, sizeof A);
{body}
    for (int k = 0; k < {size}; k++) {{
        int piv = k;
        for (int i = k + 1; i < {size}; i++)
            if (fabs(A[i][k]) > fabs(A[piv][k])) piv = i;
        if (A[piv][k] == 0.0) return 1;
        if (piv != k)
            for (int j = 0; j <= {size}; j++) {{ double s = A[k][j]; A[k][j] = A[piv][j]; A[piv][j] = s; }}
        for (int i = k + 1; i < {size}; i++) {{
            double f = A[i][k] / A[k][k];
            for (int j = k; j <= {size}; j++) A[i][j] -= f * A[k][j];
        }}
    }}
    double sol[{size}];
    for (int i = {size} - 1; i >= 0; i--) {{
        double s = A[i][{size}];
        for (int j = i + 1; j < {size}; j++) s -= A[i][j] * sol[j];
        sol[i] = s / A[i][i];
    }}
    for (int i = 0; i < {nv}; i++) accel[i] = sol[{nq} + i];
    return 0;
}}
"""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, f"sympy_{name}.c"), "w") as f:
        f.write(code)
    with open(os.path.join(out, f"sympy_{name}.json"), "w") as f:
        json.dump(
            {
                "derive_s": derived - start,
                "cse_s": done - timed,
                "ops_after_cse": int(ops),
                "system_size": size,
                "coordinates": nq,
                "constraints": r,
                "sympy": sm.__version__,
            },
            f,
        )


if __name__ == "__main__":
    main()
