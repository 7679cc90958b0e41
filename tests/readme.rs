//! The README stays true to the service: its endpoint table lists exactly the operations of the
//! OpenAPI document (and the two pages beside it), its list of problem types holds every kind the
//! API sends, and its configuration table every flag of `baroque serve`.

use std::collections::BTreeSet;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_endpoint_table_lists_every_operation() {
    let text = readme();
    let table: BTreeSet<String> = text
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let method = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let path = cells.get(2)?.strip_prefix('`')?.strip_suffix('`')?;
            (method.chars().all(|c| c.is_ascii_uppercase()) && path.starts_with('/'))
                .then(|| format!("{method} {path}"))
        })
        .collect();
    let doc: serde_json::Value = serde_json::from_str(&baroque::api::openapi_json()).unwrap();
    let mut ops: BTreeSet<String> = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    ops.insert("GET /openapi.json".into());
    ops.insert("GET /docs/".into());
    assert_eq!(
        table, ops,
        "README endpoint table against the OpenAPI document"
    );
}

#[test]
fn the_problem_types_are_all_listed() {
    let text = readme();
    let start = text
        .find("The problem types")
        .expect("the list of problem types");
    let list = &text[start..start + text[start..].find("\n\n").unwrap()];
    for e in baroque::api::problem::ApiError::samples() {
        let t = e.problem().problem_type;
        let slug = t.trim_start_matches("/problems/");
        assert!(
            list.contains(&format!("`{slug}`")),
            "README lacks `{slug}`: {list}"
        );
    }
}

#[test]
fn the_configuration_table_has_every_flag_of_serve() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let text = readme();
    // The option lines: `  --name <VALUE>` or `  -x, --name`.
    let flags: Vec<&str> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("--") || (l.starts_with('-') && l.contains(", --")))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .filter(|w| *w != "--help")
        .collect();
    assert!(flags.len() > 20, "{flags:?}");
    for flag in flags {
        let flag = flag.split('<').next().unwrap();
        assert!(
            text.contains(&format!("| `{flag}` |")),
            "README's configuration table lacks {flag}"
        );
    }
}
