//! One configuration of a variant and one deal: the game at the deal, a move played, what the
//! exploration has seen, and a path played again and written as a scenario.

use super::fingerprint::{Chance, Prints};
use crate::kernel::{Action, Game, RuleError, Rules, Seat};
use crate::record::Recorder;
use crate::script::Variant;

/// A configuration to explore: how many players, and the house rules (`prove:` in
/// `variant.yaml`, or the command line's).
pub use crate::script::config::ProveConfig as Setup;

/// One move of a game: an action, or the clock running to the next timer.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    /// An action the rules accepted.
    Act(Action),
    /// The next timer ran out.
    Wait,
}

/// A way to reach a state: the deal's seed and the moves from the deal.
#[derive(Clone, Debug)]
pub struct Path {
    /// The seed of the deal.
    pub seed: u64,
    /// The moves from the deal, in order.
    pub moves: Vec<Move>,
}

/// The games of one configuration dealt from one seed.
pub(super) struct Space<'a> {
    pub(super) variant: &'a Variant,
    /// The variant's rules, dealt from the configuration's deck (`WithDeck`) when it has one.
    pub(super) rules: &'a dyn Rules,
    pub(super) setup: &'a Setup,
    pub(super) seed: u64,
    /// Whether cards the rules cannot tell apart are one class in fingerprints.
    pub(super) symmetry: bool,
    pub(super) chance: Chance,
}

/// The players' names in explored games (as `simulate` names them).
pub(super) fn names(players: usize) -> Vec<String> {
    (0..players).map(|i| format!("p{i}")).collect()
}

impl Space<'_> {
    /// How this deal's states are fingerprinted: suits count when the rule scripts may read
    /// them (they call `suit`, `face` or `is_red`).
    pub(super) fn prints(&self, game: &Game) -> Prints {
        let suits = ["suit", "face", "is_red"]
            .iter()
            .any(|f| self.variant.rules_may_call(f));
        Prints::new(&game.state, &game.table, self.symmetry, suits, self.chance)
    }

    /// The game right after the deal, played by `rules` (the variant, or a wrapper of it).
    pub(super) fn deal_with(&self, rules: &dyn Rules) -> Result<Game, String> {
        let mut game = Game::new(
            self.rules.table().clone(),
            names(self.setup.players),
            self.seed,
            &self.setup.house,
        )
        .map_err(|e| e.to_string())?;
        game.start(rules).map_err(|e| e.to_string())?;
        Ok(game)
    }

    /// Play `mv` on `game`: `Ok(false)` when the rules refuse it (the game unchanged), or when
    /// no timer runs for a `Wait`.
    pub(super) fn play(
        &self,
        game: &mut Game,
        rules: &dyn Rules,
        mv: &Move,
    ) -> Result<bool, RuleError> {
        match mv {
            Move::Act(action) => match game.apply(rules, action) {
                Ok(()) => Ok(true),
                Err(RuleError::Refused(_)) => Ok(false),
                Err(fault) => Err(fault),
            },
            Move::Wait => game.run_out(rules),
        }
    }

    /// The path played again under a recorder, written as a scenario that replays it. The last
    /// move, when it faults, is left out and named in the header (a scenario cannot replay a
    /// fault), as is anything after it.
    pub(super) fn scenario(&self, moves: &[Move], title: &str, header: &str) -> String {
        let recorder = Recorder::new(self.rules, &self.setup.house_text);
        let mut game = match self.deal_with(&recorder) {
            Ok(game) => game,
            Err(e) => return format!("# the deal of seed {} fails: {e}\n", self.seed),
        };
        recorder.start(&game, self.seed);
        let mut header = header.to_string();
        for mv in moves {
            match self.play(&mut game, &recorder, mv) {
                Ok(true) => {
                    if *mv == Move::Wait {
                        recorder.clock_reached(game.state.clock);
                    }
                }
                Ok(false) => {
                    header.push_str("\nThe path's next move was refused on replay: it ends here.");
                    break;
                }
                Err(fault) => {
                    let what = match mv {
                        Move::Act(action) => crate::record::action_command(&game, action),
                        Move::Wait => "the next timer running out".to_string(),
                    };
                    header.push_str(&format!("\nThe next move, {what}, faults: {fault}"));
                    break;
                }
            }
        }
        let scores = scores(self.rules, &mut game);
        recorder.finish(&game, title, &header, &scores)
    }
}

