//! [LJL21] (M. de León, V. M. Jiménez, M. Lainz Valcázar, "Contact Hamiltonian systems with
//! nonholonomic constraints", J. Geom. Mech. 13 (2021) 25–53): the printed errors of its general
//! theory that no `expect` kind can state (digest 004 §5: T8, T10, T11), refused at the level of
//! the derivation. Each test builds the printed formula from the contact route's own ingredients
//! (`p_i`, `W`, `E_L`, `R_L`, `Γ_L`, `𝒫`, `Γ_{L,Δ}`, `λ_a`) on a golden of `golden/contact/`,
//! asserts that the corrected formula holds on `Δ × ℝ`, and asserts that the printed one does not.
//!
//! Conventions. None of these items involves the bracket, so its sign (`docs/conventions.md`
//! §7.2) plays no part. The derivation's coordinates are `X = (q^i, q'^i, z)`. The contact form
//! is `η_L = dz − p_i dq^i` (43). A 2-form is `dα(∂_μ, ∂_ν) = ∂_μ α_ν − ∂_ν α_μ`, and a wedge is
//! `(α ∧ β)(X, Y) = α(X) β(Y) − α(Y) β(X)`, as in the paper's (45). The flat map is
//! `♭_L(X) = ι_X dη_L + η_L(X) η_L` (12). The constraint force field `𝒬(Γ_L) = Γ_L − Γ_{L,Δ}` is
//! taken from the derivation (`free_rates − rates`), so the multiplier sign does not enter it.
//! Where the paper's `λ_a` is compared with dalembert's, dalembert's is its negative (§7.2).
//!
//! Every identity asserted below was checked first with SymPy 1.14 on the same goldens, never
//! with dalembert.

use std::collections::BTreeMap;

use cas::Expr;

use super::root;

/// The contact derivation of `golden/contact/<case>`.
fn derive(case: &str) -> Box<dalembert::ContactDerivation> {
    super::contact::derive(&root().join("golden/contact").join(case))
}

/// `η_L = dz − p_i dq^i` by components on the derivation's coordinates `(q^i, q'^i, z)`.
fn contact_form(d: &dalembert::ContactDerivation) -> Vec<Expr> {
    let c = &d.contact;
    let n = d.system.coordinates.len();
    assert_eq!(c.coordinates.len(), 2 * n + 1);
    assert_eq!(
        &c.coordinates[..n],
        &d.system.keys(&d.system.coordinates)[..]
    );
    assert_eq!(
        Some(c.coordinates[2 * n].clone()),
        d.system.action.map(|z| d.system.key(z))
    );
    (0..=2 * n)
        .map(|mu| {
            if mu < n {
                -c.momenta[mu].clone()
            } else if mu == 2 * n {
                Expr::one()
            } else {
                Expr::zero()
            }
        })
        .collect()
}

/// `dα` of a 1-form, as the matrix `dα(∂_μ, ∂_ν) = ∂_μ α_ν − ∂_ν α_μ`.
fn exterior_matrix(alpha: &[Expr], x: &[String]) -> Vec<Vec<Expr>> {
    (0..x.len())
        .map(|mu| {
            (0..x.len())
                .map(|nu| (alpha[nu].diff(&x[mu]) - alpha[mu].diff(&x[nu])).simplify())
                .collect()
        })
        .collect()
}

/// `Y(f)`.
fn apply(field: &[Expr], f: &Expr, x: &[String]) -> Expr {
    field
        .iter()
        .zip(x)
        .fold(Expr::zero(), |acc, (y, name)| acc + y * &f.diff(name))
        .simplify()
}

