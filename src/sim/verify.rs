//! `simulate --verify`: the kernel's invariants checked on every step of every simulated game,
//! independently of the code that keeps them.
//!
//! `Verify` wraps a variant's rules (so the game plays exactly as without checks: same actions,
//! same generators) and is called before and after every step. It checks that every card is in
//! exactly one place; that a refused action leaves the saved game byte-identical (every action
//! is first tried on a copy: when the rules refuse it, the copy must serialize as the game does);
//! that no event or view rendered for a seat shows the face of a card that seat did not know
//! before the step or knows after it, and that no string in them is the face text (`QS`) of a
//! hidden card the seat does not know; and, at the end, that replaying the game from its seed
//! and recorded moves gives the same event log and state, byte for byte.

use crate::kernel::{Action, Face, Game, Loc, RuleError, Rules, Seat, Table, Timer, Value};
use serde_json::Value as Json;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// A move of the game, as replay repeats it.
#[derive(Clone, Debug)]
enum Move {
    Act(Action),
    /// The next timer ran out.
    Wait,
}

/// One game's checks. Give `&Verify` to the game as its rules; call `before` and `after`
/// around every step and `finish` at the end.
pub struct Verify<'a> {
    inner: &'a dyn Rules,
    seed: u64,
    players: Vec<String>,
    house: Vec<(String, Value)>,
    /// The step being checked: 0 is the setup.
    step: Cell<u64>,
    moves: RefCell<Vec<Move>>,
    /// A failure found inside a rules call, reported after the step.
    failure: RefCell<Option<String>>,
    /// Each card's public id and who knew it, before the step.
    before: RefCell<Vec<(u32, u32)>>,
    /// The events up to `recorded`, serialized one per line.
    log: RefCell<Vec<u8>>,
    recorded: Cell<usize>,
}

