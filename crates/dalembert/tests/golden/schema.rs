//! The JSON Schema of the JSON output (`docs/schema/dalembert.schema.json`) against the committed
//! JSON of every golden (`golden/**/expected/*.json`), by a small validator for exactly the
//! keywords the schema uses (an unknown keyword fails the test, so the schema cannot outgrow
//! it), cross-checked by Python's `jsonschema` when it is installed; the validator rejects
//! broken documents; and the SymPy example of `docs/json-schema.md` is the script
//! `docs/examples/sympy_check.py`, and runs (when SymPy is installed).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use super::root;

fn schema() -> Value {
    let path = root().join("docs/schema/dalembert.schema.json");
    let text = fs::read_to_string(&path).expect("docs/schema/dalembert.schema.json exists");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Every committed JSON document of a golden, sorted.
fn documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json")
                && path.parent().unwrap().ends_with("expected")
                // `dalembert linearize`'s documents have a schema of their own.
                && !path.to_string_lossy().ends_with("-linear.json")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("golden"), &mut out);
    out.sort();
    out
}

fn load(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

/// The keywords [`Validator`] checks; `ANNOTATIONS` it reads past.
const KEYWORDS: [&str; 13] = [
    "$ref",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "dependentRequired",
    "items",
    "allOf",
    "anyOf",
    "oneOf",
    "$defs",
];
const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "title", "description", "$comment"];

/// A validator for the subset of JSON Schema (draft 2020-12) that the schema uses, with `$ref`
/// only to `#/$defs/<name>`.
struct Validator<'a> {
    root: &'a Value,
}

impl Validator<'_> {
    /// The errors of `value` against the whole schema, each as `<JSON pointer>: <what>`.
    fn errors(&self, value: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(self.root, value, "", &mut errors);
        errors
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
        let schema = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                errors.push(format!("{at}: not allowed"));
                return;
            }
            Value::Object(schema) => schema,
            _ => panic!("{at}: a schema is an object or a boolean"),
        };
        for (keyword, arg) in schema {
            let keyword = keyword.as_str();
            match keyword {
                "$ref" => {
                    let target = self.resolve(arg.as_str().expect("$ref is a string"));
                    self.check(target, value, at, errors);
                }
                "type" => {
                    let name = arg.as_str().expect("type is one name");
                    if !has_type(value, name) {
                        errors.push(format!("{at}: not of type {name}: {}", brief(value)));
                    }
                }
                "const" if value != arg => {
                    errors.push(format!("{at}: {} is not {arg}", brief(value)));
                }
                "enum" if !arg.as_array().unwrap().contains(value) => {
                    errors.push(format!("{at}: {} is not one of {arg}", brief(value)));
                }
                "properties" => self.properties(schema, value, at, errors),
                // Checked with "properties" when there is one.
                "additionalProperties" if !schema.contains_key("properties") => {
                    self.properties(schema, value, at, errors)
                }
                "required" => {
                    if let Some(object) = value.as_object() {
                        for key in arg.as_array().unwrap() {
                            let key = key.as_str().unwrap();
                            if !object.contains_key(key) {
                                errors.push(format!("{at}: missing required key {key:?}"));
                            }
                        }
                    }
                }
                "dependentRequired" => {
                    if let Some(object) = value.as_object() {
                        for (key, needs) in arg.as_object().unwrap() {
                            if !object.contains_key(key) {
                                continue;
                            }
                            for need in needs.as_array().unwrap() {
                                let need = need.as_str().unwrap();
                                if !object.contains_key(need) {
                                    errors.push(format!("{at}: {key:?} without {need:?}"));
                                }
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(items) = value.as_array() {
                        for (i, item) in items.iter().enumerate() {
                            self.check(arg, item, &format!("{at}/{i}"), errors);
                        }
                    }
                }
                "allOf" => {
                    for sub in arg.as_array().unwrap() {
                        self.check(sub, value, at, errors);
                    }
                }
                "anyOf" | "oneOf" => self.alternatives(keyword, arg, value, at, errors),
                "const" | "enum" | "additionalProperties" | "$defs" => {}
                _ if ANNOTATIONS.contains(&keyword) => {}
                _ => panic!("{at}: the schema uses {keyword:?}, which this validator lacks"),
            }
        }
    }

    /// `properties` with `additionalProperties` (a boolean or a schema for the other keys).
    fn properties(
        &self,
        schema: &serde_json::Map<String, Value>,
        value: &Value,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        let Some(object) = value.as_object() else {
            return;
        };
        let known = schema.get("properties").and_then(Value::as_object);
        let other = schema
            .get("additionalProperties")
            .unwrap_or(&Value::Bool(true));
        for (key, item) in object {
            let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
            match known.and_then(|k| k.get(key)) {
                Some(sub) => self.check(sub, item, &here, errors),
                None if other == &Value::Bool(false) => {
                    errors.push(format!("{at}: unknown key {key:?}"));
                }
                None => self.check(other, item, &here, errors),
            }
        }
    }

    /// `anyOf` (at least one alternative holds) and `oneOf` (exactly one); when none holds, the
    /// errors of the alternative with the fewest.
    fn alternatives(
        &self,
        keyword: &str,
        arg: &Value,
        value: &Value,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        let results: Vec<Vec<String>> = arg
            .as_array()
            .unwrap()
            .iter()
            .map(|sub| {
                let mut e = Vec::new();
                self.check(sub, value, at, &mut e);
                e
            })
            .collect();
        let holding = results.iter().filter(|e| e.is_empty()).count();
        if holding == 0 {
            let closest = results.iter().min_by_key(|e| e.len()).unwrap();
            errors.push(format!(
                "{at}: matches none of the {} alternatives of {keyword}; the closest fails with:",
                results.len()
            ));
            errors.extend(closest.iter().map(|e| format!("  {e}")));
        } else if holding > 1 && keyword == "oneOf" {
            errors.push(format!("{at}: matches {holding} alternatives of oneOf"));
        }
    }

    fn resolve(&self, reference: &str) -> &Value {
        let name = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("$ref {reference:?} is not to #/$defs/"));
        self.root["$defs"]
            .get(name)
            .unwrap_or_else(|| panic!("$ref {reference:?}: no such definition"))
    }
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => panic!("unknown type {name:?}"),
    }
}

