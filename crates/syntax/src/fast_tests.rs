//! The fast path (`fast`) against the pest parser (`parse`): the same tree for every spec shipped, and for
//! thousands of edits of them, valid or not (where the pest parser fails, so must the fast
//! path, so that the diagnostics stay pest's).

use std::path::{Path, PathBuf};

use crate::ast::Spec;

/// Every `.mech` file under `golden/`, in a fixed order.
fn shipped_specs() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "mech") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../golden");
    let mut out = Vec::new();
    walk(&root, &mut out);
    out
}

/// The fast path's tree and pest's, each `None` where that parser refuses the text; `None`
/// altogether when the nesting limit refuses it first (neither parser runs then).
fn both(source: &str) -> Option<(Option<Spec>, Option<Spec>)> {
    crate::nesting::check(source).ok()?;
    Some((crate::fast::parse(source), crate::parse::pest_tree(source)))
}

fn assert_same(source: &str, what: &str) {
    if let Some((fast, pest)) = both(source) {
        assert!(
            fast == pest,
            "{what}: the fast path gives {} where pest gives {}\n--- text ---\n{source}",
            describe(&fast),
            describe(&pest),
        );
    }
}

fn describe(tree: &Option<Spec>) -> String {
    match tree {
        None => "no tree".to_string(),
        Some(spec) => format!("{spec:#?}"),
    }
}

#[test]
fn every_shipped_spec_parses_to_pests_tree() {
    let specs = shipped_specs();
    assert!(specs.len() > 100, "only {} specs found", specs.len());
    let mut refused = 0;
    for path in &specs {
        let source = std::fs::read_to_string(path).unwrap();
        let Some((fast, pest)) = both(&source) else {
            continue;
        };
        assert!(fast == pest, "{}: the trees differ", path.display());
        // Only the examples of bad specs (`golden/errors/`) are refused.
        if pest.is_none() {
            assert!(
                path.components().any(|c| c.as_os_str() == "errors"),
                "{}: refused",
                path.display()
            );
            refused += 1;
        }
    }
    assert!(
        refused > 0 && refused < specs.len() / 4,
        "{refused} refused"
    );
}

/// The layout cases of `docs/spec-language.md`, each where the two parsers could part: skips
/// before optional parts, comments, `\r\n`, `;`, continuation lines, primes, partials, strings.
#[test]
fn layout_corner_cases_parse_alike() {
    let cases = [
        "system s\n",
        "system s # a comment\n\n  # another\r\ncoordinates q; algebroid tangent\n",
        "lagrangian = q' ^ 2/2 - -q +\n   # note\n  3.25*q'' (t)\n",
        "lagrangian = q'(t, s) * f (x) - d/dq + d / dq\n",
        "lagrangian = ((\n a\n +\n b\n )\n)\n",
        "lagrangian = -a^-b^c*d - - - e\n",
        "lagrangian = 1.\n",
        "lagrangian = {f, g} + {\nf\n,\ng\n}\n",
        "algebroid tangent   # preset\n",
        "algebroid so3 {\n sections e1, e2,\n   e3\n anchor e1 = d/dx\n bracket [ e1 ,\n e2 ] = e3\n}\n",
        "algebroid {}\n",
        "algebroid { ; }\n",
        "constraints nonholonomic { x' = y ; z' = 0 }\n",
        "constraints holonomicx { x = 0 }\n",
        "symmetry SE2 on x, y, theta\n",
        "symmetry SE2 on x, y, theta { velocities v1, v2, w; action right\n momentum mu\n connection mechanical\n connection { A(d/dx) = e1 }\n generator xi = d/dx }\n",
        "symmetry rotor { u1 = 1; gauge = 0 }\n",
        "frame { velocities v1, v2\n eta1 = cos(phi)*p1 }\n",
        "latex { theta = \"\\\\vartheta\"; w = \"\\omega \\\" q\" }\n",
        "latex { t = \"unterminated }\n",
        "expect closed { (a, b) = c\n x\n y = z # c\n {f, g} = 0 }\n",
        "gravity = (0, 0,\n -g)\n body b { mass = m; com = (0, 0, l) }\n joint j revolute { parent = world; child = b; axis = (0,0,1) }\n contact c rolling { body = b }\n",
        "functions f(t), g(t)\ninputs u, v\nparameters a,\n b\ntime t\naction z\nmomenta p\ndiscrete midpoint\nlet k = a*b\nhamiltonian = p^2/2\nforces { q = u }\n",
        "system s extra\n",
        "system\n",
        "",
        "\n;\n",
        "lagrangian = q' +\n",
        "lagrangian = q'\n + q\n",
        "systems s\n",
        "lagrangian = f(,)\n",
        "lagrangian = 2^-1*3 - x'^2\n",
    ];
    for (k, case) in cases.iter().enumerate() {
        assert_same(case, &format!("case {k}"));
    }
}

/// A small deterministic generator (xorshift), so the edits are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `source` with one random edit: a character range deleted, a piece of the grammar's text
/// inserted, or a line doubled.
fn edited(source: &str, rng: &mut Rng) -> String {
    const PIECES: [&str; 26] = [
        " ", "\t", "\n", "\r\n", ";", "#", "(", ")", "{", "}", "[", "]", ",", "=", "-", "+", "*",
        "/", "^", "'", "\"", "\\", "d/d", "x", "1.5", "symmetry",
    ];
    let boundaries: Vec<usize> = (0..=source.len())
        .filter(|&i| source.is_char_boundary(i))
        .collect();
    let at = boundaries[rng.below(boundaries.len())];
    match rng.below(3) {
        0 => {
            let later: Vec<usize> = boundaries.iter().copied().filter(|&i| i >= at).collect();
            let to = later[rng.below(later.len().min(4))];
            format!("{}{}", &source[..at], &source[to..])
        }
        1 => format!(
            "{}{}{}",
            &source[..at],
            PIECES[rng.below(PIECES.len())],
            &source[at..]
        ),
        _ => {
            let lines: Vec<&str> = source.split_inclusive('\n').collect();
            let k = rng.below(lines.len().max(1));
            let mut out: Vec<&str> = lines.clone();
            if let Some(line) = lines.get(k) {
                out.insert(k, line);
            }
            out.concat()
        }
    }
}

#[test]
fn edits_of_the_shipped_specs_parse_alike_or_fail_alike() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut accepted = 0;
    let mut refused = 0;
    for path in shipped_specs() {
        let source = std::fs::read_to_string(&path).unwrap();
        for _ in 0..40 {
            let mut text = edited(&source, &mut rng);
            if rng.below(2) == 0 {
                text = edited(&text, &mut rng);
            }
            if let Some((fast, pest)) = both(&text) {
                assert!(
                    fast == pest,
                    "{} edited: the fast path gives {} where pest gives {}\n--- text ---\n{text}",
                    path.display(),
                    describe(&fast),
                    describe(&pest),
                );
                if pest.is_some() {
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
        }
    }
    // Both kinds are many, so the comparison is not vacuous either way.
    assert!(
        accepted > 1000 && refused > 1000,
        "{accepted} accepted, {refused} refused"
    );
}
