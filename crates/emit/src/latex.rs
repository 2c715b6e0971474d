//! The LaTeX target: a standalone document rendered from `templates/latex/derivation.tex`.
//!
//! Expressions are printed by [`cas::print::latex`] with the system's LaTeX names (dots for
//! velocities, Greek letters, subscripts). Long equations are broken by the engine itself: a sum
//! is split at its top-level terms into `align*` lines of bounded width, and a long quotient is
//! written `\frac{1}{D}\bigl(…\bigr)` so that its numerator can be broken too.

use cas::Expr;
use mech::{Derivation, ImplicitDerivation};
use model::{names, AlgebroidKind, System};
use tera::{Context, Tera};

use crate::{pretty, Artifact};

/// The LaTeX templates, parsed once (one per route, until the report's sections are written
/// through one base template).
fn templates() -> &'static Tera {
    static TEMPLATES: std::sync::OnceLock<Tera> = std::sync::OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let mut tera = Tera::default();
        tera.add_raw_templates([
            (
                "derivation.tex",
                include_str!("../../../templates/latex/derivation.tex"),
            ),
            (
                "implicit.tex",
                include_str!("../../../templates/latex/implicit.tex"),
            ),
            (
                "vakonomic.tex",
                include_str!("../../../templates/latex/vakonomic.tex"),
            ),
            (
                "singular.tex",
                include_str!("../../../templates/latex/singular.tex"),
            ),
            (
                "contact.tex",
                include_str!("../../../templates/latex/contact.tex"),
            ),
        ])
        .expect("the LaTeX templates are valid tera");
        tera
    })
}

/// Renders the template `name` (of [`templates`]).
fn render_template(name: &str, ctx: &Context) -> Result<String, String> {
    templates()
        .render(name, ctx)
        .map_err(|e| format!("template latex/{name}: {e:?}"))
}

/// The widest line, in characters of LaTeX source, before an equation is broken.
const WIDTH: usize = 90;

fn tex(system: &System, e: &Expr) -> String {
    cas::print::latex(e, &|s| system.latex_name(s))
}

/// Lines of an `align*` block for `lhs = rhs`, broken at top-level terms.
fn broken(system: &System, lhs: &str, rhs: &Expr) -> Vec<String> {
    broken_as_is(system, lhs, pretty(rhs))
}

/// [`broken`] without simplifying `rhs` first (for the large expressions of an implicit form).
fn broken_as_is(system: &System, lhs: &str, rhs: Expr) -> Vec<String> {
    let whole = tex(system, &rhs);
    if whole.len() <= WIDTH {
        return vec![format!("{lhs} &= {whole}")];
    }
    let terms_of = |e: &Expr| cas::print::latex_terms(e, &|s| system.latex_name(s));
    // Pull the factors that are not sums out in front, and break the largest sum.
    let factors = match rhs.view() {
        cas::View::Mul(factors) => factors,
        _ => vec![rhs.clone()],
    };
    let sum = factors
        .iter()
        .filter(|f| matches!(f.view(), cas::View::Add(_)))
        .max_by_key(|f| f.size())
        .cloned();
    let (prefix, terms, suffix) = match sum {
        Some(sum) if factors.len() > 1 => {
            let rest = (rhs.clone() / sum.clone()).factored();
            let rest = match tex(system, &rest).as_str() {
                "1" => String::new(),
                "-1" => "-".to_string(),
                t => format!("{t} "),
            };
            (
                format!("{rest}\\Bigl("),
                terms_of(&sum),
                " \\Bigr)".to_string(),
            )
        }
        _ => {
            let (numerator, denominator) = rhs.numerator_denominator();
            if denominator.as_small_rational() == Some((1, 1)) {
                (String::new(), terms_of(&numerator), String::new())
            } else {
                (
                    format!("\\frac{{1}}{{{}}} \\Bigl(", tex(system, &denominator)),
                    terms_of(&numerator),
                    " \\Bigr)".to_string(),
                )
            }
        }
    };
    let mut lines = Vec::new();
    let mut current = format!("{lhs} &= {prefix}");
    let mut width = prefix.len();
    for term in terms {
        if width > 0 && width + term.len() > WIDTH {
            lines.push(current);
            current = "&\\quad".to_string();
            width = 0;
        }
        current.push(' ');
        current.push_str(&term);
        width += term.len() + 1;
    }
    current.push_str(&suffix);
    lines.push(current);
    lines
}

/// Joins equations into `align*` lines with `\\` between equations and between broken lines.
fn align(blocks: Vec<Vec<String>>) -> Vec<String> {
    let lines: Vec<String> = blocks.into_iter().flatten().collect();
    let last = lines.len().saturating_sub(1);
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i < last { format!("{l} \\\\") } else { l })
        .collect()
}

fn name_list(system: &System, list: &[String]) -> String {
    list.iter()
        .map(|s| system.latex_name(s))
        .collect::<Vec<_>>()
        .join(", ")
}

