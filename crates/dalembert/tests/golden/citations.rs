//! What users read cites the papers bibliographically ([IMMS07, eq. (35)], [GLMM09] Ex. 6.1, …),
//! never the project's internal names for them nor a line of a converted text.
//!
//! Scanned: every committed golden output (`golden/**/expected/*`), every expected diagnostic
//! (`golden/errors/*.stderr`), every golden spec and notes file (`golden/**/*.mech`,
//! `golden/**/notes.md`), `README.md` and `docs/*.md`. Forbidden, case-insensitively:
//!
//! - the whole words `seed`/`seeds` and `digest`/`digests` (not `seeded`, `digestible`, …);
//! - a line-number citation: `line 1234`, `lines 12-34`, `l.240`, `L250`, `L250-L272`, `L12–34`
//!   (an `L` with three or more digits, or an `L` with digits followed by a range; `L1` alone is a
//!   Lagrangian's name).
//!
//! `docs/fuzzing.md` is the one exception for `seed`: the spec generator and the fuzzers have
//! random seeds (`DALEMBERT_GENERATED_SEED`, "seed 5219"), so there the word may appear, except
//! as a paper's internal name, written with three digits and a leading zero (`seed 000` … `seed
//! 099`), which no generator seed is written as. `digest` and line numbers are forbidden there too.

use std::fs;
use std::path::{Path, PathBuf};

use super::root;

/// Files whose every line is read by users.
fn scanned_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let in_expected = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "expected");
            let in_errors = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "errors");
            if in_expected
                || name.ends_with(".mech")
                || name == "notes.md"
                || (in_errors && name.ends_with(".stderr"))
            {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut files = Vec::new();
    walk(&root.join("golden"), &mut files);
    files.push(root.join("README.md"));
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The whole-word occurrences of `word` (lower case) in `line` (lower-cased), as byte offsets of
/// the word's end.
fn word_ends(line: &str, word: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        let before = line[..start].chars().next_back();
        let after = line[end..].chars().next();
        if !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char) {
            ends.push(end);
        }
        from = end;
    }
    ends
}

fn digits_at(s: &str) -> usize {
    s.chars().take_while(|c| c.is_ascii_digit()).count()
}

/// Why `line` cites something users cannot read, if it does.
fn offence(line: &str, seeds_allowed: bool) -> Option<String> {
    let lower = line.to_lowercase();
    for word in ["digest", "digests"] {
        if !word_ends(&lower, word).is_empty() {
            return Some(format!("the word {word:?}"));
        }
    }
    for word in ["seed", "seeds"] {
        for end in word_ends(&lower, word) {
            let rest = &lower[end..];
            let paper_seed = rest.starts_with(" 0") && digits_at(&rest[1..]) == 3;
            if !seeds_allowed || paper_seed {
                return Some(format!("the word {word:?}"));
            }
        }
    }
    // `line 1234`, `lines 12-34`
    for word in ["line", "lines"] {
        for end in word_ends(&lower, word) {
            let rest = &lower[end..];
            if rest.starts_with(' ') && digits_at(&rest[1..]) > 0 {
                return Some(format!("a line-number citation ({word} N)"));
            }
        }
    }
    // `l.240`, `L250`, `L250-L272`, `L12–34`
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let before = k.checked_sub(1).map(|j| chars[j].1);
        if before.is_some_and(is_word_char) {
            continue;
        }
        let rest = &line[i + c.len_utf8()..];
        if c == 'l' && rest.starts_with('.') && digits_at(&rest[1..]) > 0 {
            return Some("a line-number citation (l.N)".into());
        }
        if c != 'L' {
            continue;
        }
        let n = digits_at(rest);
        if n == 0 {
            continue;
        }
        let after = rest[n..].chars().next();
        let range = rest[n..].starts_with('-') || rest[n..].starts_with('–');
        let range_digits = range && {
            let tail = rest[n..].chars().skip(1).collect::<String>();
            let tail = tail.strip_prefix('L').unwrap_or(&tail);
            digits_at(tail) > 0
        };
        if (n >= 3 && !after.is_some_and(is_word_char)) || range_digits {
            return Some("a line-number citation (L N)".into());
        }
    }
    None
}

#[test]
fn citations_users_read_cite_papers_not_seeds_digests_or_line_numbers() {
    let root = root().canonicalize().unwrap();
    let mut offences = Vec::new();
    let files = scanned_files();
    assert!(files.len() > 50, "too few files scanned: {}", files.len());
    for path in files {
        let Ok(text) = fs::read_to_string(&path) else {
            continue; // not text
        };
        let path = path.canonicalize().unwrap();
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let seeds_allowed = rel == "docs/fuzzing.md";
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = offence(line, seeds_allowed) {
                offences.push(format!("{rel}:{}: {why}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "cite the paper ([IMMS07] §VI.3, [GLMM09] Ex. 6.1, eq. (35), …), not a seed, a digest or a \
         line number:\n{}",
        offences.join("\n")
    );
}

#[test]
fn citations_the_patterns_catch_what_they_should_and_nothing_else() {
    for bad in [
        "seed 000 §VI.1",
        "(Seed 001 Theorem 4.1)",
        "digest 003 section 3.7",
        "the digest's table",
        "Digests say",
        "line 1862",
        "lines 1864-1888",
        "(L250-L272)",
        "L12–34",
        "(L719)",
        "l.958",
    ] {
        assert!(offence(bad, false).is_some(), "{bad:?} should be caught");
    }
    for good in [
        "[IMMS07] §VI.3",
        "seeded, digestible",
        "L1 = m/2 (z1^2 + k^2 z2^2) - lambda x",
        "H1 of Ex. 3.4 case 1",
        "an outline 12",
        "L_0 and L2",
        "dl.1",
    ] {
        assert_eq!(offence(good, false), None, "{good:?} should pass");
    }
    assert!(offence("DALEMBERT_GENERATED_SEED=S, seed 5219", true).is_none());
    assert!(offence("seeds 0…9999", true).is_none());
    assert!(offence("seed 003", true).is_some());
    assert!(offence("digest", true).is_some());
}
