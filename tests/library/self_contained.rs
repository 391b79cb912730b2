//! The repository is self-contained: no text file points at a document a user of the project
//! does not have, every rulebook `source:` names its provenance as a known document title and
//! section (or the project's own rulings), and README.md's example scenario runs and passes.

use deckspec::scenarios::ScriptProvider;
use deckspec::spec::suite::{self, Filter, Outcome};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The documents the rules come from, by title; a rulebook cites them as
/// `"<title>", section "<section>"`. A new source document's title goes here.
const KNOWN_TITLES: [&str; 5] = [
    "Socket command actions",
    "Game Rules & Mechanics (Authoritative Overview)",
    "Recall Card Game Rules",
    "Recall Card Game - Game Play and Rules",
    "Collection Cards Verification - Dutch Game",
];

/// The project's own decisions, cited as `deckspec rulings, "<section>"` (or `, this rulebook`).
const RULINGS: &str = "deckspec rulings, ";

/// Files and folders scanned for references to files outside the repository.
const SCANNED: [&str; 12] = [
    "README.md",
    "ARCHITECTURE.md",
    "Cargo.toml",
    "rules",
    "spec-tests",
    "grammar",
    "src",
    "tests",
    "examples",
    "tools",
    "fuzz/README.md",
    "fuzz/fuzz_targets",
];

/// This file names the forbidden references, so it is not scanned.
const THIS_FILE: &str = "tests/library/self_contained.rs";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The forbidden reference on this line, if any (case-insensitive): a file of the project's
/// private working notes, a path outside the repository, or a source document by its number.
fn forbidden(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    for needle in [
        "variants.md",
        "scenarios.md",
        "design.md",
        "../shared",
        "/work/",
        "seeds/",
    ] {
        if lower.contains(needle) {
            return Some(needle.to_string());
        }
    }
    let bytes = lower.as_bytes();
    let seed = b"seed 00";
    bytes
        .windows(seed.len() + 1)
        .find(|w| w.starts_with(seed) && (b'0'..=b'4').contains(&w[seed.len()]))
        .map(|w| String::from_utf8_lossy(w).into_owned())
}

/// Every regular file under `path` (or `path` itself), skipping build output.
fn files_under(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .map(|e| e.expect("a readable folder entry").path())
        .collect();
    entries.sort();
    for entry in entries {
        if entry.file_name().is_some_and(|n| n == "target") {
            continue;
        }
        files_under(&entry, out);
    }
}

/// A path relative to the package folder, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn the_detector_finds_every_kind_of_outside_reference() {
    for (line, found) in [
        ("rulings in VARIANTS.md \"Cambia\"", Some("variants.md")),
        ("the contract is `SCENARIOS.md`", Some("scenarios.md")),
        ("see DESIGN.md", Some("design.md")),
        ("(../shared/VARIANTS.md)", Some("variants.md")),
        ("read ../shared first", Some("../shared")),
        ("/work/main/README.md", Some("/work/")),
        ("shared/seeds/004_7c5df2bb5bcc7368.txt", Some("seeds/")),
        ("Seed 004 \"Snap Action\"", Some("seed 004")),
        ("seed 000's phases", Some("seed 000")),
        ("Given the seed is 42", None),
        ("game `i` uses seed `S + i`", None),
        ("seed 005", None),
        ("\"Socket command actions\", section \"Snap Action\"", None),
    ] {
        assert_eq!(forbidden(line).as_deref(), found, "{line}");
    }
}

#[test]
fn no_text_file_points_outside_the_repository() {
    let mut files = Vec::new();
    for entry in SCANNED {
        files_under(&root().join(entry), &mut files);
    }
    let mut problems = Vec::new();
    let mut scanned = 0;
    for file in &files {
        let rel = relative(file);
        if rel == THIS_FILE {
            continue;
        }
        // Binary files (none are expected) cannot hold a readable reference.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        scanned += 1;
        for (i, line) in text.lines().enumerate() {
            if let Some(found) = forbidden(line) {
                problems.push(format!("{rel}:{}: mentions `{found}`", i + 1));
            }
        }
    }
    assert!(
        scanned > 100,
        "only {scanned} files were scanned: is the package folder complete?"
    );
    assert!(
        problems.is_empty(),
        "\n{}\nA user of the project does not have these files: cite a document by its title and \
         section, or the file in the repository that states the rule (a rulebook.yaml rule id, \
         grammar/README.md).\n",
        problems.join("\n")
    );
}

/// What is wrong with one `;`-separated part of a source, if anything: `titles` are the
/// documents the rulebook declares besides the known ones.
fn bad_source_part(part: &str, titles: &[String]) -> Option<String> {
    let part = part.trim();
    if part.starts_with(RULINGS) && part.len() > RULINGS.len() {
        return None;
    }
    for title in KNOWN_TITLES
        .iter()
        .copied()
        .chain(titles.iter().map(String::as_str))
    {
        let quoted = format!("\"{title}\"");
        if let Some(rest) = part.strip_prefix(&quoted) {
            return if rest.starts_with(", section \"") || rest.starts_with(", sections \"") {
                None
            } else {
                Some(format!(
                    "`{part}` names the document {quoted} but no section (`{quoted}, section \"…\"`)"
                ))
            };
        }
    }
    Some(format!(
        "`{part}` starts with neither a known document title nor `{RULINGS}`"
    ))
}

