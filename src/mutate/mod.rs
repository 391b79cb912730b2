//! `deckspec mutate`: how strong is the spec? Mutants of a variant's rule scripts (small wrong
//! versions, `script::mutants`) each run against the variant's scenarios in-process; a mutant
//! that some scenario notices is killed, one that every scenario passes on survived. Listed
//! equivalent mutants (`rules/<variant>/equivalent-mutants.yaml`: they behave exactly like the
//! script; keyed by content, `equivalents.rs`) are not counted as survivors.

use crate::scenarios::ScriptProvider;
use crate::script::Variant;
use crate::script::mutants::{Mutation, NameGroups, mutations};
use crate::spec::runner::{self, Concrete, SpecVariant, Unavailable, VariantProvider};
use crate::spec::suite;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

mod equivalents;

pub use equivalents::EQUIVALENTS_FILE;

/// What happened to one mutant.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// A scenario failed on it: the first that did.
    Killed {
        /// `file:line scenario name`.
        by: String,
    },
    /// Every scenario passed on it.
    Survived,
    /// Listed as equivalent, with the reason given.
    Equivalent {
        /// Why it behaves like the script.
        why: String,
    },
    /// A scenario hit a script limit (operations, time, recursion) on it.
    TimedOut {
        /// `file:line scenario name`.
        by: String,
    },
    /// The mutated script does not load.
    DidNotCompile {
        /// The load error, in one line.
        error: String,
    },
}

/// One mutant and its outcome.
#[derive(Clone, Debug, Serialize)]
pub struct MutantResult {
    /// The script's path, as loaded (under the rules folder given).
    pub file: String,
    /// The edit.
    #[serde(flatten)]
    pub mutation: Mutation,
    /// What the scenarios did with it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl MutantResult {
    /// `file:line:column`.
    pub fn at(&self) -> String {
        format!(
            "{}:{}:{}",
            self.file, self.mutation.line, self.mutation.column
        )
    }
}

/// A variant's mutation run.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    /// The variant.
    pub variant: String,
    /// Mutants made.
    pub generated: usize,
    /// Killed by a scenario.
    pub killed: usize,
    /// Passed by every scenario.
    pub survived: usize,
    /// Listed as equivalent.
    pub equivalent: usize,
    /// Stopped by a script limit.
    pub timed_out: usize,
    /// Did not load.
    pub did_not_compile: usize,
    /// killed / (killed + survived), in percent (100 when nothing could survive).
    pub score: f64,
    /// Scenarios run against each mutant (at most).
    pub scenarios: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Every mutant, in file order.
    pub mutants: Vec<MutantResult>,
    /// Entries of the equivalents file that match no mutant (stale).
    pub stale_equivalents: Vec<String>,
    /// Entries still keyed by a position their mutant moved from (`old -> new`): matched, and
    /// `deckspec mutate --fix-equivalents` rewrites them keyed by content.
    pub moved_equivalents: Vec<String>,
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MutateError {
    /// The variant does not load as it is.
    #[error("{0}")]
    Variant(String),
    /// The scenarios could not be read or checked.
    #[error("{0}")]
    Scenarios(String),
    /// The variant's own scenarios fail before any mutation.
    #[error("{variant}: the scenarios must pass on the rules as they are first: {first}")]
    SuiteFails {
        /// The variant.
        variant: String,
        /// The first failing scenario.
        first: String,
    },
    /// The equivalents file is malformed.
    #[error("{path}: {message}")]
    Equivalents {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// A provider that gives the mutant for its variant and the real variants for the rest.
struct MutantProvider<'a> {
    base: &'a ScriptProvider,
    name: &'a str,
    mutant: Arc<Variant>,
}

impl VariantProvider for MutantProvider<'_> {
    fn variant(&self, name: &str) -> Result<Arc<dyn SpecVariant>, Unavailable> {
        if name == self.name {
            return Ok(self.mutant.clone() as Arc<dyn SpecVariant>);
        }
        self.base.variant(name)
    }

    fn names(&self) -> Vec<String> {
        self.base.names()
    }
}

/// A scenario of the variant, with where it is written.
struct Scenario {
    concrete: Concrete,
    label: String,
}

