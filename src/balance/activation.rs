//! How often each rulebook rule fires a game: some of a study's games are played on a copy of the
//! variant loaded with the coverage probe, and each rule counts as fired as often as the game ran
//! the statements that tell its scenarios' plays apart (`coverage::Mark`).
//!
//! A scenario's mark is the statements its accepted steps run after its Givens that the
//! scenarios of the fewest rules run, each with how often a step that ran it did. A game ran that
//! play as often as the mark's statement it ran the fewest times for each time such a step did
//! (a statement in a loop runs more often than the play it belongs to). A rule fired as often as
//! its distinct plays ran, added up: scenarios with the same mark are one play, and a mark that
//! holds another's statements and more is a case of that play, which it already counts. A rule
//! whose mark other rules' scenarios run too fires with them: the report says how many share it.
//! Only accepted steps count: what a refused try runs is taken off (the probe counts it apart),
//! so a rule that only refuses is not measured, however often a random player tries what it
//! refuses.

use crate::coverage::{FilePoint, Mark, RuleTrace};
use crate::script::Variant;
use crate::script::probe::{Hits, Point};
use std::collections::BTreeSet;
use std::collections::HashMap;
use std::sync::Mutex;

/// A rule whose scenarios play script lines, with its marks as indexes into `Activation::lines`.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkedRule {
    /// The rule's id.
    pub id: String,
    /// Its text.
    pub text: String,
    /// Each play's mark: its statements' indexes, each with the times a step of the scenario
    /// that ran it did.
    marks: Vec<Vec<(usize, f64)>>,
    /// The least specific play's share: how many rules' scenarios run its mark (1: its own only).
    pub shared_by: usize,
    /// Its marks' lines, as `file:line`.
    pub lines: Vec<String>,
}

/// What measuring the rules' activation needs: their marks, which games to probe, and probed
/// copies of the variant (one per thread at a time, as a probe counts every node it sees).
pub struct Activation {
    /// The rules measured, in rulebook order.
    pub rules: Vec<MarkedRule>,
    /// The rules not measured: without a scenario, or whose scenarios' accepted steps after
    /// their Givens run no script statement (refusals, and what Givens set up).
    pub unmeasured: Vec<String>,
    /// Every mark statement, by file and position: its index.
    points: HashMap<(String, Point), usize>,
    /// Study game `i` is probed when `i % every == 0`.
    pub every: u64,
    /// Probed copies of the variant not in use.
    pool: Mutex<Vec<Variant>>,
    /// Makes another probed copy.
    load: Box<dyn Fn() -> Result<Variant, String> + Send + Sync>,
}

impl std::fmt::Debug for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Activation")
            .field("rules", &self.rules.len())
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Activation {
    /// The activation of `rules` (a coverage run's traces of the variant's rulebook), probing
    /// every `every`-th game on copies `load` makes of the variant, probed
    /// (`Variant::load_named_probed`).
    pub fn new(
        traces: &[RuleTrace],
        every: u64,
        load: Box<dyn Fn() -> Result<Variant, String> + Send + Sync>,
    ) -> Result<Activation, String> {
        let first = load()?;
        if !first.is_probed() {
            return Err(format!("{} was not loaded with a probe", first.name));
        }
        let mut points: HashMap<(String, Point), usize> = HashMap::new();
        let mut rules = Vec::new();
        let mut unmeasured = Vec::new();
        for trace in traces {
            let plays = distinct_plays(&trace.marks);
            let Some(shared_by) = plays.iter().map(|m| m.rules).max() else {
                unmeasured.push(trace.id.clone());
                continue;
            };
            let marks = plays
                .iter()
                .map(|m| {
                    m.statements
                        .iter()
                        .map(|(FilePoint { file, at }, runs)| {
                            let next = points.len();
                            let i = *points.entry((file.clone(), *at)).or_insert(next);
                            (i, runs.per_step())
                        })
                        .collect()
                })
                .collect();
            let lines: std::collections::BTreeSet<(String, u32)> = plays
                .iter()
                .flat_map(|m| &m.statements)
                .map(|(p, _)| (crate::coverage::short_path(&p.file).to_string(), p.at.line))
                .collect();
            rules.push(MarkedRule {
                id: trace.id.clone(),
                text: trace.text.clone(),
                marks,
                shared_by,
                lines: lines
                    .into_iter()
                    .map(|(file, line)| format!("{file}:{line}"))
                    .collect(),
            });
        }
        Ok(Activation {
            rules,
            unmeasured,
            points,
            every: every.max(1),
            pool: Mutex::new(vec![first]),
            load,
        })
    }

    /// Whether study game `i` is probed.
    pub fn probes(&self, i: u64) -> bool {
        i.is_multiple_of(self.every)
    }

    /// A probed copy of the variant for one thread: from the pool, or newly made.
    pub fn checkout(&self) -> Result<Variant, String> {
        let spare = self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let variant = match spare {
            Some(v) => v,
            None => (self.load)()?,
        };
        variant.take_hits(); // what loading ran (module top levels) is no game's
        Ok(variant)
    }

    /// A copy back to the pool, its counts emptied.
    pub fn give_back(&self, variant: Variant) {
        variant.take_hits();
        self.pool
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(variant);
    }

    /// How often each rule fired in the game whose probe counted `all`, of which `refused`
    /// tries ran `refused`, in `rules` order.
    pub fn fires(&self, all: &Hits, refused: &Hits) -> Vec<f64> {
        let mut ran = vec![0u64; self.points.len()];
        for (at, &n) in all {
            if let Some(&i) = self.points.get(at) {
                ran[i] += n;
            }
        }
        for (at, &n) in refused {
            if let Some(&i) = self.points.get(at) {
                ran[i] = ran[i].saturating_sub(n);
            }
        }
        self.rules
            .iter()
            .map(|rule| {
                rule.marks
                    .iter()
                    .map(|mark| {
                        mark.iter()
                            .map(|&(i, per_step)| ran[i] as f64 / per_step.max(1.0))
                            .fold(f64::INFINITY, f64::min)
                    })
                    .filter(|f| f.is_finite())
                    .sum()
            })
            .collect()
    }
}

