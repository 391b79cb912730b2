//! The CI recipe for a rules repository (`docs/ci/github-actions.yml`, README "CI for a rules
//! repository") works: a temporary repository holding only `rules/` and `spec-tests/` (one
//! bundled variant, found in `rules/`: the smallest that extends no other), and every `run:`
//! step after the install step, run there in order with the built binary in place of the
//! installed `deckspec`, succeeds (`prove` included: the variant holds every property) and leaves
//! `report.xml` and `lcov.info`.

use crate::common::files;

use std::path::{Path, PathBuf};
use std::process::Command;

const WORKFLOW: &str = "docs/ci/github-actions.yml";

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The workflow's steps, in order: (name or the run text, run text if it runs a command).
fn steps() -> Vec<(String, Option<String>)> {
    let text = std::fs::read_to_string(repository().join(WORKFLOW)).expect("the workflow file");
    let yaml: serde_yaml::Value = serde_yaml::from_str(&text).expect("the workflow is YAML");
    let jobs = yaml["jobs"].as_mapping().expect("jobs:");
    assert_eq!(jobs.len(), 1, "one job");
    let (_, job) = jobs.iter().next().unwrap();
    job["steps"]
        .as_sequence()
        .expect("steps:")
        .iter()
        .map(|step| {
            let run = step["run"].as_str().map(str::to_string);
            let name = step["name"]
                .as_str()
                .or(step["uses"].as_str())
                .map(str::to_string)
                .or(run.clone())
                .unwrap_or_default();
            (name, run)
        })
        .collect()
}

/// The `run:` steps after the one that installs deckspec.
fn steps_after_install() -> Vec<(String, String)> {
    let steps = steps();
    let install = steps
        .iter()
        .position(|(_, run)| run.as_deref().is_some_and(|r| r.contains("cargo install")))
        .expect("a step installs deckspec with cargo install");
    let run = steps[install].1.as_deref().unwrap();
    for part in ["cargo install --locked --git", "--tag", "deckspec"] {
        assert!(run.contains(part), "the install step lacks `{part}`: {run}");
    }
    steps[install + 1..]
        .iter()
        .filter_map(|(name, run)| run.clone().map(|r| (name.clone(), r)))
        .collect()
}

/// `script` with the command `deckspec` (a word of its own, not a part of a path or name)
/// replaced by `binary`, quoted.
fn with_binary(script: &str, binary: &str) -> String {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '$' | '"');
    let mut out = String::new();
    let mut rest = script;
    while let Some(at) = rest.find("deckspec") {
        let alone = !rest[..at].chars().next_back().is_some_and(part)
            && !rest[at + "deckspec".len()..]
                .chars()
                .next()
                .is_some_and(part);
        out.push_str(&rest[..at]);
        if alone {
            out.push_str(&format!("'{binary}'"));
        } else {
            out.push_str("deckspec");
        }
        rest = &rest[at + "deckspec".len()..];
    }
    out.push_str(rest);
    out
}

/// The bundled variant to copy: of those in `rules/` that extend no other variant (so the copy
/// stands alone), the one with the least script and scenario text (the quickest to mutate).
fn smallest_standalone_variant() -> String {
    let size = |dir: &Path, ext: &str| -> u64 {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == ext))
            .map(|e| e.metadata().map_or(0, |m| m.len()))
            .sum()
    };
    let rules = repository().join("rules");
    let mut found: Vec<(u64, String)> = std::fs::read_dir(&rules)
        .expect("rules/")
        .flatten()
        .map(|e| e.path())
        .filter(|dir| {
            std::fs::read_to_string(dir.join("variant.yaml"))
                .is_ok_and(|y| !y.lines().any(|l| l.starts_with("extends:")))
        })
        .map(|dir| {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let specs = repository().join("spec-tests").join(&name);
            (size(&dir, "rhai") + size(&specs, "feature"), name)
        })
        .filter(|(_, name)| repository().join("spec-tests").join(name).is_dir())
        .collect();
    found.sort();
    found
        .into_iter()
        .next()
        .expect("a variant that extends no other, with scenarios")
        .1
}

#[test]
fn the_substitution_takes_the_command_only() {
    assert_eq!(
        with_binary(
            "deckspec check && deckspec test --junit report.xml # deckspec-report\ncd deckspec/x; $deckspec",
            "/b/ds"
        ),
        "'/b/ds' check && '/b/ds' test --junit report.xml # deckspec-report\ncd deckspec/x; $deckspec"
    );
}

#[test]
fn the_workflow_runs_in_a_rules_only_repository() {
    let variant = smallest_standalone_variant();
    eprintln!("a rules repository of {variant}");
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    files::copy_dir(
        &repository().join("rules").join(&variant),
        &repo.join("rules").join(&variant),
    );
    files::copy_dir(
        &repository().join("spec-tests").join(&variant),
        &repo.join("spec-tests").join(&variant),
    );
    let steps = steps_after_install();
    let commands: Vec<&str> = steps.iter().map(|(_, r)| r.as_str()).collect();
    for command in [
        "deckspec check",
        "deckspec test --junit report.xml",
        "deckspec mutate --ratchet",
        "deckspec coverage --ratchet --lcov lcov.info",
        "deckspec prove",
    ] {
        assert!(
            commands.iter().any(|c| c.contains(command)),
            "the workflow does not run `{command}`: {commands:?}"
        );
    }
    let binary = env!("CARGO_BIN_EXE_deckspec");
    for (name, run) in &steps {
        let script = with_binary(run, binary);
        assert!(!script.contains("cargo install"), "{name}: {script}");
        let started = std::time::Instant::now();
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(repo)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh runs");
        assert!(
            out.status.success(),
            "step `{name}` ({script}) failed in a repository of {variant} ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{name}: {:.1} s", started.elapsed().as_secs_f64());
    }
    let report = read(&repo.join("report.xml"));
    assert!(report.contains("<testsuite"), "{report}");
    assert!(!report.contains("<failure"), "{report}");
    let lcov = read(&repo.join("lcov.info"));
    assert!(
        lcov.contains(&format!("SF:rules/{variant}/")),
        "lcov.info names no script of {variant}:\n{lcov}"
    );
}

fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
