//! The constraints of every golden (`golden/` and every folder below it), as the resolver shapes
//! them: the velocity-free part `μ_0` of a linear or affine constraint, which the resolver reads
//! off `Ψ` at rest (every velocity zero), is `Ψ − μ_α y^α` normalised, the difference it
//! replaces.

use std::fs;
use std::path::{Path, PathBuf};

use model::ConstraintShape;

use super::root;

/// Every `spec.mech` under `folder`, in path order.
fn every_spec(folder: &Path, specs: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(folder)
        .expect("a readable folder")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    entries.sort();
    for entry in entries {
        if entry.join("spec.mech").exists() {
            specs.push(entry.join("spec.mech"));
        }
        every_spec(&entry, specs);
    }
}

#[test]
fn velocity_free_parts_are_the_constraints_less_their_velocity_terms() {
    let mut specs = Vec::new();
    every_spec(&root().join("golden"), &mut specs);
    let mut checked = 0;
    for spec in &specs {
        let source = fs::read_to_string(spec).unwrap();
        let render = |d: &[dalembert::Diagnostic]| dalembert::render_plain("spec.mech", &source, d);
        let ast = syntax::parse(&source).unwrap_or_else(|d| panic!("{}", render(&d)));
        let system = model::resolve(&ast).unwrap_or_else(|d| panic!("{}", render(&d)));
        let velocities = system.exprs(&system.algebroid.velocities);
        for c in system.constraints.iter().chain(&system.vakonomic) {
            if c.shape == ConstraintShape::Nonlinear {
                continue;
            }
            let difference = velocities
                .iter()
                .zip(&c.mu)
                .fold(c.psi.clone(), |acc, (y, m)| acc - m.clone() * y.clone())
                .simplify();
            assert_eq!(c.mu0, difference, "{}: μ_0 of {}", spec.display(), c.psi);
            checked += 1;
        }
    }
    // The 77 linear and affine constraints of the goldens, the bicycle's rolling contacts (one
    // of 81 444 nodes) among them.
    assert!(
        checked >= 77,
        "{checked} constraints in {} specs",
        specs.len()
    );
}
