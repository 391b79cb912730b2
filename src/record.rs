//! Recording a game as a scenario file that replays it: the position after the deal pinned by
//! Givens, one `When` per accepted action or passing of time, and Thens that hold at the end.
//!
//! `Recorder` wraps a variant's rules (so the game plays exactly as it would unrecorded) and
//! notes every action the rules accept and every timer that runs out. The file it writes uses
//! only the scenario language's own forms (grammar/README.md), so `deckspec test` replays it; a
//! recording that fails after a rule change is a regression test.

use crate::kernel::{Action, Arg, CardIdx, Game, Loc, RuleError, Rules, Seat, Table, Timer};
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::sync::Arc;

/// A game being recorded: give `&Recorder` to the game as its rules, call `start` once the game
/// is set up, and `finish` for the scenario text.
pub struct Recorder<'a> {
    inner: &'a dyn Rules,
    /// The Givens, written by `start`.
    givens: RefCell<Vec<String>>,
    /// One line per accepted action or passing of time, in order.
    whens: RefCell<Vec<String>>,
    /// The game clock the recording has reached, in milliseconds.
    clock: Cell<u64>,
    /// The draw pile after the deal, top first, and how much of it the game drew before the
    /// pile first grew (a reshuffle): the part the recording must pin.
    draw: RefCell<Vec<String>>,
    draw_least: Cell<usize>,
    draw_last: Cell<usize>,
    draw_grew: Cell<bool>,
    /// The house rules as written, for the Givens.
    house_rules: Vec<(String, String)>,
    /// Whether `start` was called: the first turn is the deal's only if it began before.
    started: Cell<bool>,
    /// Whose turn the deal began, if it began during `Game::start`.
    first_turn: Cell<Option<Seat>>,
    /// The scenario, once `finish` wrote it.
    text: RefCell<Option<String>>,
}

