#!/usr/bin/env python3
"""Regenerate the gallery: docs/gallery.md and one PNG per golden in docs/gallery/.

    python3 docs/gallery/make.py            # from the repository root (or anywhere)

Everything comes from the committed goldens: a golden is a folder under golden/ that holds a
`spec.mech` (golden/errors/ is not one); its `expected/<system>-body.tex` is the LaTeX derivation
dalembert writes, whose displayed equations are `align` rows labelled
`eq:<system>:<section keys>:<quantity>[:<entry>]` (docs/latex.md).

For each golden the key equations are picked by label: the top-level `equations` and
`multipliers`, then a few short route-specific extras (the constraints each step of the
singular constraint algorithm finds; a few short entries of the implicit form's constraints and
mass matrix). Equations whose LaTeX source is longer than MAX_EQUATION_CHARS are left out, and at
most MAX_EQUATIONS are shown; the gallery text says so, and the full set is in the linked file.

The picked rows are typeset with pdflatex (article, amsmath, amssymb, a 16 cm text width), page 1
is rasterised in grey with pdftoppm at 110 dpi, and the white margins are trimmed and a small
white border added back (what `convert -trim +repage -border 12` does) here, in Python, so that
ImageMagick is not needed; the PNG is written by this script too.

Needs: Python 3 (standard library only), pdflatex, pdftoppm.

Determinism: SOURCE_DATE_EPOCH is fixed for pdflatex and the PNGs are written by this script
with no time or text chunks, so with the same TeX Live and poppler the same goldens give the
same PNG bytes; another version of either tool may change the pixels (not the content).
"""

import os
import re
import shutil
import subprocess
import struct
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "golden"
OUT_DIR = ROOT / "docs" / "gallery"
GALLERY_MD = ROOT / "docs" / "gallery.md"

MAX_EQUATIONS = 9  # rows per image
MAX_EQUATION_CHARS = 450  # LaTeX source characters of one labelled row
# Shown when every equation of motion is too long, with a limit of their own: the rows of
# W ÿ = forcing (a double pendulum's closed forms fill a page) and the Lagrangian.
FALLBACK = {"In the form W ÿ = forcing": "multiplier_form", "Lagrangian": "lagrangian"}
MAX_FALLBACK_CHARS = 1000
MAX_EXTRAS = 4  # route-specific extra rows
MAX_EXTRA_CHARS = 220
SPEC_MAX_LINES = 60
DPI = 110
BORDER = 12  # white pixels around the trimmed equations

# Routes, in the order the gallery shows them: (key, heading, folder under golden/ or None for
# the top level, a sentence on what the route derives).
ROUTES = [
    (
        "ld",
        "Lagrange–d'Alembert",
        None,
        "Nonholonomic systems on Lie algebroids and affgebroids [IMMS07]: the multipliers λ in "
        "closed form and the constrained first-order system (and, in the linked files, the "
        "projector, the energy balance, the Hamiltonian side, the Dirac structure [GBMS24] and "
        "the induced algebroid [GLMM09] when they apply).",
    ),
    (
        "implicit",
        "Implicit form",
        "implicit",
        "Large systems solved numerically (`--solve numeric`): dalembert derives the mass matrix W, "
        "the forcing b and the constraints with their biases, and the emitted code solves "
        "W ẏ + λ μ = b, μ ẏ = β at every step.",
    ),
    (
        "vakonomic",
        "Vakonomic",
        "vakonomic",
        "Variational constrained (vakonomic) dynamics [IMMS08]: the multipliers become part of "
        "the state.",
    ),
    (
        "linearize",
        "Linearisation for control",
        "linearize",
        "Systems for control: the images show the derived equations (or, on the implicit route, "
        "the implicit form); `dalembert linearize` then gives A and B on the constraint manifold "
        "about an equilibrium or a steady motion, in the linked `expected/*-linear.*` files.",
    ),
    (
        "vehicles",
        "Vehicles",
        "vehicles",
        "Vehicles written with bodies, joints and rolling contacts, linearised about a steady "
        "motion: the images show entries of A (in double precision: the equations are large), "
        "and the linked `expected/*-linear.*` files hold the whole linearisation and its "
        "eigenvalues.",
    ),
    (
        "singular",
        "Singular Lagrangians",
        "singular",
        "The constraint algorithm of a singular Lagrangian [IMMS08], step by step, and the motion "
        "on the final constraint set (constraints that cannot be solved for a variable are kept as "
        "equations); in the linked files, the Hamiltonian side: first- and second-class "
        "constraints and the Dirac bracket.",
    ),
    (
        "reduction",
        "Reduction by symmetry",
        "reduction",
        "Systems written on TQ in coordinates with a declared symmetry group (`symmetry SE2 on x, y, "
        "theta`): the derivation on TQ, and its section \"Reduction by symmetry\" (the invariant "
        "frame, the connection, the reduced algebroid and Lagrangian, the reconstruction); "
        "`dalembert reduce` writes the reduced system as a spec (docs/reduction.md).",
    ),
    (
        "discrete",
        "Discrete equations",
        "discrete",
        "Variational integrators [MW01]: with `discrete midpoint` (or `trapezoidal`, or `cayley` "
        "and `lgvi` [LLM07] on so(3) and its action algebroids [MMM06]) dalembert derives the discrete Lagrangian and its discrete equations in "
        "position–momentum form — with nonholonomic constraints [CM01; MP06], with holonomic ones "
        "(RATTLE [HLW06]), for contact systems (the discrete Herglotz equations [VBS19]) — which "
        "`dalembert simulate --method variational` and the emitted `SYSTEM_step` step with; the "
        "images show the continuous equations and the discrete Legendre transforms, and the plots "
        "the energy error of each step beside RK4's and DP5's (docs/integrators.md).",
    ),
    (
        "contact",
        "Contact (Herglotz)",
        "contact",
        "Dissipative contact systems with constraints [LJL21]: the Herglotz equations, the "
        "multiplier, the projector and the almost-Jacobi bracket.",
    ),
]