/// `L_Y α = ι_Y dα + d(α(Y))` of a 1-form, by components:
/// `Y^μ (∂_μ α_ν − ∂_ν α_μ) + ∂_ν(α_μ Y^μ)`.
fn lie_one_form(field: &[Expr], alpha: &[Expr], x: &[String]) -> Vec<Expr> {
    let pairing = field
        .iter()
        .zip(alpha)
        .fold(Expr::zero(), |acc, (y, a)| acc + y * a);
    (0..x.len())
        .map(|nu| {
            field
                .iter()
                .enumerate()
                .fold(pairing.diff(&x[nu]), |acc, (mu, y)| {
                    acc + y * &(alpha[nu].diff(&x[mu]) - alpha[mu].diff(&x[nu]))
                })
                .simplify()
        })
        .collect()
}

/// `L_Y` of the top form `ρ dX^0 ∧ … ∧ dX^{N−1}` (it is `d ι_Y`), as a density:
/// `∂_μ(ρ Y^μ)`.
fn lie_density(field: &[Expr], rho: &Expr, x: &[String]) -> Expr {
    field
        .iter()
        .zip(x)
        .fold(Expr::zero(), |acc, (y, name)| acc + (rho * y).diff(name))
        .simplify()
}

/// A differential form `Σ_I f_I dX^I`, keyed by strictly increasing lists of indices `I`.
type Form = BTreeMap<Vec<usize>, Expr>;

fn add_term(form: &mut Form, key: Vec<usize>, term: Expr) {
    let entry = form.entry(key).or_insert_with(Expr::zero);
    *entry = entry.clone() + term;
}

/// Every coefficient simplified, the zero ones dropped.
fn cleaned(form: Form) -> Form {
    form.into_iter()
        .map(|(key, f)| (key, f.simplify()))
        .filter(|(_, f)| !f.is_zero())
        .collect()
}

fn one_form(alpha: &[Expr]) -> Form {
    cleaned(
        alpha
            .iter()
            .enumerate()
            .map(|(mu, f)| (vec![mu], f.clone()))
            .collect(),
    )
}

/// `a ∧ b`: `f dX^I ∧ g dX^J = ± f g dX^{I ∪ J}`. The sign is that of the shuffle that sorts
/// `I J`, i.e. the parity of the pairs `(i ∈ I, j ∈ J)` with `j < i`.
fn wedge(a: &Form, b: &Form) -> Form {
    let mut out = Form::new();
    for (i, f) in a {
        for (j, g) in b {
            if i.iter().any(|k| j.contains(k)) {
                continue;
            }
            let inversions: usize = i
                .iter()
                .map(|&k| j.iter().filter(|&&l| l < k).count())
                .sum();
            let mut key: Vec<usize> = i.iter().chain(j).copied().collect();
            key.sort_unstable();
            let term = f * g;
            add_term(
                &mut out,
                key,
                if inversions.is_multiple_of(2) {
                    term
                } else {
                    -term
                },
            );
        }
    }
    cleaned(out)
}

/// `d(Σ f_I dX^I) = Σ_μ ∂_μ f_I dX^μ ∧ dX^I`.
fn exterior(form: &Form, x: &[String]) -> Form {
    let mut out = Form::new();
    for (i, f) in form {
        for (mu, name) in x.iter().enumerate() {
            if i.contains(&mu) {
                continue;
            }
            let before = i.iter().filter(|&&k| k < mu).count();
            let mut key = i.clone();
            key.push(mu);
            key.sort_unstable();
            let term = f.diff(name);
            add_term(&mut out, key, if before % 2 == 0 { term } else { -term });
        }
    }
    cleaned(out)
}

/// The coefficient of `dX^0 ∧ … ∧ dX^{2n}` in `α ∧ (dα)^{n−1} ∧ dβ`, for 1-forms `α`, `β` on the
/// `2n + 1` coordinates `x` (`β = α` gives the volume `α ∧ (dα)^n`).
fn density(alpha: &[Expr], beta: &[Expr], n: usize, x: &[String]) -> Expr {
    assert!(n >= 1 && x.len() == 2 * n + 1);
    let a = one_form(alpha);
    let d_a = exterior(&a, x);
    let power = (1..n).fold(a, |acc, _| wedge(&acc, &d_a));
    let top = wedge(&power, &exterior(&one_form(beta), x));
    let all: Vec<usize> = (0..x.len()).collect();
    top.get(&all).cloned().unwrap_or_else(Expr::zero)
}