/// Every player's score now (0 for a player the score hook fails on: a scenario still replays).
fn scores(rules: &dyn Rules, game: &mut Game) -> Vec<i64> {
    (0..game.state.player_count())
        .map(|s| {
            let mut trial = game.trial();
            let score = rules.score(&mut trial, Seat(s as u8)).unwrap_or(0);
            trial.recycle();
            score
        })
        .collect()
}

/// The indices of the events `game` sent since they were last asked for: those it noted
/// (`Game::note_sent_events`) and those it kept, which it then forgets.
pub(super) fn sent_events(game: &mut Game, sent: &mut Vec<usize>) {
    sent.clear();
    game.take_sent_events(sent);
    for event in &game.log {
        if let Some(i) = game.table.event_index(&event.name)
            && !sent.contains(&i)
        {
            sent.push(i);
        }
    }
    game.forget_events_before(game.event_count());
}

/// What an exploration saw: which actions the rules accepted, which phases were entered, which
/// events were sent, which seats won, and how big it was.
#[derive(Clone, Debug, Default)]
pub(super) struct Seen {
    /// By action index (`Table::actions`).
    pub(super) actions: Vec<bool>,
    /// By phase index (`Table::phases`).
    pub(super) phases: Vec<bool>,
    /// By event index (`Table::events`).
    pub(super) events: Vec<bool>,
    /// Bit `s`: seat `s` won a game.
    pub(super) wins: u64,
    /// A game ended with no winner.
    pub(super) draw: bool,
    /// Games that ended.
    pub(super) ends: u64,
    /// The events of the last state noted (`state`), kept to be filled again.
    sent: Vec<usize>,
}

impl Seen {
    pub(super) fn new(variant: &Variant) -> Seen {
        let table = variant.table();
        Seen {
            actions: vec![false; table.actions.len()],
            phases: vec![false; table.phases.len()],
            events: vec![false; table.events.len()],
            ..Seen::default()
        }
    }

    /// Note the state `game` is in, and the events it sent since they were last forgotten
    /// (which it then forgets); the events' indices.
    pub(super) fn state(&mut self, game: &mut Game) -> &[usize] {
        if let Some(entered) = self.phases.get_mut(game.state.phase.0 as usize) {
            *entered = true;
        }
        sent_events(game, &mut self.sent);
        for &i in &self.sent {
            self.events[i] = true;
        }
        &self.sent
    }

    /// Note an accepted action.
    pub(super) fn action(&mut self, game: &Game, action: &Action) {
        if let Some(i) = game.table.action_index(&action.name) {
            self.actions[i] = true;
        }
    }

    /// Note a game that ended.
    pub(super) fn end(&mut self, game: &Game) {
        if let Some(outcome) = &game.state.outcome {
            self.ends += 1;
            if outcome.winners.is_empty() {
                self.draw = true;
            }
            for w in &outcome.winners {
                self.wins |= 1 << w.0;
            }
        }
    }

    pub(super) fn merge(&mut self, other: &Seen) {
        let or = |a: &mut Vec<bool>, b: &[bool]| {
            for (x, y) in a.iter_mut().zip(b) {
                *x |= *y;
            }
        };
        or(&mut self.actions, &other.actions);
        or(&mut self.phases, &other.phases);
        or(&mut self.events, &other.events);
        self.wins |= other.wins;
        self.draw |= other.draw;
        self.ends += other.ends;
    }
}