# A sensible reading order within the Lagrange–d'Alembert route (unconstrained first, then
# classical nonholonomic systems, then the paper examples); goldens not listed follow,
# alphabetically.
ORDER = [
    "rigid_body_so3",
    "skew_algebra",
    "nonholonomic_particle",
    "damped_skate_forced",
    "chetaev_constant_speed",
    "knife_edge_incline",
    "jet_time_dependent",
    "differential_drive",
    "suslov_so3",
    "ball_on_turntable",
    "ball_shifted_e0",
    "chaplygin_sleigh",
    "chaplygin_sleigh_printed",
    "snakeboard",
    "nilpotent_realisation",
    "skater_slope",
    "skater_charged",
    "skater_hamiltonian",
    "ball_on_table",
    "ball_on_table_magnetic",
    "ball_on_table_harmonic",
    "hoop_rotating",
    "double_pendulum_cartesian",
    "four_bar",
    "pendulum_cart_2",
    "pendulum_cart_5",
    "snake_3",
    "martinet",
    "plate_ball",
    "three_steps",
    "martinet_sode",
    "capri_kobayashi",
    "particle_friction",
    "holonomic_control",
    "sledge",
    "canonical",
]

# Section titles (the golden's name is shown next to it); a golden not listed gets its name.
TITLES = {
    "rigid_body_so3": "Free rigid body on so(3)",
    "skew_algebra": "A skew (non-Lie) algebroid",
    "nonholonomic_particle": "Nonholonomic particle in a potential",
    "damped_skate_forced": "Damped, forced particle on a moving direction",
    "chetaev_constant_speed": "Constant-speed particle (Chetaev's rule)",
    "knife_edge_incline": "Knife edge on an inclined plane",
    "jet_time_dependent": "Knife edge with driven heading and prescribed side slip",
    "differential_drive": "Differential-drive robot",
    "suslov_so3": "The Suslov problem",
    "ball_on_turntable": "Ball on a turntable",
    "ball_shifted_e0": "Ball on a turntable, shifted reference section",
    "chaplygin_sleigh": "Chaplygin sleigh",
    "chaplygin_sleigh_printed": "Chaplygin sleigh, the Lagrangian as printed",
    "snakeboard": "Snakeboard",
    "nilpotent_realisation": "A skew algebra realised by a nilpotent Lie algebra",
    "skater_slope": "Skater on a slope",
    "skater_charged": "Charged skater in a magnetic field",
    "skater_hamiltonian": "Charged skater given by its Hamiltonian",
    "ball_on_table": "Ball rolling on a table",
    "ball_on_table_magnetic": "Charged ball on a table in a magnetic field",
    "ball_on_table_harmonic": "Charged ball in a magnetic field and a harmonic potential",
    "hoop_rotating": "Bead on a rotating hoop (holonomic, time-dependent)",
    "double_pendulum_cartesian": "Double pendulum in Cartesian coordinates (holonomic)",
    "four_bar": "Four-bar linkage (closed kinematic loop)",
    "pendulum_cart_2": "Double pendulum on a cart",
    "pendulum_cart_5": "Five-link pendulum on a cart",
    "snake_3": "Three-link wheeled snake",
    "martinet": "Martinet distribution",
    "plate_ball": "Plate–ball optimal control",
    "three_steps": "Three steps of the constraint algorithm",
    "martinet_sode": "Martinet algebroid, a constraint from the SODE condition",
    "capri_kobayashi": "Reduced Capri–Kobayashi model",
    "particle_friction": "Nonholonomic particle with friction",
    "holonomic_control": "A holonomic control case",
    "sledge": "Chaplygin's sledge with friction",
    "pendulum": "A pendulum with the midpoint rule's discrete equations (golden/discrete): p_k "
    "and p_{k+1} by hand in its notes, and the variational integrator keeps its energy over "
    "10⁴ steps where RK4 at the same step drifts.",
    "damped_oscillator": "A damped, driven oscillator with discrete forces f_d = (h/2) F at the "
    "midpoint: the discrete energy changes by exactly the work of the forces over each step.",
    "anharmonic_planar": "A particle in a quartic central potential: the discrete angular "
    "momentum of the midpoint rule is conserved exactly (discrete Noether theorem).",
    "canonical": "The canonical contact structure",
    "double_pendulum_rattle": "The double pendulum in Cartesian coordinates with RATTLE (the "
    "trapezoidal rule's discrete equations with holonomic constraints): both rods kept to "
    "round-off at every step.",
    "heavy_top": "Heavy top on its action algebroid so(3) × R³",
    "pendulum_3d": "3D pendulum with its attitude on the action algebroid so(3) × R⁹",
    "fpu_chain": "The Fermi–Pasta–Ulam–Tsingou β chain of ten masses: the midpoint rule's "
    "discrete equations with their tridiagonal Newton matrix, by hand for any mass; the emitted "
    "step solves on its band.",
    "rigid_body_lgvi": "The free rigid body with the Lie group variational integrator of Lee, "
    "Leok and McClamroch as they publish it, h Π̂_k = F_k J_d − J_d F_kᵀ, Π_{k+1} = F_kᵀ Π_k, in "
    "the Cayley chart: the energy and |Π|² kept exactly.",
    "herglotz_oscillator": "The damped oscillator as a Herglotz system, with the discrete "
    "Herglotz equations of a contact variational integrator: its contact energy decays at the "
    "derived rate.",
}