/// [LJL21] Theorem 9, its proof (digest 004 T8). The step that gives `Y(q^k) = 0` from
/// `♭_L(Y) ∈ Δ^{l∘}` is printed as
/// `0 = ♭_L(Y)(∂_{q̇^i}) = ι_Y dη_L(∂_{q̇^i}) + η_L(Y) η_L(∂_{q̇^i}) = ι_{∂_{q̇^i}} dη_L(Y) = W_ik Y(q^k)`.
/// The proof's own item (ii) says `ι_{∂_{q̇^i}} dη_L = −W_ik dq^k`, so the printed
/// `ι_{∂_{q̇^i}} dη_L(Y) = +W_ik Y(q^k)` drops a sign. It is
/// `ι_Y dη_L(∂_{q̇^i}) = −ι_{∂_{q̇^i}} dη_L(Y)` that equals `+W_ik Y(q^k)`, so the line ends right,
/// and so does (69).
///
/// The test builds `dη_L` from the derivation's momenta and compares it with its Hessian `W`:
/// - the corrected step holds: `ι_{∂_{q̇^i}} dη_L = −W_ik dq^k`, with no `dq̇` or `dz` part;
/// - the end of the printed line holds: `♭_L(Y)(∂_{q̇^i}) = W_ik Y(q^k)`;
/// - the printed middle, `ι_{∂_{q̇^i}} dη_L = +W_ik dq^k`, is refused.
///
/// It runs on the sledge (`W` depends on `φ`) and on `holonomic_control` (non-diagonal `W`, `p`
/// depends on `z`). No sign convention is involved.
#[test]
fn printed_ljl21_theorem_9_proof_contraction_sign_is_refused() {
    for case in ["sledge", "holonomic_control"] {
        let d = derive(case);
        let c = &d.contact;
        let x = &c.coordinates;
        let n = d.system.coordinates.len();
        let eta = contact_form(&d);
        let d_eta = exterior_matrix(&eta, x);
        let w = |i: usize, mu: usize| {
            if mu < n {
                c.hessian[i][mu].clone()
            } else {
                Expr::zero()
            }
        };
        let mut printed_holds = true;
        for i in 0..n {
            for mu in 0..x.len() {
                // ι_{∂q̇^i} dη_L (∂_μ) = dη_L(∂_{q̇^i}, ∂_μ).
                let contraction = d_eta[n + i][mu].clone();
                assert!(
                    (contraction.clone() + w(i, mu)).vanishes(),
                    "{case}: ι_(∂q'^{i}) dη_L = −W dq, component {mu}"
                );
                printed_holds &= (contraction - w(i, mu)).vanishes();
                // ♭_L(∂_μ)(∂_{q̇^i}) = dη_L(∂_μ, ∂_{q̇^i}) + η_μ η_{q̇^i}.
                let flat = d_eta[mu][n + i].clone() + eta[mu].clone() * eta[n + i].clone();
                assert!(
                    (flat - w(i, mu)).vanishes(),
                    "{case}: ♭_L(Y)(∂q'^{i}) = W Y(q), component {mu}"
                );
            }
        }
        assert!(
            !printed_holds,
            "{case}: the printed ι_(∂q') dη_L(Y) = +W Y(q) must be refused"
        );
    }
}

