//! The diagnostic codes, one variant per code: stable, cited by tests and listed with an
//! example each in `docs/errors.md` (a test keeps the two lists equal). `E00xx` are the command
//! line's, `E01xx` syntax, `E02xx` the spec's meaning, `E03xx` the derivation, `E04xx` the
//! `expect` blocks, `E05xx` budgets and outputs.

use std::fmt;

/// A diagnostic code, printed as `E0101`. Each variant's documentation is the first sentence of
/// its entry in `docs/errors.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The spec file is not UTF-8 text (reported by the command line, with the offset of the first
    /// bad byte).
    E0001,
    /// The spec file cannot be read: it does not exist, it is a directory, or it may not be read.
    E0002,
    /// A `NAME=VALUE,…` argument that cannot be read (`--at` of `dalembert linearize`; `--set`,
    /// `--init` and `--input` of `dalembert simulate`): an item that is not `NAME=VALUE`, a name
    /// that may not be given there or is given twice, a value that is not an expression or not a
    /// finite number, or (`--set`) a parameter without a value.
    E0003,
    /// An `--emit` that asks for what the command does not make: an unknown target (exit 2), a
    /// package (`cmake`, `crate`) with `--work caller` (the packages keep the work arrays on the
    /// stack), or a package of a linearisation (`dalembert linearize` emits json, latex, c or
    /// rust).
    E0004,
    /// The command cannot start: the per-user lock (one dalembert at a time per user) cannot be
    /// taken, or the thread that does the work cannot be started.
    E0005,
    /// Syntax error: an unexpected token or character.
    E0101,
    /// An opening `{`, `(` or `[` is never closed.
    E0102,
    /// A closing delimiter closes nothing.
    E0103,
    /// A string is not closed on its line.
    E0104,
    /// Text nested deeper than the parser allows: more than 200 brackets `(`, `[`, `{` open at
    /// once, a tower of more than 200 powers `a^b^c^…` or signs `- - - x` in one expression, or
    /// more than 200,000 operators `+ - * / ^` in the whole spec.
    E0105,
    /// The spec is empty.
    E0200,
    /// A required line (`system`, `algebroid`, `lagrangian`) is missing.
    E0201,
    /// A name that may not be used (built-in function, contains `__`, ends in `_`).
    E0202,
    /// A name is declared twice.
    E0203,
    /// An item that may appear once is given twice.
    E0204,
    /// A function of time is declared with an argument other than the time variable.
    E0205,
    /// A line the algebroid preset does not take.
    E0206,
    /// An unknown algebroid preset.
    E0207,
    /// The numbers of sections and velocities differ.
    E0208,
    /// A bracket or anchor names an undeclared section.
    E0209,
    /// An unknown name.
    E0210,
    /// `d/dq` outside an anchor.
    E0211,
    /// `d/dq` of something that is not a coordinate.
    E0212,
    /// A bracket `{f, g}` outside an expect key.
    E0213,
    /// A literal division by zero.
    E0214,
    /// A function of time used without its argument.
    E0215,
    /// A declared name where it may not appear (e.g. a velocity in an anchor).
    E0216,
    /// A coordinate's velocity or acceleration where it may not appear.
    E0217,
    /// A prime on a name that cannot be differentiated.
    E0218,
    /// A function of time applied to something other than the time variable.
    E0219,
    /// A call of an unknown function.
    E0220,
    /// A built-in function with the wrong number of arguments.
    E0221,
    /// A number dalembert cannot read (more than 400 digits).
    E0222,
    /// The reference section `e0` on the right of a bracket.
    E0223,
    /// An expression that is infinite or imaginary (`0^-1`, `log(0)`, `sqrt(-1)`).
    E0225,
    /// A numeric exponent whose numerator or denominator exceeds 1000 (found by fuzzing: such a
    /// power made the symbolic kernel panic; it has millions of digits, or no exact value at all).
    E0226,
    /// A fractional power (or `sqrt`) of a number with more than 15 digits in its numerator or
    /// denominator (found by the CI's generated specs: simplifying the root exactly factors the
    /// number, which for a 31-digit number took minutes).
    E0227,
    /// An anchor or bracket that is not a linear combination.
    E0230,
    /// A section other than `e0` whose anchor moves time.
    E0231,
    /// Brackets that are not antisymmetric.
    E0232,
    /// An `e0` anchor without `d/dt` at unit rate.
    E0233,
    /// The anchor is not a homomorphism of brackets (a structure equation fails).
    E0234,
    /// A force keyed by something that is not a section.
    E0240,
    /// A `latex` override of an undeclared name.
    E0241,
    /// A `constraints nonholonomic` constraint without velocities: a position-level constraint
    /// belongs in `constraints holonomic`, which derives its velocity- and acceleration-level forms
    /// itself.
    E0250,
    /// Dependent constraints.
    E0251,
    /// A `constraints holonomic` constraint that involves a velocity: holonomic constraints are
    /// equations `f(x, t) = 0` in the coordinates and time.
    E0252,
    /// A holonomic constraint whose velocity-level form `ρ(f) = (ρ_0 + y^α ρ_α)(f)` involves no
    /// velocity: it involves time alone, or the algebroid's anchor does not reach the coordinates
    /// it involves, so no constraint force can enforce it.
    E0253,
    /// A `frame` row whose left side is not a new name, or whose right side is not linear in the
    /// momenta with coefficients that depend on the parameters and coordinates only.
    E0260,
    /// A `frame` with a number of rows other than the rank of the algebroid.
    E0261,
    /// A singular `frame` (det T = 0).
    E0262,
    /// A `frame` not adapted to the constraints: the number of its sections in C = {μ^a_B y^B = 0}
    /// is not n − r, or the constraints are not linear.
    E0263,
    /// A `velocities` line in a `frame` whose number of names is not the rank of the constraint
    /// distribution.
    E0264,
    /// A `symmetry` that cannot be read: the system has no frame of its constraint distribution
    /// (the constraints are not linear), a key that is neither a velocity of D nor `gauge`, or a
    /// component that depends on more than the parameters and coordinates.
    E0265,
    /// Vakonomic constraints beside nonholonomic or holonomic ones.
    E0266,
    /// A spec with joints also has a `coordinates`, `algebroid`, `lagrangian` or `hamiltonian`
    /// line.
    E0270,
    /// A joint or contact kind that does not exist.
    E0271,
    /// A key a `body`, `joint` or `contact` block does not take, a key given twice, or a required
    /// key missing.
    E0272,
    /// A value of the wrong shape: a vector with the wrong number of components, a list where one
    /// value is expected, or a list of names that holds an expression.
    E0273,
    /// A `parent`, `child` or `body` that names no body (the parent may also be `ground`).
    E0274,
    /// Bodies and joints that are not a tree hanging from the ground: a body that is the child of
    /// no joint or of two, or joints in a loop.
    E0275,
    /// A geometric quantity (mass, centre, inertia, joint point, axis, radius) that depends on
    /// anything but parameters and numbers.
    E0276,
    /// Velocity names where the algebroid is `tangent` (no spherical or free joint: the velocities
    /// are the coordinates' own, `q'`), or none for a revolute, prismatic or planar joint beside a
    /// spherical or free one.
    E0277,
    /// A `symmetry NAME on q1, q2` item that cannot describe a group action: the system is a Lie
    /// algebra or has no coordinates, a name after `on` is not a coordinate or is moved by two
    /// groups, the group is not one dalembert knows by name (`translations`, `SO2`, `SE2`, `SO3`,
    /// `SE3`) and no `generator` lines are given, a named group gets the wrong number of
    /// coordinates, a quaternion chart is declared on `algebroid tangent` (its four rates are
    /// velocities and `|q|` moves: write the rotation with a `spherical` or `free` joint), a system
    /// written on an algebroid renames its sections or chooses a connection or a momentum in the
    /// block (it is reduced on its own sections), there is not one generator per moved coordinate,
    /// a reduced name is already declared; also `dalembert reduce` on a spec that declares no
    /// group.
    E0280,
    /// The generators are not the infinitesimal action of a Lie group on a chart `Q = S × G`: they
    /// are dependent, their brackets leave their span or close with coefficients that depend on the
    /// point (the bracket is shown), generators given one by one do not commute (a non-abelian
    /// group is declared by name, so that its invariant frame is known), or a generator moves or
    /// depends on a shape coordinate.
    E0281,
    /// The Lagrangian, a constraint or the forces are not invariant under the declared group (for
    /// the force one-form `F = F_j dq^j`, its Lie derivative `ξ^C(F_j) + F_i ∂_j ξ^i` is shown):
    /// the derivative along the complete lift `ξ^C = ξ^i ∂_i + (∂_j ξ^i) q̇^j ∂/∂q̇^i` of a
    /// generator does not vanish.
    E0282,
    /// The connection cannot be built or is not one: the Lagrangian is not quadratic in the
    /// velocities (its Hessian depends on them), or the locked inertia tensor `𝕀_ab = g(η_a, η_b)`
    /// is singular (its determinant is shown), for the mechanical connection (`connection chart` in
    /// the symmetry's block uses the flat connection of the chart instead); a connection given in
    /// the block (`connection { A(d/dq) = … }`) that is not the identity on the orbits (`A(η_a) ≠
    /// e_a`, that is `A(ξ_Q) ≠ ξ`; the failing coefficient is shown) or is not invariant (its Lie
    /// derivative along a generator is shown).
    E0283,
    /// Routh's reduction (a symmetry block that fixes its momentum, `momentum mu`) that cannot be
    /// made: the system has forces or nonholonomic constraints (the momentum is then not
    /// conserved), a group does not translate its coordinates (its generators are not `∂/∂q^a`),
    /// the Lagrangian is not quadratic in the cyclic velocities, or its Hessian in them is singular
    /// (its determinant is shown).
    E0284,
    /// Reduction by symmetry of what it does not handle yet: vakonomic or holonomic constraints,
    /// contact (Herglotz) systems.
    E0285,
    /// Internal error of the reduction: the invariant frame does not commute with the generators,
    /// or a structure function depends on the group.
    E0289,
    /// A construct that parses but is not supported yet: contact systems with `action`; for
    /// vakonomic constraints ([IMMS08] §5.1), external forces, an affgebroid, or a constraint that
    /// is not affine in the velocity it is solved for.
    E0290,
    /// A Hamiltonian given besides the Lagrangian that is not its Legendre transform (the note
    /// shows H_L and the difference), or a Lagrangian whose Legendre transform has no closed form.
    E0291,
    /// A Hamiltonian given alone that is not a polynomial of degree two in the momenta: its
    /// Legendre transform, the Lagrangian, has no closed form.
    E0292,
    /// A Hamiltonian given alone whose Hessian in the momenta is singular: it has no Lagrangian.
    E0293,
    /// `let` bindings that use each other in a cycle.
    E0294,
    /// A joint frame that is not a rotation: a `frame_matrix` that is not orthogonal with
    /// determinant 1, or a zero `frame_quaternion`.
    E0295,
    /// A `discrete` item that names no known discrete Lagrangian, or one given for a system
    /// whose discrete equations are not derived (vakonomic or nonlinear constraints, an algebroid
    /// other than `TQ` or so(3), a contact system with constraints or forces, given functions of
    /// time, a singular Lagrangian).
    E0296,
    /// A singular Lagrangian (det W = 0 identically) with nonholonomic constraints, or in the
    /// implicit form.
    E0301,
    /// A singular constraint matrix (det 𝒞 = 0 identically).
    E0302,
    /// A vakonomic system that is not regular ([IMMS08] Proposition 5.3): the matrix `R_ab =
    /// ∂²L̃/∂y^a∂y^b − p_α ∂²Ψ^α/∂y^a∂y^b` of the free velocities is singular, so the explicit
    /// equations do not exist; the note shows `R` and its determinant.
    E0304,
    /// The constraint algorithm of a singular Lagrangian found an inconsistent system: a step's
    /// condition is a non-zero constant, so `i_X ω_L = dE_L` has no solution anywhere (the
    /// constraint algorithm's first failure mode; a synthetic example, not in the paper).
    E0305,
    /// A constraint found by the algorithm that can neither be solved for a coordinate or velocity
    /// (it is not linear in one with a coefficient that is a non-zero constant on the constraint
    /// set) nor kept as an equation: kept equations must be polynomial in the coordinates and
    /// velocities they name, so that the constraint set can be decided exactly (by a Gröbner
    /// basis).
    E0306,
    /// The constraint algorithm did not stabilise.
    E0307,
    /// An unknown kind of `expect` block.
    E0401,
    /// An `expect` key that names nothing in this system.
    E0402,
    /// An `expect` kind that needs constraints, on a system without them.
    E0403,
    /// An `expect` block about the Hamiltonian side (`hamiltonian`, `legendre`,
    /// `hamilton_equations`, `dual_constraints`, `dual_constraint_matrix`, `dual_multipliers`,
    /// `bracket`, `jacobiator`) on a system whose Hamiltonian side is not derived: the Lagrangian
    /// is not quadratic in the velocities (the Legendre map has no closed-form inverse), the
    /// constraints are not affine, or `ψ = 0` cannot be solved for any momenta.
    E0404,
    /// `derive --method induced` on a system without the induced route of [GLMM09] (Theorem 5.1):
    /// it needs linear constraints, a mechanical Lagrangian (`½ G(y, y) − V`, no gyroscopic terms)
    /// and a Lie algebroid with a frame of `D` (declared or computed); the note says which is
    /// missing.
    E0405,
    /// An `expect` block that needs the closed form, on a system whose closed form does not fit the
    /// size budget (the spherical double pendulum's `W⁻¹` has millions of terms).
    E0406,
    /// A derivation stage that built an expression larger than `--max-terms` (default 2,000,000
    /// tree nodes).
    E0501,
    /// An emitted function with more operations than `--max-ops` (default 2,000,000).
    E0502,
    /// The wall-time budget `--timeout` (default 600 s) spent before the outputs were written.
    E0503,
    /// The process's resident memory above `--max-memory` (default: three quarters of the machine's
    /// memory), reported long before an out-of-memory kill.
    E0504,
    /// `--form tree` on a system that is not written with bodies and joints: only a tree of joints
    /// has the recursions (`forward_dynamics`, `inverse_dynamics`) that form emits.
    E0505,
    /// `dalembert linearize` at a point where the linearisation is not defined: a value of `A` or
    /// `B` is infinite there (a denominator of the equations vanishes), or the mass matrix with the
    /// constraints is singular there, or the constraints cannot be solved for the dependent entries
    /// chosen.
    E0506,
    /// `dalembert linearize --emit c` (or `rust`) on a system that takes the implicit route: the
    /// emitted `state_space` computes `A` and `B` at any state from the closed form.
    E0507,
    /// `dalembert linearize` at a point that is not on the constraints.
    E0508,
    /// `dalembert linearize` on a vakonomic, singular or contact system: linearisation is offered
    /// for Lagrange–d'Alembert systems (unconstrained, nonholonomic or holonomic).
    E0509,
    /// `dalembert simulate` on a vakonomic, singular or contact system: the in-process integration
    /// runs the functions of Lagrange–d'Alembert systems (unconstrained, nonholonomic or
    /// holonomic).
    E0510,
    /// `dalembert simulate` from an initial state that is not on the constraints.
    E0511,
    /// `dalembert simulate` stopped before `--until`: the right-hand side failed (a denominator
    /// vanished), a value became infinite or NaN, the step size fell below round-off, or the step
    /// budget ran out.
    E0512,
    /// Never shown to a user: the closed-form attempt of `--solve auto` spent its budget of
    /// symbolic work (`CLOSED_FORM_EFFORT`, 5,000,000 units counted by `cas::work`) between two
    /// stages, or normalised a multiplier or an acceleration above `CLOSED_FORM_TERMS` nodes.
    E0513,
    /// `--latex-sections` names a quantity that the document does not display.
    E0514,
    /// A package (`--emit cmake`, `--emit crate`) that cannot be made from this system: its name
    /// cannot name the package (CMake reserves it for a target, it is a Rust keyword or a crate
    /// name Cargo or the standard library takes, it is not an ASCII identifier).
    E0515,
    /// Internal error: a defect of dalembert found while making the outputs (a template that does
    /// not render, a reduced spec that does not read back), not a problem of the spec.
    E0516,
    /// The outputs cannot be written to the output directory (`-o`).
    E0517,
}