impl<'a> Recorder<'a> {
    /// A recorder of a game played with `inner`.
    pub fn new(inner: &'a dyn Rules, house_rules: &[(String, String)]) -> Recorder<'a> {
        Recorder {
            house_rules: house_rules.to_vec(),
            started: Cell::new(false),
            first_turn: Cell::new(None),
            text: RefCell::new(None),
            inner,
            givens: RefCell::new(Vec::new()),
            whens: RefCell::new(Vec::new()),
            clock: Cell::new(0),
            draw: RefCell::new(Vec::new()),
            draw_least: Cell::new(0),
            draw_last: Cell::new(0),
            draw_grew: Cell::new(false),
        }
    }

    /// Note the position of a game that was just started (`Game::start`): its players, seed,
    /// house rules as written, hands and piles.
    pub fn start(&self, game: &Game, seed: u64) {
        self.started.set(true);
        let house_rules = &self.house_rules;
        let st = &game.state;
        let table = &game.table;
        let mut givens = self.givens.borrow_mut();
        givens.clear();
        givens.push(format!(
            "a {} game with players {}",
            table.variant,
            st.players.join(", ")
        ));
        givens.push(format!("the seed is {seed}"));
        for (name, value) in house_rules {
            givens.push(format!("the house rule {name} is {value}"));
        }
        if let Some(cards) = &table.deck.cards {
            let cards: Vec<String> = cards.iter().map(|f| f.to_string()).collect();
            givens.push(format!("the deck is {}", cards.join(", ")));
        }
        for (i, name) in st.players.iter().enumerate() {
            // A hand the deal left empty is empty on replay too: the language has no Given for it.
            if !st.hand(Seat(i as u8)).is_empty() {
                givens.push(format!("{name} holds {}", hand_text(game, Seat(i as u8))));
            }
        }
        if let Some(discard) = table.discard_pile {
            let cards = st.pile(discard);
            givens.push(if cards.is_empty() {
                "the discard pile is empty".to_string()
            } else {
                format!("the discard pile is {}", faces_top_first(game, cards))
            });
        }
        if let Some(draw) = table.draw_pile {
            let cards = st.pile(draw);
            *self.draw.borrow_mut() = cards
                .iter()
                .rev()
                .map(|c| st.face(*c).to_string())
                .collect();
            self.draw_least.set(cards.len());
            self.draw_last.set(cards.len());
        }
        self.clock.set(st.clock);
    }

    /// Follow the draw pile: until it first grows, the least it held says how much was drawn.
    fn watch_draw_pile(&self, game: &Game) {
        let Some(draw) = game.table.draw_pile else {
            return;
        };
        let len = game.state.pile(draw).len();
        if len > self.draw_last.get() {
            self.draw_grew.set(true);
        }
        if !self.draw_grew.get() && len < self.draw_least.get() {
            self.draw_least.set(len);
        }
        self.draw_last.set(len);
    }

    /// The game clock was advanced to `clock` (a `wait`): record the time that passed since the
    /// last recorded moment, so that later actions happen at the same time on replay.
    pub fn clock_reached(&self, clock: u64) {
        let passed = clock.saturating_sub(self.clock.get());
        if passed > 0 {
            self.whens.borrow_mut().push(seconds_pass(passed));
            self.clock.set(clock);
        }
    }

    /// Where the recording stands, to come back to with `rewind` (a play-tester's `undo`).
    pub fn mark(&self) -> RecordMark {
        RecordMark {
            whens: self.whens.borrow().len(),
            clock: self.clock.get(),
            draw: (
                self.draw_least.get(),
                self.draw_last.get(),
                self.draw_grew.get(),
            ),
        }
    }

    /// Forget everything recorded since `mark`.
    pub fn rewind(&self, mark: &RecordMark) {
        self.whens.borrow_mut().truncate(mark.whens);
        self.clock.set(mark.clock);
        self.draw_least.set(mark.draw.0);
        self.draw_last.set(mark.draw.1);
        self.draw_grew.set(mark.draw.2);
    }

    /// The scenario written by `finish`, if it was.
    pub fn text(&self) -> Option<String> {
        self.text.borrow().clone()
    }

    /// Write the scenario: `header` lines as comments first, then the feature. `scores` are the
    /// players' final scores (`Rules::score` needs the game mutably, so the caller asks).
    pub fn finish(&self, game: &Game, title: &str, header: &str, scores: &[i64]) -> String {
        let st = &game.state;
        let table = &game.table;
        let mut givens = self.givens.borrow().clone();
        let draw = self.draw.borrow();
        let used = draw.len().saturating_sub(self.draw_least.get());
        if used > 0 {
            givens.push(format!("the draw pile is {}", draw[..used].join(", ")));
        }
        let mut thens = Vec::new();
        for (i, name) in st.players.iter().enumerate() {
            // A hand with no slots left is said by count: there is no list to write.
            let hand = match st.hand(Seat(i as u8)).is_empty() {
                true => "0 cards".to_string(),
                false => hand_text(game, Seat(i as u8)),
            };
            thens.push(format!("{name} holds {hand}"));
        }
        if let Some(discard) = table.discard_pile {
            thens.push(match st.pile(discard).last() {
                Some(top) => format!("the discard pile top is {}", st.face(*top)),
                None => "the discard pile is empty".to_string(),
            });
        }
        match &st.outcome {
            Some(outcome) => {
                thens.push("the game is over".to_string());
                let winners: Vec<&str> = outcome
                    .winners
                    .iter()
                    .map(|s| st.players[s.index()].as_str())
                    .collect();
                thens.push(match winners.as_slice() {
                    [] => "the game is a draw".to_string(),
                    [one] => format!("{one} wins"),
                    several => format!("{} win", and_list(several)),
                });
                for (name, score) in st.players.iter().zip(scores) {
                    thens.push(format!("{name}'s score is {score}"));
                }
            }
            None => thens.push("the game is not over".to_string()),
        }
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "@{} @recorded", table.variant);
        let _ = writeln!(out, "Feature: {title}\n");
        let _ = writeln!(out, "  Scenario: {title} replays");
        for (i, g) in givens.iter().enumerate() {
            let _ = writeln!(out, "    {} {g}", if i == 0 { "Given" } else { "And" });
        }
        // Whose turn the deal gave, as a check: the Given form would start the turn again.
        if let Some(first) = self.first_turn.get() {
            let _ = writeln!(out, "    Then it is {}'s turn", st.players[first.index()]);
        }
        for (i, w) in self.whens.borrow().iter().enumerate() {
            let _ = writeln!(out, "    {} {w}", if i == 0 { "When" } else { "And" });
        }
        for (i, t) in thens.iter().enumerate() {
            let _ = writeln!(out, "    {} {t}", if i == 0 { "Then" } else { "And" });
        }
        *self.text.borrow_mut() = Some(out.clone());
        out
    }
}

/// A point of a recording (`Recorder::mark`).
#[derive(Clone, Debug)]
pub struct RecordMark {
    whens: usize,
    clock: u64,
    draw: (usize, usize, bool),
}