/// [LJL21] Theorem 11, eq. (82) (digest 004 T10). It is printed as
/// `♭_L(X) = 𝒫̄(dE_L + (E_L + R_L(E_L)) η_L)`, with `𝒫̄ = ♭_L 𝒫 ♯_L`. The Herglotz field
/// satisfies (48), `♭_L(Γ_L) = dE_L − (E_L + R_L(E_L)) η_L`, so the sign must be minus. Then
/// `X = 𝒫 ♯_L(dE_L − (E_L + R_L(E_L)) η_L) = 𝒫 Γ_L = Γ_{L,Δ}`, as the theorem claims.
///
/// `♭_L` is injective, so `♭_L(X) = ♭_L 𝒫 ♯_L(α)` means `X = 𝒫 ♯_L(α)`. The test solves
/// `♭_L(Y) = α` for both signs, with `♭_L` built from `η_L` and `dη_L` (the derivation's momenta)
/// and `R_L`, `E_L` taken from the derivation. It projects each solution with the derivation's
/// `𝒫` and asserts:
/// - the minus sign gives `Γ_L` (48), then `Γ_{L,Δ}` (the derivation's `rates`) on `Δ × ℝ`;
/// - the printed plus sign does not.
///
/// Since `♭_L(R_L) = η_L`, the printed sign adds exactly `2 (E_L + R_L(E_L)) R_{L,Δ}`, and that
/// is asserted too. It is `2(E_L + k) ∂_z` on the nonholonomic particle. On `holonomic_control`
/// it is `2(E_L + k + c ẋ) R_{L,Δ}`, whose `ẋ`, `ẏ` and `z` components are all nonzero.
/// Only geometric objects are involved, so no sign convention enters.
#[test]
fn printed_ljl21_theorem_11_sign_is_refused() {
    for case in ["particle_friction", "holonomic_control"] {
        let d = derive(case);
        let c = &d.contact;
        let x = &c.coordinates;
        let size = x.len();
        let eta = contact_form(&d);
        let d_eta = exterior_matrix(&eta, x);
        // ♭_L(Y)_ν = Y^μ (dη_L(∂_μ, ∂_ν) + η_μ η_ν): the matrix of ♭_L, row ν.
        let flat: Vec<Vec<Expr>> = (0..size)
            .map(|nu| {
                (0..size)
                    .map(|mu| {
                        (d_eta[mu][nu].clone() + eta[mu].clone() * eta[nu].clone()).simplify()
                    })
                    .collect()
            })
            .collect();
        let reeb_energy = apply(&c.reeb, &c.energy, x);
        assert!(
            (reeb_energy.clone() + c.dissipation.clone()).vanishes(),
            "{case}: R_L(E_L) = −∂L/∂z"
        );
        let factor = (c.energy.clone() + reeb_energy).simplify();
        // Column 0: dE_L − (E_L + R_L(E_L)) η_L (corrected); column 1: the printed plus sign.
        let covectors: Vec<Vec<Expr>> = x
            .iter()
            .zip(&eta)
            .map(|(name, e)| {
                let d_energy = c.energy.diff(name);
                vec![
                    (d_energy.clone() - factor.clone() * e.clone()).simplify(),
                    (d_energy + factor.clone() * e.clone()).simplify(),
                ]
            })
            .collect();
        let sharp = cas::solve(&flat, &covectors).expect("♭_L is an isomorphism (12)");
        for (s, g) in sharp.iter().zip(&c.free_rates) {
            assert!((&s[0] - g).vanishes(), "{case}: (48), ♯_L(…) = Γ_L");
        }
        let project = |column: usize| -> Vec<Expr> {
            c.projector
                .iter()
                .map(|row| {
                    row.iter()
                        .zip(&sharp)
                        .fold(Expr::zero(), |acc, (p, s)| acc + p * &s[column])
                        .simplify()
                })
                .collect()
        };
        let (corrected, printed) = (project(0), project(1));
        for (mu, (a, b)) in corrected.iter().zip(&c.rates).enumerate() {
            assert!(
                c.restrict(&(a - b)).vanishes(),
                "{case}: the corrected (82) gives Γ_(L,Δ), component {mu}"
            );
        }
        assert!(
            printed
                .iter()
                .zip(&c.rates)
                .any(|(a, b)| !c.restrict(&(a - b)).vanishes()),
            "{case}: the printed (82) must not give Γ_(L,Δ)"
        );
        for (mu, ((a, b), r)) in printed
            .iter()
            .zip(&c.rates)
            .zip(&c.reeb_projected)
            .enumerate()
        {
            let excess = a - b - Expr::int(2) * factor.clone() * r.clone();
            assert!(
                excess.vanishes(),
                "{case}: printed − corrected = 2 (E_L + R_L(E_L)) R_(L,Δ), component {mu}"
            );
        }
    }
}

