//! Small string helpers: identifiers, escaping for C, TOML, Rust and Markdown, and the decimal
//! literals of the nominal values. Every generated file is made of these and `format!`.

/// Whether `s` is an ASCII identifier in C and in Rust: a letter or `_`, then letters, digits
/// or `_` (and not `_` alone).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok && s != "_" && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The words Rust reserves (strict and reserved keywords, every edition): none of them can
/// name a crate or a module without `r#`.
pub const RUST_KEYWORDS: &[&str] = &[
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// `s` on one line: every run of whitespace (newlines included) becomes one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s` made safe inside a C block comment on one line: no comment delimiter, no trigraph.
pub fn c_comment(s: &str) -> String {
    one_line(s)
        .replace("*/", "* /")
        .replace("/*", "/ *")
        .replace("??", "? ?")
}

/// `s` as a C string literal, quotes included: `\`, `"` and `?` (trigraphs) escaped, and every
/// byte outside printable ASCII as a three-digit octal escape.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for byte in s.bytes() {
        match byte {
            b'\\' | b'"' | b'?' => {
                out.push('\\');
                out.push(byte as char);
            }
            0x20..=0x7e => out.push(byte as char),
            _ => out.push_str(&format!("\\{byte:03o}")),
        }
    }
    out.push('"');
    out
}

/// `s` as a Rust string literal, quotes included.
pub fn rust_string(s: &str) -> String {
    format!("{s:?}")
}

/// `s` as a TOML basic string, quotes included.
pub fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as Markdown inline code, on one line: fenced by more backticks than any run inside it.
pub fn code(s: &str) -> String {
    let s = one_line(s);
    let longest = s
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// `s` as literal prose in Markdown, on one line: the characters that would make emphasis,
/// links, HTML or table cells (`\\ * _ [ ] < |`) escaped.
pub fn markdown(s: &str) -> String {
    let mut out = String::new();
    for c in one_line(s).chars() {
        if matches!(c, '\\' | '*' | '_' | '[' | ']' | '<' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `k / 10` as a decimal literal with one decimal (`tenths(1)` is `0.1`, `tenths(10)` is
/// `1.0`): exact text, the same on every machine.
pub fn tenths(k: usize) -> String {
    format!("{}.{}", k / 10, k % 10)
}

/// `text` on one line, then broken at spaces into lines of at most `width` characters (a
/// longer word stays whole on its own line).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` as a C block comment wrapped to 100 columns: `/* ... */` on one line when it fits,
/// else with ` * ` continuation lines.
pub fn c_block_comment(text: &str) -> String {
    let text = c_comment(text);
    if text.len() + 6 <= 100 {
        return format!("/* {text} */\n");
    }
    let lines = wrap(&text, 96);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let lead = if i == 0 { "/*" } else { " *" };
        out.push_str(&format!("{lead} {line}\n"));
    }
    out.push_str(" */\n");
    out
}

/// `lines` as comment lines with `prefix` (`//!`, `///`, `#`): a space after the prefix unless
/// the line is empty.
pub fn comment_lines(prefix: &str, lines: &[String]) -> String {
    lines
        .iter()
        .flat_map(|line| line.split('\n'))
        .map(|line| {
            if line.is_empty() {
                format!("{prefix}\n")
            } else {
                format!("{prefix} {line}\n")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_identifier("chaplygin_sleigh"));
        assert!(is_identifier("_x1"));
        assert!(!is_identifier("_"));
        assert!(!is_identifier("1x"));
        assert!(!is_identifier("a-b"));
        assert!(!is_identifier(""));
    }

    #[test]
    fn escapes() {
        assert_eq!(c_comment("a */ b\n c ??/"), "a * / b c ? ?/");
        assert_eq!(c_string("x'\"\\??"), "\"x'\\\"\\\\\\?\\?\"");
        assert_eq!(c_string("é"), "\"\\303\\251\"");
        assert_eq!(toml_string("a\"b\\\n"), "\"a\\\"b\\\\\\u000A\"");
        assert_eq!(rust_string("v1'"), "\"v1'\"");
        assert_eq!(code("v1'"), "`v1'`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`a"), "`` `a ``");
        assert_eq!(markdown("a | b\nc"), "a \\| b c");
        assert_eq!(
            markdown("2*m [a; b] x_1 <T>"),
            "2\\*m \\[a; b\\] x\\_1 \\<T>"
        );
    }

    #[test]
    fn decimals() {
        assert_eq!(tenths(1), "0.1");
        assert_eq!(tenths(10), "1.0");
        assert_eq!(tenths(23), "2.3");
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap("a bb  ccc\ndd", 6), ["a bb", "ccc dd"]);
        assert_eq!(wrap("abcdefgh i", 4), ["abcdefgh", "i"]);
        assert_eq!(c_block_comment("short"), "/* short */\n");
        let long = "word ".repeat(30);
        let comment = c_block_comment(&long);
        assert!(comment.starts_with("/* word"));
        assert!(comment.ends_with("\n */\n"));
        assert!(comment.lines().all(|l| l.len() <= 100));
    }

    #[test]
    fn comments() {
        let lines = vec!["a".to_string(), String::new(), "b\nc".to_string()];
        assert_eq!(comment_lines("//!", &lines), "//! a\n//!\n//! b\n//! c\n");
    }
}