fn section(system: &System, s: &str) -> String {
    match system.algebroid.kind {
        AlgebroidKind::Tangent => format!("\\partial_{{{}}}", system.latex_name(s)),
        _ => model::latex_symbol(s),
    }
}

fn combination(system: &System, items: &[String], coefficients: &[Expr]) -> String {
    let mut out = String::new();
    for (item, c) in items.iter().zip(coefficients) {
        let c = c.simplify();
        if c.is_zero() {
            continue;
        }
        let (negative, magnitude) = match c.view() {
            cas::View::Number { ref numerator, .. } if numerator.starts_with('-') => {
                (true, -c.clone())
            }
            _ => (false, c.clone()),
        };
        let coefficient = if magnitude.as_small_rational() == Some((1, 1)) {
            String::new()
        } else {
            let t = tex(system, &magnitude);
            if matches!(magnitude.view(), cas::View::Add(_)) {
                format!("\\left({t}\\right) ")
            } else {
                format!("{t}\\, ")
            }
        };
        let sign = match (out.is_empty(), negative) {
            (true, true) => "-",
            (true, false) => "",
            (false, true) => " - ",
            (false, false) => " + ",
        };
        out.push_str(&format!("{sign}{coefficient}{item}"));
    }
    if out.is_empty() {
        "0".to_string()
    } else {
        out
    }
}

fn algebroid_lines(system: &System) -> (Vec<String>, Vec<String>) {
    let alg = &system.algebroid;
    let base: Vec<String> = system
        .base()
        .iter()
        .map(|q| format!("\\partial_{{{}}}", system.latex_name(q)))
        .collect();
    let mut anchors = vec![format!(
        "\\rho(e_0) &= {}",
        combination(system, &base, &alg.anchor0)
    )];
    for (s, rho) in alg.sections.iter().zip(&alg.anchors) {
        anchors.push(format!(
            "\\rho({}) &= {}",
            section(system, s),
            combination(system, &base, rho)
        ));
    }
    let sections: Vec<String> = alg.sections.iter().map(|s| section(system, s)).collect();
    let n = alg.sections.len();
    let mut brackets = Vec::new();
    for a in 0..n {
        if alg.c0[a].iter().any(|c| !c.is_zero()) {
            brackets.push(format!(
                "[e_0, {}] &= {}",
                sections[a],
                combination(system, &sections, &alg.c0[a])
            ));
        }
        for b in a + 1..n {
            if alg.c[a][b].iter().any(|c| !c.is_zero()) {
                brackets.push(format!(
                    "[{}, {}] &= {}",
                    sections[a],
                    sections[b],
                    combination(system, &sections, &alg.c[a][b])
                ));
            }
        }
    }
    (anchors, brackets)
}

fn matrix(system: &System, m: &[Vec<Expr>]) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|row| {
            row.iter()
                .map(|e| tex(system, &pretty(e)))
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    format!(
        "\\begin{{pmatrix}} {} \\end{{pmatrix}}",
        rows.join(" \\\\ ")
    )
}

fn multiplier_form(d: &Derivation) -> Vec<Vec<String>> {
    let system = &d.system;
    let alg = &system.algebroid;
    let n = alg.sections.len();
    (0..n)
        .map(|a| {
            let lhs = (0..n).fold(Expr::zero(), |acc, b| {
                acc + d.lagrangian.hessian[a][b].clone()
                    * Expr::symbol(&names::derivative_of(&alg.velocities[b]))
            });
            let rhs = system.constraints.iter().enumerate().fold(
                d.lagrangian.forcing[a].clone(),
                |acc, (c, constraint)| {
                    acc - Expr::symbol(&names::multiplier(c + 1)) * constraint.mu[a].clone()
                },
            );
            broken(system, &tex(system, &lhs.simplify()), &rhs)
        })
        .collect()
}

/// `Θ_L` and `Ω_L` as sums over the dual basis, each broken at its terms.
fn poincare_cartan(d: &Derivation) -> Vec<Vec<String>> {
    let system = &d.system;
    let n = system.rank();
    let section = |a: usize| {
        let name = &system.algebroid.sections[a];
        match name.strip_prefix('e') {
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) => digits.to_string(),
            _ => system.latex_name(name),
        }
    };
    let dual: Vec<String> = std::iter::once("\\phi_0".to_string())
        .chain((0..n).map(|a| format!("\\tilde T^{{{}}}", section(a))))
        .chain((0..n).map(|a| format!("\\tilde V^{{{}}}", section(a))))
        .collect();
    let theta: Vec<(String, &Expr)> = dual.iter().cloned().zip(&d.lagrangian.theta).collect();
    let mut omega = Vec::new();
    for (i, row) in d.lagrangian.omega.iter().enumerate() {
        for (j, entry) in row.iter().enumerate().skip(i + 1) {
            omega.push((format!("{} \\wedge {}", dual[i], dual[j]), entry));
        }
    }
    [("\\Theta_L", theta), ("\\Omega_L", omega)]
        .into_iter()
        .map(|(lhs, terms)| {
            let pieces: Vec<String> = terms
                .into_iter()
                .filter(|(_, e)| !e.is_zero())
                .map(|(form, e)| {
                    let e = pretty(e);
                    let t = tex(system, &e);
                    if matches!(e.view(), cas::View::Add(_)) {
                        format!("\\left({t}\\right) {form}")
                    } else if t == "1" {
                        form
                    } else if t == "-1" {
                        format!("-{form}")
                    } else {
                        format!("{t}\\, {form}")
                    }
                })
                .collect();
            let mut lines = Vec::new();
            let mut current = format!("{lhs} &=");
            for (k, piece) in pieces.iter().enumerate() {
                let signed = match (k, piece.strip_prefix('-')) {
                    (0, _) => piece.clone(),
                    (_, Some(rest)) => format!("- {rest}"),
                    (_, None) => format!("+ {piece}"),
                };
                if current.len() > WIDTH {
                    lines.push(current);
                    current = "&\\quad".to_string();
                }
                current.push(' ');
                current.push_str(&signed);
            }
            if pieces.is_empty() {
                current.push_str(" 0");
            }
            lines.push(current);
            lines
        })
        .collect()
}

