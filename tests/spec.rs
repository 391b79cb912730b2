//! The spec harness (`harness = false`): runs every scenario under `spec-tests/`, then checks that
//! every file under `spec-tests/invalid/` fails exactly as its `.expected` file says: at parse or
//! check time, or (`run_*` fixtures, which check cleanly) when its scenarios run.
//!
//! Everything runs once on each script engine (compiled, then interpreted): both must pass the
//! same scenarios and fail the fixtures with the same texts.
//!
//! `UPDATE_EXPECT=1 cargo test --test spec` rewrites the `.expected` files (bless).

use deckspec::scenarios::ScriptProvider;
use deckspec::script::EngineKind;
use deckspec::spec::runner::VariantProvider;
use deckspec::spec::suite::{self, Filter, Outcome, Totals};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::set_current_dir(root).expect("the package folder exists");
    let (mut total_passed, mut total_failed) = (0, 0);
    for engine in [EngineKind::Compiled, EngineKind::Interpreted] {
        let mut failures: Vec<String> = Vec::new();
        let (passed, failed) = run_suite(engine, &mut failures);
        let (ok_fixtures, bad_fixtures) = check_invalid(engine, &mut failures);
        for f in &failures {
            println!("\n{} engine: {f}", engine.name());
        }
        println!(
            "\nspec suite, {} engine: {passed} scenarios passed, {failed} failed; invalid fixtures: {ok_fixtures} as expected, {bad_fixtures} not",
            engine.name()
        );
        total_passed += passed + ok_fixtures;
        total_failed += failed + bad_fixtures;
    }
    println!("{total_passed} passed, {total_failed} failed");
    if total_failed > 0 {
        std::process::exit(1);
    }
}

fn run_suite(engine: EngineKind, failures: &mut Vec<String>) -> (usize, usize) {
    let provider = ScriptProvider::new(Path::new("rules")).with_engine(engine);
    let files =
        suite::feature_files(&[PathBuf::from("spec-tests")]).expect("spec-tests/ is readable");
    let mut results = Vec::new();
    for file in files {
        let path = file.display().to_string();
        let src = Arc::new(std::fs::read_to_string(&file).expect("a readable feature file"));
        let result = suite::run_file(&path, src, &provider, &Filter::default());
        for d in result.diagnostics() {
            failures.push(format!("{path}: {}", d.short()));
        }
        for s in &result.scenarios {
            if let Outcome::Failed(f) = &s.outcome {
                failures.push(format!(
                    "FAIL {path}:{} {}\n{}",
                    s.line,
                    s.name,
                    result.failure_diagnostic(f).short()
                ));
            }
        }
        results.push(result);
    }
    for (name, e) in provider.failures() {
        failures.push(format!("variant {name}: {}", e.short()));
    }
    let totals = Totals::of(&results);
    println!("spec-tests: {}", totals.line());
    let uncovered = uncovered_rules(&provider, &results, failures);
    (
        totals.passed,
        totals.failed + totals.broken_files + totals.not_run + uncovered,
    )
}

/// Every rule of every rulebook needs at least one passing scenario tagged `@rule:<ID>`.
fn uncovered_rules(
    provider: &ScriptProvider,
    results: &[suite::FileResult],
    failures: &mut Vec<String>,
) -> usize {
    let mut passing: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for result in results {
        for s in &result.scenarios {
            if s.outcome == Outcome::Passed {
                passing.extend(s.tags.iter().filter_map(|t| t.strip_prefix("rule:")));
            }
        }
    }
    let mut missing = 0;
    for name in deckspec::script::variant_names(Path::new("rules")) {
        let Ok(variant) = provider.load(&name) else {
            continue;
        };
        let ids: Vec<&str> = variant
            .rulebook
            .ids()
            .filter(|id| !passing.contains(id))
            .collect();
        if !ids.is_empty() {
            missing += ids.len();
            failures.push(format!(
                "rules/{name}/rulebook.yaml: no passing scenario for {}",
                ids.join(", ")
            ));
        }
    }
    missing
}

/// Compare `actual` with the expected file, or rewrite it when blessing.
fn expect(path: &Path, actual: &str, failures: &mut Vec<String>) -> bool {
    let actual = format!("{}\n", actual.trim_end());
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &actual).expect("the expected file is writable");
        return true;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return true;
    }
    failures.push(format!(
        "{} differs (bless with UPDATE_EXPECT=1):\n--- expected\n{expected}--- actual\n{actual}",
        path.display()
    ));
    false
}

fn check_invalid(engine: EngineKind, failures: &mut Vec<String>) -> (usize, usize) {
    let dir = Path::new("spec-tests/invalid");
    let provider = ScriptProvider::new(Path::new("rules")).with_engine(engine);
    let (mut ok, mut bad) = (0, 0);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "feature"))
    {
        // A fixture fails to parse or check; one that checks cleanly (`run_*`) fails when run.
        let loaded = suite::load_file(path);
        let result = match loaded.problem {
            Some(problem) => {
                suite::FileResult::not_run(&path.display().to_string(), loaded.src, vec![problem])
            }
            None => suite::run_file(
                &path.display().to_string(),
                loaded.src,
                &provider,
                &Filter::default(),
            ),
        };
        let mut lines: Vec<String> = result.diagnostics().iter().map(|d| d.short()).collect();
        for s in &result.scenarios {
            if let Outcome::Failed(f) = &s.outcome {
                lines.push(result.failure_diagnostic(f).short());
            }
        }
        let text = lines.join("\n");
        let passed = if text.is_empty() {
            failures.push(format!(
                "{} parsed, checked and ran cleanly, but must fail",
                path.display()
            ));
            false
        } else {
            expect(&path.with_extension("expected"), &text, failures)
        };
        if passed { ok += 1 } else { bad += 1 }
    }
    // Broken variants: each folder must fail to load, or (with a scenario.feature) fail when run.
    let variants = dir.join("variants");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&variants)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    folders.sort();
    let broken = ScriptProvider::new(&variants).with_engine(engine);
    for folder in folders {
        let name = folder
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let expected = variants.join(format!("{name}.expected"));
        let text = match broken.load(&name) {
            Err(e) => e.short(),
            Ok(_) => {
                let feature = folder.join("scenario.feature");
                let src = Arc::new(std::fs::read_to_string(&feature).unwrap_or_default());
                let result = suite::run_file(
                    &feature.display().to_string(),
                    src,
                    &broken as &dyn VariantProvider,
                    &Filter::default(),
                );
                let mut lines: Vec<String> =
                    result.diagnostics().iter().map(|d| d.short()).collect();
                for s in &result.scenarios {
                    if let Outcome::Failed(f) = &s.outcome {
                        lines.push(result.failure_diagnostic(f).short());
                    }
                }
                if lines.is_empty() {
                    failures.push(format!(
                        "{} loads and runs cleanly, but must fail",
                        folder.display()
                    ));
                    bad += 1;
                    continue;
                }
                lines.join("\n")
            }
        };
        if expect(&expected, &text, failures) {
            ok += 1
        } else {
            bad += 1
        }
    }
    (ok, bad)
}