/// The scenarios under `spec_paths` that start a game of `variant`, checked against it.
fn scenarios_of(
    variant: &str,
    spec_paths: &[PathBuf],
    provider: &ScriptProvider,
) -> Result<Vec<Scenario>, MutateError> {
    let files = suite::feature_files(spec_paths).map_err(MutateError::Scenarios)?;
    let mut out = Vec::new();
    for path in files {
        let loaded = suite::load_file(&path);
        if let Some(problem) = loaded.problem {
            return Err(MutateError::Scenarios(format!(
                "{}: {}",
                path.display(),
                problem.message
            )));
        }
        let src = loaded.src;
        let checked = suite::check_for_run(&src, provider);
        if !checked.problems.is_empty() {
            continue; // `deckspec check` reports them; such a file cannot kill anything
        }
        let lines = crate::spec::diag::LineIndex::new(&src);
        for scenario in checked.scenarios {
            if scenario.tags.iter().any(|t| t == "skip" || t == "wip") {
                continue;
            }
            let starts = matches!(
                scenario.steps.first().and_then(|s| s.body.as_ref()),
                Some(crate::spec::ast::StepBody::NewGame { variant: v, .. }) if v.node == variant
            );
            if starts {
                let label = format!(
                    "{}:{} {}",
                    path.display(),
                    lines.line(scenario.span.start),
                    scenario.name
                );
                out.push(Scenario {
                    concrete: scenario,
                    label,
                });
            }
        }
    }
    Ok(out)
}

/// The names a string literal may be swapped among: piles, phases, events, timers, variables.
fn name_groups(variant: &Variant) -> NameGroups {
    let t = variant.table();
    vec![
        t.piles.iter().map(|p| p.name.clone()).collect(),
        t.phases.iter().map(|p| p.name.clone()).collect(),
        t.events.iter().map(|e| e.to_string()).collect(),
        t.timers.clone(),
        t.game_vars.iter().map(|(n, _)| n.clone()).collect(),
        t.player_vars.iter().map(|(n, _)| n.clone()).collect(),
    ]
}

fn limit_hit(failure: &runner::Failure) -> bool {
    let text = format!(
        "{} {}",
        failure.message,
        failure.script.as_deref().unwrap_or("")
    );
    text.contains("operations (an endless loop?)")
        || text.contains("the script ran longer than")
        || text.contains("levels deep (endless recursion?)")
}

/// Mutate `variant`'s rule scripts and run its scenarios under `spec_paths` against each mutant,
/// on `jobs` threads. `progress` is called after each mutant with (done, total).
pub fn mutate_variant(
    rules_dir: &Path,
    variant: &str,
    spec_paths: &[PathBuf],
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<VariantReport, MutateError> {
    let started = std::time::Instant::now();
    let provider = ScriptProvider::new(rules_dir);
    let base = provider.load(variant).map_err(|e| {
        MutateError::Variant(match &*e {
            crate::script::VariantError::Unknown { help, .. } => format!("{}: {help}", e.short()),
            other => format!("{variant}: {}", other.short()),
        })
    })?;
    let scenarios = scenarios_of(variant, spec_paths, &provider)?;
    // The suite must pass as it is: otherwise every mutant would look killed.
    for s in &scenarios {
        if let Err(f) = runner::run(&s.concrete, &provider) {
            return Err(MutateError::SuiteFails {
                variant: variant.to_string(),
                first: format!("{} ({})", s.label, f.message),
            });
        }
    }
    let (planned, keys) = plan(&base);
    let entries = equivalents::read(&base.dir)?;
    let matched = equivalents::match_entries(&entries, &keys);
    let total = planned.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MutantResult>>> = Mutex::new(vec![None; total]);
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= total {
                return;
            }
            let (path, source, mutation) = &planned[i];
            let file = path.display().to_string();
            let outcome = match matched.entries[i] {
                Some(e) => Outcome::Equivalent {
                    why: entries[e].why.clone(),
                },
                None => run_mutant(
                    rules_dir,
                    variant,
                    path,
                    &mutation.apply(source),
                    &provider,
                    &scenarios,
                ),
            };
            results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(MutantResult {
                file,
                mutation: mutation.clone(),
                outcome,
            });
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            std::thread::Builder::new()
                .stack_size(crate::script::SCRIPT_STACK_BYTES)
                .spawn_scoped(scope, worker)
                .expect("a mutation thread starts");
        }
    });
    let mutants: Vec<MutantResult> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    let count = |f: fn(&Outcome) -> bool| mutants.iter().filter(|m| f(&m.outcome)).count();
    let killed = count(|o| matches!(o, Outcome::Killed { .. }));
    let survived = count(|o| matches!(o, Outcome::Survived));
    Ok(VariantReport {
        variant: variant.to_string(),
        generated: mutants.len(),
        killed,
        survived,
        equivalent: count(|o| matches!(o, Outcome::Equivalent { .. })),
        timed_out: count(|o| matches!(o, Outcome::TimedOut { .. })),
        did_not_compile: count(|o| matches!(o, Outcome::DidNotCompile { .. })),
        score: if killed + survived == 0 {
            100.0
        } else {
            100.0 * killed as f64 / (killed + survived) as f64
        },
        scenarios: scenarios.len(),
        seconds: started.elapsed().as_secs_f64(),
        mutants,
        stale_equivalents: matched.stale,
        moved_equivalents: matched.moved,
    })
}