/// What both documents show of the system: names, time, coordinates, parameters, functions,
/// inputs, the algebroid's rank, fibre coordinates, anchors and brackets.
fn system_context(system: &System) -> Context {
    let alg = &system.algebroid;
    let mut ctx = Context::new();
    ctx.insert("version", env!("CARGO_PKG_VERSION"));
    ctx.insert("spec", &format!("system {}", system.name));
    ctx.insert("name", &system.name.replace('_', "\\_"));
    ctx.insert("time", &system.latex_name(&system.time));
    ctx.insert("coordinates", &name_list(system, &system.coordinates));
    ctx.insert("parameters", &name_list(system, &system.parameters));
    ctx.insert("functions", &name_list(system, &system.functions));
    ctx.insert("inputs", &name_list(system, &system.inputs));
    ctx.insert("rank", &alg.sections.len());
    ctx.insert("velocities", &name_list(system, &alg.velocities));
    let (anchors, brackets) = algebroid_lines(system);
    let mut structure = anchors;
    structure.extend(brackets);
    ctx.insert(
        "anchors",
        &align(structure.into_iter().map(|l| vec![l]).collect()),
    );
    ctx
}

/// The route of the accelerations and its reason, as a sentence of running LaTeX text.
fn choice_sentence(choice: &mech::Choice) -> String {
    let form = match choice.route {
        mech::Route::Closed => "in closed form",
        mech::Route::Implicit => "in implicit form, solved numerically by the emitted code",
    };
    format!("The accelerations are {form}: {}.", prose(&choice.reason))
}

/// Plain text (a diagnostic's wording) as LaTeX text: the special characters escaped, the
/// mathematical symbols of dalembert's messages set in math mode.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'-') => out.push_str("-{}"),
            '_' | '%' | '&' | '#' | '$' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '⁻' if chars.peek() == Some(&'¹') => {
                chars.next();
                out.push_str("$^{-1}$");
            }
            '𝒞' => out.push_str("$\\mathcal{C}$"),
            'λ' => out.push_str("$\\lambda$"),
            'μ' => out.push_str("$\\mu$"),
            'β' => out.push_str("$\\beta$"),
            'Γ' => out.push_str("$\\Gamma$"),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// The LaTeX document of a derivation.
pub fn latex(d: &Derivation) -> Result<Artifact, String> {
    let system = &d.system;
    let alg = &system.algebroid;
    let mut ctx = system_context(system);
    ctx.insert(
        "algebroid_kind",
        &match &alg.kind {
            AlgebroidKind::Tangent => "The tangent bundle (preset \\texttt{tangent})".to_string(),
            AlgebroidKind::LieAlgebra(name) => format!("The Lie algebra preset \\texttt{{{name}}}"),
            AlgebroidKind::Explicit => "An affgebroid given explicitly".to_string(),
        },
    );
    ctx.insert(
        "sections",
        &alg.sections
            .iter()
            .map(|s| section(system, s))
            .collect::<Vec<_>>()
            .join(", "),
    );
    ctx.insert(
        "lie_statement",
        if alg.structure.is_lie() {
            "The structure equations hold: this is a Lie affgebroid (brackets not listed are zero)."
        } else {
            "The anchor is a homomorphism but the Jacobi identity fails: this is a skew algebroid (brackets not listed are zero)."
        },
    );
    ctx.insert(
        "lagrangian",
        &align(vec![broken(system, "L", &system.lagrangian)]),
    );
    ctx.insert("det_w", &tex(system, &pretty(&d.lagrangian.hessian_det)));
    let constraints: Vec<Vec<String>> = system
        .constraints
        .iter()
        .enumerate()
        .map(|(a, c)| {
            let mut lines = broken(system, &format!("\\Psi^{{{}}}", a + 1), &c.psi);
            if let Some(last) = lines.last_mut() {
                last.push_str(" = 0");
            }
            lines
        })
        .collect();
    ctx.insert("constraints", &align(constraints));
    ctx.insert("multiplier_form", &align(multiplier_form(d)));
    ctx.insert("theta", &align(poincare_cartan(d)));
    if let Some(nh) = &d.nonholonomic {
        ctx.insert("constraint_matrix", &matrix(system, &nh.matrix));
        ctx.insert("det_c", &tex(system, &pretty(&nh.det)));
        let lines = nh
            .multipliers
            .iter()
            .enumerate()
            .map(|(a, l)| broken(system, &format!("\\lambda_{{{}}}", a + 1), l))
            .collect();
        ctx.insert("multipliers", &align(lines));
    } else {
        ctx.insert("multipliers", &Vec::<String>::new());
    }
    let equations = d
        .state()
        .iter()
        .zip(d.rates())
        .map(|(state, rate)| {
            broken(
                system,
                &system.latex_name(&names::derivative_of(state)),
                &rate,
            )
        })
        .collect();
    ctx.insert("equations", &align(equations));
    ctx.insert("induced_method", &(d.method == mech::Method::Induced));
    ctx.insert("solve", &choice_sentence(&d.choice));
    ctx.insert(
        "energy",
        &align(vec![broken(system, "E_L", &d.lagrangian.energy)]),
    );
    ctx.insert(
        "energy_rate",
        &align(vec![broken(system, "\\frac{dE_L}{dt}", &d.energy_rate)]),
    );
    hamiltonian_context(d, &mut ctx);
    dirac_context(d, &mut ctx);
    let contents = render_template("derivation.tex", &ctx)?;
    Ok(Artifact::file(format!("{}.tex", system.name), contents))
}

