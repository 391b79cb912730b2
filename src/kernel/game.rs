//! A game: state plus event log, the one checked transition, the game clock, candidate actions
//! and per-player views. The rules come in through the `Rules` trait.

use super::card::CardIdx;
use super::event::{Audience, CardRef, EventRecord, Payload};
use super::state::{GameState, Loc, StateError, Timer};
use super::table::{HouseRuleProblem, Table};
use super::value::{Seat, Value};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::sync::Arc;

/// An argument of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Arg {
    /// A word of the action's form, such as `skip` in Cambia's `special skip`.
    Word(String),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// A specific card.
    Card(CardIdx),
    /// A hand position.
    Slot {
        /// Whose hand.
        seat: Seat,
        /// The slot in that hand, 0-based.
        slot: u32,
    },
    /// The card the actor has drawn.
    Drawn,
}

/// A player's request: who, which action, with which arguments. Nothing is checked until
/// `Game::apply`, which refuses what the rules do not allow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// The player sending it.
    pub seat: Seat,
    /// Shared, so that enumerating candidates does not allocate a name per action.
    pub name: Arc<str>,
    /// The arguments, in the order of one of the action's forms; empty for an action that
    /// takes none.
    pub args: Vec<Arg>,
}

/// Where a script fault happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcePos {
    /// The script's path, as the variant was loaded from.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based; 0 when unknown.
    pub column: usize,
}

/// Why an action (or a timer, or setup) did not apply. Either way the game is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// The rules refused it; the text says why, for the player.
    #[error("{0}")]
    Refused(String),
    /// The rules themselves failed (a script bug).
    #[error("{message}")]
    Fault {
        /// What went wrong, for the variant's author.
        message: String,
        /// Where in the scripts, when known.
        pos: Option<SourcePos>,
    },
}

impl RuleError {
    /// A fault with this message and no source position.
    pub fn fault(message: impl Into<String>) -> RuleError {
        RuleError::Fault {
            message: message.into(),
            pos: None,
        }
    }
}

impl From<StateError> for RuleError {
    fn from(e: StateError) -> RuleError {
        RuleError::fault(e.to_string())
    }
}

/// A variant's rules, as the kernel sees them. Each hook mutates the game through its
/// primitives; the kernel wraps every call in the checked transition.
pub trait Rules {
    /// The variant's table. Games played with these rules must be made from it (`Game::new`).
    fn table(&self) -> &Arc<Table>;
    /// Deal and start the first phase.
    fn setup(&self, game: &mut Game) -> Result<(), RuleError>;
    /// End the setup phases as their timers running out would, then start `first`'s turn.
    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError>;
    /// Start `seat`'s turn (resetting whatever the previous turn left).
    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError>;
    /// Apply a player's action, or refuse it with [`RuleError::Refused`]. Called by `Game::apply`
    /// inside the checked transition, after the kernel checked the seat and the action's name.
    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError>;
    /// Whether `act` would accept `action`, found without changing the game, when these rules
    /// can (an action that refuses only before it first changes the game, stopped there): `Ok`
    /// when it would, the refusal or fault when it would not. `None` when they cannot:
    /// `Game::accepts` then runs `act` in a transition it undoes. The default is `None`.
    fn check_act(&self, game: &mut Game, action: &Action) -> Option<Result<(), RuleError>> {
        let _ = (game, action);
        None
    }
    /// React to a timer that ran out (it is already removed, and the clock is at its deadline).
    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError>;
    /// A player's current hand points.
    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError>;
    /// Whether `score` leaves the game as it was, always: a caller may then score the game
    /// itself instead of a copy. The default is the safe answer.
    fn score_changes_nothing(&self) -> bool {
        false
    }
}