/// The mutants of the variant's own rule scripts, in file order, with their content keys.
fn plan(base: &Variant) -> (Vec<(PathBuf, String, Mutation)>, Vec<equivalents::Key>) {
    let names = name_groups(base);
    let mut planned: Vec<(PathBuf, String, Mutation)> = Vec::new();
    for (path, source) in base.rule_scripts() {
        if !path.starts_with(&base.dir) {
            continue; // a base variant's script: mutated with that variant
        }
        for m in mutations(&source, &names) {
            planned.push((path.clone(), source.clone(), m));
        }
    }
    let keys = equivalents::keys(planned.iter().map(|(path, _, m)| {
        (
            path.strip_prefix(&base.dir)
                .unwrap_or(path)
                .display()
                .to_string(),
            m.hook.as_deref(),
            format!("{} -> {}", m.original, m.replacement),
            m.line,
            m.column,
        )
    }));
    (planned, keys)
}

/// Rewrite `variant`'s equivalents file with every entry that matches a mutant keyed by content
/// (file, hook, text, occurrence), old positions and moved entries included; no mutant is run.
/// Answers how many entries it keyed, and the stale ones (kept as they were).
pub fn fix_equivalents(
    rules_dir: &Path,
    variant: &str,
) -> Result<(usize, Vec<String>), MutateError> {
    let provider = ScriptProvider::new(rules_dir);
    let base = provider
        .load(variant)
        .map_err(|e| MutateError::Variant(e.short()))?;
    let (_, keys) = plan(&base);
    let entries = equivalents::read(&base.dir)?;
    if entries.is_empty() {
        return Ok((0, Vec::new()));
    }
    let matched = equivalents::match_entries(&entries, &keys);
    equivalents::rewrite(&base.dir, &entries, &keys, &matched)?;
    let keyed = matched.entries.iter().flatten().count();
    Ok((keyed, matched.stale))
}

/// Load the mutant and run the scenarios until one fails.
fn run_mutant(
    rules_dir: &Path,
    variant: &str,
    path: &Path,
    mutated: &str,
    provider: &ScriptProvider,
    scenarios: &[Scenario],
) -> Outcome {
    let mutant = match Variant::load_named_with(
        rules_dir,
        variant,
        &[(path.to_path_buf(), mutated.to_string())],
    ) {
        Ok(v) => Arc::new(v),
        Err(e) => return Outcome::DidNotCompile { error: e.short() },
    };
    let with_mutant = MutantProvider {
        base: provider,
        name: variant,
        mutant,
    };
    for s in scenarios {
        if let Err(failure) = runner::run(&s.concrete, &with_mutant) {
            return if limit_hit(&failure) {
                Outcome::TimedOut {
                    by: s.label.clone(),
                }
            } else {
                Outcome::Killed {
                    by: s.label.clone(),
                }
            };
        }
    }
    Outcome::Survived
}
