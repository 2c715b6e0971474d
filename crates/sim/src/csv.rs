//! CSV output of a trajectory.
//!
//! One header row of column names (`t`, states, extras), then one row per sample. Numbers are
//! written with Rust's `{:e}` format, the shortest decimal mantissa that parses back to the same
//! `f64` bits (`0.1` → `1e-1`, `-0.0` → `-0e0`, `1234.5` → `1.2345e3`; infinities and NaN as
//! `inf`, `-inf`, `NaN`). It is exact and deterministic, and readable by spreadsheets, numpy
//! and pandas. Names containing a comma, quote or line break are quoted (RFC 4180); lines end
//! with `\n`.

use std::io::{self, BufWriter, Write};

use crate::Trajectory;

/// Writes `trajectory` as CSV to `out` (buffered internally, flushed at the end).
pub fn write_csv<W: Write>(trajectory: &Trajectory, out: W) -> io::Result<()> {
    let mut out = BufWriter::new(out);
    let header: Vec<String> = trajectory.column_names().into_iter().map(quote).collect();
    writeln!(out, "{}", header.join(","))?;
    let empty = Vec::new();
    for (k, t) in trajectory.times.iter().enumerate() {
        write!(out, "{t:e}")?;
        let state = trajectory.states.get(k).unwrap_or(&empty);
        let extra = trajectory.extras.get(k).unwrap_or(&empty);
        for v in state.iter().chain(extra) {
            write!(out, ",{v:e}")?;
        }
        writeln!(out)?;
    }
    out.flush()
}

/// A header field, quoted if it needs to be.
fn quote(name: &str) -> String {
    if name.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}