impl<'a> Verify<'a> {
    /// The checks of the game of `seed` with these players and house rules, played by `inner`.
    pub fn new(
        inner: &'a dyn Rules,
        seed: u64,
        players: Vec<String>,
        house: &[(String, Value)],
    ) -> Verify<'a> {
        Verify {
            inner,
            seed,
            players,
            house: house.to_vec(),
            step: Cell::new(0),
            moves: RefCell::new(Vec::new()),
            failure: RefCell::new(None),
            before: RefCell::new(Vec::new()),
            log: RefCell::new(Vec::new()),
            recorded: Cell::new(0),
        }
    }

    fn fail(&self, what: String) {
        self.failure.borrow_mut().get_or_insert(what);
    }

    /// Call before each step (and before `Game::start`, as step 0).
    pub fn before(&self, game: &Game) {
        let mut before = self.before.borrow_mut();
        before.clear();
        before.extend(game.state.cards.iter().map(|c| (c.public_id, c.known_by)));
    }

    /// Call after each step, before the game forgets any event: checks the step.
    pub fn after(&self, game: &Game) -> Result<(), String> {
        let step = self.step.get();
        self.step.set(step + 1);
        let result = self.check(game);
        let mut log = self.log.borrow_mut();
        for event in game.events_since(self.recorded.get()) {
            serde_json::to_writer(&mut *log, event).map_err(|e| e.to_string())?;
            log.push(b'\n');
        }
        self.recorded.set(game.event_count());
        result.map_err(|what| format!("step {step}: {what}"))
    }

    fn check(&self, game: &Game) -> Result<(), String> {
        if let Some(failure) = self.failure.borrow_mut().take() {
            return Err(failure);
        }
        game.state
            .check_conservation()
            .map_err(|e| format!("cards not conserved: {e}"))?;
        let from = self.recorded.get();
        let before = self.before.borrow();
        for s in 0..game.state.player_count() {
            let seat = Seat(s as u8);
            let seen = Seen::new(game, seat, &before);
            for (event, json) in game
                .events_since(from)
                .iter()
                .filter(|e| e.to.includes(seat))
                .zip(game.rendered_events(seat, from))
            {
                let what = format!("event `{}` for {}", event.name, seen.name());
                seen.check(&json, &what)?;
            }
            seen.check(
                &game.view(seat).to_json(),
                &format!("the view of {}", seen.name()),
            )?;
        }
        Ok(())
    }

    /// Call when the game is over: replays it from its seed and recorded moves.
    pub fn finish(&self, game: &Game) -> Result<(), String> {
        let moves = self.moves.borrow();
        let table = self.inner.table().clone();
        let replay_failed = |what: String| {
            format!(
                "replay: the same seed and the same {} moves do not give the same game: {what}",
                moves.len()
            )
        };
        let mut again = Game::new(table, self.players.clone(), self.seed, &self.house)
            .map_err(|e| replay_failed(format!("cannot create the game: {e}")))?;
        again
            .start(self.inner)
            .map_err(|e| replay_failed(format!("setup: {e}")))?;
        for (i, m) in moves.iter().enumerate() {
            let done = match m {
                Move::Act(action) => again.apply(self.inner, action).map(|()| true),
                Move::Wait => again.run_out(self.inner),
            };
            match done {
                Ok(true) => {}
                Ok(false) => return Err(replay_failed(format!("move {i}: no timer to run out"))),
                Err(e) => return Err(replay_failed(format!("move {i} ({m:?}): {e}"))),
            }
        }
        let mut log = Vec::new();
        for event in &again.log {
            serde_json::to_writer(&mut log, event).map_err(|e| e.to_string())?;
            log.push(b'\n');
        }
        let ours = self.log.borrow();
        if *ours != log {
            let mut a = ours.split(|&b| b == b'\n');
            let mut b = log.split(|&b| b == b'\n');
            let (n, x, y) = (0..)
                .map(|n| {
                    (
                        n,
                        a.next().unwrap_or_default(),
                        b.next().unwrap_or_default(),
                    )
                })
                .find(|(_, x, y)| x != y)
                .unwrap_or((0, &[][..], &[][..]));
            return Err(replay_failed(format!(
                "event {n} was {} and is {} on replay",
                clip(x),
                clip(y)
            )));
        }
        let state = |g: &Game| serde_json::to_vec(&g.state).unwrap_or_default();
        if state(game) != state(&again) {
            return Err(replay_failed("the final states differ".into()));
        }
        Ok(())
    }
}

/// A serialized event, shortened for a message.
fn clip(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.is_empty() {
        return "missing".into();
    }
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.into_owned(),
    }
}

impl Rules for Verify<'_> {
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
        self.inner.start_turn(game, seat)
    }

    /// The action is tried on a copy first: a refusal must leave the copy byte-identical to the
    /// game, and the game must then get the same answer.
    fn act(&self, game: &mut Game, action: &Action) -> Result<(), RuleError> {
        let mut probe = game.clone();
        let probed = probe.apply(self.inner, action);
        if let Err(RuleError::Refused(reason)) = &probed {
            let bytes = |g: &Game| serde_json::to_vec(&g.save()).unwrap_or_default();
            if bytes(&probe) != bytes(game) {
                self.fail(format!(
                    "refusing {action:?} ({reason}) changed the saved game"
                ));
            }
        }
        let result = self.inner.act(game, action);
        if probed != result {
            self.fail(format!(
                "{action:?} gave {probed:?} on a copy of the game and {result:?} on the game"
            ));
        }
        if result.is_ok() {
            self.moves.borrow_mut().push(Move::Act(action.clone()));
        }
        result
    }

    fn timer(&self, game: &mut Game, timer: &Timer) -> Result<(), RuleError> {
        let result = self.inner.timer(game, timer);
        if result.is_ok() {
            self.moves.borrow_mut().push(Move::Wait);
        }
        result
    }

    fn score(&self, game: &mut Game, seat: Seat) -> Result<i64, RuleError> {
        self.inner.score(game, seat)
    }
}

