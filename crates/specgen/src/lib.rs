//! Random *valid* dalembert specs, for fuzzing the whole pipeline.
//!
//! A byte-level fuzzer mostly exercises the parser: almost no random text names its coordinates
//! before using them, balances an algebroid's brackets or gives a regular Lagrangian. This crate
//! turns any byte string into a spec that parses and resolves, so that the derivation, the
//! closed-form and implicit routes, the checks and every emitter are reached: random algebroids
//! (the tangent bundle, the Lie-algebra presets, explicit anchors and brackets that satisfy the
//! homomorphism condition by construction, with or without an affine reference section), random
//! Lagrangians (kinetic terms with cross couplings, gyroscopic terms, potentials, occasionally a
//! non-quadratic term), nonholonomic constraints (linear, affine, occasionally nonlinear), forces
//! with inputs, functions of time, `latex` overrides and `expect` blocks. One spec in ten is a
//! vakonomic system ([IMMS08] §5), one a contact system with an action `z` ([LJL21]), one a
//! singular Lagrangian for the constraint algorithm ([IMMS08] §3–4), each within what its
//! route derives and with `expect` blocks of its own kinds.
//!
//! The bytes are read as a stream of choices ([`Choices`]); when they run out every choice is
//! the first option, so every byte string — the empty one included — gives a spec, and a
//! fuzzer's mutations of the bytes are small changes of the spec. Nothing here promises the
//! generated system is regular: singular Lagrangians, dependent constraints and divisions by
//! zero are part of what the pipeline must answer with a diagnostic.
//!
//! [`corrupt`] then optionally damages a valid spec in one place (a character deleted,
//! duplicated or replaced, a line dropped, a name misspelt), to reach the diagnostics of every
//! stage.
#![warn(missing_docs)]

use std::fmt::Write;

/// A stream of choices read from bytes.
pub struct Choices<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Choices<'a> {
    /// Choices read from `bytes`.
    pub fn new(bytes: &'a [u8]) -> Choices<'a> {
        Choices { bytes, position: 0 }
    }

    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.position).copied().unwrap_or(0);
        self.position += 1;
        b
    }

    /// A number in `0..n` (`n ≥ 1`); 0 once the bytes run out.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let wide = if n > 256 {
            usize::from(self.byte()) << 8 | usize::from(self.byte())
        } else {
            usize::from(self.byte())
        };
        wide % n
    }

    /// True with probability about `percent`/100 (false once the bytes run out).
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) >= 100 - percent.min(100)
    }

    /// One of `items`.
    pub fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        &items[self.below(items.len())]
    }

    /// Whether any bytes are left.
    pub fn exhausted(&self) -> bool {
        self.position >= self.bytes.len()
    }
}

/// Which derivation route a generated spec is built for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Lagrange–d'Alembert ([IMMS07]): any algebroid, nonholonomic constraints, forces.
    Ordinary,
    /// `constraints vakonomic` ([IMMS08] §5) on a Lie algebroid, without forces.
    Vakonomic,
    /// `action z` ([LJL21]) on the tangent bundle: autonomous, linear constraints, no forces.
    Contact,
    /// A Lagrangian with a velocity missing from its kinetic energy, so that W is singular and the
    /// constraint algorithm ([IMMS08] §3–4) runs: autonomous, no constraints, no forces.
    Singular,
}

/// The names a generated expression may use.
struct Scope {
    parameters: Vec<String>,
    coordinates: Vec<String>,
    velocities: Vec<String>,
    functions: Vec<String>,
    inputs: Vec<String>,
    time: String,
    /// No explicit time in any expression (contact systems are autonomous).
    autonomous: bool,
}

/// Which names an expression may contain.
#[derive(Clone, Copy)]
struct Allowed {
    velocities: bool,
    inputs: bool,
}

const CONFIGURATION: Allowed = Allowed {
    velocities: false,
    inputs: false,
};
const EVERYTHING: Allowed = Allowed {
    velocities: true,
    inputs: true,
};