/// A rule's scenarios' marks, one for each distinct play: marks of the same statements are one
/// play, and a mark holding all of another's statements and more is a case of that play, which
/// the other already counts.
fn distinct_plays(marks: &[Mark]) -> Vec<&Mark> {
    fn keys(m: &Mark) -> BTreeSet<&FilePoint> {
        m.statements.iter().map(|(p, _)| p).collect()
    }
    let mut out: Vec<&Mark> = Vec::new();
    for m in marks {
        let mine = keys(m);
        let covered = marks.iter().any(|other| {
            let theirs = keys(other);
            theirs.len() < mine.len() && theirs.is_subset(&mine)
        });
        if !covered && !out.iter().any(|o| keys(o) == mine) {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_play_ran_as_often_as_its_least_run_statement_and_a_rule_as_its_plays_together() {
        let points = (1..=4)
            .map(|l| {
                (
                    ("x.rhai".to_string(), Point { line: l, column: 5 }),
                    l as usize - 1,
                )
            })
            .collect();
        let rule = MarkedRule {
            id: "R".into(),
            text: String::new(),
            // A play whose step ran statements 1 and 2 (2 three times, in a loop); another, 3.
            marks: vec![vec![(0, 1.0), (1, 3.0)], vec![(2, 1.0)]],
            shared_by: 1,
            lines: vec![],
        };
        let never = MarkedRule {
            marks: vec![vec![(3, 1.0)]],
            ..rule.clone()
        };
        let activation = Activation {
            rules: vec![rule, never],
            unmeasured: vec![],
            points,
            every: 1,
            pool: Mutex::new(vec![]),
            load: Box::new(|| Err("no rules".into())),
        };
        let hits: Hits = [(1, 4), (2, 9), (3, 1)]
            .into_iter()
            .map(|(l, n)| (("x.rhai".to_string(), Point { line: l, column: 5 }), n))
            .chain([(("x.rhai".to_string(), Point { line: 4, column: 9 }), 7)])
            .collect();
        // The hit on line 4 is not at its statement's start: an expression inside it.
        // Statement 1 ran 4 times but 2 only 9 times, 3 for each play: 3 plays of the first,
        // and 1 of the second.
        assert_eq!(activation.fires(&hits, &Hits::new()), [4.0, 0.0]);
        // Of statement 1's four runs, two were refused tries: two plays of the first.
        let refused: Hits = [(("x.rhai".to_string(), Point { line: 1, column: 5 }), 2)].into();
        assert_eq!(activation.fires(&hits, &refused), [3.0, 0.0]);
    }

    #[test]
    fn a_mark_repeated_or_holding_another_is_no_play_of_its_own() {
        let at = |line: u32| {
            let p = FilePoint {
                file: "x.rhai".into(),
                at: Point { line, column: 1 },
            };
            (p, crate::coverage::Runs { times: 1, steps: 1 })
        };
        let mark = |lines: &[u32]| Mark {
            statements: lines.iter().map(|&l| at(l)).collect(),
            rules: 1,
        };
        let marks = [mark(&[1]), mark(&[1, 2]), mark(&[3]), mark(&[1])];
        let plays: Vec<&Mark> = distinct_plays(&marks);
        assert_eq!(plays, [&marks[0], &marks[2]]);
    }
}