/// A game in progress: its state, its event log and the variant table it was made from.
#[derive(Clone, Debug)]
pub struct Game {
    /// The variant's static description, shared by every game of the variant.
    pub table: Arc<Table>,
    /// Everything that changes: cards, hands, piles, phase, clock, timers, variables, outcome.
    pub state: GameState,
    /// The kept events, oldest first. `log[i]` is event number `log_start + i` of the game.
    pub log: Vec<EventRecord>,
    /// How many events were dropped by `forget_events_before` (0 unless a host trims the log),
    /// or not kept at all (`set_keep_events`).
    pub log_start: usize,
    /// Whether emitted events go into `log` (the default); see `set_keep_events`.
    keep_events: bool,
    /// Which events were sent since `take_sent_events`, by event index, as bits: empty unless
    /// `note_sent_events` asked for it.
    sent: Vec<u64>,
    /// What the step under way has emitted so far (see `limits`).
    step: StepBudget,
}

/// The events noted as sent, saved before a step: in place for up to 256 events (every step makes
/// one of these, so it should not allocate).
enum Sent {
    Few([u64; 4]),
    Many(Vec<u64>),
}

impl Sent {
    fn of(bits: &[u64]) -> Sent {
        match bits.len() {
            0..=4 => {
                let mut few = [0; 4];
                few[..bits.len()].copy_from_slice(bits);
                Sent::Few(few)
            }
            _ => Sent::Many(bits.to_vec()),
        }
    }

    fn restore(self, bits: &mut [u64]) {
        match self {
            Sent::Few(few) => {
                let n = bits.len().min(4);
                bits[..n].copy_from_slice(&few[..n]);
            }
            Sent::Many(many) => bits.copy_from_slice(&many),
        }
    }
}

/// Counts against the per-step limits, reset by each checked transition.
#[derive(Clone, Copy, Debug, Default)]
struct StepBudget {
    events: usize,
    payload_nodes: usize,
}

/// The serializable form of a game (the table is the variant's, named by `variant`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// The variant's name (`Table::variant`); `Game::restore` checks it.
    pub variant: String,
    /// The game state at the time of saving.
    pub state: GameState,
    /// The kept events, oldest first.
    pub log: Vec<EventRecord>,
    /// The number of the first kept event (events before it were forgotten by the host).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub log_start: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A bad request to create a game.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NewGameError {
    /// A house rule the variant does not declare; holds the name given.
    #[error("unknown house rule `{0}`")]
    UnknownHouseRule(String),
    /// A house rule given a value of the wrong kind (text for a number, or a fraction for a
    /// whole-number rule).
    #[error("house rule `{name}` takes {expected}, not `{found}`")]
    HouseRuleType {
        /// The house rule, as `variant.yaml` names it.
        name: String,
        /// The kind it takes, in words: `an integer`, `a boolean`…
        expected: String,
        /// The value given, as text.
        found: String,
    },
    /// A player count outside the variant's `players: {min, max}`.
    #[error("{variant} is for {range} players, not {count}: {}", range.bound_for(*count))]
    PlayerCount {
        /// The variant's name.
        variant: String,
        /// The counts it allows.
        range: super::table::PlayerRange,
        /// The count given.
        count: usize,
    },
    /// A numeric house rule given a value outside the range the variant allows.
    #[error("house rule `{name}` {reason}")]
    HouseRuleRange {
        /// The house rule, as `variant.yaml` names it.
        name: String,
        /// What is wrong, as the end of a sentence: `is 9, outside 0 to 4`.
        reason: String,
    },
    /// Two players with the same name; holds the name.
    #[error("player `{0}` is listed twice")]
    DuplicatePlayer(String),
    /// The state could not be built: a player count or deck beyond the kernel's limits.
    #[error(transparent)]
    State(#[from] StateError),
    /// `Game::restore` was given a saved game of another variant than the table's.
    #[error("saved game is for variant `{saved}`, not `{loaded}`")]
    WrongVariant {
        /// The variant the saved game is for.
        saved: String,
        /// The variant of the table given to `Game::restore`.
        loaded: String,
    },
    /// `Game::restore` was given a saved game that does not fit the table (written under
    /// other rules, or damaged); the text says what does not fit.
    #[error("the saved game does not fit {variant}'s rules: {reason}")]
    DoesNotFit {
        /// The variant.
        variant: String,
        /// What does not fit.
        reason: String,
    },
}

