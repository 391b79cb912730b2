//! Differential testing of the two script engines: `Twin` runs every hook call twice, on the
//! interpreter (the reference) and on the compiled engine, and compares what they return
//! (refusal and fault texts included) and the games they leave (state and event log). Any game
//! loop becomes an engine comparison by playing through a `Twin` (`simulate --compare-engines`).

use crate::kernel::{Action, Game, RuleError, Rules, Seat, Table, Timer};
use crate::script::{EngineKind, Variant};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Both engines of one variant, as one `Rules`: the game moves on as the compiled engine takes
/// it; a call on which the engines differ is a fault that says how.
pub struct Twin<'a> {
    reference: &'a Variant,
    subject: &'a Variant,
    calls: AtomicU64,
}

impl<'a> Twin<'a> {
    /// `reference` must run on the interpreter and `subject` on the compiled engine, both
    /// loaded from the same rules.
    pub fn new(reference: &'a Variant, subject: &'a Variant) -> Twin<'a> {
        debug_assert_eq!(reference.engine_kind(), EngineKind::Interpreted);
        debug_assert_eq!(subject.engine_kind(), EngineKind::Compiled);
        Twin {
            reference,
            subject,
            calls: AtomicU64::new(0),
        }
    }

    /// The hook calls compared so far.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// Run `call` on a copy of the game with the reference and on the game with the subject.
    fn both<T: PartialEq + std::fmt::Debug>(
        &self,
        game: &mut Game,
        what: &dyn Fn() -> String,
        call: impl Fn(&dyn Rules, &mut Game) -> Result<T, RuleError>,
    ) -> Result<T, RuleError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let mut copy = game.clone();
        let before = crate::script::operations_spent();
        let expected = call(self.reference, &mut copy);
        let between = crate::script::operations_spent();
        let got = call(self.subject, game);
        let (interpreted_ops, compiled_ops) = (
            between - before,
            crate::script::operations_spent() - between,
        );
        if expected != got {
            return Err(RuleError::fault(format!(
                "the engines differ on {}: interpreted {expected:?}, compiled {got:?}",
                what()
            )));
        }
        if copy.state != game.state {
            return Err(RuleError::fault(format!(
                "the engines differ on {}: they leave different game states",
                what()
            )));
        }
        if copy.log != game.log {
            let first = copy
                .log
                .iter()
                .zip(&game.log)
                .position(|(a, b)| a != b)
                .unwrap_or(copy.log.len().min(game.log.len()));
            return Err(RuleError::fault(format!(
                "the engines differ on {}: their event logs differ from event {first} (interpreted {:?}, compiled {:?})",
                what(),
                copy.log.get(first),
                game.log.get(first)
            )));
        }
        // The operations counted against the limit, for a call that ended without an error (a
        // failing call's count stops at different points: the compiled engine charges a
        // statement before it runs it).
        if got.is_ok() && interpreted_ops != compiled_ops {
            return Err(RuleError::fault(format!(
                "the engines count different operations on {}: interpreted {interpreted_ops}, compiled {compiled_ops}",
                what()
            )));
        }
        got
    }
}

impl Rules for Twin<'_> {
    fn table(&self) -> &Arc<Table> {
        self.subject.table()
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.both(game, &|| "setup".into(), |r, g| r.setup(g))
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.both(game, &|| "end_setup".into(), |r, g| r.end_setup(g, first))
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.both(game, &|| "start_turn".into(), |r, g| r.start_turn(g, seat))
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        self.both(
            game,
            &|| format!("`{}` by seat {}", action.name, action.seat.index()),
            |r, g| r.act(g, action),
        )
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.both(game, &|| format!("timer `{}`", timer.name), |r, g| {
            r.timer(g, timer)
        })
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.both(
            game,
            &|| format!("the score of seat {}", seat.index()),
            |r, g| r.score(g, seat),
        )
    }
}
