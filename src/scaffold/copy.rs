//! `deckspec new <name> --from <variant>`: the variant's folder and its scenarios folder, copied
//! under the new name. What names the variant is renamed, and nothing else:
//!
//! - the script named after the variant (`<from>.rhai`) becomes `<name>.rhai`;
//! - `name:` in `variant.yaml` and `variant:` in `rulebook.yaml`;
//! - every path a rule file writes (`extends:`, `script:`, `modules:` in `variant.yaml` and
//!   `bots.yaml`, Rhai `import "…"`) that leads into the variant's own folder from outside it
//!   (`../<from>/…`) or names the renamed script; a path into another variant's folder
//!   (Dutch's `../recall/recall.rhai`) is kept;
//! - `file:` and `at:` entries naming the renamed script in `equivalent-mutants.yaml`
//!   (comments are kept as they are there and in YAML files);
//! - in scenarios, `Given a <from> game` (any step keyword, `a` or `an`) and the tag `@<from>`.
//!
//! Words that happen to be the variant's name (Cambia's `cambia` action, Recall's `recall`
//! end reason, `dutch_caller`) are left alone. Only regular files are copied; anything else (a
//! link) is left out and said so.

use super::{Files, Planned, ScaffoldError};
use std::path::{Path, PathBuf};

/// What a variant's files are, for renaming.
struct Rename<'a> {
    from: &'a str,
    to: &'a str,
    /// Whether `<from>.rhai` is in the variant's folder (and so becomes `<to>.rhai`).
    script_renamed: bool,
}

/// The copied files of `rules/<from>` and `specs/<from>` for the variant `to`, and notes.
pub(super) fn files(
    rules: &Path,
    specs: &Path,
    from: &str,
    to: &str,
) -> Result<Files, ScaffoldError> {
    let mut notes = Vec::new();
    let source = rules.join(from);
    let rename = Rename {
        from,
        to,
        script_renamed: source.join(format!("{from}.rhai")).is_file(),
    };
    let mut variant = Vec::new();
    for rel in regular_files(&source, &mut notes)? {
        let text = read(&source.join(&rel))?;
        let text = match rel.to_str() {
            Some("variant.yaml") => rename_yaml(&text, "name", &rename, true),
            Some("bots.yaml") => rename_yaml(&text, "", &rename, true),
            Some("rulebook.yaml") => rename_yaml(&text, "variant", &rename, false),
            Some("equivalent-mutants.yaml") if rename.script_renamed => text
                .split_inclusive('\n')
                .map(|line| {
                    if line.trim_start().starts_with('#') {
                        line.to_string()
                    } else {
                        replace_bounded(line, &format!("{from}.rhai"), &format!("{to}.rhai"))
                    }
                })
                .collect(),
            Some(other) if other.ends_with(".rhai") => {
                let dir: Vec<String> = rel
                    .parent()
                    .into_iter()
                    .flat_map(|p| p.iter())
                    .map(|c| c.to_string_lossy().into_owned())
                    .collect();
                rename_imports(&text, &dir, &rename)
            }
            _ => text,
        };
        let path = if rename.script_renamed && rel == Path::new(&format!("{from}.rhai")) {
            PathBuf::from(format!("{to}.rhai"))
        } else {
            rel
        };
        variant.push(Planned {
            path,
            text: text.into_bytes(),
        });
    }
    let spec_source = specs.join(from);
    let mut scenarios = Vec::new();
    if spec_source.is_dir() {
        for rel in regular_files(&spec_source, &mut notes)? {
            let full = spec_source.join(&rel);
            let text = if rel.extension().is_some_and(|e| e == "feature") {
                rename_scenarios(&read(&full)?, from, to).into_bytes()
            } else {
                std::fs::read(&full).map_err(|e| io_error("read", &full, e))?
            };
            scenarios.push(Planned { path: rel, text });
        }
    }
    if !scenarios
        .iter()
        .any(|f| f.path.extension().is_some_and(|e| e == "feature"))
    {
        notes.push(format!(
            "{} holds no scenarios to copy: write some in {} (deckspec test finds none yet)",
            spec_source.display(),
            specs.join(to).display()
        ));
    }
    Ok(Files {
        variant,
        scenarios,
        notes,
    })
}