/// The LaTeX document of a system in implicit form: the system, `W` (its non-zero entries), the
/// forcing, the constraint rows and biases, and the energy, as derived (not simplified further).
pub fn latex_implicit(d: &ImplicitDerivation) -> Result<Artifact, String> {
    let system = &d.system;
    let alg = &system.algebroid;
    let form = &d.implicit;
    let mut ctx = system_context(system);
    ctx.insert("solve", &choice_sentence(&d.choice));
    ctx.insert(
        "lagrangian",
        &align(vec![broken_as_is(system, "L", system.lagrangian.clone())]),
    );
    let n = alg.sections.len();
    let mut mass = Vec::new();
    for a in 0..n {
        for b in a..n {
            if !form.mass[a][b].is_literal_zero() {
                mass.push(broken_as_is(
                    system,
                    &format!("W_{{{}{}}}", a + 1, b + 1),
                    form.mass[a][b].clone(),
                ));
            }
        }
    }
    ctx.insert("mass", &align(mass));
    let forcing = (0..n)
        .map(|a| broken_as_is(system, &format!("b_{{{}}}", a + 1), form.forcing[a].clone()))
        .collect();
    ctx.insert("forcing", &align(forcing));
    let mut constraints = Vec::new();
    for (c, constraint) in system.constraints.iter().enumerate() {
        let mut lines = broken_as_is(
            system,
            &format!("\\Psi^{{{}}}", c + 1),
            constraint.psi.clone(),
        );
        if let Some(last) = lines.last_mut() {
            last.push_str(" = 0");
        }
        constraints.push(lines);
        constraints.push(broken_as_is(
            system,
            &format!("\\beta^{{{}}}", c + 1),
            form.bias[c].clone(),
        ));
    }
    ctx.insert("constraints", &align(constraints));
    ctx.insert(
        "energy",
        &align(vec![broken_as_is(system, "E_L", form.energy.clone())]),
    );
    let contents = render_template("implicit.tex", &ctx)?;
    Ok(Artifact::file(format!("{}.tex", system.name), contents))
}

