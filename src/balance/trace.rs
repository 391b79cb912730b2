//! What one game of a balance study did, watched step by step: a `Rules` wrapper around the
//! variant (so the game plays exactly as it would unwatched) that notes every accepted action
//! (who, which, how many moves the forms offered its sender, whether it named a card its sender
//! did not know) and every timer, and at the start of every turn who leads by the variant's
//! score hook on the true state.

use crate::kernel::{Action, Arg, Candidates, Game, RuleError, Rules, Seat, Table, Timer};
use std::cell::RefCell;
use std::sync::Arc;

/// Which end of the score wins: every bundled variant's lowest total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Better {
    /// The lowest score leads.
    Lower,
    /// The highest score leads.
    Higher,
}

/// One turn's start: who led, and by how much over the closest other player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnLead {
    /// Bit `s`: seat `s` had the best score (several when tied).
    pub leaders: u64,
    /// Points between the best score and the next different one (0 when all tie).
    pub margin: f64,
}

/// What one game did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameTrace {
    /// By declared action (`Table::actions`), by seat: times accepted.
    pub uses: Vec<Vec<u32>>,
    /// Accepted actions.
    pub decisions: u64,
    /// The moves the declared forms offered the sender of each accepted action, added up.
    pub offered: u64,
    /// Accepted actions that named a card their sender did not know (`reveals:` forms aside).
    pub unknown: u64,
    /// Timers that ran out.
    pub timers: u64,
    /// Each turn's start, in order.
    pub turns: Vec<TurnLead>,
    /// The seat that had the first turn.
    pub first_turn: Option<usize>,
    /// On a probed game: how often each measured rule fired (`Activation::fires`).
    pub fires: Option<Vec<f64>>,
}

/// The variant's rules, watched: give it to the game as its rules, then `take` the trace.
pub struct Tracer<'a> {
    inner: &'a dyn Rules,
    /// What tells who leads: `inner`, or the same rules unprobed when `inner` is probed (the
    /// tracer's own score calls are no rule firing).
    scorer: &'a dyn Rules,
    better: Better,
    trace: RefCell<GameTrace>,
    /// Whose turn the last noted turn was.
    current: RefCell<Option<Seat>>,
    offered: RefCell<Candidates>,
}

impl<'a> Tracer<'a> {
    /// A tracer of games played by `inner`; leading is by `better` scores.
    pub fn new(inner: &'a dyn Rules, better: Better) -> Tracer<'a> {
        Tracer::scored_by(inner, inner, better)
    }

    /// A tracer of games played by `inner` whose leader `scorer` tells (the same rules).
    pub fn scored_by(inner: &'a dyn Rules, scorer: &'a dyn Rules, better: Better) -> Tracer<'a> {
        Tracer {
            inner,
            scorer,
            better,
            trace: RefCell::new(GameTrace::default()),
            current: RefCell::new(None),
            offered: RefCell::new(Candidates::default()),
        }
    }

    /// The trace of the game played since the last call, and a fresh one for the next game.
    pub fn take(&self) -> GameTrace {
        *self.current.borrow_mut() = None;
        std::mem::take(&mut *self.trace.borrow_mut())
    }

    /// After a step: when a new turn has begun, note who leads.
    fn turn(&self, game: &mut Game) -> Result<(), RuleError> {
        let now = game.state.current;
        if now.is_none() || now == *self.current.borrow() || game.is_over() {
            return Ok(());
        }
        *self.current.borrow_mut() = now;
        let scores = scores(self.scorer, game)?;
        let lead = lead(&scores, self.better);
        let mut trace = self.trace.borrow_mut();
        if trace.turns.is_empty() {
            trace.first_turn = now.map(Seat::index);
        }
        trace.turns.push(lead);
        Ok(())
    }

    /// Note an accepted action of `seat`, offered `offered` moves.
    fn acted(&self, game: &Game, action: &Action, offered: usize, unknown: bool) {
        let mut trace = self.trace.borrow_mut();
        let table = &game.table;
        if trace.uses.is_empty() {
            trace.uses = vec![vec![0; game.state.player_count()]; table.actions.len()];
        }
        if let Some(i) = table.action_index(&action.name)
            && let Some(n) = trace.uses[i].get_mut(action.seat.index())
        {
            *n += 1;
        }
        trace.decisions += 1;
        trace.offered += offered as u64;
        trace.unknown += u64::from(unknown);
    }
}

/// Every seat's score now (on a copy, unless the score hook changes nothing).
pub fn scores(rules: &dyn Rules, game: &mut Game) -> Result<Vec<i64>, RuleError> {
    let read_only = rules.score_changes_nothing();
    (0..game.state.player_count())
        .map(|s| {
            let seat = Seat(u8::try_from(s).unwrap_or(u8::MAX));
            if read_only {
                return rules.score(game, seat);
            }
            let mut trial = game.trial();
            let score = rules.score(&mut trial, seat);
            trial.recycle();
            score
        })
        .collect()
}

/// Who leads with these scores, and by how much.
pub fn lead(scores: &[i64], better: Better) -> TurnLead {
    let best = match better {
        Better::Lower => scores.iter().min(),
        Better::Higher => scores.iter().max(),
    };
    let Some(&best) = best else {
        return TurnLead {
            leaders: 0,
            margin: 0.0,
        };
    };
    let leaders = scores
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == best)
        .fold(0u64, |bits, (i, _)| bits | (1 << i.min(63)));
    let next = scores
        .iter()
        .filter(|s| **s != best)
        .map(|s| (s - best).abs())
        .min()
        .unwrap_or(0);
    TurnLead {
        leaders,
        margin: next as f64,
    }
}

/// Whether `action` names a card its sender does not know (a `reveals:` form is meant to).
fn names_unknown(game: &Game, action: &Action) -> bool {
    if game.reveals(action) {
        return false;
    }
    action.args.iter().any(|arg| {
        let card = match arg {
            Arg::Card(c) => Some(*c),
            Arg::Slot { seat, slot } => game
                .state
                .hand(*seat)
                .get(*slot as usize)
                .copied()
                .flatten(),
            _ => None,
        };
        card.is_some_and(|c| !game.state.knows(action.seat, c))
    })
}

impl Rules for Tracer<'_> {
    fn table(&self) -> &Arc<Table> {
        self.inner.table()
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.inner.setup(game)?;
        self.turn(game)
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.inner.end_setup(game, first)?;
        self.turn(game)
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        self.inner.start_turn(game, seat)?;
        self.turn(game)
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let offered = {
            let mut set = self.offered.borrow_mut();
            set.refill(game, Some(action.seat));
            set.len()
        };
        let unknown = names_unknown(game, action);
        self.inner.act(game, action)?;
        self.acted(game, action, offered, unknown);
        self.turn(game)
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        self.inner.timer(game, timer)?;
        self.trace.borrow_mut().timers += 1;
        self.turn(game)
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.inner.score(game, seat)
    }

    fn score_changes_nothing(&self) -> bool {
        self.inner.score_changes_nothing()
    }
}

#[cfg(test)]
mod tests {
    use super::{Better, lead};

    #[test]
    fn the_best_score_leads_ties_share_the_lead_and_the_margin_is_to_the_next() {
        let l = lead(&[12, 5, 9, 5], Better::Lower);
        assert_eq!((l.leaders, l.margin), (0b1010, 4.0));
        let h = lead(&[12, 5, 9, 5], Better::Higher);
        assert_eq!((h.leaders, h.margin), (0b0001, 3.0));
        let all = lead(&[3, 3], Better::Lower);
        assert_eq!((all.leaders, all.margin), (0b11, 0.0));
    }
}
