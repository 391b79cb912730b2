//! Random deep walks from a deal: uniformly random accepted moves (an action of any seat, or
//! the clock running to the next timer) until the game ends or a step limit, with the kernel's
//! invariants checked at every step (`simulate --verify`'s checks) and every size held to its
//! bound. They reach the depths breadth-first exploration cannot.

use super::corpus::Corpus;
use super::measure::Bounds;
use super::space::{Move, Path, Seen, Space, names};
use super::{Finding, Property};
use crate::kernel::{Candidates, Game, Rules};
use crate::sim::Verify;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How many walks, and how long each may be.
#[derive(Clone, Copy, Debug)]
pub struct Walks {
    /// Walks per deal.
    pub count: u32,
    /// Moves a walk makes at most.
    pub max_steps: u32,
}

impl Walks {
    /// Walks `first..first + count` of the deal's: each walk's choices follow from its number.
    pub(super) fn numbered(self, first: u32, count: u32) -> Numbered {
        Numbered {
            walks: Walks { count, ..self },
            first,
            hostile: 0.25,
        }
    }
}

/// A run of a deal's walks: which, and how often a step first tries a hostile move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Numbered {
    walks: Walks,
    first: u32,
    hostile: f64,
}

impl Numbered {
    /// Every step first tries a hostile move (walks run for the lines they reach).
    pub(super) fn always_hostile(self) -> Numbered {
        Numbered {
            hostile: 1.0,
            ..self
        }
    }
}

/// What the walks of one deal covered.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Covered {
    pub(super) walks: u64,
    pub(super) steps: u64,
    /// Walks that reached their step limit with the game still going.
    pub(super) unended: u64,
    pub(super) longest: u64,
    /// Moves no form offered that the walks tried (`hostile.rs`), and how many were accepted.
    pub(super) hostile: u64,
    pub(super) hostile_accepted: u64,
}

impl Covered {
    pub(super) fn add(&mut self, other: &Covered) {
        self.walks += other.walks;
        self.steps += other.steps;
        self.unended += other.unended;
        self.longest = self.longest.max(other.longest);
        self.hostile += other.hostile;
        self.hostile_accepted += other.hostile_accepted;
    }
}