# Descriptions written out where the spec's first comment sentence does not read well on its
# own (they paraphrase the spec's leading comments).
DESCRIPTIONS = {
    "pendulum_3d": "The 3D pendulum of Lee, Leok and McClamroch: the heavy top carrying its whole "
    "attitude R ∈ SO(3) as nine base coordinates, moved by R_{k+1} = R_k cay(h ξ_k): the "
    "attitude stays orthogonal to round-off at every step.",
    "heavy_top": "The heavy top in body coordinates on its action algebroid so(3) × R³, with the "
    "Lie group variational integrator in the Cayley chart moving the vertical Γ by the same map: "
    "both Casimirs, |Γ|² and Π·Γ, are kept to round-off at every step.",
    "bicycle": "The Whipple bicycle of the benchmark of Meijaard, Papadopoulos, Ruina and Schwab "
    "(Proc. R. Soc. A 463 (2007)), with its published data: four bodies, a steering axis tilted "
    "back with trail, a welded front assembly, and two wheels declared as rolling contacts. "
    "Linearised upright at 5 m/s, its eigenvalues are the benchmark's (weave, capsize, castor).",
    "ball_on_turntable": "A homogeneous ball rolling without sliding on a table that turns with "
    "angular velocity Ω(t): affine, time-dependent constraints on a Lie affgebroid "
    "([IMMS07] §VI.3).",
    "ball_shifted_e0": "The ball on the turntable re-expressed with a reference section inside "
    "the constraint bundle, so that the affine constraints become linear ([IMMS07] Remark III.4); "
    "the equations must agree with those of `ball_on_turntable`.",
    "chaplygin_sleigh": "The Chaplygin sleigh on se(2), a Lie algebra over a point, with the "
    "knife-edge constraint v2 = 0 ([GLMM09] Example 6.1, with the sign of the cross term "
    "corrected).",
    "chaplygin_sleigh_printed": "The Chaplygin sleigh with the Lagrangian exactly as printed in "
    "[GLMM09] Example 6.1: the same restricted Lagrangian, but a bracket that depends on the "
    "metric off the constraint distribution.",
    "snakeboard": "The snakeboard on SE(2) × T² with two nonholonomic wheel constraints "
    "([GLMM09] Example 6.2, with three printed formulas corrected).",
    "nilpotent_realisation": "Every skew, non-Jacobi algebra is the nonholonomic restriction of "
    "a 2-step nilpotent Lie algebra ([GLMM09] Theorem 4.1): the skew algebra of `skew_algebra` "
    "realised that way.",
    "skater_slope": "The skater on a slope in a moving frame of the plane, with gravity along x "
    "([GBMS24] Ex. 2.3 and Ex. 3.4 case 1).",
    "skater_charged": "The skater carrying an off-centre charge in a uniform magnetic field "
    "([GBMS24] Ex. 3.4 case 2, with two printed errors corrected).",
    "skater_hamiltonian": "The charged skater given by its Hamiltonian alone, as [GBMS24] "
    "Ex. 3.4 case 2 gives it; dalembert derives the Lagrangian by the inverse Legendre "
    "transform.",
    "ball_on_table": "A homogeneous ball rolling without slipping on a fixed table, on the "
    "algebroid T ℝ² × so(3) ([GBMS24] Ex. 3.5, with its printed errors corrected).",
    "ball_on_table_magnetic": "A ball carrying a charge at its centre, rolling without slipping "
    "on a table in a uniform magnetic field normal to it ([GBMS24] Ex. 3.5, magnetic case).",
    "ball_on_table_harmonic": "The charged rolling ball in a magnetic field and a harmonic "
    "potential m Ω² (x² + y²)/2 ([GBMS24] Ex. 3.5, last case).",
    "jet_time_dependent": "A knife edge in the plane whose heading φ(t) is driven and whose "
    "velocity across the blade is a prescribed constant c: a time-dependent, affine constraint "
    "on J¹τ ([IMMS07] §VI.2).",
    "rigid_body_so3": "The free rigid body in body coordinates: Euler's equations as the "
    "Euler–Poincaré equations on so(3), a Lie algebroid over a point ([IMMS07] §VI.1).",
    "skew_algebra": "A skew algebroid over a point whose antisymmetric bracket violates Jacobi; "
    "dalembert accepts it and reports it as skew ([GLMM09] works with such algebroids).",
    "suslov_so3": "The Suslov problem: a rigid body whose body angular velocity has no "
    "component along a fixed body axis that is not a principal axis.",
    "differential_drive": "A differential-drive robot: a body with two driven wheels on a "
    "common axle, rolling without slipping (three linear constraints, wheel torques as inputs).",
    "nonholonomic_particle": "The nonholonomic particle in a potential, z' = y x' on ℝ³ (a "
    "case for the mechanical-type theory of [GLMM09] §5); the induced route must agree with the "
    "Lagrange–d'Alembert one.",
    "plate_ball": "The sphere rolling on a rotating table as a vakonomic optimal-control "
    "problem: the plate–ball problem ([IMMS08] Example 5.12).",
    "martinet": "The Martinet distribution as a vakonomic problem, reduced by the translations "
    "in (x2, x3) ([IMMS08] Example 5.11).",
    "capri_kobayashi": "The reduced Capri–Kobayashi model, a singular Lagrangian on an Atiyah "
    "algebroid ([IMMS08] Example 4.8, with two printed coefficients corrected).",
    "martinet_sode": "A synthetic singular case on the Martinet algebroid of [IMMS08] "
    "Example 5.11 where the second-order (SODE) condition adds a constraint.",
    "three_steps": "A synthetic singular Lagrangian L = p x' − p²/2 − z x on ℝ³ whose constraint "
    "algorithm takes three steps ([IMMS08] §3.1) and leaves no motion at all.",
    "knife_edge_incline": "A blade of mass m sliding on a plane inclined at the angle α, which "
    "can move only along its own direction (the knife edge of A. M. Bloch, *Nonholonomic "
    "Mechanics and Control*, §1.6).",
    "holonomic_control": "A synthetic holonomic control case for [LJL21]: an integrable "
    "constraint y' = cos(x) x', for which the almost-Jacobi bracket satisfies Jacobi.",
    "particle_friction": "The nonholonomic particle w' = y x' with linear friction, a synthetic "
    "case for the contact theory of [LJL21] §5–§7.",
    "sledge": "Chaplygin's sledge with Rayleigh-type friction ([LJL21] §8), with the constraint "
    "reconstructed and the printed projector and constrained field corrected.",
    "hoop_rotating": "A bead on a hoop that a motor turns about its vertical diameter at the "
    "rate ω: two holonomic constraints, r = R and φ = ω t, one of them time-dependent; the "
    "multipliers are the hoop's pull and the motor's torque.",
    "double_pendulum_cartesian": "The planar double pendulum in the Cartesian coordinates of its "
    "two masses, with its two rods as holonomic constraints: the textbook index-3 system, "
    "reduced to the acceleration level, with its multipliers in closed form.",
    "four_bar": "The planar four-bar linkage in its three link angles with the two loop-closure "
    "constraints, driven by a torque on the crank; its implicit form is solved at run time.",
    "canonical": "The canonical contact structure dz − y dx of [LJL21] Example 1 on ℝ⁵, as the "
    "contact form of an oscillator with linear friction: its Darboux bracket and contact "
    "Hamilton equations.",
}