/// An empty game with no players and no cards: a cheap placeholder (`std::mem::take`).
impl Default for Game {
    fn default() -> Game {
        static EMPTY: std::sync::OnceLock<Arc<Table>> = std::sync::OnceLock::new();
        Game {
            table: EMPTY.get_or_init(|| Arc::new(Table::default())).clone(),
            state: GameState::empty(),
            log: Vec::new(),
            log_start: 0,
            keep_events: true,
            sent: Vec::new(),
            step: StepBudget::default(),
        }
    }
}

impl Game {
    /// A new game, not yet set up: call `start` next.
    pub fn new(
        table: Arc<Table>,
        players: Vec<String>,
        seed: u64,
        house_rules: &[(String, Value)],
    ) -> Result<Game, NewGameError> {
        for (i, p) in players.iter().enumerate() {
            if players[..i].contains(p) {
                return Err(NewGameError::DuplicatePlayer(p.clone()));
            }
        }
        if !table.players.contains(players.len()) {
            return Err(NewGameError::PlayerCount {
                variant: table.variant.clone(),
                range: table.players,
                count: players.len(),
            });
        }
        let mut house: Vec<Value> = table.house_rules.iter().map(|h| h.1.clone()).collect();
        for (name, value) in house_rules {
            let i = table
                .house_rule(name)
                .ok_or_else(|| NewGameError::UnknownHouseRule(name.clone()))?;
            match table.check_house_rule(i, value) {
                Ok(()) => house[i] = value.clone(),
                Err(HouseRuleProblem::Type { expected }) => {
                    return Err(NewGameError::HouseRuleType {
                        name: name.clone(),
                        expected,
                        found: value.to_string(),
                    });
                }
                Err(HouseRuleProblem::Range { reason }) => {
                    return Err(NewGameError::HouseRuleRange {
                        name: name.clone(),
                        reason,
                    });
                }
            }
        }
        let state = GameState::new(&table, players, seed, house)?;
        Ok(Game {
            table,
            state,
            log: Vec::new(),
            log_start: 0,
            keep_events: true,
            sent: Vec::new(),
            step: StepBudget::default(),
        })
    }

    /// Draw the cards' public ids from a generator keyed by a secret, before the game starts.
    ///
    /// Without a key, ids come from a stream derived from the seed (fine for tests and
    /// simulations). A host serving players should pass 32 bytes from the operating system, and
    /// choose the seed the same way: then neither the ids nor the cards a player sees say anything
    /// about the cards they do not see.
    pub fn with_id_key(mut self, key: [u8; 32]) -> Game {
        self.state.rekey_ids(key);
        self
    }

    /// Run the variant's setup (dealing, initial peeks, first phase).
    pub fn start(&mut self, rules: &dyn Rules) -> Result<(), RuleError> {
        self.transact(|g| rules.setup(g))
    }

    /// A serializable copy of the game (state and kept events). Restore it with `Game::restore`
    /// and the same variant's table.
    pub fn save(&self) -> SavedGame {
        SavedGame {
            variant: self.table.variant.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
            log_start: self.log_start,
        }
    }

    /// The game a [`SavedGame`] holds, with the variant's table; [`NewGameError::WrongVariant`] if
    /// the save is of another variant, [`NewGameError::DoesNotFit`] if its state does not fit the
    /// table (phases, piles, variables, house rules, timers, seats or cards that the table does
    /// not have: a save from older rules, or a damaged one). A saved game is input like any
    /// other: nothing in it is trusted.
    pub fn restore(table: Arc<Table>, saved: SavedGame) -> Result<Game, NewGameError> {
        if saved.variant != table.variant {
            return Err(NewGameError::WrongVariant {
                saved: saved.variant,
                loaded: table.variant.clone(),
            });
        }
        saved
            .state
            .check_fits(&table)
            .and_then(|()| saved.state.check_conservation())
            .map_err(|reason| NewGameError::DoesNotFit {
                variant: table.variant.clone(),
                reason,
            })?;
        Ok(Game {
            table,
            state: saved.state,
            log: saved.log,
            log_start: saved.log_start,
            keep_events: true,
            sent: Vec::new(),
            step: StepBudget::default(),
        })
    }

