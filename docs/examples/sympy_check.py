# ball_on_turntable's u1' (x'' = -lambda1/m) in SymPy; run from the repository's root.
import json
from sympy import Rational, Symbol, parse_expr, simplify

doc = json.load(open("golden/ball_on_turntable/expected/ball_on_turntable.json"))
names = {i: Symbol(i) for i in doc["identifiers"].values()}
read = lambda form: parse_expr(form["python"], local_dict=names)
u1_dot, lambda1 = read(doc["equations"]["u1"]), read(doc["multipliers"]["lambda1"])
at = {"m": 2, "k": 1, "r": Rational(1, 2), "Omega(t)": 3, "Omega'(t)": 5, "y": 7, "u2": 11}
# By hand: -k^2 (Omega' y + Omega u2)/(k^2 + m r^2) = -(35 + 33)/(3/2) = -136/3.
assert u1_dot.subs({names[doc["identifiers"][s]]: v for s, v in at.items()}) == Rational(-136, 3)
assert simplify(u1_dot + lambda1 / names["m"]) == 0
print("ball_on_turntable: u1' =", u1_dot)