fn number(c: &mut Choices) -> String {
    match c.below(12) {
        0 => "0".into(),
        1 => "0.25".into(),
        2 => "1.5".into(),
        3 => "123456789012345678901234567890".into(),
        4 => "0.000000000000000000001".into(),
        n => (n - 3).to_string(),
    }
}

fn atom(c: &mut Choices, scope: &Scope, allowed: Allowed) -> String {
    let mut pools: Vec<&[String]> = vec![&scope.parameters, &scope.coordinates];
    if allowed.velocities {
        pools.push(&scope.velocities);
    }
    if allowed.inputs {
        pools.push(&scope.inputs);
    }
    match c.below(5) {
        0 => number(c),
        1 if !scope.functions.is_empty() => {
            let f = c.pick(&scope.functions).clone();
            let primes = "'".repeat(c.below(3));
            format!("{f}{primes}({})", scope.time)
        }
        2 if !scope.autonomous && c.chance(20) => scope.time.clone(),
        _ => {
            let pools: Vec<&[String]> = pools.into_iter().filter(|p| !p.is_empty()).collect();
            if pools.is_empty() {
                return number(c);
            }
            let pool = *c.pick(&pools);
            c.pick(pool).clone()
        }
    }
}

fn expression(c: &mut Choices, scope: &Scope, allowed: Allowed, depth: usize) -> String {
    if depth == 0 || c.chance(35) {
        return atom(c, scope, allowed);
    }
    let d = depth - 1;
    match c.below(9) {
        0 | 1 => format!(
            "{} + {}",
            expression(c, scope, allowed, d),
            expression(c, scope, allowed, d)
        ),
        2 => format!(
            "{} - {}",
            expression(c, scope, allowed, d),
            expression(c, scope, allowed, d)
        ),
        3 | 4 => format!(
            "({})*({})",
            expression(c, scope, allowed, d),
            expression(c, scope, allowed, d)
        ),
        5 => format!(
            "({})/({})",
            expression(c, scope, allowed, d),
            expression(c, scope, allowed, d)
        ),
        6 => {
            let exponent = *c.pick(&["2", "3", "-1", "-2", "(1/2)", "0"]);
            format!("({})^{exponent}", expression(c, scope, allowed, d))
        }
        7 => {
            let f = *c.pick(&["sin", "cos", "exp", "sqrt", "log", "tan"]);
            format!("{f}({})", expression(c, scope, allowed, d))
        }
        _ => format!("-({})", expression(c, scope, allowed, d)),
    }
}

/// The algebroid block and the sections, velocities and coordinates it defines.
struct Algebroid {
    text: String,
    /// Section names as `forces` and `expect hessian` keys use them.
    sections: Vec<String>,
    velocities: Vec<String>,
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{prefix}{i}")).collect()
}

fn algebroid(c: &mut Choices, scope: &mut Scope, family: Family) -> Algebroid {
    let choice = if family == Family::Contact {
        0
    } else {
        c.below(4)
    };
    match choice {
        0 => {
            let coordinates = names("q", 1 + c.below(3));
            scope.coordinates = coordinates.clone();
            Algebroid {
                text: "algebroid tangent\n".into(),
                sections: coordinates.clone(),
                velocities: coordinates.iter().map(|q| format!("{q}'")).collect(),
            }
        }
        1 => {
            let (preset, n) = *c.pick(&[("so3", 3), ("se2", 3), ("se3", 6)]);
            let velocities = names("w", n);
            let mut text = format!(
                "algebroid {preset} {{\n  velocities {}\n",
                velocities.join(", ")
            );
            if c.chance(30) {
                let _ = writeln!(text, "  momenta {}", names("p", n).join(", "));
            }
            text.push_str("}\n");
            scope.coordinates = names("x", c.below(2));
            Algebroid {
                text,
                sections: names("e", n),
                velocities,
            }
        }
        _ => explicit_algebroid(c, scope, family),
    }
}

