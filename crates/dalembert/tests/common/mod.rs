//! Test support shared by the integration test binaries of `dalembert` (each declares
//! `mod common;`): the external programs and files a test needs (see [`tools`]) and an
//! independent dense linear solver.
// Each test binary compiles this module on its own and uses only some of it.
#![allow(dead_code)]

mod tools;

// `dead_code` does not cover re-exports: each test binary uses only some of them.
#[allow(unused_imports)]
pub use tools::{require_path, require_python_module, require_tool, run_python, under_ci};

/// Solves `a x = b` by Gaussian elimination with partial pivoting: a solver independent of the
/// emitted code's (its LDLᵀ among them), to check the emitted code and the derivation against.
/// `a` is square, given row by row, with as many rows as `b` has entries, and nonsingular.
pub fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    assert_eq!(
        a.len(),
        n,
        "solve: {} rows for {n} right-hand sides",
        a.len()
    );
    for col in 0..n {
        let p = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, p);
        b.swap(col, p);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        let (b_top, b_rest) = b.split_at_mut(col + 1);
        let pivot_b = b_top[col];
        for (row, bi) in rest.iter_mut().zip(b_rest) {
            let f = row[col] / pivot_row[col];
            for (entry, p) in row.iter_mut().zip(pivot_row).skip(col) {
                *entry -= f * p;
            }
            *bi -= f * pivot_b;
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}
