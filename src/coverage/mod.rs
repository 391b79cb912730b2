//! `deckspec coverage`: run the scenarios with a probe on every variant's engine and say which
//! lines, functions and branches of the rule scripts ran, how often, and for each rulebook rule
//! which lines only its scenarios run (the rules trace). `lcov` and `html` write it out.

pub mod html;
pub mod lcov;

use crate::scenarios::ScriptProvider;
use crate::script::probe::{Hits, Point, ScriptMap};
use crate::script::{Variant, variant_names};
use crate::spec::runner::{self, Concrete};
use crate::spec::suite;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a coverage run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CoverageError {
    /// A variant does not load.
    #[error("{0}")]
    Variant(String),
    /// The scenarios could not be read or do not check.
    #[error("{0}")]
    Scenarios(String),
    /// Nothing to measure.
    #[error("{0}")]
    Empty(String),
}

/// A runnable line and how many times it ran (the most of the statements that start on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineCount {
    /// The line.
    pub line: u32,
    /// Times it ran.
    pub hits: u64,
}

/// An arm of a branch point and how many times it was taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArmCount {
    /// `then`, `else`, `case at line N`, `_` or `no case`.
    pub label: String,
    /// Times taken; `None` when the branch point itself never ran.
    pub taken: Option<u64>,
}

/// An `if` or `switch` and its arms' counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BranchCount {
    /// The line of its keyword.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// `if` or `switch`.
    pub kind: &'static str,
    /// Times it ran.
    pub hits: u64,
    /// Its arms.
    pub arms: Vec<ArmCount>,
}

/// Found and hit counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// How many there are.
    pub found: usize,
    /// How many ran.
    pub hit: usize,
}

impl Tally {
    /// Hit over found, in percent (100 when there is nothing to run).
    pub fn percent(&self) -> f64 {
        if self.found == 0 {
            100.0
        } else {
            100.0 * self.hit as f64 / self.found as f64
        }
    }

    fn add(&mut self, other: Tally) {
        self.found += other.found;
        self.hit += other.hit;
    }
}

/// A function of a script file: a hook or a helper.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FunctionCoverage {
    /// Its name.
    pub name: String,
    /// The line of its `fn`.
    pub first_line: u32,
    /// The line of its closing brace.
    pub last_line: u32,
    /// Times it was called (as often as its first statement ran).
    pub calls: u64,
    /// Its runnable lines.
    pub lines: Tally,
    /// Its branch arms.
    pub branches: Tally,
    /// Its lines that never ran.
    pub missed_lines: Vec<u32>,
}

/// One rule script's coverage.
#[derive(Clone, Debug, Serialize)]
pub struct FileCoverage {
    /// The file, as under the rules folder given.
    pub path: String,
    /// Its text.
    #[serde(skip)]
    pub source: String,
    /// Its runnable lines with their counts, in order.
    pub lines: Vec<LineCount>,
    /// Its functions, in source order.
    pub functions: Vec<FunctionCoverage>,
    /// Its branch points, in source order.
    pub branches: Vec<BranchCount>,
    /// Line totals.
    pub line_tally: Tally,
    /// Function totals (called at least once).
    pub function_tally: Tally,
    /// Branch-arm totals.
    pub branch_tally: Tally,
}

impl FileCoverage {
    /// The runnable lines that never ran.
    pub fn missed_lines(&self) -> Vec<u32> {
        self.lines
            .iter()
            .filter(|l| l.hits == 0)
            .map(|l| l.line)
            .collect()
    }
}

/// A line of a script file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FileLine {
    /// The file.
    pub file: String,
    /// The line.
    pub line: u32,
}