impl Code {
    /// Every code, in order.
    pub const ALL: [Code; 106] = [
        Code::E0001,
        Code::E0002,
        Code::E0003,
        Code::E0004,
        Code::E0005,
        Code::E0101,
        Code::E0102,
        Code::E0103,
        Code::E0104,
        Code::E0105,
        Code::E0200,
        Code::E0201,
        Code::E0202,
        Code::E0203,
        Code::E0204,
        Code::E0205,
        Code::E0206,
        Code::E0207,
        Code::E0208,
        Code::E0209,
        Code::E0210,
        Code::E0211,
        Code::E0212,
        Code::E0213,
        Code::E0214,
        Code::E0215,
        Code::E0216,
        Code::E0217,
        Code::E0218,
        Code::E0219,
        Code::E0220,
        Code::E0221,
        Code::E0222,
        Code::E0223,
        Code::E0225,
        Code::E0226,
        Code::E0227,
        Code::E0230,
        Code::E0231,
        Code::E0232,
        Code::E0233,
        Code::E0234,
        Code::E0240,
        Code::E0241,
        Code::E0250,
        Code::E0251,
        Code::E0252,
        Code::E0253,
        Code::E0260,
        Code::E0261,
        Code::E0262,
        Code::E0263,
        Code::E0264,
        Code::E0265,
        Code::E0266,
        Code::E0270,
        Code::E0271,
        Code::E0272,
        Code::E0273,
        Code::E0274,
        Code::E0275,
        Code::E0276,
        Code::E0277,
        Code::E0280,
        Code::E0281,
        Code::E0282,
        Code::E0283,
        Code::E0284,
        Code::E0285,
        Code::E0289,
        Code::E0290,
        Code::E0291,
        Code::E0292,
        Code::E0293,
        Code::E0294,
        Code::E0295,
        Code::E0296,
        Code::E0301,
        Code::E0302,
        Code::E0304,
        Code::E0305,
        Code::E0306,
        Code::E0307,
        Code::E0401,
        Code::E0402,
        Code::E0403,
        Code::E0404,
        Code::E0405,
        Code::E0406,
        Code::E0501,
        Code::E0502,
        Code::E0503,
        Code::E0504,
        Code::E0505,
        Code::E0506,
        Code::E0507,
        Code::E0508,
        Code::E0509,
        Code::E0510,
        Code::E0511,
        Code::E0512,
        Code::E0513,
        Code::E0514,
        Code::E0515,
        Code::E0516,
        Code::E0517,
    ];

