//! The starting game of `deckspec new <name>`: the files of `template/`, compiled into the
//! binary, with `{{name}}` replaced by the variant's name and `{{ID}}` (the rule ids' prefix) by
//! the name in capitals. A small complete game (deal, a setup phase with a timer, draw, swap,
//! discard, a peek, knock, a turn timer, scores) with every hook of the contract, bots of the
//! four levels, and scenarios that kill every mutant of its script.

use super::{Files, Planned};
use std::path::PathBuf;

/// The variant folder's files: (path, template); `{{name}}` in a path is the variant's name.
const VARIANT_FILES: [(&str, &str); 7] = [
    ("variant.yaml", include_str!("template/variant.yaml")),
    ("{{name}}.rhai", include_str!("template/game.rhai")),
    ("rulebook.yaml", include_str!("template/rulebook.yaml")),
    ("bots.yaml", include_str!("template/bots.yaml")),
    ("bots.rhai", include_str!("template/bots.rhai")),
    (
        "spec-strength.yaml",
        include_str!("template/spec-strength.yaml"),
    ),
    (
        "equivalent-mutants.yaml",
        include_str!("template/equivalent-mutants.yaml"),
    ),
];

/// The scenarios folder's files.
const SPEC_FILES: [(&str, &str); 1] = [("first.feature", include_str!("template/first.feature"))];

/// A template with the variant's name put in.
fn fill(template: &str, name: &str) -> String {
    template
        .replace("{{name}}", name)
        .replace("{{ID}}", &name.to_uppercase())
}

/// The files of the starting game named `name`: the variant folder's, then the scenarios'.
pub(super) fn files(name: &str) -> Files {
    let planned = |files: &[(&str, &str)]| {
        files
            .iter()
            .map(|(path, text)| Planned {
                path: PathBuf::from(fill(path, name)),
                text: fill(text, name).into_bytes(),
            })
            .collect()
    };
    Files {
        variant: planned(&VARIANT_FILES),
        scenarios: planned(&SPEC_FILES),
        notes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_placeholder_is_filled() {
        let files = super::files("golf");
        for file in files.variant.iter().chain(&files.scenarios) {
            let text = String::from_utf8(file.text.clone()).expect("UTF-8");
            assert!(
                !text.contains("{{") && !text.contains("}}"),
                "{}",
                file.path.display()
            );
        }
        assert!(
            files
                .variant
                .iter()
                .any(|f| f.path.as_os_str() == "golf.rhai")
        );
    }
}
