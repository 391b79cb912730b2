//! The fixed-size observation of one seat: what that seat may see of the game (the kernel's
//! knowledge, as its `View` shows it), as numbers at documented places.

use crate::kernel::{CardIdx, Game, Seat, Suit, Table, Value};

/// Numbers per card: occupied, known, face up, then the rank (joker, ace … king) and the suit
/// (spades, hearts, diamonds, clubs) one-hot when known.
pub const CARD_WIDTH: usize = 3 + 14 + 4;

/// Where each part of an observation lies, for one table, player count and slots per hand.
/// Seats are relative to the observer: seat `k` is the one `k` places on around the table.
#[derive(Clone, Debug)]
pub struct Layout {
    players: usize,
    slots: usize,
    phases: usize,
    timers: Vec<String>,
    piles: usize,
    game_vars: usize,
    player_vars: usize,
    size: usize,
}

impl Layout {
    /// The layout of `table`'s games with `players` seats, showing slots `0..slots` of each hand.
    pub fn new(table: &Table, players: usize, slots: usize) -> Layout {
        let mut layout = Layout {
            players,
            slots,
            phases: table.phases.len(),
            timers: table.timers.clone(),
            piles: table.piles.len(),
            game_vars: table.game_vars.len(),
            player_vars: table.player_vars.len(),
            size: 0,
        };
        layout.size = layout.parts().iter().map(|(_, n, _)| n).sum();
        layout
    }

    /// How many numbers an observation holds.
    pub fn len(&self) -> usize {
        self.size
    }

    /// Never: the phase alone takes one.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The parts in order: each one's key, width and what it holds (python/README.md's table).
    pub fn parts(&self) -> Vec<(&'static str, usize, String)> {
        let p = self.players;
        let timer = 2 + p + 1;
        let pile = 1 + CARD_WIDTH;
        vec![
            (
                "phase",
                self.phases,
                "the phase, one-hot in variant.yaml's order".into(),
            ),
            (
                "turn",
                p + 1,
                "whose turn, one-hot by relative seat; the last: nobody's".into(),
            ),
            ("offered", 1, "1 when this seat is asked now".into()),
            (
                "passed",
                p,
                "by relative seat: 1 when it passed in this round".into(),
            ),
            ("over", 1, "1 once the game is over".into()),
            (
                "timers",
                self.timers.len() * timer,
                format!(
                    "each declared timer ({timer}): running, seconds left, its owner one-hot by relative seat (last: none)"
                ),
            ),
            (
                "hands",
                p * self.slots * CARD_WIDTH,
                format!(
                    "by relative seat, by slot 0..{}: a card ({CARD_WIDTH})",
                    self.slots
                ),
            ),
            (
                "hand_sizes",
                p,
                "by relative seat: the cards in the hand".into(),
            ),
            (
                "piles",
                self.piles * pile,
                format!("each pile in variant.yaml's order ({pile}): its size, its top card"),
            ),
            (
                "game_vars",
                self.game_vars,
                "each game variable as a number".into(),
            ),
            (
                "player_vars",
                p * self.player_vars,
                "by relative seat, each player variable as a number (0 where not visible)".into(),
            ),
            ("clock", 1, "the game clock in seconds".into()),
        ]
    }

    /// Write `seat`'s observation of `game` into `out` (`len()` numbers). `offered` is whether
    /// the seat is asked now, `passed` the seats (bits by absolute seat) that passed this round.
    pub fn write(&self, game: &Game, seat: Seat, offered: bool, passed: u32, out: &mut [f32]) {
        out.fill(0.0);
        let st = &game.state;
        let table = &game.table;
        let p = self.players;
        let me = seat.index();
        let rel = |s: Seat| (s.index() + p - me) % p;
        let mut at = 0;
        if self.phases > 0 {
            out[at + st.phase.0 as usize % self.phases] = 1.0;
        }
        at += self.phases;
        out[at + st.current.map_or(p, rel)] = 1.0;
        at += p + 1;
        out[at] = f32::from(u8::from(offered));
        at += 1;
        for s in 0..p {
            if passed & (1 << s) != 0 {
                out[at + rel(Seat(s as u8))] = 1.0;
            }
        }
        at += p;
        out[at] = f32::from(u8::from(game.is_over()));
        at += 1;
        for name in &self.timers {
            // The soonest timer of this name: the game holds them soonest first.
            if let Some(timer) = st.timers.iter().find(|t| t.name == *name) {
                out[at] = 1.0;
                out[at + 1] = timer.deadline.saturating_sub(st.clock) as f32 / 1000.0;
                out[at + 2 + timer.seat.map_or(p, rel)] = 1.0;
            }
            at += 2 + p + 1;
        }
        let card = |c: CardIdx, out: &mut [f32]| {
            let cs = &st.cards[c.0 as usize];
            out[0] = 1.0;
            out[2] = f32::from(u8::from(cs.face_up));
            // The View's own rule: a face shows only to a seat whose knowledge holds it.
            if cs.known_by & seat.bit() != 0 {
                out[1] = 1.0;
                out[3 + usize::from(cs.face.rank.0).min(13)] = 1.0;
                if let Some(suit) = cs.face.suit {
                    out[17 + suit_index(suit)] = 1.0;
                }
            }
        };
        for k in 0..p {
            let hand = st.hand(Seat(((me + k) % p) as u8));
            for (slot, c) in hand.iter().take(self.slots).enumerate() {
                if let Some(c) = c {
                    let base = at + (k * self.slots + slot) * CARD_WIDTH;
                    card(*c, &mut out[base..base + CARD_WIDTH]);
                }
            }
        }
        at += p * self.slots * CARD_WIDTH;
        for k in 0..p {
            out[at + k] = st.hand(Seat(((me + k) % p) as u8)).iter().flatten().count() as f32;
        }
        at += p;
        for cards in st.piles.iter().take(self.piles) {
            out[at] = cards.len() as f32;
            if let Some(top) = cards.last() {
                card(*top, &mut out[at + 1..at + 1 + CARD_WIDTH]);
            }
            at += 1 + CARD_WIDTH;
        }
        for v in st.game_vars.iter().take(self.game_vars) {
            out[at] = number(v, me, p);
            at += 1;
        }
        for k in 0..p {
            let owner = (me + k) % p;
            for (var, v) in st.player_vars[owner]
                .iter()
                .enumerate()
                .take(self.player_vars)
            {
                if table.player_var_visible(var, owner, me) {
                    out[at + var] = number(v, me, p);
                }
            }
            at += self.player_vars;
        }
        out[at] = st.clock as f32 / 1000.0;
    }
}

/// A variable as one number: a boolean 0 or 1, a number itself, a player their relative seat
/// plus one; a card, a word, a list or nothing 0 (a card's face is never shown through it).
fn number(v: &Value, me: usize, players: usize) -> f32 {
    match v {
        Value::Bool(b) => f32::from(u8::from(*b)),
        Value::Int(i) => *i as f32,
        Value::Float(x) => *x as f32,
        Value::Player(s) => ((s.index() + players - me) % players.max(1) + 1) as f32,
        Value::Unit | Value::Str(_) | Value::Card(_) | Value::List(_) => 0.0,
    }
}

fn suit_index(suit: Suit) -> usize {
    match suit {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    }
}