REFERENCES = [
    "[GBMS24] K. Grabowska, M. Borczyńska, J. Majsak, T. Sobczak, “Dirac structures in "
    "nonholonomic mechanics” (preprint, 2024).",
    "[GLMM09] J. Grabowski, M. de León, J. C. Marrero, D. Martín de Diego, “Nonholonomic "
    "constraints: a new viewpoint”, *J. Math. Phys.* 50 (2009) 013520.",
    "[IMMS07] D. Iglesias, J. C. Marrero, D. Martín de Diego, D. Sosa, “A general framework for "
    "nonholonomic mechanics: nonholonomic systems on Lie affgebroids”, *J. Math. Phys.* 48 "
    "(2007) 083513.",
    "[IMMS08] D. Iglesias, J. C. Marrero, D. Martín de Diego, D. Sosa, “Singular Lagrangian "
    "systems and variational constrained mechanics on Lie algebroids”, *Dynamical Systems* 23 "
    "(2008) 351–397.",
    "[LJL21] M. de León, V. M. Jiménez, M. Lainz Valcázar, “Contact Hamiltonian systems with "
    "nonholonomic constraints”, *J. Geom. Mech.* 13 (2021) 25–53.",
    "[MW01] J. E. Marsden, M. West, “Discrete mechanics and variational integrators”, *Acta "
    "Numerica* 10 (2001) 357–514.",
    "[HLW06] E. Hairer, C. Lubich, G. Wanner, *Geometric Numerical Integration: "
    "Structure-Preserving Algorithms for Ordinary Differential Equations*, 2nd ed., Springer "
    "(2006).",
    "[VBS19] M. Vermeeren, A. Bravetti, M. Seri, “Contact variational integrators”, *J. Phys. A: "
    "Math. Theor.* 52 (2019) 445206.",
    "[MMM06] J. C. Marrero, D. Martín de Diego, E. Martínez, “Discrete Lagrangian and "
    "Hamiltonian mechanics on Lie groupoids”, *Nonlinearity* 19 (2006) 1313–1348.",
    "[CM01] J. Cortés, S. Martínez, “Non-holonomic integrators”, *Nonlinearity* 14 (2001) "
    "1365–1392.",
    "[MP06] R. I. McLachlan, M. Perlmutter, “Integrators for nonholonomic mechanical systems”, "
    "*J. Nonlinear Sci.* 16 (2006) 283–328.",
    "[BRM09] N. Bou-Rabee, J. E. Marsden, “Hamilton–Pontryagin integrators on Lie groups. Part I: "
    "Introduction and structure-preserving properties”, *Found. Comput. Math.* 9 (2009) 197–219.",
    "[LLM07] T. Lee, M. Leok, N. H. McClamroch, “Lie group variational integrators for the full "
    "body problem”, *Comput. Methods Appl. Mech. Engrg.* 196 (2007) 2907–2924.",
]