/// Sections `e1…e_b` anchored to the coordinate fields `d/dx_i` (so they commute), sections
/// `e_{b+1}…e_n` with zero anchor, and brackets whose values are combinations of the
/// zero-anchor sections: the anchor is then a homomorphism of brackets by construction.
///
/// A vakonomic system gets up to six sections like the others: a dense symbolic `R` of five free
/// velocities swells its explicit form past the fuzzing budget, which must stop it in seconds
/// (`docs/fuzzing.md`, finding 7).
fn explicit_algebroid(c: &mut Choices, scope: &mut Scope, family: Family) -> Algebroid {
    let may_be_affine = family == Family::Ordinary;
    let base = c.below(3);
    let fibre = 1 + c.below(3);
    let n = base + fibre;
    scope.coordinates = names("x", base);
    let sections = names("e", n);
    let velocities = names("u", n);
    let mut text = format!(
        "algebroid {{\n  sections {}\n  velocities {}\n",
        sections.join(", "),
        velocities.join(", ")
    );
    let affine = may_be_affine && c.chance(30);
    if affine {
        let _ = writeln!(text, "  anchor e0 = d/d{}", scope.time);
    }
    for (i, q) in scope.coordinates.iter().enumerate() {
        let _ = writeln!(text, "  anchor {} = d/d{q}", sections[i]);
    }
    let zero_anchor = &sections[base..];
    let mut pairs: Vec<(String, String)> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairs.push((sections[a].clone(), sections[b].clone()));
        }
    }
    if affine {
        for s in zero_anchor {
            pairs.push(("e0".into(), s.clone()));
        }
    }
    for (a, b) in pairs {
        if !c.chance(40) {
            continue;
        }
        let mut terms: Vec<String> = Vec::new();
        for s in zero_anchor {
            if c.chance(50) {
                terms.push(format!("({})*{s}", expression(c, scope, CONFIGURATION, 1)));
            }
        }
        if !terms.is_empty() {
            let _ = writeln!(text, "  bracket [{a}, {b}] = {}", terms.join(" + "));
        }
    }
    text.push_str("}\n");
    Algebroid {
        text,
        sections,
        velocities,
    }
}

fn positive(c: &mut Choices, scope: &Scope) -> String {
    if !scope.parameters.is_empty() && c.chance(60) {
        c.pick(&scope.parameters).clone()
    } else {
        (1 + c.below(5)).to_string()
    }
}

fn lagrangian(c: &mut Choices, scope: &Scope, velocities: &[String], family: Family) -> String {
    let massless = if family == Family::Singular {
        Some(c.below(velocities.len()))
    } else {
        None
    };
    let mut terms: Vec<String> = velocities
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != massless)
        .map(|(_, v)| format!("{}/2*{v}^2", positive(c, scope)))
        .collect();
    for a in 0..velocities.len() {
        for b in a + 1..velocities.len() {
            // The massless velocity stays out of W altogether, so that W is singular.
            if [Some(a), Some(b)].contains(&massless) {
                continue;
            }
            if c.chance(20) {
                terms.push(format!(
                    "({})*{}*{}",
                    expression(c, scope, CONFIGURATION, 1),
                    velocities[a],
                    velocities[b]
                ));
            }
        }
    }
    for v in velocities {
        if c.chance(15) {
            terms.push(format!("({})*{v}", expression(c, scope, CONFIGURATION, 2)));
        }
    }
    if c.chance(50) {
        terms.push(format!("-({})", expression(c, scope, CONFIGURATION, 3)));
    }
    if family != Family::Singular && c.chance(5) {
        terms.push(format!("{}^4/12", c.pick(velocities)));
    }
    if family == Family::Contact {
        terms.extend(action_terms(c, scope, velocities));
    }
    if terms.is_empty() {
        terms.push("0".into());
    }
    terms.join(" + ")
}