/// Walk the deal of `space` `walks.count` times, from walk number `first` on, starting walks
/// from `corpus` and adding to it; findings go to `findings`, each property once.
pub(super) fn walk(
    space: &Space<'_>,
    run: Numbered,
    bounds_values: Option<usize>,
    corpus: &mut Corpus,
    seen: &mut Seen,
    findings: &mut Vec<Finding>,
) -> Covered {
    let Numbered {
        walks,
        first,
        hostile,
    } = run;
    let mut covered = Covered::default();
    let mut reported: Vec<Property> = Vec::new();
    let mut report = |finding: Finding| {
        if !reported.contains(&finding.property) {
            reported.push(finding.property);
            findings.push(finding);
        }
    };
    let mut candidates = Candidates::default();
    let mut order: Vec<usize> = Vec::new();
    for w in first..first.saturating_add(walks.count) {
        let mut rng = ChaCha8Rng::seed_from_u64(space.seed ^ (u64::from(w) << 32) ^ 0x0a11_0f17);
        let setup = space.setup;
        // One walk in four has every step checked (the checks cost more than the step).
        let verify = (w % 4 == 0)
            .then(|| Verify::new(space.rules, space.seed, names(setup.players), &setup.house));
        let rules: &dyn Rules = match &verify {
            Some(v) => v,
            None => space.rules,
        };
        let before = |game: &Game| {
            if let Some(v) = &verify {
                v.before(game);
            }
        };
        let mut game = match Game::new(
            space.rules.table().clone(),
            names(setup.players),
            space.seed,
            &setup.house,
        ) {
            Ok(game) => game,
            Err(e) => {
                report(Finding::new(
                    Property::Invariants,
                    format!("the deal fails: {e}"),
                    space.seed,
                ));
                return covered;
            }
        };
        before(&game);
        if let Err(e) = game.start(rules) {
            report(Finding::new(
                Property::Invariants,
                format!("the deal fails: {e}"),
                space.seed,
            ));
            return covered;
        }
        let bounds = Bounds::of(&game, bounds_values);
        if verify.is_none() {
            // Only which events are sent matters, not what they hold (`Verify` reads them all).
            game.set_keep_events(false);
            game.note_sent_events(true);
        }
        // Every other walk avoids a random half of the kinds of move (swarm testing): a walk
        // that never lets time pass, or never calls the end, goes where uniform choice rarely
        // does.
        let bans = match w % 2 {
            0 => Bans::none(&game),
            _ => Bans::random(&game, &mut rng),
        };
        let mut path = Path {
            seed: space.seed,
            moves: Vec::new(),
        };
        covered.walks += 1;
        let mut failed = check_step(verify.as_ref(), &game, &path, &mut report);
        seen.state(&mut game);
        // From where an earlier walk first found something new, half the time.
        if let Some(start) = corpus.start(&mut rng) {
            for mv in start {
                before(&game);
                match space.play(&mut game, rules, mv) {
                    Ok(true) => path.moves.push(mv.clone()),
                    _ => break,
                }
                failed = check_step(verify.as_ref(), &game, &path, &mut report);
                seen.state(&mut game);
                if failed {
                    break;
                }
            }
        }
        // The step limit counts the walk's own moves, after the path it started from; one walk
        // in eight may go ten times as far (a window no time passes in, say).
        let prefix = path.moves.len();
        let limit = u64::from(walks.max_steps) * if w % 8 == 7 { 10 } else { 1 };
        while !failed && !game.is_over() {
            if (path.moves.len() - prefix) as u64 >= limit {
                covered.unended += 1;
                break;
            }
            before(&game);
            candidates.refill(&game, None);
            let waiting = !game.state.timers.is_empty();
            order.clear();
            order.extend(0..candidates.len() + usize::from(waiting));
            // Uniformly random among the moves the walk prefers, then among the others.
            let preferred = partition(&mut order, |&i| match candidates.get(i) {
                Some(action) => !bans.action(&game, &action),
                None => !bans.wait,
            });
            let mut moved = false;
            // One step in four (or every step) first tries a move no form offers now.
            if rng.random_bool(hostile)
                && let Some(action) = super::hostile::hostile(&game, &candidates, &mut rng)
            {
                covered.hostile += 1;
                let mut take = Take {
                    game: &mut game,
                    path: &mut path,
                    seen,
                    report: &mut report,
                };
                match take.play(space, rules, Move::Act(action), " on a move no form offers") {
                    Tried::Refused => {}
                    Tried::Moved => {
                        covered.hostile_accepted += 1;
                        moved = true;
                    }
                    Tried::Faulted => failed = true,
                }
            }
            for tried in 0..order.len() {
                if moved || failed {
                    break;
                }
                let end = if tried < preferred {
                    preferred
                } else {
                    order.len()
                };
                let pick = rng.random_range(tried..end);
                order.swap(tried, pick);
                let mv = match candidates.get(order[tried]) {
                    Some(action) => Move::Act(action),
                    None => Move::Wait,
                };
                let mut take = Take {
                    game: &mut game,
                    path: &mut path,
                    seen,
                    report: &mut report,
                };
                match take.play(space, rules, mv, "") {
                    Tried::Refused => continue,
                    Tried::Moved => moved = true,
                    Tried::Faulted => failed = true,
                }
            }
            if failed {
                break;
            }
            if !moved {
                let phase = game.table.phase_name(game.state.phase).to_string();
                report(Finding::at(
                    Property::NoDeadlock,
                    format!(
                        "the game is not over, no action of any player is accepted and no timer runs (phase {phase}, after {} moves)",
                        path.moves.len()
                    ),
                    Ok(path.clone()),
                    None,
                ));
                break;
            }
            covered.steps += 1;
            failed = check_step(verify.as_ref(), &game, &path, &mut report);
            let sent = seen.state(&mut game);
            corpus.note(&game, sent, &path.moves, &mut rng);
            if let Some(growth) = bounds.passed(&game) {
                report(Finding::at(
                    Property::Bounded,
                    growth.message(space, &path),
                    Ok(path.clone()),
                    None,
                ));
                break;
            }
        }
        covered.longest = covered.longest.max(path.moves.len() as u64);
        if game.is_over() && !failed {
            seen.end(&game);
            if let Some(Err(what)) = verify.as_ref().map(|v| v.finish(&game)) {
                report(Finding::at(
                    Property::Invariants,
                    what,
                    Ok(path.clone()),
                    None,
                ));
            }
        }
    }
    covered
}