fn brief(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// Every keyword anywhere in `schema` is one the validator checks or an annotation.
fn keywords_known(schema: &Value, at: &str, unknown: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    for (keyword, arg) in map {
        let here = format!("{at}/{keyword}");
        match keyword.as_str() {
            "properties" | "$defs" | "dependentRequired" => {
                if keyword != "dependentRequired" {
                    for (name, sub) in arg.as_object().unwrap() {
                        keywords_known(sub, &format!("{here}/{name}"), unknown);
                    }
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                for (i, sub) in arg.as_array().unwrap().iter().enumerate() {
                    keywords_known(sub, &format!("{here}/{i}"), unknown);
                }
            }
            "items" | "additionalProperties" => keywords_known(arg, &here, unknown),
            k if KEYWORDS.contains(&k) || ANNOTATIONS.contains(&k) => {}
            _ => unknown.push(here),
        }
    }
}

#[test]
fn schema_uses_only_keywords_the_test_validator_checks() {
    let mut unknown = Vec::new();
    keywords_known(&schema(), "#", &mut unknown);
    assert!(unknown.is_empty(), "unsupported keywords: {unknown:?}");
}

#[test]
fn schema_every_golden_json_is_valid_against_the_schema() {
    let schema = schema();
    let validator = Validator { root: &schema };
    let mut forms = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let docs = documents();
    for path in &docs {
        let doc = load(path);
        forms.insert(
            doc.get("form")
                .and_then(Value::as_str)
                .unwrap_or("closed")
                .to_string(),
        );
        let errors = validator.errors(&doc);
        if !errors.is_empty() {
            failures.push(format!("{}:\n{}", path.display(), errors.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let every = ["closed", "contact", "implicit", "singular", "vakonomic"];
    assert_eq!(
        forms.iter().map(String::as_str).collect::<Vec<_>>(),
        every,
        "the goldens no longer cover every route ({} documents)",
        docs.len()
    );
}

/// `doc` changed by `edit` is rejected, with an error that mentions `mention`.
fn rejected(validator: &Validator, doc: &Value, edit: impl Fn(&mut Value), mention: &str) {
    let mut doc = doc.clone();
    edit(&mut doc);
    let errors = validator.errors(&doc);
    assert!(
        errors.iter().any(|e| e.contains(mention)),
        "not rejected for {mention:?}: {errors:?}"
    );
}

#[test]
fn schema_rejects_a_missing_key_a_bare_string_expression_and_an_unknown_key() {
    let schema = schema();
    let validator = Validator { root: &schema };
    let golden = |path: &str| load(&root().join("golden").join(path));
    let closed = golden("ball_on_turntable/expected/ball_on_turntable.json");
    let implicit = golden("implicit/snake_3/expected/snake_3.json");
    for doc in [&closed, &implicit] {
        assert!(validator.errors(doc).is_empty());
        let remove = |key: &'static str| {
            move |d: &mut Value| {
                d.as_object_mut().unwrap().remove(key);
            }
        };
        rejected(
            &validator,
            doc,
            remove("energy"),
            "missing required key \"energy\"",
        );
        rejected(
            &validator,
            doc,
            remove("identifiers"),
            "missing required key \"identifiers\"",
        );
        rejected(
            &validator,
            doc,
            |d| d["lagrangian"] = json!("m/2*(u1^2 + u2^2)"),
            "/lagrangian: not of type object",
        );
        rejected(
            &validator,
            doc,
            |d| d["extra"] = json!(1),
            "unknown key \"extra\"",
        );
        rejected(
            &validator,
            doc,
            |d| d["schema_version"] = json!(3),
            "/schema_version",
        );
        rejected(
            &validator,
            doc,
            |d| d["lagrangian"]["c"] = json!("m"),
            "/lagrangian: unknown key \"c\"",
        );
    }
    // Inside the sections: an equation as a bare string, a side with a stray key, a constraint
    // without its shape.
    rejected(
        &validator,
        &closed,
        |d| d["equations"]["u1"] = json!("0"),
        "/equations/u1: not of type object",
    );
    rejected(
        &validator,
        &closed,
        |d| d["hamiltonian"]["extra"] = json!({}),
        "/hamiltonian",
    );
    rejected(
        &validator,
        &closed,
        |d| {
            d["constraints"][0].as_object_mut().unwrap().remove("shape");
        },
        "missing required key \"shape\"",
    );
    rejected(
        &validator,
        &closed,
        |d| {
            d.as_object_mut().unwrap().remove("projector");
        },
        "without \"projector\"",
    );
}

/// Python's `jsonschema` validates every golden against the schema too (and rejects the same
/// broken documents): a real validator checks this one. Not run where `jsonschema` is missing,
/// except under CI, where that fails (`common::require_python_module`).
#[test]
fn schema_python_jsonschema_agrees_on_every_golden() {
    if !crate::common::require_python_module("jsonschema") {
        return;
    }
    let script = r#"
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
failures = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    for error in validator.iter_errors(doc):
        failures += 1
        print(path, error.json_path, error.message[:300])
    broken = [dict(doc, extra=1), dict(doc, lagrangian="L"), {k: v for k, v in doc.items() if k != "energy"}]
    for b in broken:
        if validator.is_valid(b):
            failures += 1
            print(path, "a broken document is accepted")
sys.exit(1 if failures else 0)
"#;
    let mut args = vec![
        "-c".to_string(),
        script.to_string(),
        root()
            .join("docs/schema/dalembert.schema.json")
            .display()
            .to_string(),
    ];
    args.extend(documents().iter().map(|p| p.display().to_string()));
    let out = Command::new("python3").args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "jsonschema disagrees:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The SymPy example of `docs/json-schema.md` is `docs/examples/sympy_check.py` verbatim, and
/// runs (from the repository's root) with SymPy; the run needs SymPy, and under CI a missing
/// SymPy fails the test (`common::require_python_module`).
#[test]
fn schema_docs_sympy_example_is_the_script_and_runs() {
    let script = fs::read_to_string(root().join("docs/examples/sympy_check.py")).unwrap();
    let doc = fs::read_to_string(root().join("docs/json-schema.md")).unwrap();
    let begin = "<!-- BEGIN docs/examples/sympy_check.py -->\n```python\n";
    let end = "```\n<!-- END docs/examples/sympy_check.py -->";
    let start = doc
        .find(begin)
        .expect("docs/json-schema.md has the BEGIN marker")
        + begin.len();
    let stop = start + doc[start..].find(end).expect("and the END marker");
    assert_eq!(
        &doc[start..stop],
        script,
        "docs/json-schema.md's example differs from docs/examples/sympy_check.py"
    );
    if !crate::common::require_python_module("sympy") {
        return;
    }
    let out = Command::new("python3")
        .arg("docs/examples/sympy_check.py")
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "docs/examples/sympy_check.py fails:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `dalembert linearize`'s JSON (`docs/schema/linearization.schema.json`): every committed
/// `*-linear.json` is valid, and a document with an unknown key or without `A` is not.
#[test]
fn schema_linearizations_are_valid_against_their_schema() {
    let path = root().join("docs/schema/linearization.schema.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let validator = Validator { root: &schema };
    let folder = root().join("golden/linearize");
    let mut seen = 0;
    let cases = fs::read_dir(&folder).unwrap().count();
    for case in fs::read_dir(&folder).unwrap() {
        let expected = case.unwrap().path().join("expected");
        for entry in fs::read_dir(&expected).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with("-linear.json") {
                continue;
            }
            seen += 1;
            let doc = load(&path);
            let errors = validator.errors(&doc);
            assert!(
                errors.is_empty(),
                "{}:\n{}",
                path.display(),
                errors.join("\n")
            );
            let mut extra = doc.clone();
            extra["lagrangian"] = Value::String("L".into());
            assert!(
                !validator.errors(&extra).is_empty(),
                "an unknown key is accepted"
            );
            let mut missing = doc.clone();
            missing.as_object_mut().unwrap().remove("A");
            assert!(
                !validator.errors(&missing).is_empty(),
                "a document without A is accepted"
            );
        }
    }
    assert_eq!(
        seen, cases,
        "one linearisation per golden of golden/linearize"
    );
    // The bicycle's, in double precision (numbers where the others have expressions).
    let bicycle = root().join("golden/vehicles/bicycle/expected/bicycle-linear.json");
    let errors = validator.errors(&load(&bicycle));
    assert!(
        errors.is_empty(),
        "{}:\n{}",
        bicycle.display(),
        errors.join("\n")
    );
}