    /// Approximate heap and inline bytes held by the game state (excluding the event log,
    /// which `log_bytes` estimates): for capacity planning of servers.
    pub fn state_bytes(&self) -> usize {
        use std::mem::size_of;
        let st = &self.state;
        let values = |v: &[Value]| std::mem::size_of_val(v);
        size_of::<GameState>()
            + st.cards.capacity() * size_of::<super::state::CardState>()
            + st.hands
                .iter()
                .map(|h| {
                    size_of::<Vec<Option<CardIdx>>>() + h.capacity() * size_of::<Option<CardIdx>>()
                })
                .sum::<usize>()
            + st.piles
                .iter()
                .map(|p| size_of::<Vec<CardIdx>>() + p.capacity() * size_of::<CardIdx>())
                .sum::<usize>()
            + st.timers.capacity() * size_of::<Timer>()
            + st.timers.iter().map(|t| t.name.capacity()).sum::<usize>()
            + values(&st.house)
            + values(&st.game_vars)
            + st.player_vars
                .iter()
                .map(|v| size_of::<Vec<Value>>() + values(v))
                .sum::<usize>()
    }

    /// Approximate bytes held by the event log.
    pub fn log_bytes(&self) -> usize {
        fn payload(p: &Payload) -> usize {
            std::mem::size_of::<Payload>()
                + match p {
                    Payload::Str(s) => s.capacity(),
                    Payload::List(items) => items.iter().map(payload).sum(),
                    Payload::Map(fields) => {
                        // A key is shared: its pointer, not its text.
                        fields
                            .iter()
                            .map(|(_, v)| std::mem::size_of::<super::event::Key>() + payload(v))
                            .sum()
                    }
                    Payload::Card(c) => {
                        std::mem::size_of::<CardRef>()
                            + c.extra
                                .iter()
                                .map(|(_, v)| std::mem::size_of::<super::event::Key>() + payload(v))
                                .sum::<usize>()
                    }
                    _ => 0,
                }
        }
        self.log.capacity() * std::mem::size_of::<EventRecord>()
            + self.log.iter().map(|e| payload(&e.payload)).sum::<usize>()
    }

    /// The number of events emitted so far in this game, forgotten ones included: the number the
    /// next event will have. Positions given to `events_since`, `events_for` and
    /// `forget_events_before` count the same way.
    pub fn event_count(&self) -> usize {
        self.log_start + self.log.len()
    }

    /// The kept events numbered `from` and later (those already forgotten are gone).
    pub fn events_since(&self, from: usize) -> &[EventRecord] {
        let i = from.saturating_sub(self.log_start).min(self.log.len());
        &self.log[i..]
    }

    /// Drop the events numbered below `upto`, returning how many were dropped. A server that has
    /// delivered them (and let its bots `observe` them) keeps a live game's memory bounded;
    /// replay needs only the seed and the actions. Hidden-information checks that look at past
    /// events (`ever_saw`) see only the kept ones.
    pub fn forget_events_before(&mut self, upto: usize) -> usize {
        let n = upto.saturating_sub(self.log_start).min(self.log.len());
        self.log.drain(..n);
        self.log_start += n;
        n
    }

    /// Keep emitted events in the log (`true`, the default) or only count them (`false`): for a
    /// game whose events nobody reads, such as `simulate`'s random games. An event not kept is
    /// checked exactly as a kept one (its name, its values, the limits of `limits`) and numbered
    /// (`event_count` counts it), then forgotten at once; the game plays the same either way.
    pub fn set_keep_events(&mut self, keep: bool) {
        self.keep_events = keep;
    }

    /// Whether emitted events are kept (see `set_keep_events`).
    pub fn keeps_events(&self) -> bool {
        self.keep_events
    }

    /// Note which events are sent, kept or not, for `take_sent_events` (a host that explores
    /// states asks only which events happened, not what they held).
    pub fn note_sent_events(&mut self, note: bool) {
        self.sent = match note {
            true => vec![0; self.table.events.len().div_ceil(64).max(1)],
            false => Vec::new(),
        };
    }