/// A hand as the scenario language writes it: faces by slot, `_` for an empty slot.
fn hand_text(game: &Game, seat: Seat) -> String {
    game.state
        .hand(seat)
        .iter()
        .map(|c| c.map_or("_".to_string(), |c| game.state.face(c).to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A pile's faces, top first.
fn faces_top_first(game: &Game, cards: &[CardIdx]) -> String {
    cards
        .iter()
        .rev()
        .map(|c| game.state.face(*c).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `ann`, `ann and bob`, `ann, bob and cat`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `ann does swap slot 0 bob's slot 1`, as the game stood before the action.
pub fn action_step(game: &Game, action: &Action) -> String {
    format!(
        "{} does {}",
        game.state.players[action.seat.index()],
        action_command(game, action)
    )
}

/// The action as its player types it (`swap slot 0 bob's slot 1`): the step after `does`.
pub fn action_command(game: &Game, action: &Action) -> String {
    let st = &game.state;
    let name = |s: Seat| st.players[s.index()].as_str();
    let mut text = action.name.to_string();
    for arg in &action.args {
        text.push(' ');
        match arg {
            Arg::Word(w) => text.push_str(w),
            Arg::Int(n) => text.push_str(&n.to_string()),
            Arg::Float(x) => text.push_str(&x.to_string()),
            Arg::Card(c) => text.push_str(&card_arg(game, action.seat, *c)),
            Arg::Slot { seat, slot } if *seat == action.seat => {
                text.push_str(&format!("slot {slot}"))
            }
            Arg::Slot { seat, slot } => text.push_str(&format!("{}'s slot {slot}", name(*seat))),
            Arg::Drawn => text.push_str("drawn"),
        }
    }
    text
}

/// A card argument: its face, which the scenario resolves to the card in the actor's hand, or
/// else the only card of that face outside the draw pile (grammar/README.md). A face that could
/// mean another card is written as the card's slot instead.
fn card_arg(game: &Game, actor: Seat, card: CardIdx) -> String {
    let st = &game.state;
    let face = st.face(card);
    let same: Vec<CardIdx> = (0..st.cards.len())
        .filter_map(|i| u16::try_from(i).ok().map(CardIdx))
        .filter(|c| st.face(*c) == face)
        .collect();
    if same.len() > 1
        && let Loc::Hand { seat, slot } = st.cards[card.0 as usize].loc
    {
        let held_by_actor = st
            .hand(actor)
            .iter()
            .flatten()
            .filter(|c| st.face(**c) == face)
            .count();
        if seat != actor || held_by_actor > 1 {
            return if seat == actor {
                format!("slot {slot}")
            } else {
                format!("{}'s slot {slot}", st.players[seat.index()])
            };
        }
    }
    face.to_string()
}

impl Rules for Recorder<'_> {
    fn table(&self) -> &Arc<Table> {
        self.inner.table()
    }

    fn setup(&self, game: &mut Game) -> Result<(), RuleError> {
        self.inner.setup(game)
    }

    fn end_setup(&self, game: &mut Game, first: Seat) -> Result<(), RuleError> {
        self.inner.end_setup(game, first)
    }

    fn start_turn(&self, game: &mut Game, seat: Seat) -> Result<(), RuleError> {
        if !self.started.get() && self.first_turn.get().is_none() {
            self.first_turn.set(Some(seat));
        }
        self.inner.start_turn(game, seat)
    }

    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let step = action_step(game, action);
        self.inner.act(game, action)?;
        self.whens.borrow_mut().push(step);
        self.watch_draw_pile(game);
        Ok(())
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        let passed = timer.deadline.saturating_sub(self.clock.get());
        if passed > 0 {
            self.whens.borrow_mut().push(seconds_pass(passed));
            self.clock.set(timer.deadline);
        }
        self.inner.timer(game, timer)?;
        self.watch_draw_pile(game);
        Ok(())
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.inner.score(game, seat)
    }
}

/// `5 seconds pass`, `1 second passes`, `2.5 seconds pass`.
fn seconds_pass(millis: u64) -> String {
    let seconds = if millis.is_multiple_of(1000) {
        (millis / 1000).to_string()
    } else {
        format!("{}", millis as f64 / 1000.0)
    };
    if millis == 1000 {
        "1 second passes".to_string()
    } else {
        format!("{seconds} seconds pass")
    }
}