FORBIDDEN = re.compile(r"\b(seeds?|digests?)\b|\blines? \d|\bl\.\d|\bL\d{3}", re.I)


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def find_goldens():
    """(route key, case path relative to golden/, folder) for every golden."""
    goldens = []
    for spec in sorted(GOLDEN.rglob("spec.mech")):
        case = spec.parent.relative_to(GOLDEN)
        if case.parts[0] == "errors" or not (spec.parent / "expected").is_dir():
            continue
        route = "ld"
        for key, _, folder, _ in ROUTES:
            if folder is not None and case.parts[0] == folder:
                route = key
        goldens.append((route, case.as_posix(), spec.parent))
    rank = {name: i for i, name in enumerate(ORDER)}
    route_rank = {r[0]: i for i, r in enumerate(ROUTES)}
    goldens.sort(key=lambda g: (route_rank[g[0]], rank.get(Path(g[1]).name, len(ORDER)), g[1]))
    return goldens


def system_name(folder):
    for line in (folder / "spec.mech").read_text().splitlines():
        m = re.match(r"\s*system\s+([A-Za-z_][A-Za-z0-9_]*)", line)
        if m:
            return m.group(1)
    bodies = sorted((folder / "expected").glob("*-body.tex"))
    return bodies[0].name[: -len("-body.tex")]


def labelled_rows(body):
    """Every labelled row of every align block: (label, LaTeX source of the row)."""
    rows = []
    for block in re.findall(r"\\begin\{align\}(.*?)\\end\{align\}", body, re.S):
        for m in re.finditer(r"(.*?)\\label\{([^}]*)\}\s*(?:\\\\)?", block, re.S):
            src = re.sub(r"\\nonumber\b", "", m.group(1)).strip()
            src = re.sub(r"\s*\n\s*", "\n", src)
            rows.append((m.group(2), src))
    return rows


def key_of(label, system):
    prefix = f"eq:{system}:"
    return label[len(prefix):] if label.startswith(prefix) else label


def is_identity(src):
    """A row `A &= A` (a velocity that is its own state variable, as in `\\dot{x} &= \\dot{x}`)."""
    sides = src.split("&=")
    return len(sides) == 2 and sides[0].strip() == sides[1].strip()


def pick(rows, system, route):
    """The groups to show [(heading, [(key, source)])], the keys of the equations left out for
    length or number, and whether the induced equations stand in for some of them."""
    keyed = [(key_of(label, system), src) for label, src in rows]

    def section(name):
        return [(k, s) for k, s in keyed if k == name or k.startswith(name + ":")]

    def informative(items):
        # The identities carry nothing to look at, except in the implicit form, where they are
        # all the admissible-curve condition says.
        return items if route == "implicit" else [(k, s) for k, s in items if not is_identity(s)]

    groups = [
        ("Admissible curves" if route == "implicit" else "Equations of motion",
         informative(section("equations"))),
        ("Multipliers", section("multipliers")),
    ]
    extras = []
    if route == "singular":
        extras = [("Constraints found by the constraint algorithm", section("step_found"))]
        if not any(g[1] for g in groups):
            extras.append(("On the final constraint set", section("final_energy")))
    elif route == "implicit":
        extras = [
            ("Constraints", section("implicit:constraint_display")),
            ("Mass matrix (some entries)", section("implicit:mass")),
        ]
    holonomic = section("holonomic_display")
    if holonomic:
        # The equations with their multipliers (short where the closed forms are long), and the
        # position-level constraints.
        extras = [
            ("With their multipliers", section("multiplier_form")),
            ("Holonomic constraints", [(k, s) for k, s in holonomic if k.split(":")[-1].startswith("f") and not k.split(":")[-1].startswith("f_")]),
        ] + extras
    def short(items):
        return [x for x in items if len(x[1]) <= MAX_EQUATION_CHARS]

    if any(g[1] for g in groups) and not any(short(g[1]) for g in groups + extras):
        # Closed forms too long to show (a double pendulum's accelerations): the equations as
        # W ÿ = forcing, row by row, and the Lagrangian.
        extras = extras + [(heading, section(key)) for heading, key in FALLBACK.items()]
    if any(k.startswith("reduction:") for k, _ in keyed):
        # A reduction golden: the reduced system, not the equations on TQ it was reduced from.
        groups = [
            ("Reduced equations", informative(section("reduction:equations"))),
            ("Momentum equations", section("reduction:momentum:in_momenta")
             or section("reduction:momentum:equations")),
            ("First integrals from the momentum equations", section("reduction:momentum:integrals")),
        ]
        extras = [
            ("Reduced Lagrangian", section("reduction:lagrangian")),
            ("Brackets of the reduced algebroid", section("reduction:brackets")),
        ]
    if route == "discrete":
        # The discrete Legendre transforms beside the continuous equations.
        extras = [
            ("The discrete equations",
             section("discrete:momentum") + section("discrete:next_momentum")),
        ]
    if route == "vehicles":
        # A linearisation: the entries of A that do not vanish.
        # Its last rows, the accelerations, where the dynamics are (the first rows are the
        # kinematics, mostly ones).
        groups = [("The linearisation (the last rows of $A$, the accelerations)",
                   section("A")[-MAX_EQUATIONS:])]
        extras = []
    if not any(g[1] for g in groups + extras):
        # No equations of the usual kinds: show the route's first labelled rows.
        extras = [("Main equations", [(k, s) for k, s in keyed if not k.startswith("algebroid")])]

    shown, left_out, count = [], [], 0
    for heading, items in groups:
        kept = []
        for k, s in items:
            if len(s) > MAX_EQUATION_CHARS:
                left_out.append((k, "long"))
                continue
            if count >= MAX_EQUATIONS:
                left_out.append((k, "count"))
                continue
            kept.append((k, s))
            count += 1
        if kept:
            shown.append((heading, kept))
    # Equations of motion too long to show: the equations of the induced algebroid on D
    # [GLMM09], when the system has them, are the same motion in fewer variables.
    induced = False
    if any(k.startswith("equations:") and why == "long" for k, why in left_out):
        kept = []
        for k, s in informative(section("projected:induced:equations")):
            if len(s) <= MAX_EQUATION_CHARS and count < MAX_EQUATIONS:
                kept.append((k, s))
                count += 1
        if kept:
            shown.append(("The same motion by the induced algebroid on $D$", kept))
            induced = True
    extra_count = 0
    max_extras = MAX_EXTRAS if shown else MAX_EQUATIONS
    for heading, items in extras:
        kept = []
        for k, s in items:
            limit = MAX_FALLBACK_CHARS if heading in FALLBACK else MAX_EXTRA_CHARS
            if len(s) > limit or count >= MAX_EQUATIONS or extra_count >= max_extras:
                continue
            kept.append((k, s))
            count += 1
            extra_count += 1
        if kept:
            shown.append((heading, kept))
    return shown, left_out, induced