/// A rulebook rule, its scenarios and the lines only they run.
#[derive(Clone, Debug, Serialize)]
pub struct RuleTrace {
    /// The variant whose rulebook states it.
    pub variant: String,
    /// Its id.
    pub id: String,
    /// Its text.
    pub text: String,
    /// Its scenarios (tagged `@rule:ID`), as `file:line name`.
    pub scenarios: Vec<String>,
    /// Script lines its scenarios run that no scenario of another rule runs.
    pub own_lines: Vec<FileLine>,
    /// Script lines its scenarios run after their Givens (their Whens and Thens), in any
    /// scenario of its own: what playing the rule runs (`deckspec prove` asks that each of these
    /// runs somewhere in the games it explores).
    pub played_lines: Vec<FileLine>,
    /// For each of its scenarios whose accepted steps after its Givens run a statement: the
    /// statements they run that the scenarios of the fewest rules run, what tells playing it
    /// apart (`deckspec balance` counts how often a game runs them). A refused action's
    /// statements are not play.
    pub marks: Vec<Mark>,
}

/// What tells one scenario's play apart: the statements its accepted steps run, after its
/// Givens, that the scenarios of the fewest rules run (statements, not lines: `if x { f(); }` on
/// one line is two), each with how often the scenario ran it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Mark {
    /// The statements, sorted, each with how often the scenario ran it.
    pub statements: Vec<(FilePoint, Runs)>,
    /// How many rules' scenarios run them (its own rule among them): 1 when only its rule's do.
    pub rules: usize,
}

/// How often a scenario's accepted steps ran a statement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Runs {
    /// Times in all.
    pub times: u64,
    /// Steps that ran it (a loop runs it several times in one step).
    pub steps: u64,
}

impl Runs {
    /// Times a step that ran it did, on average.
    pub fn per_step(&self) -> f64 {
        self.times as f64 / self.steps.max(1) as f64
    }
}

/// Where a statement of a script file starts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FilePoint {
    /// The file.
    pub file: String,
    /// Its line and column.
    pub at: Point,
}

