"""Every denominator of a golden's JSON results vanishes only where the system declares a
singularity.

For each committed `expected/*.json` under the folder given as argument, the Python forms of the
equations, the multipliers and the Hamiltonian side are parsed with SymPy and their denominators
factored. Each factor that depends on the state is a candidate singularity. A point on its zero
set is found numerically (all other symbols at seeded random values, the factor solved for one of
its state symbols); there, one of the system's own regularity conditions must vanish too:

- det W (`hessian_det`, or the determinant of `hessian`),
- det C (`constraint_matrix_det`, or the determinant of `constraint_matrix`),
- the pivots a singular Lagrangian's algorithm divided by (`assumed_nonzero`),
- det R of a vakonomic system (`vakonomic.regularity_det`),
- where a symmetry group's chart is singular (`reduction.regular_where`),
- where the chart of the constraint submanifold of the dual is singular
  (`hamiltonian.regular_where`).

A factor with no real zero (y^2 + 1) is no singularity. A factor of the parameters alone (a mass,
J + a^2 m) is a condition on the parameters, not on the motion, and is not checked here.
Exit status 1, with one line per undeclared singularity, when any is found.
"""

import glob
import json
import random
import sys

import mpmath
import sympy as sp
from sympy.parsing.sympy_parser import parse_expr

RESULT_KEYS = ["equations", "multipliers"]


def python_forms(value):
    """Every `python` string below `value`."""
    if isinstance(value, dict):
        if isinstance(value.get("python"), str):
            yield value["python"]
        else:
            for v in value.values():
                yield from python_forms(v)
    elif isinstance(value, list):
        for v in value:
            yield from python_forms(v)


def parse(text, names):
    return parse_expr(text, local_dict=names)


def declared(doc, names):
    """The system's regularity conditions, as SymPy expressions."""
    out = []

    def matrix_det(key):
        rows = doc.get(key)
        if isinstance(rows, list) and rows and all(isinstance(r, list) for r in rows):
            m = sp.Matrix([[parse(e["python"], names) for e in r] for r in rows])
            if m.rows == m.cols and m.rows > 0:
                out.append(m.det())

    for key, matrix in [("hessian_det", "hessian"), ("constraint_matrix_det", "constraint_matrix")]:
        if isinstance(doc.get(key), dict):
            out.append(parse(doc[key]["python"], names))
        else:
            matrix_det(matrix)
    for e in doc.get("assumed_nonzero", []) or []:
        out.append(parse(e["python"], names))
    vak = doc.get("vakonomic")
    if isinstance(vak, dict) and isinstance(vak.get("regularity_det"), dict):
        out.append(parse(vak["regularity_det"]["python"], names))
    ham = doc.get("hamiltonian")
    if isinstance(ham, dict):
        for e in ham.get("regular_where", []) or []:
            out.append(parse(e["python"], names))
    red = doc.get("reduction")
    if isinstance(red, dict):
        for e in red.get("regular_where", []) or []:
            out.append(parse(e["python"], names))
    return out


def zero_of(factor, symbol, point, rng):
    """A real zero of `factor` in `symbol`, the other symbols at `point`, or None."""
    f = sp.lambdify(symbol, factor.subs({s: v for s, v in point.items() if s != symbol}), "mpmath")
    for _ in range(12):
        start = rng.uniform(-3.0, 3.0)
        try:
            root = mpmath.findroot(f, start)
        except Exception:
            continue
        value = complex(root)
        if abs(value.imag) < 1e-12 and abs(complex(f(value.real))) < 1e-12:
            return value.real
    return None


def main(folder):
    rng = random.Random(20261128)
    found = []
    files = sorted(glob.glob(f"{folder}/**/expected/*.json", recursive=True))
    checked = 0
    for path in files:
        if path.endswith("-linear.json"):
            continue
        doc = json.load(open(path))
        ids = doc.get("identifiers", {})
        names = {py: sp.Symbol(py) for py in ids.values()}
        state = {names[ids[s]] for s in doc.get("state", []) if s in ids}
        hamiltonian = doc.get("hamiltonian")
        if isinstance(hamiltonian, dict):
            for c in hamiltonian.get("coordinates", []):
                if c in ids:
                    state.add(names[ids[c]])
        results = []
        for key in RESULT_KEYS:
            results.extend(python_forms(doc.get(key, {})))
        if isinstance(hamiltonian, dict):
            results.extend(python_forms(hamiltonian.get("equations", {})))
        factors = set()
        for text in results:
            _, den = sp.fraction(sp.together(parse(text, names)))
            for factor, _ in sp.factor_list(den)[1]:
                if factor.free_symbols & state:
                    factors.add(factor)
        if not factors:
            continue
        conditions = declared(doc, names)
        for factor in sorted(factors, key=sp.default_sort_key):
            checked += 1
            symbols = sorted(
                set().union(factor.free_symbols, *(c.free_symbols for c in conditions)),
                key=lambda s: s.name,
            )
            unknown = sorted(factor.free_symbols & state, key=lambda s: s.name)[0]
            ok = False
            root = None
            for _ in range(4):
                point = {s: rng.uniform(0.3, 1.3) for s in symbols}
                root = zero_of(factor, unknown, point, rng)
                if root is None:
                    continue
                point[unknown] = root
                scale = [abs(complex(c.subs({s: rng.uniform(0.3, 1.3) for s in symbols}))) for c in conditions]
                values = [abs(complex(c.subs(point))) for c in conditions]
                # A double root (a square of a declared factor) is found only to about the square root of
                # the residual: 1e-5 still tells a declared zero from a value of order one.
                ok = any(v <= 1e-5 * max(1.0, s) for v, s in zip(values, scale))
                break
            if root is not None and not ok:
                found.append(f"{path}: the results divide by {factor}, which vanishes at {unknown} = {root:.6g} where the system declares no singularity")
    for line in found:
        print(line)
    print(f"{checked} state-dependent denominators checked in {len(files)} documents")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