/// What one seat may have seen in a step: the cards it knew before or knows after.
struct Seen<'g> {
    game: &'g Game,
    seat: Seat,
    before: &'g [(u32, u32)],
    /// Faces of hidden cards (in a hand or a face-down pile) the seat does not know, when it
    /// knows no card of that face, and one such card.
    hidden: Vec<(Face, usize)>,
}

impl<'g> Seen<'g> {
    fn new(game: &'g Game, seat: Seat, before: &'g [(u32, u32)]) -> Seen<'g> {
        let mut seen = Seen {
            game,
            seat,
            before,
            hidden: Vec::new(),
        };
        let st = &game.state;
        let known: Vec<Face> = (0..st.cards.len())
            .filter(|&c| seen.knows(c))
            .map(|c| st.cards[c].face)
            .collect();
        for (c, card) in st.cards.iter().enumerate() {
            let hidden = match card.loc {
                Loc::Hand { .. } => true,
                Loc::Pile(p) => game
                    .table
                    .piles
                    .get(p.0 as usize)
                    .is_some_and(|p| !p.face_up),
            };
            if hidden && !seen.knows(c) && !known.contains(&card.face) {
                seen.hidden.push((card.face, c));
            }
        }
        seen
    }

    /// Where card `c` is, in words.
    fn place(&self, c: usize) -> String {
        match self.game.state.cards[c].loc {
            Loc::Hand { seat, slot } => format!("slot {slot} of {}'s hand", self.player(seat)),
            Loc::Pile(p) => match self.game.table.piles.get(p.0 as usize) {
                Some(pile) => format!("the pile `{}`", pile.name),
                None => format!("pile #{}", p.0),
            },
        }
    }

    fn player(&self, seat: Seat) -> String {
        self.game
            .state
            .players
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| format!("seat {}", seat.0))
    }

    fn name(&self) -> String {
        self.player(self.seat)
    }

    /// Whether the seat knew card `c` before the step or knows it now.
    fn knows(&self, c: usize) -> bool {
        let bit = self.seat.bit();
        self.game.state.cards[c].known_by & bit != 0
            || self
                .before
                .get(c)
                .is_some_and(|(_, known)| known & bit != 0)
    }

    /// The card a public id names now, or named before the step.
    fn card(&self, id: &str) -> Option<usize> {
        if let Some(card) = self.game.card_from_id(id) {
            return Some(card.0 as usize);
        }
        let id = u32::from_str_radix(id, 16).ok()?;
        self.before.iter().position(|(before, _)| *before == id)
    }

    fn check(&self, json: &Json, what: &str) -> Result<(), String> {
        match json {
            Json::Object(map) => {
                if let (Some(Json::String(id)), Some(rank)) = (map.get("id"), map.get("rank"))
                    && let Some(c) = self.card(id)
                {
                    let face = self.game.state.cards[c].face;
                    if !self.knows(c) {
                        return Err(format!(
                            "{what} shows card {id} ({face}), which {} did not know before the step and does not know after it",
                            self.name()
                        ));
                    }
                    let suit = face.suit.map_or(Json::Null, |s| s.name().into());
                    if rank.as_str() != Some(face.rank.name()) || map.get("suit") != Some(&suit) {
                        return Err(format!(
                            "{what} shows card {id} as {rank} {}, but it is {face}",
                            map.get("suit").unwrap_or(&Json::Null)
                        ));
                    }
                }
                map.values().try_for_each(|v| self.check(v, what))
            }
            Json::Array(items) => items.iter().try_for_each(|v| self.check(v, what)),
            // Face texts in any spelling the kernel reads: `QS`, `Q♠`, `10H`, `JK`.
            Json::String(text) => match text
                .parse::<Face>()
                .ok()
                .and_then(|f| self.hidden.iter().find(|(face, _)| *face == f))
            {
                Some(&(_, c)) => Err(format!(
                    "possible leak: {what} contains the text \"{text}\", the face of the card in {}, which {} does not know",
                    self.place(c),
                    self.name()
                )),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}