#[test]
fn the_source_checker_refuses_paths_and_unknown_titles() {
    for (source, ok) in [
        ("\"Socket command actions\", section \"Snap Action\"", true),
        (
            "deckspec rulings, \"Cambia: Deck\"; \"Socket command actions\", sections \"Draw Action\" and \"Snap Action\"",
            true,
        ),
        ("deckspec rulings, this rulebook", true),
        ("004 \"Snap Action\"", false),
        ("VARIANTS.md \"Cambia: Deck\"", false),
        ("ruling (this rulebook)", false),
        ("\"Socket command actions\"", false),
        (
            "deckspec rulings, \"Cambia: Deck\"; 004 \"Snap Action\"",
            false,
        ),
        ("deckspec rulings", false),
    ] {
        let bad = source
            .split(';')
            .filter_map(|p| bad_source_part(p, &[]))
            .count();
        assert_eq!(bad == 0, ok, "{source}");
    }
}

#[derive(serde::Deserialize)]
struct Rulebook {
    /// Titles of documents the rulebook cites besides the known ones (a new variant's source).
    #[serde(default)]
    documents: Vec<String>,
    rules: Vec<Rule>,
}

#[derive(serde::Deserialize)]
struct Rule {
    id: String,
    source: String,
}

#[test]
fn every_rulebook_source_names_a_known_document_and_section() {
    let mut problems = Vec::new();
    let mut rulebooks = 0;
    let mut sources = 0;
    let mut variants: Vec<PathBuf> = std::fs::read_dir(root().join("rules"))
        .expect("the rules folder")
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.join("rulebook.yaml").is_file())
        .collect();
    variants.sort();
    for variant in variants {
        let path = variant.join("rulebook.yaml");
        let rel = relative(&path);
        let text = std::fs::read_to_string(&path).expect("a readable rulebook");
        let book: Rulebook = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        rulebooks += 1;
        // A declared document is a title, never a file of this machine.
        for title in &book.documents {
            if title.contains(['/', '\\']) || title.ends_with(".md") || title.trim().is_empty() {
                problems.push(format!(
                    "{rel}: `{title}` under `documents:` is a path or empty, not a document title"
                ));
            }
        }
        let lines: Vec<&str> = text.lines().collect();
        for rule in &book.rules {
            sources += 1;
            // The line of this rule's `source:`, for the message.
            let id_line = lines.iter().position(|l| {
                l.trim_start().trim_start_matches("- ") == format!("id: {}", rule.id)
            });
            let line = id_line.map_or(0, |at| {
                lines[at..]
                    .iter()
                    .position(|l| l.trim_start().starts_with("source:"))
                    .map_or(at, |d| at + d)
                    + 1
            });
            for bad in rule
                .source
                .split(';')
                .filter_map(|p| bad_source_part(p, &book.documents))
            {
                problems.push(format!("{rel}:{line}: {}: {bad}", rule.id));
            }
        }
    }
    assert!(rulebooks >= 4, "only {rulebooks} rulebooks under rules/");
    assert!(sources > 100, "only {sources} rules in the rulebooks");
    assert!(
        problems.is_empty(),
        "\n{}\nA source is `;`-separated parts, each `\"<title>\", section \"<section>\"` of a known \
         document ({}, or one the rulebook lists under `documents:`) or `{RULINGS}\"<section>\"` \
         for the project's own decisions.\n",
        problems.join("\n"),
        KNOWN_TITLES.map(|t| format!("\"{t}\"")).join(", ")
    );
}

#[test]
fn the_readme_example_scenario_passes() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("```gherkin\n")
        .expect("README.md shows a scenario in a ```gherkin block")
        + "```gherkin\n".len();
    let end = start + readme[start..].find("```").expect("the block ends");
    let example = Arc::new(readme[start..end].to_string());
    let provider = ScriptProvider::new(&root().join("rules"));
    let result = suite::run_file("README.md", example, &provider, &Filter::default());
    let line = readme[..start].lines().count() + 1;
    let problems: Vec<String> = result.diagnostics().iter().map(|d| d.short()).collect();
    assert!(
        problems.is_empty(),
        "README.md's example (from line {line}; positions are within it):\n{}",
        problems.join("\n")
    );
    assert_eq!(result.scenarios.len(), 1, "one scenario in the example");
    for s in &result.scenarios {
        if let Outcome::Failed(f) = &s.outcome {
            panic!(
                "README.md's example (from line {line}) fails:\n{}",
                result.failure_diagnostic(f).short()
            );
        }
        assert!(matches!(s.outcome, Outcome::Passed), "{}", s.name);
    }
}