    /// The code as printed: `"E0101"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::E0001 => "E0001",
            Code::E0002 => "E0002",
            Code::E0003 => "E0003",
            Code::E0004 => "E0004",
            Code::E0005 => "E0005",
            Code::E0101 => "E0101",
            Code::E0102 => "E0102",
            Code::E0103 => "E0103",
            Code::E0104 => "E0104",
            Code::E0105 => "E0105",
            Code::E0200 => "E0200",
            Code::E0201 => "E0201",
            Code::E0202 => "E0202",
            Code::E0203 => "E0203",
            Code::E0204 => "E0204",
            Code::E0205 => "E0205",
            Code::E0206 => "E0206",
            Code::E0207 => "E0207",
            Code::E0208 => "E0208",
            Code::E0209 => "E0209",
            Code::E0210 => "E0210",
            Code::E0211 => "E0211",
            Code::E0212 => "E0212",
            Code::E0213 => "E0213",
            Code::E0214 => "E0214",
            Code::E0215 => "E0215",
            Code::E0216 => "E0216",
            Code::E0217 => "E0217",
            Code::E0218 => "E0218",
            Code::E0219 => "E0219",
            Code::E0220 => "E0220",
            Code::E0221 => "E0221",
            Code::E0222 => "E0222",
            Code::E0223 => "E0223",
            Code::E0225 => "E0225",
            Code::E0226 => "E0226",
            Code::E0227 => "E0227",
            Code::E0230 => "E0230",
            Code::E0231 => "E0231",
            Code::E0232 => "E0232",
            Code::E0233 => "E0233",
            Code::E0234 => "E0234",
            Code::E0240 => "E0240",
            Code::E0241 => "E0241",
            Code::E0250 => "E0250",
            Code::E0251 => "E0251",
            Code::E0252 => "E0252",
            Code::E0253 => "E0253",
            Code::E0260 => "E0260",
            Code::E0261 => "E0261",
            Code::E0262 => "E0262",
            Code::E0263 => "E0263",
            Code::E0264 => "E0264",
            Code::E0265 => "E0265",
            Code::E0266 => "E0266",
            Code::E0270 => "E0270",
            Code::E0271 => "E0271",
            Code::E0272 => "E0272",
            Code::E0273 => "E0273",
            Code::E0274 => "E0274",
            Code::E0275 => "E0275",
            Code::E0276 => "E0276",
            Code::E0277 => "E0277",
            Code::E0280 => "E0280",
            Code::E0281 => "E0281",
            Code::E0282 => "E0282",
            Code::E0283 => "E0283",
            Code::E0284 => "E0284",
            Code::E0285 => "E0285",
            Code::E0289 => "E0289",
            Code::E0290 => "E0290",
            Code::E0291 => "E0291",
            Code::E0292 => "E0292",
            Code::E0293 => "E0293",
            Code::E0294 => "E0294",
            Code::E0295 => "E0295",
            Code::E0296 => "E0296",
            Code::E0301 => "E0301",
            Code::E0302 => "E0302",
            Code::E0304 => "E0304",
            Code::E0305 => "E0305",
            Code::E0306 => "E0306",
            Code::E0307 => "E0307",
            Code::E0401 => "E0401",
            Code::E0402 => "E0402",
            Code::E0403 => "E0403",
            Code::E0404 => "E0404",
            Code::E0405 => "E0405",
            Code::E0406 => "E0406",
            Code::E0501 => "E0501",
            Code::E0502 => "E0502",
            Code::E0503 => "E0503",
            Code::E0504 => "E0504",
            Code::E0505 => "E0505",
            Code::E0506 => "E0506",
            Code::E0507 => "E0507",
            Code::E0508 => "E0508",
            Code::E0509 => "E0509",
            Code::E0510 => "E0510",
            Code::E0511 => "E0511",
            Code::E0512 => "E0512",
            Code::E0513 => "E0513",
            Code::E0514 => "E0514",
            Code::E0515 => "E0515",
            Code::E0516 => "E0516",
            Code::E0517 => "E0517",
        }
    }

    /// The code spelled `text` (`"E0101"`), if there is one.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|code| code.as_str() == text)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for &str {
    fn eq(&self, other: &Code) -> bool {
        *self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes of `docs/errors.md`'s sections, `## E0101`, in order.
    fn documented() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/errors.md");
        let text = std::fs::read_to_string(path).expect("docs/errors.md");
        text.lines()
            .filter_map(|line| line.strip_prefix("## "))
            .filter(|code| code.starts_with('E'))
            .map(|code| code.trim().to_string())
            .collect()
    }

    #[test]
    fn every_code_is_documented_and_every_documented_code_is_one() {
        let codes: Vec<String> = Code::ALL.iter().map(|c| c.to_string()).collect();
        assert_eq!(codes, documented());
    }

    #[test]
    fn codes_print_and_parse_back() {
        for code in Code::ALL {
            assert_eq!(Code::parse(code.as_str()), Some(code));
            assert!(code == code.as_str() && code.as_str() == code);
        }
        assert_eq!(Code::parse("E9999"), None);
    }
}