/// What playing one move came to.
enum Tried {
    Refused,
    Moved,
    Faulted,
}

/// A walk's game and path, and where what it sees and finds goes, for playing one move.
struct Take<'g, R: FnMut(Finding)> {
    game: &'g mut Game,
    path: &'g mut Path,
    seen: &'g mut Seen,
    report: &'g mut R,
}

impl<R: FnMut(Finding)> Take<'_, R> {
    /// Play `mv`: when accepted, noted and added to the path; a fault is reported, `kind` saying
    /// what kind of move it was (` on a move no form offers`).
    fn play(&mut self, space: &Space<'_>, rules: &dyn Rules, mv: Move, kind: &str) -> Tried {
        match space.play(self.game, rules, &mv) {
            Ok(false) => Tried::Refused,
            Ok(true) => {
                if let Move::Act(action) = &mv {
                    self.seen.action(self.game, action);
                }
                self.path.moves.push(mv);
                Tried::Moved
            }
            Err(fault) => {
                (self.report)(Finding::at(
                    Property::Invariants,
                    format!("the rules fault{kind}: {fault}"),
                    Ok(self.path.clone()),
                    Some(mv),
                ));
                Tried::Faulted
            }
        }
    }
}

/// The kernel's checks after a step; whether they failed (reported).
fn check_step(
    verify: Option<&Verify<'_>>,
    game: &Game,
    path: &Path,
    report: &mut impl FnMut(Finding),
) -> bool {
    match verify.map_or(Ok(()), |v| v.after(game)) {
        Ok(()) => false,
        Err(what) => {
            report(Finding::at(
                Property::Invariants,
                what,
                Ok(path.clone()),
                None,
            ));
            true
        }
    }
}

/// The kinds of move a walk avoids: it makes one only when no other is accepted.
struct Bans {
    /// By action index (`Table::actions`).
    actions: Vec<bool>,
    wait: bool,
}

impl Bans {
    fn none(game: &Game) -> Bans {
        Bans {
            actions: vec![false; game.table.actions.len()],
            wait: false,
        }
    }

    /// Each kind (each action, and waiting) avoided with even odds.
    fn random(game: &Game, rng: &mut ChaCha8Rng) -> Bans {
        Bans {
            actions: (0..game.table.actions.len())
                .map(|_| rng.random_bool(0.5))
                .collect(),
            wait: rng.random_bool(0.5),
        }
    }

    fn action(&self, game: &Game, action: &crate::kernel::Action) -> bool {
        game.table
            .action_index(&action.name)
            .is_some_and(|i| self.actions[i])
    }
}

/// Move the items `keep` says yes to to the front, keeping nothing else in order; how many.
fn partition(items: &mut [usize], keep: impl Fn(&usize) -> bool) -> usize {
    let mut front = 0;
    for i in 0..items.len() {
        if keep(&items[i]) {
            items.swap(front, i);
            front += 1;
        }
    }
    front
}