/// The LaTeX document of a contact system (seed 004).
pub fn latex_contact(d: &mech::ContactDerivation) -> Result<Artifact, String> {
    let system = &d.system;
    let c = &d.contact;
    let mut ctx = system_context(system);
    let on_d = |e: &Expr| c.restrict(e);
    ctx.insert(
        "lagrangian",
        &align(vec![
            broken(system, "L", &system.lagrangian),
            broken(system, "E_L", &c.energy),
            broken(system, "\\partial L/\\partial z", &c.dissipation),
        ]),
    );
    let name = |i: usize| system.latex_name(&c.coordinates[i]);
    ctx.insert(
        "action",
        &system.latex_name(system.action.as_deref().unwrap_or("z")),
    );
    let multipliers = c
        .multipliers
        .iter()
        .enumerate()
        .map(|(a, l)| broken(system, &format!("\\lambda_{{{}}}", a + 1), &on_d(l)))
        .collect();
    ctx.insert("multipliers", &align(multipliers));
    let equations = c
        .coordinates
        .iter()
        .zip(&c.rates)
        .map(|(s, e)| {
            broken(
                system,
                &format!("\\dot{{{}}}", system.latex_name(s)),
                &on_d(e),
            )
        })
        .collect();
    ctx.insert("equations", &align(equations));
    ctx.insert("constraint_matrix", &matrix(system, &c.constraint_matrix));
    let mut projector = Vec::new();
    for (mu, row) in c.projector.iter().enumerate() {
        for (nu, e) in row.iter().enumerate() {
            let identity = if mu == nu { Expr::one() } else { Expr::zero() };
            if !(e.clone() - identity).vanishes() {
                projector.push(broken(
                    system,
                    &format!("\\mathcal{{P}}^{{{}}}{{}}_{{{}}}", name(mu), name(nu)),
                    e,
                ));
            }
        }
    }
    ctx.insert("projector", &align(projector));
    let function = |i: usize| if i == 0 { "1".to_string() } else { name(i - 1) };
    let bracket = c
        .table
        .iter()
        .filter(|(.., e)| !e.is_zero())
        .map(|(i, j, e)| {
            broken(
                system,
                &format!("\\{{{}, {}\\}}", function(*i), function(*j)),
                e,
            )
        })
        .collect();
    ctx.insert("bracket", &align(bracket));
    let jacobiators: Vec<Vec<String>> = c
        .jacobiators
        .iter()
        .filter(|(.., e)| !e.is_zero())
        .map(|(a, b, k, e)| {
            broken(
                system,
                &format!("J({}, {}, {})", name(*a), name(*b), name(*k)),
                e,
            )
        })
        .collect();
    ctx.insert("jacobiators", &align(jacobiators));
    ctx.insert("integrable", &c.integrable);
    match &c.hamiltonian {
        Some(h) => {
            let mut lines = vec![broken(system, "H", &h.hamiltonian)];
            lines.extend(h.coordinates.iter().zip(&h.rates).map(|(s, e)| {
                broken(
                    system,
                    &format!("\\dot{{{}}}", system.latex_name(s)),
                    &h.restrict(e),
                )
            }));
            ctx.insert("hamiltonian", &align(lines));
        }
        None => ctx.insert("hamiltonian", &false),
    }
    let contents = render_template("contact.tex", &ctx)?;
    Ok(Artifact::file(format!("{}.tex", system.name), contents))
}