/// The terms of a contact Lagrangian in the action `z`: linear friction `−γ z`, a
/// configuration-dependent rate, a coupling `f(q) z q'` (∂²L/∂q'∂z ≠ 0), or none.
fn action_terms(c: &mut Choices, scope: &Scope, velocities: &[String]) -> Option<String> {
    match c.below(4) {
        0 => Some(format!("-{}*z", positive(c, scope))),
        1 => Some(format!("({})*z", expression(c, scope, CONFIGURATION, 1))),
        2 => Some(format!(
            "({})*z*{}",
            expression(c, scope, CONFIGURATION, 1),
            c.pick(velocities)
        )),
        _ => None,
    }
}

/// Which terms a nonholonomic constraint may have besides the linear ones.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terms {
    /// Linear in the velocities only (a contact system's).
    Linear,
    /// Sometimes an affine term and a square of a velocity too.
    Any,
}

/// Nonholonomic constraints with the `allowed` terms.
fn constraints(
    c: &mut Choices,
    scope: &Scope,
    velocities: &[String],
    allowed: Terms,
) -> Vec<String> {
    let linear = allowed == Terms::Linear;
    let count = c.below(velocities.len().min(3));
    (0..count)
        .map(|_| {
            let mut terms: Vec<String> = Vec::new();
            for v in velocities {
                if c.chance(60) {
                    terms.push(format!("({})*{v}", expression(c, scope, CONFIGURATION, 1)));
                }
            }
            if terms.is_empty() {
                terms.push(c.pick(velocities).clone());
            }
            if !linear && c.chance(25) {
                terms.push(format!("({})", expression(c, scope, CONFIGURATION, 1)));
            }
            if !linear && c.chance(5) {
                terms.push(format!("{}^2", c.pick(velocities)));
            }
            format!("{} = 0", terms.join(" + "))
        })
        .collect()
}

fn expects(c: &mut Choices, scope: &Scope, alg: &Algebroid, constrained: usize) -> String {
    let mut text = String::new();
    let entry = |c: &mut Choices| expression(c, scope, EVERYTHING, 2);
    if c.chance(30) {
        let a = c.pick(&alg.sections).clone();
        let b = c.pick(&alg.sections).clone();
        let _ = writeln!(text, "expect hessian {{\n  ({a}, {b}) = {}\n}}", entry(c));
    }
    if c.chance(30) {
        let _ = writeln!(text, "expect energy {{\n  E = {}\n}}", entry(c));
    }
    if c.chance(20) {
        let _ = writeln!(text, "expect first_integrals {{\n  {}\n}}", entry(c));
    }
    if constrained > 0 && c.chance(30) {
        let _ = writeln!(text, "expect multipliers {{\n  lambda1 = {}\n}}", entry(c));
    }
    if c.chance(20) {
        let v = c.pick(&alg.velocities).clone();
        let _ = writeln!(text, "expect equations {{\n  {v}' = {}\n}}", entry(c));
    }
    text
}

/// Vakonomic constraints `y^α = Ψ^α(x, y^a)`, each solved for a distinct velocity written alone
/// on its left, with the free velocities (and an affine term) on its right; and the free
/// velocities. None for a single velocity.
fn vakonomic_constraints(
    c: &mut Choices,
    scope: &Scope,
    velocities: &[String],
) -> (Vec<String>, Vec<String>) {
    let n = velocities.len();
    if n < 2 {
        return (Vec::new(), Vec::new());
    }
    let count = 1 + c.below((n - 1).min(2));
    let mut solved: Vec<usize> = Vec::new();
    while solved.len() < count {
        let k = c.below(n);
        let k = if solved.contains(&k) {
            (0..n).find(|i| !solved.contains(i)).unwrap_or(k)
        } else {
            k
        };
        solved.push(k);
    }
    let free: Vec<String> = (0..n)
        .filter(|i| !solved.contains(i))
        .map(|i| velocities[i].clone())
        .collect();
    let rows = solved
        .iter()
        .map(|&k| {
            let mut terms: Vec<String> = Vec::new();
            for v in &free {
                if c.chance(50) {
                    terms.push(format!("({})*{v}", expression(c, scope, CONFIGURATION, 1)));
                }
            }
            if c.chance(25) {
                terms.push(format!("({})", expression(c, scope, CONFIGURATION, 1)));
            }
            if terms.is_empty() {
                terms.push("0".into());
            }
            format!("{} = {}", velocities[k], terms.join(" + "))
        })
        .collect();
    (rows, free)
}