/// [LJL21] Prop. 12, eq. (83c) (digest 004 T11). It is printed as
/// `L_{Γ_{L,Δ}} Ω_L = −(n+1) R_L(E_L) Ω_L − η_L ∧ (dη_L)^{n−1} ∧ d L_{𝒬(Γ_L)} η_L`, with
/// `Ω_L = η_L ∧ (dη_L)^n`. The correct last term is `−n η_L ∧ (dη_L)^{n−1} ∧ d L_{𝒬(Γ_L)} η_L`.
/// The proof's first line has the `n` (from `L_X (dη)^n = n (dη)^{n−1} ∧ d L_X η`) and its second
/// line drops it. The other term, `L_{𝒬(Γ_L)} η_L ∧ (dη_L)^n`, vanishes because it lies in the
/// span of the `dq^i`.
///
/// The test first checks the ingredients:
/// - (83a), which is printed right: `L_{Γ_{L,Δ}} η_L = −R_L(E_L) η_L − L_{𝒬(Γ_L)} η_L`;
/// - its "last assertion", read as `L_{𝒬(Γ_L)} η_L = λ_a Φ̃^a ∈ Δ^{l∘}` (digest T12). In
///   dalembert's multiplier sign (`docs/conventions.md` §7.2) this is `−λ_a Φ^a_i dq^i`.
///
/// Then it writes both sides of (83c) as densities against `dX^0 ∧ … ∧ dX^{2n}`. The left side is
/// `∂_μ(ρ Γ^μ_{L,Δ})`, with `ρ` the density of `Ω_L`. The factor `n` holds on `Δ × ℝ`; the
/// printed factor 1 does not.
///
/// It runs on the nonholonomic particle (`n = 3`, the digest's case) and on `holonomic_control`
/// (`n = 2`; `R_L` has velocity components and `R_L(E_L) = k + c ẋ` is not constant).
#[test]
fn printed_ljl21_83c_missing_factor_n_is_refused() {
    for case in ["particle_friction", "holonomic_control"] {
        let d = derive(case);
        let c = &d.contact;
        let x = &c.coordinates;
        let n = d.system.coordinates.len();
        let eta = contact_form(&d);
        let gamma = &c.rates;
        let q_gamma: Vec<Expr> = c
            .free_rates
            .iter()
            .zip(gamma)
            .map(|(a, b)| (a - b).simplify())
            .collect();
        let beta = lie_one_form(&q_gamma, &eta, x);
        for (nu, b) in beta.iter().enumerate() {
            let expected = if nu < n {
                d.system
                    .constraints
                    .iter()
                    .zip(&c.multipliers)
                    .fold(Expr::zero(), |acc, (k, l)| acc - l * &k.mu[nu])
            } else {
                Expr::zero()
            };
            assert!(
                (b - &expected).vanishes(),
                "{case}: L_Q(Γ) η_L = −λ_a Φ^a (our λ), component {nu}"
            );
        }
        let reeb_energy = apply(&c.reeb, &c.energy, x);
        let lie_eta = lie_one_form(gamma, &eta, x);
        for (nu, ((l, e), b)) in lie_eta.iter().zip(&eta).zip(&beta).enumerate() {
            let residual = l + &(reeb_energy.clone() * e.clone()) + b.clone();
            assert!(residual.vanishes(), "{case}: (83a), component {nu}");
        }
        let omega = density(&eta, &eta, n, x);
        assert!(!omega.vanishes(), "{case}: Ω_L is a volume");
        let left = lie_density(gamma, &omega, x);
        let tail = density(&eta, &beta, n, x);
        let volume_term = -Expr::int(n as i64 + 1) * reeb_energy * omega;
        let corrected = volume_term.clone() - Expr::int(n as i64) * tail.clone();
        let printed = volume_term - tail;
        assert!(
            c.restrict(&(left.clone() - corrected)).vanishes(),
            "{case}: (83c) with the factor n"
        );
        assert!(
            !c.restrict(&(left - printed)).vanishes(),
            "{case}: the printed (83c) must be refused"
        );
    }
}

