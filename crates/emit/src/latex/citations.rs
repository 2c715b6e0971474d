//! The citations of a report's prose as `\cite` commands of the papers it lists.

/// The prose's citations as `\cite`: `[IMMS07]` is `\cite{IMMS07}`, `[IMMS07, \S II.4]` is
/// `\cite[\S II.4]{IMMS07}`, and a group `[CM01; MP06]` or `[BRM09, \S 4; LLM07]` is
/// `\cite{CM01,MP06}` or `\cite[\S 4]{BRM09}; \cite{LLM07}`, for the labels of `papers`; other
/// brackets stay as written.
pub(super) fn cite(text: &str, papers: &[String]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let group = after
            .find(']')
            .filter(|&close| !after[..close].contains('['))
            .and_then(|close| Some((cite_group(&after[..close], papers)?, &after[close + 1..])));
        match group {
            Some((command, tail)) => {
                out.push_str(&command);
                rest = tail;
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The `\cite` commands of the inside of a bracket, `A; B, place`, when every part names a
/// label of `papers`: labels without a place share one command.
fn cite_group(inside: &str, papers: &[String]) -> Option<String> {
    let mut commands: Vec<String> = Vec::new();
    let mut bare: Vec<&str> = Vec::new();
    for part in inside.split("; ") {
        let (label, place) = match part.split_once(", ") {
            Some((label, place)) => (label, Some(place)),
            None => (part, None),
        };
        papers.iter().find(|p| p.as_str() == label)?;
        match place {
            None => bare.push(label),
            Some(place) => {
                if !bare.is_empty() {
                    commands.push(format!("\\cite{{{}}}", bare.join(",")));
                    bare.clear();
                }
                commands.push(format!("\\cite[{place}]{{{label}}}"));
            }
        }
    }
    if !bare.is_empty() {
        commands.push(format!("\\cite{{{}}}", bare.join(",")));
    }
    Some(commands.join("; "))
}

#[cfg(test)]
mod tests {
    use super::cite;

    #[test]
    fn citations_become_cite_commands() {
        let papers = vec!["IMMS07".to_string(), "GLMM09".to_string()];
        assert_eq!(
            cite(
                "as in [IMMS07, \\S II.4] and [GLMM09]; [Featherstone, 2008]",
                &papers
            ),
            "as in \\cite[\\S II.4]{IMMS07} and \\cite{GLMM09}; [Featherstone, 2008]"
        );
        assert_eq!(
            cite("[IMMS07], \\S VII", &papers),
            "\\cite{IMMS07}, \\S VII"
        );
        assert_eq!(
            cite("[IMMS07; GLMM09] and [GLMM09, \\S 4; IMMS07]", &papers),
            "\\cite{IMMS07,GLMM09} and \\cite[\\S 4]{GLMM09}; \\cite{IMMS07}"
        );
        assert_eq!(
            cite("[IMMS07; Featherstone]", &papers),
            "[IMMS07; Featherstone]"
        );
    }
}