/// The `expect` blocks of a family's own kinds (`derive` validates their keys and names).
fn family_expects(
    c: &mut Choices,
    scope: &Scope,
    alg: &Algebroid,
    family: Family,
    free: &[String],
    constrained: usize,
) -> String {
    let mut text = String::new();
    let entry = |c: &mut Choices| expression(c, scope, EVERYTHING, 2);
    match family {
        Family::Ordinary => return expects(c, scope, alg, constrained),
        Family::Vakonomic => {
            if !free.is_empty() && c.chance(30) {
                let v = c.pick(free).clone();
                let _ = writeln!(
                    text,
                    "expect vakonomic_equations {{\n  {v}' = {}\n}}",
                    entry(c)
                );
            }
        }
        Family::Contact => {
            if c.chance(30) {
                let _ = writeln!(text, "expect contact_energy {{\n  E = {}\n}}", entry(c));
            }
            if c.chance(30) {
                let v = c.pick(&alg.velocities).clone();
                let (a, b) = (entry(c), entry(c));
                let _ = writeln!(
                    text,
                    "expect contact_equations {{\n  {v}' = {a}\n  z' = {b}\n}}"
                );
            }
            if constrained > 0 && c.chance(30) {
                let _ = writeln!(
                    text,
                    "expect contact_multipliers {{\n  lambda1 = {}\n}}",
                    entry(c)
                );
            }
            if c.chance(20) {
                let q = c.pick(&scope.coordinates).clone();
                let _ = writeln!(
                    text,
                    "expect contact_bracket {{\n  {{{q}, z}} = {}\n}}",
                    entry(c)
                );
            }
        }
        Family::Singular => {
            if c.chance(30) {
                let _ = writeln!(
                    text,
                    "expect constraint_algorithm {{\n  primary = {}\n  level = {}\n}}",
                    entry(c),
                    1 + c.below(3)
                );
            }
        }
    }
    text
}

/// A valid spec made from `bytes`.
pub fn generate(bytes: &[u8]) -> String {
    let mut c = Choices::new(bytes);
    let family = match c.below(10) {
        0 => Family::Vakonomic,
        1 => Family::Contact,
        2 => Family::Singular,
        _ => Family::Ordinary,
    };
    let mut scope = Scope {
        parameters: names("m", c.below(4)),
        coordinates: Vec::new(),
        velocities: Vec::new(),
        functions: Vec::new(),
        inputs: Vec::new(),
        time: "t".into(),
        autonomous: matches!(family, Family::Contact | Family::Singular),
    };
    if c.chance(20) {
        scope.time = "s".into();
    }
    if !scope.autonomous && c.chance(25) {
        scope.functions = vec!["Om".into()];
    }
    if family == Family::Ordinary && c.chance(25) {
        scope.inputs = names("F", 1 + c.below(2));
    }
    let alg = algebroid(&mut c, &mut scope, family);
    scope.velocities = alg.velocities.clone();
    let mut text = format!("system gen{}\n", c.below(1000));
    if scope.time != "t" {
        let _ = writeln!(text, "time {}", scope.time);
    }
    if !scope.parameters.is_empty() {
        let _ = writeln!(text, "parameters {}", scope.parameters.join(", "));
    }
    if !scope.functions.is_empty() {
        let _ = writeln!(text, "functions Om({})", scope.time);
    }
    if !scope.inputs.is_empty() {
        let _ = writeln!(text, "inputs {}", scope.inputs.join(", "));
    }
    if !scope.coordinates.is_empty() {
        let _ = writeln!(text, "coordinates {}", scope.coordinates.join(", "));
    }
    if family == Family::Contact {
        text.push_str("action z\n");
    }
    text.push_str(&alg.text);
    let _ = writeln!(
        text,
        "lagrangian = {}",
        lagrangian(&mut c, &scope, &alg.velocities, family)
    );
    let (kind, rows, free) = match family {
        Family::Ordinary | Family::Contact => {
            let terms = if family == Family::Contact {
                Terms::Linear
            } else {
                Terms::Any
            };
            let rows = constraints(&mut c, &scope, &alg.velocities, terms);
            ("nonholonomic", rows, Vec::new())
        }
        Family::Vakonomic => {
            let (rows, free) = vakonomic_constraints(&mut c, &scope, &alg.velocities);
            ("vakonomic", rows, free)
        }
        Family::Singular => ("nonholonomic", Vec::new(), Vec::new()),
    };
    if !rows.is_empty() {
        let _ = writeln!(text, "constraints {kind} {{");
        for row in &rows {
            let _ = writeln!(text, "  {row}");
        }
        text.push_str("}\n");
    }
    if family == Family::Ordinary && c.chance(40) {
        text.push_str("forces {\n");
        for s in &alg.sections {
            if c.chance(50) {
                let _ = writeln!(
                    text,
                    "  {s} = {}",
                    expression(&mut c, &scope, EVERYTHING, 2)
                );
            }
        }
        text.push_str("}\n");
    }
    if c.chance(15) {
        let v = c.pick(&alg.velocities).trim_end_matches('\'').to_string();
        let _ = writeln!(text, "latex {{ {v} = \"\\\\dot{{{v}}}\" }}");
    }
    text.push_str(&family_expects(
        &mut c,
        &scope,
        &alg,
        family,
        &free,
        rows.len(),
    ));
    text
}