fn io_error(action: &'static str, path: &Path, e: std::io::Error) -> ScaffoldError {
    ScaffoldError::Io {
        action,
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

fn read(path: &Path) -> Result<String, ScaffoldError> {
    std::fs::read_to_string(path).map_err(|e| io_error("read", path, e))
}

/// The regular files under `dir`, relative to it, sorted; a link or other special file is
/// noted and left out.
fn regular_files(dir: &Path, notes: &mut Vec<String>) -> Result<Vec<PathBuf>, ScaffoldError> {
    fn walk(
        root: &Path,
        rel: &Path,
        out: &mut Vec<PathBuf>,
        notes: &mut Vec<String>,
    ) -> Result<(), ScaffoldError> {
        let here = root.join(rel);
        let mut entries: Vec<_> = std::fs::read_dir(&here)
            .map_err(|e| io_error("read", &here, e))?
            .collect::<Result<_, _>>()
            .map_err(|e| io_error("read", &here, e))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = rel.join(entry.file_name());
            let kind = entry
                .file_type()
                .map_err(|e| io_error("read", &entry.path(), e))?;
            if kind.is_dir() {
                walk(root, &path, out, notes)?;
            } else if kind.is_file() {
                out.push(path);
            } else {
                notes.push(format!(
                    "{} is not a regular file (a link?): not copied",
                    entry.path().display()
                ));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, Path::new(""), &mut out, notes)?;
    Ok(out)
}

/// A YAML rule file with its top-level `key:` (if any, and if it holds the variant's name) set
/// to the new name, and with `paths` the values of `extends:`, `script:` and `modules:` renamed
/// where they lead into the variant's own folder. Comments and layout are kept: only those
/// values change, in place.
fn rename_yaml(text: &str, key: &str, rename: &Rename, paths: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut mapping: Vec<(String, String)> = Vec::new();
    if paths && let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(text) {
        let mut written: Vec<&str> = Vec::new();
        for field in ["extends", "script"] {
            written.extend(value.get(field).and_then(serde_yaml::Value::as_str));
        }
        if let Some(modules) = value.get("modules").and_then(serde_yaml::Value::as_mapping) {
            written.extend(modules.values().filter_map(serde_yaml::Value::as_str));
        }
        for w in written {
            let new = rewrite_path(w, &[], rename, false);
            if new != w {
                mapping.push((w.to_string(), new));
            }
        }
    }
    for line in text.split_inclusive('\n') {
        let mut line = line.to_string();
        if !key.is_empty()
            && let Some(rest) = line.strip_prefix(&format!("{key}:"))
        {
            let value = rest.trim_start();
            let value_at = line.len() - value.len();
            for quote in ["", "'", "\""] {
                let word = format!("{quote}{}{quote}", rename.from);
                let ends = value[word.len().min(value.len())..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || c == '#');
                if value.starts_with(&word) && ends {
                    line.replace_range(
                        value_at..value_at + word.len(),
                        &format!("{quote}{}{quote}", rename.to),
                    );
                    break;
                }
            }
        }
        if !line.trim_start().starts_with('#') {
            for (old, new) in &mapping {
                line = replace_bounded(&line, old, new);
            }
        }
        out.push_str(&line);
    }
    out
}

/// `text` with every occurrence of `old` that stands alone (not inside a longer path or word:
/// no letter, digit, `_`, `-`, `.` or `/` just before it, nor any but `.` just after it)
/// replaced by `new`.
fn replace_bounded(text: &str, old: &str, new: &str) -> String {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(old) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + old.len()..].chars().next();
        let alone = !before.is_some_and(part) && !after.is_some_and(|c| part(c) && c != '.');
        out.push_str(&rest[..at]);
        out.push_str(if alone { new } else { old });
        rest = &rest[at + old.len()..];
    }
    out.push_str(rest);
    out
}

/// A path written in a file at `dir` (folders under the variant's own folder), rewritten for
/// the copy. It is walked as written, from the file's folder: a path that goes up to the rules
/// folder and comes back down into the variant's own folder (`../dutch/x.rhai`) comes down into
/// the copy's, and a path that names the renamed script names the new one (`dutch.rhai`,
/// `../dutch/dutch.rhai`; in an `import`, also without `.rhai`). Any other path, one that leaves
/// the rules folder or is absolute, is returned as it is.
fn rewrite_path(written: &str, dir: &[String], rename: &Rename, import: bool) -> String {
    if written.starts_with('/') || written.contains('\\') {
        return written.to_string();
    }
    let mut parts: Vec<String> = written.split('/').map(str::to_string).collect();
    // Where the walk is, from the rules folder: each folder or file, and which written part
    // went there (None: the file's own place).
    let mut at: Vec<(String, Option<usize>)> = std::iter::once(rename.from.to_string())
        .chain(dir.iter().cloned())
        .map(|c| (c, None))
        .collect();
    for (i, part) in parts.iter().enumerate() {
        match part.as_str() {
            "" | "." => {}
            ".." => {
                if at.pop().is_none() {
                    return written.to_string();
                }
            }
            other => at.push((other.to_string(), Some(i))),
        }
    }
    if at.first().is_none_or(|(c, _)| c != rename.from) {
        return written.to_string();
    }
    if let Some((_, Some(i))) = at.first() {
        parts[*i] = rename.to.to_string();
    }
    if rename.script_renamed
        && let [_, (file, Some(i))] = at.as_slice()
    {
        if *file == format!("{}.rhai", rename.from) {
            parts[*i] = format!("{}.rhai", rename.to);
        } else if import && file == rename.from {
            parts[*i] = rename.to.to_string();
        }
    }
    parts.join("/")
}

/// A Rhai script with the paths of its `import "…"` statements rewritten (`rewrite_path`).
fn rename_imports(text: &str, dir: &[String], rename: &Rename) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("import") {
        let word_before = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at + "import".len()]);
        rest = &rest[at + "import".len()..];
        let gap = rest.len() - rest.trim_start().len();
        if word_before || gap == 0 || !rest[gap..].starts_with('"') {
            continue;
        }
        let Some(end) = rest[gap + 1..].find('"') else {
            continue;
        };
        let written = &rest[gap + 1..gap + 1 + end];
        out.push_str(&rest[..gap + 1]);
        out.push_str(&rewrite_path(written, dir, rename, true));
        rest = &rest[gap + 1 + end..];
    }
    out.push_str(rest);
    out
}