    /// The indices (into `Table::events`) of the events sent since the last call, each once,
    /// added to `out`; none unless `note_sent_events` is on.
    pub fn take_sent_events(&mut self, out: &mut Vec<usize>) {
        for (w, word) in self.sent.iter_mut().enumerate() {
            while *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                out.push(w * 64 + bit);
            }
        }
    }

    fn note_sent(&mut self, event: usize) {
        if let Some(word) = self.sent.get_mut(event / 64) {
            *word |= 1 << (event % 64);
        }
    }

    /// The card a client names by its public id (the `id` field of events and views).
    pub fn card_from_id(&self, id: &str) -> Option<CardIdx> {
        let id = u32::from_str_radix(id, 16).ok()?;
        self.state.card_by_public_id(id)
    }

    /// Whether the game has ended (`state.outcome` is set); a finished game refuses every action.
    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }

    /// The checked transition: `f` applies whole, or the game is left exactly as it was: on a
    /// refusal, a fault, and a panic inside `f` alike (a host that catches the panic still holds
    /// the game as it was before the step).
    pub fn transact<R>(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<R, RuleError>,
    ) -> Result<R, RuleError> {
        /// Puts the game back unless the step is committed, whichever way `f` returns.
        struct Rollback<'a> {
            game: &'a mut Game,
            saved: Option<(Arc<Table>, Box<GameState>, usize, usize)>,
            /// The events noted as sent before the step (`note_sent_events`), when noted.
            sent: Option<Sent>,
            outer: StepBudget,
        }
        impl Drop for Rollback<'_> {
            fn drop(&mut self) {
                if let Some((table, state, mark, log_start)) = self.saved.take() {
                    self.game.table = table;
                    // Copied back rather than swapped in: the live state keeps its own memory
                    // (a spare's vectors may have grown in other games), the copy goes back.
                    self.game.state.clone_from(&state);
                    super::snapshot::recycle_boxed(state);
                    if !self.game.keep_events {
                        // The step's events were only counted: uncounted.
                        self.game.log_start = log_start;
                    } else if self.game.log_start == log_start {
                        self.game.log.truncate(mark);
                    }
                    if let Some(sent) = self.sent.take() {
                        sent.restore(&mut self.game.sent);
                    }
                }
                self.game.step = self.outer;
            }
        }
        let saved = (
            self.table.clone(),
            super::snapshot::boxed_copy_of(&self.state),
            self.log.len(),
            self.log_start,
        );
        let outer = std::mem::take(&mut self.step);
        let sent = (!self.sent.is_empty()).then(|| Sent::of(&self.sent));
        let mut guard = Rollback {
            game: self,
            saved: Some(saved),
            sent,
            outer,
        };
        let result = f(guard.game);
        if result.is_ok()
            && let Some((_, state, ..)) = guard.saved.take()
        {
            super::snapshot::recycle_boxed(state);
        }
        result
    }

    /// Apply a player's action through the rules, or refuse it with the game unchanged.
    pub fn apply(&mut self, rules: &dyn Rules, action: &Action) -> Result<(), RuleError> {
        if self.is_over() {
            return Err(RuleError::Refused("the game is over".into()));
        }
        if action.seat.index() >= self.state.player_count() {
            return Err(RuleError::Refused(format!(
                "there is no player in seat {}",
                action.seat.0
            )));
        }
        if self.table.action_index(&action.name).is_none() {
            return Err(RuleError::Refused(format!(
                "`{}` is not an action of {}",
                action.name, self.table.variant
            )));
        }
        self.transact(|g| rules.act(g, action))
    }

    /// Whether the rules would accept `action` now, with the game left exactly as it is either
    /// way: checked by `Rules::check_act` when the rules can, else run inside the checked
    /// transition, which is then undone (its events are not kept). Cheaper than trying it on a
    /// copy: one copy of the state, not two, or none.
    pub fn accepts(&mut self, rules: &dyn Rules, action: &Action) -> Result<bool, RuleError> {
        if self.is_over()
            || action.seat.index() >= self.state.player_count()
            || self.table.action_index(&action.name).is_none()
        {
            return Ok(false);
        }
        let keep = self.keep_events;
        self.keep_events = false;
        let outer = std::mem::take(&mut self.step);
        #[cfg(debug_assertions)]
        let before = self.state.clone();
        let checked = rules.check_act(self, action);
        #[cfg(debug_assertions)]
        debug_assert!(
            checked.is_none() || self.state == before,
            "checking `{}` changed the game",
            action.name
        );
        self.step = outer;
        if let Some(checked) = checked {
            self.keep_events = keep;
            return match checked {
                Ok(()) => Ok(true),
                Err(RuleError::Fault { message, pos }) => Err(RuleError::Fault { message, pos }),
                Err(_) => Ok(false),
            };
        }
        let mut accepted = false;
        let tried: Result<(), RuleError> = self.transact(|g| {
            rules.act(g, action)?;
            accepted = true;
            // Undone like a refusal: the transition puts the game back.
            Err(RuleError::Refused(String::new()))
        });
        self.keep_events = keep;
        match tried {
            Err(RuleError::Fault { message, pos }) => Err(RuleError::Fault { message, pos }),
            _ => Ok(accepted),
        }
    }

    /// Advance the game clock; timers that expire fire in order, each as its own transition.
    /// If one fails, the clock stops at that timer and the error is returned.
    /// More than `limits::MAX_TIMERS_PER_ADVANCE` timers firing in one advance is a fault of
    /// the rules (a timer that keeps setting itself again).
    pub fn advance(&mut self, rules: &dyn Rules, millis: u64) -> Result<(), RuleError> {
        let target = self.state.clock.saturating_add(millis);
        let mut fired = 0;
        while !self.is_over() {
            let Some(i) = self.state.next_timer(target) else {
                break;
            };
            if fired == super::limits::MAX_TIMERS_PER_ADVANCE {
                return Err(RuleError::fault(format!(
                    "more than {} timers fired in one advance of the clock (the `{}` timer keeps setting itself again?)",
                    super::limits::MAX_TIMERS_PER_ADVANCE,
                    self.state.timers[i].name
                )));
            }
            fired += 1;
            self.fire(rules, i)?;
        }
        self.state.clock = self.state.clock.max(target);
        Ok(())
    }

    /// Advance to the next timer deadline and fire it. `Ok(false)` when no timer is running.
    pub fn run_out(&mut self, rules: &dyn Rules) -> Result<bool, RuleError> {
        if self.is_over() {
            return Ok(false);
        }
        match self.state.next_timer(u64::MAX) {
            None => Ok(false),
            Some(i) => self.fire(rules, i).map(|()| true),
        }
    }

    fn fire(&mut self, rules: &dyn Rules, i: usize) -> Result<(), RuleError> {
        self.transact(|g| {
            let timer = g.state.timers.remove(i);
            g.state.clock = g.state.clock.max(timer.deadline);
            rules.timer(g, &timer)
        })
    }

    /// End the game with these winners (none: a draw). Timers stop. Each winner must be a
    /// player of the game, named once.
    pub fn finish(&mut self, winners: Vec<Seat>, reason: &str) -> Result<(), StateError> {
        for (i, &w) in winners.iter().enumerate() {
            self.state.seat(w)?;
            if winners[..i].contains(&w) {
                return Err(StateError::DuplicateWinner(
                    self.state.players[w.index()].clone(),
                ));
            }
        }
        self.state.timers.clear();
        self.state.outcome = Some(super::state::Outcome {
            winners,
            reason: reason.to_string(),
        });
        Ok(())
    }

    /// Emit an event. Each card in the payload records who knows it now. A step may emit at most
    /// `limits::MAX_EVENTS_PER_STEP` events, each of at most `MAX_PAYLOAD_NODES` values nested
    /// at most `MAX_VALUE_DEPTH` deep, and `MAX_STEP_PAYLOAD_NODES` values in all.
    pub fn emit(
        &mut self,
        name: Arc<str>,
        to: Audience,
        mut payload: Payload,
    ) -> Result<(), StateError> {
        self.check_event_count()?;
        let mut nodes = 0;
        self.stamp(&mut payload, 0, &mut nodes)?;
        self.admit_event(nodes)?;
        if !self.sent.is_empty()
            && let Some(i) = self.table.event_index(&name)
        {
            self.note_sent(i);
        }
        if self.keep_events {
            self.log.push(EventRecord {
                name,
                to,
                time: self.state.clock,
                payload,
            });
        } else {
            self.log_start += 1;
        }
        Ok(())
    }

    /// An event that is not kept (`set_keep_events(false)`), whose payload holds `nodes` values
    /// counted as `stamp` counts them (every value, and a card's extra fields): checked against
    /// the same limits as `emit` checks, in the same order, and numbered. `Ok(false)`, and
    /// nothing done, when events are kept: the caller must `emit` the event itself.
    /// `event` is the event's index in `Table::events`.
    pub fn emit_unkept(&mut self, event: usize, nodes: usize) -> Result<bool, StateError> {
        if self.keep_events {
            return Ok(false);
        }
        self.check_event_count()?;
        self.admit_event(nodes)?;
        self.note_sent(event);
        self.log_start += 1;
        Ok(true)
    }

    /// The step's limit on its number of events, checked before an event's payload.
    fn check_event_count(&self) -> Result<(), StateError> {
        use super::limits::MAX_EVENTS_PER_STEP;
        if self.step.events >= MAX_EVENTS_PER_STEP {
            return Err(StateError::TooManyEvents(MAX_EVENTS_PER_STEP));
        }
        Ok(())
    }

    /// An event of `nodes` values, counted against the limits on one payload and on a step's.
    fn admit_event(&mut self, nodes: usize) -> Result<(), StateError> {
        use super::limits::{MAX_PAYLOAD_NODES, MAX_STEP_PAYLOAD_NODES};
        if nodes > MAX_PAYLOAD_NODES {
            return Err(StateError::PayloadTooLarge(MAX_PAYLOAD_NODES));
        }
        let total = self.step.payload_nodes + nodes;
        if total > MAX_STEP_PAYLOAD_NODES {
            return Err(StateError::StepPayloadTooLarge(MAX_STEP_PAYLOAD_NODES));
        }
        self.step.events += 1;
        self.step.payload_nodes = total;
        Ok(())
    }

    /// Record who knows each card of a payload, counting its values and checking its depth.
    fn stamp(
        &self,
        payload: &mut Payload,
        depth: usize,
        nodes: &mut usize,
    ) -> Result<(), StateError> {
        if depth > super::limits::MAX_VALUE_DEPTH {
            return Err(StateError::PayloadTooDeep(super::limits::MAX_VALUE_DEPTH));
        }
        *nodes += 1;
        if *nodes > super::limits::MAX_PAYLOAD_NODES {
            return Err(StateError::PayloadTooLarge(
                super::limits::MAX_PAYLOAD_NODES,
            ));
        }
        match payload {
            Payload::List(items) => {
                for p in items {
                    self.stamp_item(p, depth + 1, nodes)?;
                }
            }
            Payload::Map(fields) => {
                for (_, p) in fields {
                    self.stamp_item(p, depth + 1, nodes)?;
                }
            }
            Payload::Card(card) => {
                let state = self.state.card(card.card)?;
                card.public_id = state.public_id;
                card.shown_to = state.known_by;
                for (_, p) in &mut card.extra {
                    self.stamp(p, depth + 1, nodes)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `stamp` of an item of a list or map: a plain value (most fields) is counted here, without
    /// a call, as `stamp` counts it.
    #[inline]
    fn stamp_item(
        &self,
        payload: &mut Payload,
        depth: usize,
        nodes: &mut usize,
    ) -> Result<(), StateError> {
        match payload {
            Payload::List(_) | Payload::Map(_) | Payload::Card(_) => {
                self.stamp(payload, depth, nodes)
            }
            _ if depth > super::limits::MAX_VALUE_DEPTH => {
                Err(StateError::PayloadTooDeep(super::limits::MAX_VALUE_DEPTH))
            }
            _ => {
                *nodes += 1;
                if *nodes > super::limits::MAX_PAYLOAD_NODES {
                    return Err(StateError::PayloadTooLarge(
                        super::limits::MAX_PAYLOAD_NODES,
                    ));
                }
                Ok(())
            }
        }
    }

    /// A card reference for a payload; with `located`, also its `idx` and `user` if in a hand.
    pub fn card_ref(&self, card: CardIdx, located: bool) -> Payload {
        let mut extra = Vec::new();
        if located && let Loc::Hand { seat, slot } = self.state.cards[card.0 as usize].loc {
            extra.push((super::event::idx_key(), Payload::Int(slot as i64)));
            extra.push((super::event::user_key(), Payload::Player(seat)));
        }
        Payload::Card(Box::new(CardRef {
            card,
            public_id: 0,
            shown_to: 0,
            extra,
        }))
    }

    /// Events delivered to `seat`, numbered `from` and later (see `event_count`).
    pub fn events_for(&self, seat: Seat, from: usize) -> impl Iterator<Item = &EventRecord> {
        self.events_since(from)
            .iter()
            .filter(move |e| e.to.includes(seat))
    }

    /// Events delivered to `seat` from `from` on, as that player receives them.
    pub fn rendered_events(&self, seat: Seat, from: usize) -> Vec<Json> {
        self.events_for(seat, from)
            .map(|e| e.render(&self.state, &self.table, seat))
            .collect()
    }

    /// Whether the action is of a form declared `reveals: true` (a peek, a flip: it turns up a
    /// card its actor need not know): the first form of its name whose words and argument kinds
    /// its arguments fit (see [`super::table::FormDecl::reveals`]).
    pub fn reveals(&self, action: &Action) -> bool {
        form_reveals(&self.table, &action.name, &action.args)
    }

    /// Whether `seat` knows `card`, or was shown it by a kept event.
    pub fn ever_saw(&self, seat: Seat, card: CardIdx) -> bool {
        self.state.knows(seat, card) || self.log.iter().any(|e| e.reveals(seat, card))
    }

    /// A copy to try things on: same state, empty log.
    pub fn trial(&self) -> Game {
        Game {
            table: self.table.clone(),
            state: super::snapshot::copy_of(&self.state),
            log: Vec::new(),
            log_start: self.event_count(),
            keep_events: true,
            sent: Vec::new(),
            step: StepBudget::default(),
        }
    }

    /// Give back a game no longer needed (a trial, say): its state's memory serves the next
    /// copies this thread makes (`trial`, and the copy each checked step keeps).
    pub fn recycle(self) {
        super::snapshot::recycle(self.state);
    }
}

/// `Game::reveals` for a table: the first declared form of `name` that `args` fit.
fn form_reveals(table: &Table, name: &str, args: &[Arg]) -> bool {
    use super::table::ArgDomain;
    let fits = |domain: &ArgDomain, arg: &Arg| match (domain, arg) {
        (ArgDomain::Word(w), Arg::Word(a)) => w == a,
        (ArgDomain::Drawn, Arg::Drawn) => true,
        (ArgDomain::OwnSlot | ArgDomain::OtherSlot | ArgDomain::AnySlot, a) => {
            matches!(a, Arg::Slot { .. } | Arg::Card(_))
        }
        _ => false,
    };
    table.action(name).is_some_and(|decl| {
        decl.forms
            .iter()
            .find(|f| {
                f.args.len() == args.len() && f.args.iter().zip(args).all(|(d, a)| fits(d, a))
            })
            .is_some_and(|f| f.reveals)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::table::{ActionDecl, Actor, ArgDomain, FormDecl};

    #[test]
    fn an_action_reveals_by_the_first_form_its_arguments_fit() {
        let form = |args: Vec<ArgDomain>, reveals| FormDecl {
            args,
            guards: Vec::new(),
            reveals,
        };
        let mut table = Table {
            actions: vec![ActionDecl {
                name: "special".into(),
                actor: Actor::Current,
                phases: None,
                guards: Vec::new(),
                forms: vec![
                    form(vec![ArgDomain::Word("skip".into())], false),
                    form(
                        vec![ArgDomain::Word("peek".into()), ArgDomain::OwnSlot],
                        true,
                    ),
                ],
            }],
            ..Table::default()
        };
        table.reindex();
        let slot = Arg::Slot {
            seat: Seat(0),
            slot: 1,
        };
        let reveals = |args: &[Arg]| form_reveals(&table, "special", args);
        assert!(reveals(&[Arg::Word("peek".into()), slot.clone()]));
        assert!(!reveals(&[Arg::Word("skip".into())]));
        assert!(!reveals(&[Arg::Word("peek".into())]), "no form fits");
        assert!(!form_reveals(&table, "other", &[]), "no such action");
    }
}