/// A coverage run.
#[derive(Clone, Debug, Serialize)]
pub struct CoverageReport {
    /// The variants measured.
    pub variants: Vec<String>,
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios that failed (`file:line name: message`): their lines up to the failing step
    /// are counted.
    pub failed: Vec<String>,
    /// Every rule script, sorted by path.
    pub files: Vec<FileCoverage>,
    /// Totals over the files.
    pub lines: Tally,
    /// Functions called at least once.
    pub functions: Tally,
    /// Branch arms taken at least once.
    pub branches: Tally,
    /// Every rulebook rule of the variants measured.
    pub rules: Vec<RuleTrace>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A scenario to run, with where it is written and the rules it is tagged with.
struct Scenario {
    concrete: Concrete,
    label: String,
    rules: Vec<String>,
}

/// The scenarios under `spec_paths` that play one of `variants`, checked.
fn scenarios_of(
    variants: &[String],
    spec_paths: &[PathBuf],
    provider: &ScriptProvider,
) -> Result<Vec<Scenario>, CoverageError> {
    let files = suite::feature_files(spec_paths).map_err(CoverageError::Scenarios)?;
    let mut out = Vec::new();
    for path in files {
        let loaded = suite::load_file(&path);
        let lines = crate::spec::diag::LineIndex::new(&loaded.src);
        let at = |offset: usize| format!("{}:{}", path.display(), lines.line(offset));
        if let Some(problem) = loaded.problem {
            return Err(CoverageError::Scenarios(format!(
                "{}: {} (`deckspec check` shows every problem)",
                at(problem.span.start),
                problem.message
            )));
        }
        let checked = suite::check_for_run(&loaded.src, provider);
        if let Some(problem) = checked.problems.first() {
            return Err(CoverageError::Scenarios(format!(
                "{}: {} (`deckspec check` shows every problem)",
                at(problem.span.start),
                problem.message
            )));
        }
        for scenario in checked.scenarios {
            if scenario.tags.iter().any(|t| t == "skip" || t == "wip") {
                continue;
            }
            let plays = runner::variant_of(&scenario).is_some_and(|v| variants.contains(&v.node));
            if !plays {
                continue;
            }
            let rules = scenario
                .tags
                .iter()
                .filter_map(|t| t.strip_prefix("rule:"))
                .map(str::to_string)
                .collect();
            out.push(Scenario {
                label: format!("{} {}", at(scenario.span.start), scenario.name),
                concrete: scenario,
                rules,
            });
        }
    }
    Ok(out)
}

/// Run the scenarios under `spec_paths` that play `variants` (every variant of the rules folder
/// when empty), one after another, and measure the variants' rule scripts. `progress` is called
/// after each scenario with (done, total).
pub fn measure(
    rules_dir: &Path,
    variants: &[String],
    spec_paths: &[PathBuf],
    progress: &dyn Fn(usize, usize),
) -> Result<CoverageReport, CoverageError> {
    let started = std::time::Instant::now();
    let variants: Vec<String> = if variants.is_empty() {
        variant_names(rules_dir)
    } else {
        variants.to_vec()
    };
    if variants.is_empty() {
        return Err(CoverageError::Empty(format!(
            "{} holds no variant",
            rules_dir.display()
        )));
    }
    let provider = ScriptProvider::probed(rules_dir);
    let mut loaded: Vec<Arc<Variant>> = Vec::new();
    for name in &variants {
        let variant = provider.load(name).map_err(|e| {
            CoverageError::Variant(match &*e {
                crate::script::VariantError::Unknown { help, .. } => {
                    format!("{}: {help}", e.short())
                }
                other => format!("{name}: {}", other.short()),
            })
        })?;
        loaded.push(variant);
    }
    // Each script once, though a base's scripts are also its derived variants'.
    let mut maps: BTreeMap<String, ScriptMap> = BTreeMap::new();
    for variant in &loaded {
        for map in variant.script_maps() {
            maps.entry(map.path.display().to_string()).or_insert(map);
        }
    }
    let scenarios = scenarios_of(&variants, spec_paths, &provider)?;
    if scenarios.is_empty() {
        return Err(CoverageError::Empty(format!(
            "no scenario under {} plays {}",
            spec_paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            variants.join(", ")
        )));
    }
    provider.take_hits(); // what loading ran (module top levels) is not a scenario's
    let mut total = Hits::new();
    let mut ran: Vec<BTreeSet<FileLine>> = Vec::with_capacity(scenarios.len());
    let mut played: Vec<BTreeSet<FileLine>> = Vec::with_capacity(scenarios.len());
    let mut played_statements: Vec<BTreeMap<FilePoint, Runs>> = Vec::with_capacity(scenarios.len());
    let mut failed = Vec::new();
    for (i, scenario) in scenarios.iter().enumerate() {
        let mut setup: Option<Hits> = None;
        let mut steps = Hits::new();
        let mut statements = Statements::default();
        let result =
            runner::run_observed(&scenario.concrete, &provider, &mut |moment| match moment {
                runner::Moment::SetUp => setup = Some(provider.take_hits()),
                runner::Moment::Stepped => {
                    let (all, refused) = provider.take_hits_split();
                    statements.add_step(&maps, &all, &refused);
                    for (at, count) in all {
                        *steps.entry(at).or_default() += count;
                    }
                }
            });
        if let Err(failure) = result {
            failed.push(format!("{}: {}", scenario.label, failure.message));
        }
        // What ran outside a step: all of it, when the Givens failed.
        for (at, count) in provider.take_hits() {
            *steps.entry(at).or_default() += count;
        }
        played.push(lines_run(&maps, &steps));
        played_statements.push(statements.0);
        let mut hits = setup.unwrap_or_default();
        for (at, count) in steps {
            *hits.entry(at).or_default() += count;
        }
        ran.push(lines_run(&maps, &hits));
        for (at, count) in hits {
            *total.entry(at).or_default() += count;
        }
        progress(i + 1, scenarios.len());
    }
    let files: Vec<FileCoverage> = maps
        .iter()
        .map(|(path, map)| file_coverage(path, map, &total))
        .collect();
    let mut lines = Tally::default();
    let mut functions = Tally::default();
    let mut branches = Tally::default();
    for f in &files {
        lines.add(f.line_tally);
        functions.add(f.function_tally);
        branches.add(f.branch_tally);
    }
    Ok(CoverageReport {
        rules: rules_trace(&loaded, &scenarios, &ran, &played, &played_statements),
        variants,
        scenarios: scenarios.len(),
        failed,
        files,
        lines,
        functions,
        branches,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The statement lines that ran at least once.
/// The lines of `variant`'s rule scripts that a probe's `hits` ran (`Variant::take_hits` of a
/// variant loaded probed).
pub fn lines_ran(variant: &Variant, hits: &Hits) -> BTreeSet<FileLine> {
    let maps: BTreeMap<String, ScriptMap> = variant
        .script_maps()
        .into_iter()
        .map(|m| (m.path.display().to_string(), m))
        .collect();
    lines_run(&maps, hits)
}

/// The statements a scenario's accepted steps ran after its Givens, each with its runs.
#[derive(Default)]
struct Statements(BTreeMap<FilePoint, Runs>);

impl Statements {
    /// One step's counts: `all` it ran, of which `refused` its refused tries ran.
    fn add_step(&mut self, maps: &BTreeMap<String, ScriptMap>, all: &Hits, refused: &Hits) {
        for ((file, at), &n) in all {
            let accepted = n.saturating_sub(
                refused
                    .get(&(file.clone(), *at))
                    .copied()
                    .unwrap_or_default(),
            );
            let is_statement = maps
                .get(file)
                .is_some_and(|m| m.statements.binary_search(at).is_ok());
            if accepted == 0 || !is_statement {
                continue;
            }
            let runs = self
                .0
                .entry(FilePoint {
                    file: file.clone(),
                    at: *at,
                })
                .or_default();
            runs.times += accepted;
            runs.steps += 1;
        }
    }
}

fn lines_run(maps: &BTreeMap<String, ScriptMap>, hits: &Hits) -> BTreeSet<FileLine> {
    hits.iter()
        .filter(|((file, at), count)| {
            **count > 0
                && maps
                    .get(file)
                    .is_some_and(|m| m.statements.binary_search(at).is_ok())
        })
        .map(|((file, at), _)| FileLine {
            file: file.clone(),
            line: at.line,
        })
        .collect()
}

/// One file's counts from the run's hits.
fn file_coverage(path: &str, map: &ScriptMap, total: &Hits) -> FileCoverage {
    let hits_at = |at: &Point| {
        total
            .get(&(path.to_string(), *at))
            .copied()
            .unwrap_or_default()
    };
    let mut by_line: BTreeMap<u32, u64> = BTreeMap::new();
    for at in &map.statements {
        let line = by_line.entry(at.line).or_default();
        *line = (*line).max(hits_at(at));
    }
    let lines: Vec<LineCount> = by_line
        .iter()
        .map(|(&line, &hits)| LineCount { line, hits })
        .collect();
    let branches: Vec<BranchCount> = map
        .branches
        .iter()
        .map(|b| {
            let hits = hits_at(&b.at);
            let known: u64 = b
                .arms
                .iter()
                .filter_map(|a| a.first)
                .map(|p| hits_at(&p))
                .sum();
            let arms = b
                .arms
                .iter()
                .map(|a| ArmCount {
                    label: a.label.clone(),
                    taken: (hits > 0).then(|| match a.first {
                        Some(p) => hits_at(&p),
                        None => hits.saturating_sub(known),
                    }),
                })
                .collect();
            BranchCount {
                line: b.at.line,
                column: b.at.column,
                kind: b.kind,
                hits,
                arms,
            }
        })
        .collect();
    let tally_lines = |range: std::ops::RangeInclusive<u32>| {
        let mut t = Tally::default();
        for l in lines.iter().filter(|l| range.contains(&l.line)) {
            t.found += 1;
            t.hit += usize::from(l.hits > 0);
        }
        t
    };
    let tally_branches = |range: std::ops::RangeInclusive<u32>| {
        let mut t = Tally::default();
        for b in branches.iter().filter(|b| range.contains(&b.line)) {
            t.found += b.arms.len();
            t.hit += b
                .arms
                .iter()
                .filter(|a| a.taken.is_some_and(|n| n > 0))
                .count();
        }
        t
    };
    let functions: Vec<FunctionCoverage> = map
        .functions
        .iter()
        .map(|f| {
            let first = line_u32(f.first_line);
            let last = line_u32(f.last_line);
            let calls = map
                .statements
                .iter()
                .find(|p| (first..=last).contains(&p.line))
                .map_or(0, hits_at);
            FunctionCoverage {
                name: f.name.clone(),
                first_line: first,
                last_line: last,
                calls,
                lines: tally_lines(first..=last),
                branches: tally_branches(first..=last),
                missed_lines: lines
                    .iter()
                    .filter(|l| l.hits == 0 && (first..=last).contains(&l.line))
                    .map(|l| l.line)
                    .collect(),
            }
        })
        .collect();
    let function_tally = Tally {
        found: functions.len(),
        hit: functions.iter().filter(|f| f.calls > 0).count(),
    };
    FileCoverage {
        path: path.to_string(),
        source: map.source.clone(),
        line_tally: tally_lines(0..=u32::MAX),
        branch_tally: tally_branches(0..=u32::MAX),
        function_tally,
        lines,
        functions,
        branches,
    }
}

/// A line number as the reports write it (scripts are far shorter than 4 billion lines).
fn line_u32(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

/// For each rule of each variant's rulebook: its scenarios, the lines they run that no scenario
/// of another rule runs, the lines they play after their Givens, and each one's mark (a scenario
/// tagged with several rules is each one's; an untagged scenario is no rule's).
fn rules_trace(
    variants: &[Arc<Variant>],
    scenarios: &[Scenario],
    ran: &[BTreeSet<FileLine>],
    played: &[BTreeSet<FileLine>],
    played_statements: &[BTreeMap<FilePoint, Runs>],
) -> Vec<RuleTrace> {
    // The rule-tagged scenarios that run each line.
    let mut runners: HashMap<&FileLine, Vec<usize>> = HashMap::new();
    for (i, (s, lines)) in scenarios.iter().zip(ran).enumerate() {
        if s.rules.is_empty() {
            continue;
        }
        for line in lines {
            runners.entry(line).or_default().push(i);
        }
    }
    // The rules whose tagged scenarios run each statement after their Givens.
    let mut players: HashMap<&FilePoint, BTreeSet<&str>> = HashMap::new();
    for (s, statements) in scenarios.iter().zip(played_statements) {
        for at in statements.keys() {
            players
                .entry(at)
                .or_default()
                .extend(s.rules.iter().map(String::as_str));
        }
    }
    let mark = |statements: &BTreeMap<FilePoint, Runs>| -> Option<Mark> {
        let rarity = |at: &FilePoint| players.get(at).map_or(usize::MAX, BTreeSet::len);
        let fewest = statements.keys().map(rarity).min()?;
        Some(Mark {
            statements: statements
                .iter()
                .filter(|(at, _)| rarity(at) == fewest)
                .map(|(at, n)| (at.clone(), *n))
                .collect(),
            rules: fewest,
        })
    };
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for variant in variants {
        for rule in &variant.rulebook.rules {
            if !seen.insert(rule.id.clone()) {
                continue; // an inherited rulebook, traced with its own variant
            }
            let is_mine = |i: &usize| scenarios[*i].rules.contains(&rule.id);
            let mine: Vec<usize> = (0..scenarios.len()).filter(is_mine).collect();
            let own: BTreeSet<FileLine> = mine
                .iter()
                .flat_map(|&i| ran[i].iter())
                .filter(|line| runners.get(line).is_some_and(|r| r.iter().all(is_mine)))
                .cloned()
                .collect();
            out.push(RuleTrace {
                variant: variant.rulebook.variant.clone(),
                id: rule.id.clone(),
                text: rule.text.clone(),
                scenarios: mine.iter().map(|&i| scenarios[i].label.clone()).collect(),
                own_lines: own.into_iter().collect(),
                played_lines: mine
                    .iter()
                    .flat_map(|&i| played[i].iter())
                    .cloned()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                marks: mine
                    .iter()
                    .filter_map(|&i| mark(&played_statements[i]))
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect(),
            });
        }
    }
    out
}

/// A script's path without its folders (`cambia.rhai`), as reports name a script.
pub fn short_path(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

/// Lines as ranges: `3, 7-9, 12`.
pub fn ranges(lines: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(", ")
}
