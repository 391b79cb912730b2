//! `deckspec check`: load variants and parse and check scenario files, running nothing. With no
//! path (or a project folder) every variant and every scenario of the project; with feature
//! files or folders, those files and the variants they use.

use super::{EXIT_BROKEN, EXIT_OK, ScriptProvider, counted, render};
use crate::script::{Variant, VariantError, variant_names};
use crate::spec::suite;
use std::path::{Path, PathBuf};

/// What `check` was asked to look at.
struct Plan {
    rules: PathBuf,
    files: Vec<PathBuf>,
    /// Every variant under `rules` (a project), or only those the files use.
    all_variants: bool,
}

fn plan(paths: &[PathBuf], rules: Option<&Path>) -> Result<Plan, String> {
    // `check` or `check DIR` with DIR holding `rules/`: the whole project.
    let project = match paths {
        [] => Some(PathBuf::from(".")),
        [dir] if rules.is_none() && dir.is_dir() && dir.join("rules").is_dir() => Some(dir.clone()),
        _ => None,
    };
    if let Some(dir) = project {
        // The current folder's files are shown as `rules/cambia`, not `./rules/cambia`.
        let under = |name: &str| {
            if paths.is_empty() {
                PathBuf::from(name)
            } else {
                dir.join(name)
            }
        };
        let rules = rules.map_or_else(|| under("rules"), Path::to_path_buf);
        let specs = under("spec-tests");
        let files = if specs.is_dir() || paths.is_empty() {
            suite::feature_files(&[specs])?
        } else {
            Vec::new()
        };
        return Ok(Plan {
            rules,
            files,
            all_variants: true,
        });
    }
    Ok(Plan {
        rules: rules.map_or_else(|| PathBuf::from("rules"), Path::to_path_buf),
        files: suite::feature_files(paths)?,
        all_variants: false,
    })
}

/// The variant levels in the order of difficulty.
fn bot_levels(v: &Variant) -> Vec<&str> {
    let Some(book) = &v.bots else {
        return Vec::new();
    };
    let mut levels: Vec<&str> = book.levels().collect();
    let rank = |l: &str| crate::script::bots::LEVELS.iter().position(|x| *x == l);
    levels.sort_by_key(|l| rank(l));
    levels
}

/// One line saying what a loaded variant has: `extends cambia · 7 actions · 99 rules (inherited
/// from cambia) · bots: easy, medium, hard, expert · 2 to 12 players`.
pub fn summary(v: &Variant) -> String {
    let inherited = |from: &Option<String>| match from {
        Some(base) => format!(" (inherited from {base})"),
        None => String::new(),
    };
    let mut parts = Vec::new();
    if let Some(base) = &v.extends {
        parts.push(format!("extends {base}"));
    }
    parts.push(counted(v.table().actions.len(), "action"));
    parts.push(format!(
        "{}{}",
        counted(v.rulebook.rules.len(), "rule"),
        inherited(&v.rulebook_from)
    ));
    let levels = bot_levels(v);
    parts.push(if levels.is_empty() {
        "no bots".to_string()
    } else {
        format!("bots: {}{}", levels.join(", "), inherited(&v.bots_from))
    });
    parts.push(format!("{} players", v.table().players));
    // Actions whose legality is checked up to their first change (rules/README.md).
    parts.push(format!(
        "checked early: {} of {}",
        v.checked_until_change().len(),
        counted(v.table().actions.len(), "action")
    ));
    let (compiled, total) = v.compiled_counts();
    parts.push(format!(
        "{compiled} of {total} functions compiled ({} into their callers)",
        v.inlined_count()
    ));
    parts.join(" · ")
}

pub fn check(paths: &[PathBuf], rules: Option<&Path>) -> i32 {
    let plan = match plan(paths, rules) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return EXIT_BROKEN;
        }
    };
    let provider = ScriptProvider::new(&plan.rules);
    let mut problems = 0;
    if plan.all_variants && variant_names(&plan.rules).is_empty() {
        errln!(
            "error: no variants under {} (give feature files, or --rules with the folder holding the variants)",
            plan.rules.display()
        );
        return EXIT_BROKEN;
    }
    // Check the files first: that loads the variants they use.
    let mut scenarios = 0;
    let mut file_problems = Vec::new();
    // Scenarios whose variant does not load: that variant's error is shown once, below.
    let mut not_checked: Vec<(String, usize, String)> = Vec::new();
    for file in &plan.files {
        let path = file.display().to_string();
        let loaded = suite::load_file(file);
        let found = match loaded.problem {
            Some(problem) => vec![problem],
            None => {
                let checked = suite::check_for_run(&loaded.src, &provider);
                scenarios += checked.scenarios.len();
                for (variant, _) in checked.unloadable.iter().flatten() {
                    match not_checked
                        .iter_mut()
                        .find(|(p, _, v)| *p == path && v == variant)
                    {
                        Some((_, n, _)) => *n += 1,
                        None => not_checked.push((path.clone(), 1, variant.clone())),
                    }
                }
                checked.problems
            }
        };
        if !found.is_empty() {
            problems += found.len();
            file_problems.push(suite::FileResult::not_run(&path, loaded.src, found));
        }
    }
    let names = if plan.all_variants {
        variant_names(&plan.rules)
    } else {
        provider.loaded_names()
    };
    for name in &names {
        let shown = plan.rules.join(name).display().to_string();
        match provider.load(name) {
            Ok(v) => {
                let unknown: Vec<_> = v
                    .unknown_calls
                    .iter()
                    .chain(v.bots.iter().flat_map(|b| &b.unknown_calls))
                    .collect();
                if unknown.is_empty() {
                    outln!("ok     {shown}: {}", summary(&v));
                    for f in v.interpreted_functions() {
                        outln!("       interpreted: {}: {}", f.function, f.reason);
                    }
                    for f in v.bots.iter().flat_map(|b| b.compiled().1) {
                        outln!("       interpreted (bots): {}: {}", f.function, f.reason);
                    }
                } else {
                    problems += unknown.len();
                    outln!("ERROR  {shown}: {}", summary(&v));
                    for d in unknown {
                        out!("{}", render(d));
                    }
                }
            }
            Err(e) if matches!(*e, VariantError::Unknown { .. }) => {}
            Err(e) => {
                problems += 1;
                outln!("ERROR  {shown}");
                out!("{}", render(&*e));
            }
        }
    }
    for result in &file_problems {
        outln!("ERROR  {}", result.path);
        for d in result.diagnostics() {
            out!("{}", render(&d));
        }
    }
    for (path, n, variant) in &not_checked {
        outln!(
            "NOT CHECKED  {path} ({}: variant `{variant}` does not load)",
            counted(*n, "scenario")
        );
    }
    let unchecked: usize = not_checked.iter().map(|(_, n, _)| n).sum();
    if unchecked > 0 {
        outln!(
            "{} could not be checked: their variant does not load",
            counted(unchecked, "scenario")
        );
    }
    let variants = names
        .iter()
        .filter(|n| {
            !matches!(
                provider.load(n).as_deref().map_err(|e| &**e),
                Err(VariantError::Unknown { .. })
            )
        })
        .count();
    outln!(
        "checked {} and {} ({}): {}",
        counted(variants, "variant"),
        counted(plan.files.len(), "file"),
        counted(scenarios, "scenario"),
        counted(problems, "problem")
    );
    if problems > 0 { EXIT_BROKEN } else { EXIT_OK }
}
