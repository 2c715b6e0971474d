"""The two benchmark families, written once and emitted twice: as a dalembert spec and as the
physical data a SymPy reference derivation needs (see bench/sympy_ref.py).

(a) pendulum_cart(n): SymPy's own `n_link_pendulum_on_cart(n)` physics -- a cart of mass m0 on the
    x axis pushed by a force F, n massless links of lengths l1..ln with point masses m1..mn at
    their tips, absolute angles q1..qn measured from the upward vertical (SymPy's B_i.y), gravity
    g along -y. Tip i is at (x - sum_{j<=i} l_j sin q_j, sum_{j<=i} l_j cos q_j).

(b) snake(N): an N-link planar wheeled snake. Link i (length l_i, mass m_i, inertia J_i about its
    centre) starts at joint P_{i-1} (P_0 = (x, y)) and points along th_i (absolute angle). A
    passive wheel at the centre of each link forbids lateral slip:
        -sin(th_i) vx_i + cos(th_i) vy_i = 0,   i = 1..N  (N nonholonomic constraints),
    where (vx_i, vy_i) is the velocity of the centre. Joint torques tau_1..tau_{N-1} act between
    consecutive links (+tau_j on link j+1, -tau_j on link j).
"""


def oscillator():
    """A one-coordinate spec: the fixed cost of a derivation, whatever the system."""
    return """# A harmonic oscillator: one coordinate, the smallest system there is.
system oscillator
parameters m, k
coordinates x
algebroid tangent
lagrangian = m/2*x'^2 - k/2*x^2
"""


def pendulum_cart(n):
    """Returns (spec text, parameter names in spec order, input names)."""
    params = ["g"] + [f"m{i}" for i in range(n + 1)] + [f"l{i}" for i in range(1, n + 1)]
    terms = ["m0/2*x'^2"]
    for i in range(1, n + 1):
        vx = " - ".join(["x'"] + [f"l{j}*cos(q{j})*q{j}'" for j in range(1, i + 1)])
        vy = " + ".join([f"l{j}*sin(q{j})*q{j}'" for j in range(1, i + 1)])
        height = " + ".join([f"l{j}*cos(q{j})" for j in range(1, i + 1)])
        terms.append(f"m{i}/2*(({vx})^2 + ({vy})^2) - m{i}*g*({height})")
    coords = ", ".join(["x"] + [f"q{i}" for i in range(1, n + 1)])
    lagrangian = " +\n    ".join(terms)
    spec = f"""# {n}-link pendulum on a cart: the physics of SymPy's n_link_pendulum_on_cart({n}).
system pendulum_cart_{n}
parameters {", ".join(params)}
coordinates {coords}
inputs F
algebroid tangent
lagrangian = {lagrangian}
forces {{
  x = F
}}
"""
    return spec, params, ["F"]


def snake(n):
    """Returns (spec text, parameter names in spec order, input names)."""
    params = (
        [f"m{i}" for i in range(1, n + 1)]
        + [f"J{i}" for i in range(1, n + 1)]
        + [f"l{i}" for i in range(1, n + 1)]
    )
    inputs = [f"tau{j}" for j in range(1, n)]

    def centre_velocity(i):
        vx = ["x'"] + [f"l{j}*sin(th{j})*th{j}'" for j in range(1, i)] + [f"l{i}/2*sin(th{i})*th{i}'"]
        vy = ["y'"] + [f"l{j}*cos(th{j})*th{j}'" for j in range(1, i)] + [f"l{i}/2*cos(th{i})*th{i}'"]
        return vx[0] + "".join(" - " + t for t in vx[1:]), " + ".join(vy)

    terms = []
    constraints = []
    for i in range(1, n + 1):
        vx, vy = centre_velocity(i)
        terms.append(f"m{i}/2*(({vx})^2 + ({vy})^2) + J{i}/2*th{i}'^2")
        constraints.append(f"  -sin(th{i})*({vx}) + cos(th{i})*({vy}) = 0")
    forces = []
    for i in range(1, n + 1):
        torque = []
        if i > 1:
            torque.append(f"tau{i - 1}")
        if i < n:
            torque.append(f"-tau{i}")
        if torque:
            forces.append(f"  th{i} = " + " ".join(torque).replace(" -", " - ").lstrip())
    coords = ", ".join(["x", "y"] + [f"th{i}" for i in range(1, n + 1)])
    lagrangian = " +\n    ".join(terms)
    input_line = f"inputs {', '.join(inputs)}\n" if inputs else ""
    forces_block = "forces {\n" + "\n".join(forces) + "\n}\n" if forces else ""
    spec = f"""# {n}-link planar wheeled snake: a wheel at the centre of each link forbids lateral slip.
system snake_{n}
parameters {", ".join(params)}
coordinates {coords}
{input_line}algebroid tangent
lagrangian = {lagrangian}
constraints nonholonomic {{
{chr(10).join(constraints)}
}}
{forces_block}"""
    return spec, params, inputs


if __name__ == "__main__":
    import sys

    family, size = sys.argv[1], int(sys.argv[2])
    print({"pendulum": pendulum_cart, "snake": snake}[family](size)[0], end="")


def pendulum_cart_bodies(n):
    """The pendulum on a cart written with bodies and joints: a cart (mass m0) on a prismatic
    joint along x pushed by F, then n revolute joints about z, link i a point mass m_i at the
    distance l_i from its joint, joint i+1 at the tip of link i. The joint angles are relative
    (link i turns by q_i from link i-1), so its coordinates are not those of pendulum_cart(n);
    the physics is the same. Returns (spec text, parameter names in spec order, input names)."""
    params = ["g"] + [f"m{i}" for i in range(n + 1)] + [f"l{i}" for i in range(1, n + 1)]
    items = ["body cart {\n  mass = m0\n}"]
    items.append("joint x prismatic {\n  parent = ground\n  child = cart\n  axis = (1, 0, 0)\n"
                 "  force = F\n}")
    for i in range(1, n + 1):
        parent = "cart" if i == 1 else f"link{i - 1}"
        at = "(0, 0, 0)" if i == 1 else f"(l{i - 1}, 0, 0)"
        items.append(f"body link{i} {{\n  mass = m{i}\n  center = (l{i}, 0, 0)\n}}")
        items.append(f"joint q{i} revolute {{\n  parent = {parent}\n  child = link{i}\n"
                     f"  at = {at}\n  axis = (0, 0, 1)\n}}")
    spec = f"""# {n}-link pendulum on a cart written with bodies and joints (relative joint angles).
system chain_{n}
parameters {", ".join(params)}
inputs F
gravity = (0, -g, 0)

""" + "\n".join(items) + "\n"
    return spec, params, ["F"]