/// [LJL21] Prop. 12, eq. (83d) (digest 004 T11). It is printed as
/// `L_{Γ_{L,Δ}} Ω̃_L = η̃_L ∧ (dη̃_L)^{n−1} ∧ d L_{𝒬(Γ_L)} η̃_L`, with `η̃_L = η_L / H`, where `H`
/// means `E_L`. `Ω̃_L` is printed as `η_L ∧ (dη_L)^n`; it is read here as
/// `Ω̃_L = η̃_L ∧ (dη̃_L)^n`, and the test checks that this equals `Ω_L / E_L^{n+1}`.
///
/// The correct right-hand side on `Δ × ℝ` is `−n η̃_L ∧ (dη̃_L)^{n−1} ∧ d L_{𝒬(Γ_L)} η̃_L`: the
/// printed one lacks `−n`. By (37), `L_{Γ_L} η̃_L = 0`, so `L_{Γ_{L,Δ}} η̃_L = −L_{𝒬(Γ_L)} η̃_L`, and
/// (83c)'s computation gives `−n` (plus `−L_{𝒬(Γ_L)} η̃_L ∧ (dη̃_L)^n`, which vanishes on these
/// goldens).
///
/// The test writes both sides as densities, with `E_L`, `Γ_{L,Δ}` and `𝒬(Γ_L)` taken from the
/// derivation. `−n` holds on `Δ × ℝ`; the printed factor `+1` does not. It runs on the
/// nonholonomic particle (`n = 3`) and on `holonomic_control` (`n = 2`).
#[test]
fn printed_ljl21_83d_missing_factor_minus_n_is_refused() {
    for case in ["particle_friction", "holonomic_control"] {
        let d = derive(case);
        let c = &d.contact;
        let x = &c.coordinates;
        let n = d.system.coordinates.len();
        let energy = &c.energy;
        let eta = contact_form(&d);
        let eta_tilde: Vec<Expr> = eta.iter().map(|e| (e / energy).simplify()).collect();
        let gamma = &c.rates;
        let q_gamma: Vec<Expr> = c
            .free_rates
            .iter()
            .zip(gamma)
            .map(|(a, b)| (a - b).simplify())
            .collect();
        let omega = density(&eta, &eta, n, x);
        let omega_tilde = density(&eta_tilde, &eta_tilde, n, x);
        assert!(
            (omega_tilde.clone() * energy.powi(n as i64 + 1) - omega).vanishes(),
            "{case}: Ω̃_L = Ω_L / E_L^(n+1)"
        );
        let left = lie_density(gamma, &omega_tilde, x);
        let beta_tilde = lie_one_form(&q_gamma, &eta_tilde, x);
        let tail = density(&eta_tilde, &beta_tilde, n, x);
        let corrected = -Expr::int(n as i64) * tail.clone();
        assert!(
            c.restrict(&(left.clone() - corrected)).vanishes(),
            "{case}: (83d) with the factor −n"
        );
        assert!(
            !c.restrict(&(left - tail)).vanishes(),
            "{case}: the printed (83d) must be refused"
        );
    }
}