/// A scenario file with `Given a <from> game` (any keyword, `a` or `an`) and the tag `@<from>`
/// naming the new variant. Every other line is kept as it is.
fn rename_scenarios(text: &str, from: &str, to: &str) -> String {
    let tag = format!("@{from}");
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if trimmed.starts_with('@') {
            // Tags up to a comment, each alone between spaces.
            let mut renamed = String::from(indent);
            let mut comment = false;
            for piece in trimmed.split_inclusive(char::is_whitespace) {
                let word = piece.trim_end();
                comment |= word.starts_with('#');
                if !comment && word == tag {
                    renamed.push_str(&format!("@{to}{}", &piece[word.len()..]));
                } else {
                    renamed.push_str(piece);
                }
            }
            out.push_str(&renamed);
            continue;
        }
        match rename_game_step(indent, trimmed, from, to) {
            Some(renamed) => out.push_str(&renamed),
            None => out.push_str(line),
        }
    }
    out
}

/// `Given a <from> game with …` (any keyword) naming `to` instead, if the line is one.
fn rename_game_step(indent: &str, trimmed: &str, from: &str, to: &str) -> Option<String> {
    let keyword = ["Given", "And", "But", "When", "Then", "*"]
        .into_iter()
        .find(|k| trimmed.starts_with(k))?;
    let after = &trimmed[keyword.len()..];
    let spaced = after.trim_start();
    let space = &after[..after.len() - spaced.len()];
    if space.is_empty() {
        return None;
    }
    let article = ["an ", "a "].into_iter().find(|a| spaced.starts_with(a))?;
    let rest = spaced[article.len()..].strip_prefix(from)?;
    if !rest.starts_with(" game") {
        return None;
    }
    Some(format!("{indent}{keyword}{space}{article}{to}{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rename<'a>(from: &'a str, to: &'a str) -> Rename<'a> {
        Rename {
            from,
            to,
            script_renamed: true,
        }
    }

    #[test]
    fn paths_into_the_variants_own_folder_follow_the_copy() {
        let r = rename("dutch", "golf");
        for (written, dir, import, expected) in [
            (
                "../recall/recall.rhai",
                &[][..],
                false,
                "../recall/recall.rhai",
            ),
            (
                "../recall/variant.yaml",
                &[],
                false,
                "../recall/variant.yaml",
            ),
            ("dutch.rhai", &[], false, "golf.rhai"),
            ("./dutch.rhai", &[], false, "./golf.rhai"),
            ("../dutch/dutch.rhai", &[], false, "../golf/golf.rhai"),
            (
                "../dutch/lib/help.rhai",
                &[],
                false,
                "../golf/lib/help.rhai",
            ),
            ("lib/help.rhai", &[], false, "lib/help.rhai"),
            ("bots.rhai", &[], false, "bots.rhai"),
            ("../../outside.rhai", &[], false, "../../outside.rhai"),
            ("/abs/dutch.rhai", &[], false, "/abs/dutch.rhai"),
            ("dutch", &[], true, "golf"),
            ("dutch", &[], false, "dutch"),
            ("../dutch", &["lib".to_string()][..], true, "../golf"),
            (
                "../../dutch/x",
                &["lib".to_string()][..],
                true,
                "../../golf/x",
            ),
            ("helpers", &[], true, "helpers"),
        ] {
            assert_eq!(
                rewrite_path(written, dir, &r, import),
                expected,
                "{written}"
            );
        }
        let kept = Rename {
            script_renamed: false,
            ..r
        };
        assert_eq!(rewrite_path("dutch.rhai", &[], &kept, false), "dutch.rhai");
        assert_eq!(
            rewrite_path("../dutch/dutch.rhai", &[], &kept, false),
            "../golf/dutch.rhai"
        );
    }

    #[test]
    fn yaml_files_keep_their_layout_and_rename_only_the_variant() {
        let yaml = "# dutch: Recall plus collections (name: dutch)\nextends: ../recall/variant.yaml\nname: dutch   # the name\nscript: dutch.rhai\nmodules:\n  recall: ../recall/recall.rhai\n  own: \"../dutch/lib.rhai\"\nvars:\n  game: { dutch_caller: null, name: dutch }\n";
        assert_eq!(
            rename_yaml(yaml, "name", &rename("dutch", "golf"), true),
            "# dutch: Recall plus collections (name: dutch)\nextends: ../recall/variant.yaml\nname: golf   # the name\nscript: golf.rhai\nmodules:\n  recall: ../recall/recall.rhai\n  own: \"../golf/lib.rhai\"\nvars:\n  game: { dutch_caller: null, name: dutch }\n"
        );
        assert_eq!(
            rename_yaml(
                "variant: 'dutch'\nrules: []\n",
                "variant",
                &rename("dutch", "golf"),
                false
            ),
            "variant: 'golf'\nrules: []\n"
        );
        assert_eq!(
            rename_yaml("name: dutchess\n", "name", &rename("dutch", "golf"), true),
            "name: dutchess\n"
        );
    }

    #[test]
    fn equivalents_name_the_renamed_script() {
        assert_eq!(
            replace_bounded(
                "- file: dutch.rhai\n  at: dutch.rhai:12:5\n- file: ../dutch.rhai\n- file: xdutch.rhai\n",
                "dutch.rhai",
                "golf.rhai"
            ),
            "- file: golf.rhai\n  at: golf.rhai:12:5\n- file: ../dutch.rhai\n- file: xdutch.rhai\n"
        );
    }

    #[test]
    fn imports_into_the_own_folder_follow_the_copy() {
        let script = "import \"../dutch/helpers\" as h;\nimport \"../recall/recall\" as recall;\n// reimport \"dutch\"\nfn important() { \"import\" }\n";
        assert_eq!(
            rename_imports(script, &[], &rename("dutch", "golf")),
            "import \"../golf/helpers\" as h;\nimport \"../recall/recall\" as recall;\n// reimport \"dutch\"\nfn important() { \"import\" }\n"
        );
    }

    #[test]
    fn scenarios_name_the_copy_in_game_steps_and_tags_only() {
        let feature = "@dutch @slow @dutch-only # @dutch\nFeature: Dutch\n  Background:\n    Given a dutch game with players ann, bob\n    And the dutch_caller is ann\n  Scenario: s\n    * an dutch game with players ann\n    When ann does call_dutch\n    Then everyone sees game_end with reason dutch\n";
        assert_eq!(
            rename_scenarios(feature, "dutch", "golf"),
            "@golf @slow @dutch-only # @dutch\nFeature: Dutch\n  Background:\n    Given a golf game with players ann, bob\n    And the dutch_caller is ann\n  Scenario: s\n    * an golf game with players ann\n    When ann does call_dutch\n    Then everyone sees game_end with reason dutch\n"
        );
    }
}