/// `spec` damaged in one place chosen by `bytes` (or unchanged, about half the time).
pub fn corrupt(spec: &str, bytes: &[u8]) -> String {
    let mut c = Choices::new(bytes);
    if spec.is_empty() || !c.chance(50) {
        return spec.to_string();
    }
    let chars: Vec<char> = spec.chars().collect();
    let at = c.below(chars.len());
    let mut out: Vec<char> = chars.clone();
    match c.below(6) {
        0 => {
            out.remove(at);
        }
        1 => out.insert(at, chars[at]),
        2 => out[at] = *c.pick(&['(', ')', '{', '}', '=', ',', '\n', '\'', '^', '[', '#', '"']),
        3 => {
            let lines: Vec<&str> = spec.lines().collect();
            let drop = c.below(lines.len());
            return lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, l)| format!("{l}\n"))
                .collect();
        }
        4 => out.splice(at..at, "zz".chars()).for_each(drop),
        _ => {
            let keyword = *c.pick(&[
                "time t\n",
                "coordinates x1\n",
                "parameters m1\n",
                "algebroid tangent\n",
            ]);
            out.splice(at..at, keyword.chars()).for_each(drop);
        }
    }
    out.into_iter().collect()
}

/// The bytes of the CI run's spec number `seed` (`crates/dalembert/tests/generated.rs`): a
/// xorshift stream, the same on every machine. The spec is `generate(&b)` damaged by
/// `corrupt(…, &b[150..])`.
pub fn seed_bytes(seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..192)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_string_gives_a_spec_and_the_empty_one_the_simplest() {
        let simplest = generate(&[]);
        assert!(simplest.starts_with("system gen0\n"), "{simplest}");
        assert!(simplest.contains("lagrangian = "), "{simplest}");
        for seed in 0u8..=255 {
            let bytes: Vec<u8> = (0..64u8)
                .map(|i| seed.wrapping_mul(31).wrapping_add(i.wrapping_mul(7)))
                .collect();
            let spec = generate(&bytes);
            assert!(spec.contains("algebroid"), "{spec}");
        }
    }

    #[test]
    fn the_same_bytes_give_the_same_spec() {
        let bytes: Vec<u8> = (0..200u8).collect();
        assert_eq!(generate(&bytes), generate(&bytes));
        assert_eq!(
            corrupt("system a\n", &[99, 3, 1]),
            corrupt("system a\n", &[99, 3, 1])
        );
    }
}