/// The LaTeX document of a singular Lagrangian (seed 003 §4): the constraint algorithm step by
/// step, the SODE step, and the motion on the final constraint set.
pub fn latex_singular(d: &mech::SingularDerivation) -> Result<Artifact, String> {
    let system = &d.system;
    let a = &d.algorithm;
    let mut ctx = system_context(system);
    ctx.insert(
        "lagrangian",
        &align(vec![
            broken(system, "L", &system.lagrangian),
            broken(system, "E_L", &d.lagrangian.energy),
        ]),
    );
    ctx.insert("hessian", &matrix(system, &d.lagrangian.hessian));
    let steps: Vec<tera::Value> = a
        .steps
        .iter()
        .map(|step| {
            let title = match step.kind {
                mech::singular::StepKind::Consistency(1) => {
                    "Step 1 (primary constraints): $dE_L$ must vanish on $\\ker\\omega_L$".to_string()
                }
                mech::singular::StepKind::Consistency(k) => format!(
                    "Step {k}: $dE_L$ must vanish on $(\\rho^{{-1}}(TE_{}))^\\perp$, the sections whose contraction with $\\omega_L$ is a combination of the differentials of the constraints so far",
                    k - 1
                ),
                mech::singular::StepKind::Sode => {
                    "SODE step (Theorem 4.4): the solutions must satisfy $X^A = y^A$, and be tangent to what this adds".to_string()
                }
            };
            let found = step.found.iter().map(|e| format!("{} = 0", tex(system, &pretty(e)))).collect::<Vec<_>>();
            let solved = step
                .solved
                .iter()
                .map(|(v, e)| format!("{} = {}", system.latex_name(v), tex(system, &pretty(e))))
                .collect::<Vec<_>>();
            tera::to_value(serde_json::json!({
                "title": title,
                "found": found.join(", \\quad "),
                "solved": solved.join(", \\quad "),
            }))
            .expect("serialisable")
        })
        .collect();
    ctx.insert("steps", &steps);
    ctx.insert("level", &a.level);
    let equations = a
        .state
        .iter()
        .zip(&a.rates)
        .map(|(s, e)| broken(system, &format!("\\dot{{{}}}", system.latex_name(s)), e))
        .collect();
    ctx.insert("equations", &align(equations));
    ctx.insert("gauge", &a.gauge.len());
    ctx.insert(
        "assumptions",
        &a.assumptions
            .iter()
            .map(|e| format!("${}$", tex(system, &pretty(e))))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let contents = render_template("singular.tex", &ctx)?;
    Ok(Artifact::file(format!("{}.tex", system.name), contents))
}

/// The LaTeX document of a vakonomic system (seed 003 §5.1).
pub fn latex_vakonomic(d: &mech::VakonomicDerivation) -> Result<Artifact, String> {
    let system = &d.system;
    let alg = &system.algebroid;
    let v = &d.vakonomic;
    let mut ctx = system_context(system);
    ctx.insert(
        "lagrangian",
        &align(vec![broken(system, "L", &system.lagrangian)]),
    );
    let velocity = |a: usize| system.latex_name(&alg.velocities[a]);
    let momentum = |a: usize| system.latex_name(&alg.momenta[a]);
    let list = |names: Vec<String>| names.join(", ");
    ctx.insert(
        "constrained",
        &list(v.constrained.iter().map(|&a| velocity(a)).collect()),
    );
    ctx.insert(
        "multipliers",
        &list(v.constrained.iter().map(|&a| momentum(a)).collect()),
    );
    let mut psi: Vec<Vec<String>> = v
        .constrained
        .iter()
        .map(|&a| broken(system, &velocity(a), &v.psi[&alg.velocities[a]]))
        .collect();
    psi.push(broken(system, "\\tilde L", &v.restricted));
    ctx.insert("psi", &align(psi));
    let momenta = v
        .free
        .iter()
        .map(|&a| broken(system, &momentum(a), &v.momenta[a]))
        .collect();
    ctx.insert("momenta", &align(momenta));
    let forces = (0..system.rank())
        .map(|a| {
            let section = system.latex_name(&alg.sections[a]);
            broken(system, &format!("F_{{{section}}}"), &v.forces[a])
        })
        .collect();
    ctx.insert("forces", &align(forces));
    let mut regularity = Vec::new();
    for (i, row) in v.regularity.iter().enumerate() {
        for (j, r) in row.iter().enumerate().skip(i) {
            if !r.is_zero() {
                regularity.push(broken(
                    system,
                    &format!("R_{{{}\\,{}}}", velocity(v.free[i]), velocity(v.free[j])),
                    r,
                ));
            }
        }
    }
    regularity.push(broken(system, "\\det R", &v.det));
    ctx.insert("regularity", &align(regularity));
    ctx.insert(
        "state",
        &list(v.state.iter().map(|s| system.latex_name(s)).collect()),
    );
    let equations = v
        .state
        .iter()
        .zip(&v.rates)
        .map(|(s, e)| broken(system, &format!("\\dot{{{}}}", system.latex_name(s)), e))
        .collect();
    ctx.insert("equations", &align(equations));
    ctx.insert(
        "energy",
        &align(vec![broken(system, "H_{W_0}|_{W_1}", &v.energy)]),
    );
    match &v.hamiltonian {
        Some(h) => {
            ctx.insert("hamiltonian", &{
                let mut lines: Vec<Vec<String>> = v
                    .free
                    .iter()
                    .map(|&a| broken(system, &velocity(a), &h.velocities[&alg.velocities[a]]))
                    .collect();
                lines.push(broken(system, "H_{W_1}", &h.hamiltonian));
                align(lines)
            });
            let name = |i: usize| system.latex_name(&h.coordinates[i]);
            let bracket = h
                .table
                .iter()
                .filter(|(.., e)| !e.is_zero())
                .map(|(i, j, e)| broken(system, &format!("\\{{{}, {}\\}}", name(*i), name(*j)), e))
                .collect();
            ctx.insert("bracket", &align(bracket));
            let rates = h
                .coordinates
                .iter()
                .zip(&h.rates)
                .map(|(c, e)| broken(system, &format!("\\dot{{{}}}", system.latex_name(c)), e))
                .collect();
            ctx.insert("hamilton_equations", &align(rates));
        }
        None => ctx.insert("hamiltonian", &false),
    }
    let contents = render_template("vakonomic.tex", &ctx)?;
    Ok(Artifact::file(format!("{}.tex", system.name), contents))
}

/// The Dirac section (seed 002 §3): the frame, `𝒟_C` as canonical brackets, the effective phase
/// space, the phase equations (27)–(29) on it with the tangency and the multipliers, and the
/// almost-Poisson bracket on it with its nonzero Jacobiators. Only for constrained systems.
fn dirac_context(d: &Derivation, ctx: &mut tera::Context) {
    let system = &d.system;
    let (Ok(dirac), false) = (&d.dirac, system.constraints.is_empty()) else {
        ctx.insert("dirac", &false);
        return;
    };
    ctx.insert("dirac", &true);
    let s = &dirac.structure;
    let name = |x: &str| system.latex_name(x);
    let list = |indices: &[usize]| {
        indices
            .iter()
            .map(|&a| name(&s.momenta[a]))
            .collect::<Vec<_>>()
            .join(", ")
    };
    ctx.insert("dirac_along", &list(&s.along));
    ctx.insert("dirac_completing", &list(&s.complement));
    ctx.insert("dirac_integrable", &s.integrable);
    let frame = s
        .momenta
        .iter()
        .zip(&s.frame)
        .map(|(eta, row)| {
            let value = row
                .iter()
                .zip(&system.algebroid.momenta)
                .fold(Expr::zero(), |acc, (t, p)| {
                    acc + t.clone() * Expr::symbol(p)
                });
            broken(system, &name(eta), &value)
        })
        .collect();
    ctx.insert("dirac_frame", &align(frame));
    let identity = s.frame.iter().enumerate().all(|(a, row)| {
        row.iter().enumerate().all(|(b, t)| {
            if a == b {
                (t.clone() - Expr::one()).is_zero()
            } else {
                t.is_zero()
            }
        })
    });
    ctx.insert("dirac_identity", &identity);
    let pair = |f: &str, g: &str| format!("\\{{{}, {}\\}}", name(f), name(g));
    let structure = s
        .table
        .iter()
        .filter(|(_, _, e)| !e.is_zero())
        .map(|(f, g, e)| broken(system, &pair(f, g), e))
        .collect();
    ctx.insert("dirac_structure", &align(structure));
    let completing: Vec<&String> = s.complement.iter().map(|&a| &s.momenta[a]).collect();
    let mut phase: Vec<Vec<String>> = vec![broken(system, "\\tilde H", &dirac.hamiltonian)];
    phase.extend(
        completing
            .iter()
            .map(|eta| broken(system, &name(eta), &dirac.dependent[*eta])),
    );
    ctx.insert("dirac_phase", &align(phase));
    let dot = |x: &str| format!("\\dot{{{}}}", name(x));
    let mut equations: Vec<Vec<String>> = dirac
        .coordinates
        .iter()
        .zip(&dirac.rates)
        .map(|(c, e)| broken(system, &dot(c), e))
        .collect();
    equations.extend(
        completing
            .iter()
            .zip(&dirac.tangency)
            .map(|(eta, e)| broken(system, &dot(eta), e)),
    );
    ctx.insert("dirac_equations", &align(equations));
    let multipliers = completing
        .iter()
        .zip(&dirac.multipliers)
        .map(|(eta, e)| broken(system, &format!("\\lambda_{{{}}}", name(eta)), e))
        .collect();
    ctx.insert("dirac_multipliers", &align(multipliers));
    let coordinate = |i: usize| dirac.coordinates[i].as_str();
    let table = dirac
        .table
        .iter()
        .filter(|(_, _, e)| !e.is_zero())
        .map(|(i, j, e)| broken(system, &pair(coordinate(*i), coordinate(*j)), e))
        .collect();
    ctx.insert("dirac_bracket", &align(table));
    let jacobiators = dirac
        .jacobiators
        .iter()
        .filter(|(_, _, _, e)| !e.is_zero())
        .map(|(i, j, k, e)| {
            let key = format!(
                "J({}, {}, {})",
                name(coordinate(*i)),
                name(coordinate(*j)),
                name(coordinate(*k))
            );
            broken(system, &key, e)
        })
        .collect();
    ctx.insert("dirac_jacobiators", &align(jacobiators));
    projected_context(d, ctx);
}

/// The projected structure on `D` (seed 001 §4–§5), inside the Dirac section: its bracket table
/// when it differs from the bracket on `S` in how it was built (always) — printed once, with
/// a sentence saying the two agree, which the golden tests prove.
fn projected_context(d: &Derivation, ctx: &mut tera::Context) {
    let system = &d.system;
    let Ok(p) = &d.projected else {
        ctx.insert("projected", &false);
        return;
    };
    ctx.insert("projected", &true);
    let name = |x: &str| system.latex_name(x);
    let metric = p
        .momenta
        .iter()
        .enumerate()
        .flat_map(|(a, xa)| {
            p.momenta
                .iter()
                .enumerate()
                .skip(a)
                .map(move |(b, xb)| (a, b, xa, xb))
        })
        .filter(|(a, b, _, _)| !p.metric[*a][*b].is_zero())
        .map(|(a, b, xa, xb)| {
            broken(
                system,
                &format!("G({}, {})", name(xa), name(xb)),
                &p.metric[a][b],
            )
        })
        .collect();
    ctx.insert("projected_metric", &align(metric));
    let induced = &p.induced;
    let mut lines = vec![broken(system, "l", &induced.lagrangian)];
    lines.extend(
        induced
            .state
            .iter()
            .zip(&induced.rates)
            .map(|(s, e)| broken(system, &format!("\\dot{{{}}}", name(s)), e)),
    );
    ctx.insert("induced_equations", &align(lines));
    let noether: Vec<String> = p
        .noether
        .iter()
        .map(|n| {
            if n.holds {
                format!(
                    "$({})$ is a symmetry: $F = {}$ is a first integral.",
                    n.name,
                    crate::latex::tex(system, &n.integral)
                )
            } else {
                format!(
                    "$({})$ is not a symmetry: the Killing, potential and gauge parts of its defect are ${}$, ${}$, ${}$; $d/dt\\,({}) = d_T(X)(l)$ instead.",
                    n.name,
                    crate::latex::tex(system, &n.killing),
                    crate::latex::tex(system, &n.potential),
                    crate::latex::tex(system, &n.gauge),
                    crate::latex::tex(system, &n.integral)
                )
            }
        })
        .collect();
    ctx.insert("noether", &noether);
    lie_context(system, p, ctx);
}

/// Whether `(D, ε_P)` is Lie (seed 001 §4, digest 001 §1.9): the non-zero curvatures as `⟨p, K⟩`,
/// the non-zero section Jacobiators as `⟨ξ, Jac_P⟩`, and the verdict in words.
fn lie_context(system: &System, p: &mech::projected::Projected, ctx: &mut tera::Context) {
    let name = |a: usize| system.latex_name(&p.momenta[a]);
    let pairing = |components: &[Expr], momenta: &[String]| -> Expr {
        components
            .iter()
            .zip(momenta)
            .fold(Expr::zero(), |acc, (c, m)| {
                acc + c.clone() * Expr::symbol(m)
            })
            .simplify()
    };
    let curvature: Vec<Vec<String>> = p
        .lie
        .curvature
        .iter()
        .map(|(a, b, k)| (a, b, pairing(k, &p.algebroid_momenta)))
        .filter(|(.., k)| !k.is_zero())
        .map(|(a, b, k)| {
            broken(
                system,
                &format!("\\langle p, K({}, {})\\rangle", name(*a), name(*b)),
                &k,
            )
        })
        .collect();
    let jacobiator: Vec<Vec<String>> = p
        .lie
        .jacobiator
        .iter()
        .map(|(a, b, c, j)| (a, b, c, pairing(j, &p.momenta)))
        .filter(|(.., j)| !j.is_zero())
        .map(|(a, b, c, j)| {
            broken(
                system,
                &format!(
                    "\\langle \\xi, \\mathrm{{Jac}}_P({}, {}, {})\\rangle",
                    name(*a),
                    name(*b),
                    name(*c)
                ),
                &j,
            )
        })
        .collect();
    let verdict = match (p.lie.lie, p.lie.involutive) {
        (true, true) => "$D$ is involutive ($K = 0$), so $(D, \\varepsilon_P)$ is a Lie algebroid.",
        (true, false) => "The curvature does not vanish, yet $(D, \\varepsilon_P)$ is a Lie algebroid: the anchor defect $-\\rho(K)$ and the section Jacobiator vanish (non-zero curvature does not imply non-Lie).",
        (false, _) => "$(D, \\varepsilon_P)$ is not a Lie algebroid: its bracket on $D^*$ has the Jacobiators $J(\\xi_a, \\xi_b, q^j) = \\rho(K(f_a, f_b))^j$ and $J(\\xi_a, \\xi_b, \\xi_c) = -\\langle \\xi, \\mathrm{Jac}_P(f_a, f_b, f_c)\\rangle$.",
    };
    ctx.insert("lie_curvature", &align(curvature));
    ctx.insert("lie_jacobiator", &align(jacobiator));
    ctx.insert("lie_verdict", verdict);
}

/// The Hamiltonian section: Legendre map, `H`, `ψ`, the equations on `B̄`, the nonzero brackets
/// of coordinates and the nonzero Jacobiators.
fn hamiltonian_context(d: &Derivation, ctx: &mut tera::Context) {
    let system = &d.system;
    let Ok(h) = &d.hamiltonian else {
        ctx.insert("hamiltonian", &false);
        return;
    };
    ctx.insert("hamiltonian", &true);
    let name = |s: &str| system.latex_name(s);
    ctx.insert(
        "momenta",
        &h.momenta
            .iter()
            .map(|p| name(p))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let mut legendre: Vec<Vec<String>> = h
        .momenta
        .iter()
        .zip(&h.legendre)
        .map(|(p, e)| broken(system, &name(p), e))
        .collect();
    legendre.push(broken(system, "H", &h.hamiltonian));
    ctx.insert("legendre", &align(legendre));
    let state = &h.phase;
    let (rates, constraints) = match &h.constrained {
        Some(c) => (
            &c.rates,
            c.psi
                .iter()
                .enumerate()
                .map(|(a, e)| broken(system, &format!("\\psi^{{{}}}", a + 1), e))
                .collect(),
        ),
        None => (&h.free_rates, Vec::new()),
    };
    ctx.insert("dual_constraints", &align(constraints));
    let equations = state
        .iter()
        .zip(rates)
        .map(|(s, e)| broken(system, &format!("\\dot{{{}}}", name(s)), e))
        .collect();
    ctx.insert("hamilton_equations", &align(equations));
    let coordinate = |i: usize| name(&h.coordinates[i]);
    ctx.insert(
        "bracket_coordinates",
        &(0..h.coordinates.len())
            .map(coordinate)
            .collect::<Vec<_>>()
            .join(", "),
    );
    let table = h
        .table
        .iter()
        .filter(|(_, _, e)| !e.is_zero())
        .map(|(i, j, e)| {
            broken(
                system,
                &format!("\\{{{}, {}\\}}", coordinate(*i), coordinate(*j)),
                e,
            )
        })
        .collect();
    ctx.insert("bracket_table", &align(table));
    let jacobiators = h
        .jacobiators
        .iter()
        .filter(|(_, _, _, e)| !e.is_zero())
        .map(|(i, j, k, e)| {
            broken(
                system,
                &format!(
                    "J({}, {}, {})",
                    coordinate(*i),
                    coordinate(*j),
                    coordinate(*k)
                ),
                e,
            )
        })
        .collect();
    ctx.insert("jacobiators", &align(jacobiators));
}