def latex_document(groups):
    parts = [
        r"\documentclass[11pt]{article}",
        r"\usepackage[paperwidth=17cm,paperheight=120cm,margin=0.5cm]{geometry}",
        r"\usepackage{amsmath,amssymb}",
        r"\pagestyle{empty}",
        r"\setlength{\parindent}{0pt}",
        r"\begin{document}",
    ]
    for heading, rows in groups:
        parts.append(r"\textbf{" + heading + r"}\vspace{-0.5\baselineskip}")
        parts.append(r"\begin{align*}")
        parts.append(" \\\\\n".join(src for _, src in rows))
        parts.append(r"\end{align*}")
    parts.append(r"\end{document}")
    return "\n".join(parts) + "\n"


def render(groups, png):
    """Typesets the groups into png; returns an error message or None."""
    with tempfile.TemporaryDirectory(prefix="dalembert-gallery-") as tmp:
        tmp = Path(tmp)
        (tmp / "eq.tex").write_text(latex_document(groups))
        env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
        r = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "eq.tex"],
            cwd=tmp,
            capture_output=True,
            text=True,
            env=env,
        )
        if r.returncode != 0 or not (tmp / "eq.pdf").exists():
            errors = [l for l in r.stdout.splitlines() if l.startswith("!")]
            return "pdflatex failed: " + "; ".join(errors[:3])
        pages = re.search(r"Output written on eq\.pdf \((\d+) page", r.stdout)
        if pages and pages.group(1) != "1":
            return f"the equations took {pages.group(1)} pages"
        r = run(["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                 "eq.pdf", "eq"], tmp)
        if r.returncode != 0 or not (tmp / "eq.pgm").exists():
            return "pdftoppm failed: " + r.stderr.strip()
        width, height, pixels = read_pgm((tmp / "eq.pgm").read_bytes())
        png.write_bytes(png_bytes(*trim(width, height, pixels, BORDER)))
    return None


def read_pgm(data):
    """(width, height, rows) of a binary 8-bit PGM (P5), as pdftoppm -gray writes it."""
    fields, pos = [], 2
    if data[:2] != b"P5":
        raise ValueError("not a binary PGM")
    while len(fields) < 3:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(int(data[pos:end]))
        pos = end
    pos += 1
    width, height, maxval = fields
    if maxval != 255:
        raise ValueError("not an 8-bit PGM")
    rows = [data[pos + y * width : pos + (y + 1) * width] for y in range(height)]
    return width, height, rows


def trim(width, height, rows, border):
    """Crops the white margins (as `convert -trim +repage`) and adds a white border."""
    white = bytes([255]) * width
    inked = [y for y in range(height) if rows[y] != white]
    if not inked:
        return 1 + 2 * border, 1 + 2 * border, [bytes([255]) * (1 + 2 * border)] * (1 + 2 * border)
    top, bottom = inked[0], inked[-1]
    left, right = width, -1
    for y in range(top, bottom + 1):
        row = rows[y].rstrip(b"\xff")
        if row:
            right = max(right, len(row) - 1)
            left = min(left, len(row) - len(row.lstrip(b"\xff")))
    w = right - left + 1 + 2 * border
    pad = bytes([255]) * border
    out = [bytes([255]) * w] * border
    out += [pad + rows[y][left : right + 1] + pad for y in range(top, bottom + 1)]
    out += [bytes([255]) * w] * border
    return w, len(out), out


def png_bytes(width, height, rows):
    """An 8-bit greyscale PNG, with no time or text chunks (the same pixels give the same
    bytes)."""

    def chunk(kind, payload):
        return (struct.pack(">I", len(payload)) + kind + payload
                + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def spec_comment_sentence(spec_text):
    """The first sentence of the spec's leading comment paragraph."""
    lines = []
    for line in spec_text.splitlines():
        s = line.strip()
        if not s.startswith("#"):
            break
        s = s.lstrip("#").strip()
        if not s:
            if lines:
                break
            continue
        lines.append(s)
    text = " ".join(lines)
    text = re.sub(r"\s*\([^()]*see below[^()]*\)", "", text)
    text = re.sub(r",? (as )?(explained|noted|marked) below", "", text)
    m = re.search(r"^(.*?[.:])(\s+[A-Z(]|$)", text)
    sentence = m.group(1) if m else text
    return sentence.rstrip(":").rstrip(".") + "." if sentence else ""


def title_of(case, name):
    """The heading of a golden: the tables are keyed by name, except for the reduction goldens,
    which share names with the hand-written algebroids they reproduce."""
    if case.startswith("reduction/"):
        return REDUCTION_TITLES.get(name, name.replace("_", " ").capitalize())
    return TITLES.get(name, name.replace("_", " ").capitalize())


REDUCTION_TITLES = {
    "chaplygin_sleigh": "Chaplygin sleigh on SE(2), reduced to se(2)",
    "rigid_body_euler": "Free rigid body in Euler angles, reduced to so(3)",
    "spherical_pendulum": "Spherical pendulum, reduced by SO(2) and by Routh's method",
    "snakeboard": "Snakeboard on SE(2) × T², reduced by SE(2): the momentum equation",
    "ball_on_turntable": "Ball on a turntable on R² × SO(3), reduced by SO(3) on the right",
    "two_wheeled_robot": "Two-wheeled robot of bodies and joints, reduced by SE(2)",
    "free_body_euler": "Free rigid body in position and Euler angles, reduced by SE(3) to se(3)",
    "free_body_quaternion": "Free rigid body on a free joint (quaternion), reduced by SE(3)",
    "rigid_body_quaternion": "Rigid body on a spherical joint (quaternion), reduced by SO(3)",
    "gyrostat": "Gyrostat in space (hull and driven rotor), reduced by SE(3)",
    "nonholonomic_particle": "Nonholonomic particle by translations: an integrable momentum equation",
}


def description(name, folder):
    if name in DESCRIPTIONS and folder.parent.name != "reduction":
        return DESCRIPTIONS[name]
    text = spec_comment_sentence((folder / "spec.mech").read_text())
    if not text and (folder / "notes.md").exists():
        for para in (folder / "notes.md").read_text().split("\n\n"):
            para = para.strip()
            if para and not para.startswith("#"):
                text = " ".join(para.split())
                break
    return text


def spec_excerpt(spec_text):
    """The spec as shown: whole if short, else without comment lines, cut before the expect
    blocks (or at SPEC_MAX_LINES), with a last comment saying what was cut."""
    lines = spec_text.rstrip("\n").splitlines()
    if len(lines) <= SPEC_MAX_LINES:
        return "\n".join(lines), False
    kept = []
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        if not line.strip() and (not kept or not kept[-1].strip()):
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    if len(kept) <= SPEC_MAX_LINES:
        return "\n".join(kept), True
    cut = next((i for i, l in enumerate(kept) if l.startswith("expect")), len(kept))
    if cut > SPEC_MAX_LINES:
        cut = SPEC_MAX_LINES
        while cut > 0 and kept[cut - 1].strip():
            cut -= 1
        cut = cut or SPEC_MAX_LINES
    rest = kept[cut:]
    head = kept[:cut]
    while head and not head[-1].strip():
        head.pop()
    expects = sum(1 for l in rest if l.startswith("expect"))
    what = f"{len([l for l in rest if l.strip()])} more lines"
    if expects:
        what += f", including {expects} `expect` block{'s' if expects > 1 else ''}"
    head.append("")
    head.append(f"# … {what}: see the full spec")
    return "\n".join(head), True


def pretty_key(key):
    """equations:xdot -> the equation for xdot; multipliers:lambda1 -> lambda1."""
    parts = key.split(":")
    return parts[-1] if len(parts) > 1 else key


def main():
    for tool in ("pdflatex", "pdftoppm"):
        if shutil.which(tool) is None:
            sys.exit(f"make.py needs {tool} on the PATH")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    goldens = find_goldens()
    failures = []
    sections = {key: [] for key, *_ in ROUTES}
    for route, case, folder in goldens:
        name = Path(case).name
        system = system_name(folder)
        body_path = folder / "expected" / f"{system}-body.tex"
        if not body_path.exists():
            # A linearisation golden (golden/vehicles/): its document is the linearisation.
            system = f"{system}-linear"
            body_path = folder / "expected" / f"{system}-body.tex"
        groups, left_out, induced = pick(labelled_rows(body_path.read_text()), system, route)
        png_name = case.replace("/", "-") + ".png"
        error = render(groups, OUT_DIR / png_name) if groups else None
        if not groups:
            # A document whose every equation is too long for an image (a 7-link chain's
            # Lagrangian; its W and b come from recursions, not formulas): said, not an error.
            print(f"{case}: no equation short enough to show")
        elif error:
            failures.append((case, error))
            print(f"{case}: {error}", file=sys.stderr)
        else:
            print(f"{case}: {sum(len(r) for _, r in groups)} equations -> docs/gallery/{png_name}")
        sections[route].append(entry(case, name, system, folder, groups, left_out, induced,
                                     png_name, error))
    write_markdown(goldens, sections)
    if failures:
        sys.exit(f"{len(failures)} golden(s) could not be rendered")


def entry(case, name, system, folder, groups, left_out, induced, png_name, error):
    title = title_of(case, name)
    rel = f"../golden/{case}"
    exp = f"{rel}/expected/{system}"
    spec_text = (folder / "spec.mech").read_text()
    excerpt, cut = spec_excerpt(spec_text)
    out = [f"### {title} (`{case}`)", ""]
    desc = description(name, folder)
    if desc:
        out += [desc, ""]
    spec_note = f"The spec, [`golden/{case}/spec.mech`]({rel}/spec.mech)"
    if cut:
        spec_note += " (shown without its comments" + (
            " and shortened" if "see the full spec" in excerpt else "") + ")"
    if (folder / "notes.md").exists() and "expect" not in spec_text:
        spec_note += f"; where its expected values come from is in [`notes.md`]({rel}/notes.md)"
    elif (folder / "notes.md").exists():
        spec_note += f"; the hand derivation behind its `expect` blocks is in [`notes.md`]({rel}/notes.md)"
    out += [spec_note + ":", "", "```text", excerpt, "```", ""]
    if not groups:
        out += [f"*(No image for `{case}`: its document displays no equation short enough to "
                "show; the files below hold them.)*", ""]
    elif error:
        out += [f"*(The image could not be rendered: {error}.)*", ""]
    else:
        shown = [k for _, rows in groups for k, _ in rows]
        headings = [h.replace("$D$", "D") for h, _ in groups]
        headings = [h[0].lower() + h[1:] for h in headings]
        alt = f"{title}, as dalembert derives it: " + "; ".join(headings)
        what = "What dalembert derives"
        out += [f"{what} (from [`{system}-body.tex`]({exp}-body.tex)):", ""]
        out += [f"![{alt}](gallery/{png_name})", ""]
        long = [k for k, why in left_out if why == "long"]
        many = [k for k, why in left_out if why == "count"]
        notes = []
        if long:
            notes.append("too long for an image: " + ", ".join(f"`{k}`" for k in long))
        if many:
            notes.append("to keep the image short: " + ", ".join(f"`{k}`" for k in many))
        if notes:
            instead = (" The equations of the induced algebroid on D [GLMM09], which describe the "
                       "same motion, are shown instead." if induced else "")
            out += [
                f"Not shown (by label), {'; '.join(notes)}; the full set is in "
                f"[`{system}-body.tex`]({exp}-body.tex) and [`{system}.json`]({exp}.json)."
                + instead,
                "",
            ]
        if case.startswith("implicit/"):
            out += [
                "Only the admissible-curve condition and a few short entries of the implicit form "
                "are shown; the whole mass matrix W and the forcing b (and the constraints with "
                f"their biases β, when there are any) are in [`{system}-body.tex`]({exp}-body.tex) and "
                f"[`{system}.json`]({exp}.json).",
                "",
            ]
    suffixes = (".json", ".tex", "-body.tex", ".c", ".h", ".rs")
    if system.endswith("-linear"):
        # A linearisation golden holds its documents only.
        suffixes = tuple(x for x in suffixes if (folder / "expected" / f"{system}{x}").exists())
    plot = ROOT / "docs" / "images" / "integrators" / f"{system}.svg"
    if case.startswith("discrete/") and plot.exists():
        out += [
            "Its emitted variational step beside RK4 and Dormand–Prince over 10⁶ steps "
            "(`python3 bench/integrators.py`, [docs/integrators.md](integrators.md)): the relative "
            "energy error against time.",
            "",
            f"![{system}: energy error of the variational step, RK4 and DP5](images/integrators/{system}.svg)",
            "",
        ]
    links = " · ".join(f"[`{system}{suffix}`]({exp}{suffix})" for suffix in suffixes)
    out += [f"Emitted files: {links}", ""]
    text = "\n".join(out)
    for line in text.splitlines():
        if FORBIDDEN.search(line):
            sys.exit(f"{case}: the gallery text would contain a forbidden word: {line!r}")
    return text


def anchor(text):
    a = text.strip().lower()
    a = re.sub(r"[^\w\- ]", "", a)
    return a.replace(" ", "-")


def write_markdown(goldens, sections):
    out = [
        "# Gallery",
        "",
        "What dalembert gives, system by system, before you install anything: every golden "
        "system of the test suite with what it is, its spec, the key equations dalembert derives "
        "(typeset from the LaTeX it writes) and links to every emitted file — the JSON, the "
        "standalone LaTeX document and its `\\input`-able body, and the C99 and Rust code.",
        "",
        "The images come from the committed goldens (`golden/**/expected/*-body.tex`, which "
        "`cargo test` checks the derivation against): the equations of motion and the "
        "multipliers, and for some routes a few other short entries. Equations too long for an "
        "image are left out (each section says which), and so are identities such as "
        "ẋ = ẋ (a velocity that is its own state variable); the full set is always in the "
        "linked files. Regenerate the page and the images with",
        "",
        "```",
        "python3 docs/gallery/make.py",
        "```",
        "",
        "(Python 3 with `pdflatex` and `pdftoppm`). The sign conventions "
        "are those of [IMMS07] (`docs/conventions.md`): the multipliers enter as "
        "EL_α = F_α − λ_a μ^a_α. The equation labels of the LaTeX output are described in "
        "`docs/latex.md`.",
        "",
        "The papers are cited as in the emitted documents; the references are at the end of this "
        "page.",
        "",
        "## Contents",
        "",
    ]
    for key, heading, _, _ in ROUTES:
        cases = [g for g in goldens if g[0] == key]
        if not cases:
            continue
        out.append(f"- [{heading}](#{anchor(heading)}): " + ", ".join(
            f"[{Path(c).name}](#{anchor(title_of(c, Path(c).name) + ' ' + c)})"
            for _, c, _ in cases))
    out.append("")
    for key, heading, _, blurb in ROUTES:
        if not sections[key]:
            continue
        out += [f"## {heading}", "", blurb, ""]
        out += sections[key]
    out += ["## References", ""] + [f"- {r}" for r in REFERENCES] + [""]
    GALLERY_MD.write_text("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
