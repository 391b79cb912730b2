//! Whole Cambia games over `deckspec serve` played by clients that learn everything from the
//! server's event messages, as a client written from the "Socket command actions" document would.
//!
//! Each client keeps its own model of the game (its cards, the other hands' sizes and card ids,
//! whose turn it is, what it drew, the special on offer, the discard pile's top, locked hands)
//! built from the `player_*`, `private_*` and `game_*` events alone: it never sends `sync` or
//! `list_actions` and ignores the `view` of `private_sync_state`. On its turn it sends an action
//! its model says is legal; a refusal (`error`) means the messages did not tell it enough, so the
//! test counts them, and checks every card id and slot an event names against the model.

use crate::common::server;

use serde_json::{Value as Json, json};
use server::{TestServer, tungstenite};
use std::collections::{HashMap, HashSet};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long one game may take before the test calls the server stuck.
const GAME_TIME: Duration = Duration::from_secs(120);
/// Messages one client may receive in one game.
const MAX_MESSAGES: usize = 4_000;
/// Actions one client may send in one game.
const MAX_ACTIONS: usize = 600;
/// How long an action may wait for its answer.
const ANSWER_TIME: Duration = Duration::from_secs(10);

/// A seat's WebSocket, read with a short timeout so that one thread can serve several.
struct Conn {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    closed: bool,
}

impl Conn {
    fn open(server: &TestServer, table: &str, token: &str) -> Conn {
        let url = format!("ws://{}/tables/{table}/ws?token={token}", server.addr);
        let (socket, _) = tungstenite::connect(url).expect("the WebSocket opens");
        match socket.get_ref() {
            MaybeTlsStream::Plain(stream) => stream
                .set_read_timeout(Some(Duration::from_millis(1)))
                .unwrap(),
            _ => unreachable!("plain ws"),
        }
        Conn {
            socket,
            closed: false,
        }
    }

    /// The next message if one is there now.
    fn poll(&mut self) -> Option<Json> {
        if self.closed {
            return None;
        }
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    return Some(serde_json::from_str(&text).expect("the server sends JSON"));
                }
                Ok(Message::Close(_)) => {
                    self.closed = true;
                    return None;
                }
                Ok(_) => {}
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => {
                    self.closed = true;
                    return None;
                }
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return None;
                }
                Err(e) => panic!("WebSocket: {e}"),
            }
        }
    }

    fn send(&mut self, message: &Json) {
        self.socket
            .send(Message::Text(message.to_string().into()))
            .expect("the server takes the message");
    }
}

/// A card in a hand as the client knows it.
#[derive(Clone, Debug, Default)]
struct Slot {
    id: Option<String>,
    rank: Option<String>,
    value: Option<i64>,
}

impl Slot {
    fn of(card: &Json) -> Slot {
        Slot {
            id: card["id"].as_str().map(str::to_string),
            rank: card["rank"].as_str().map(str::to_string),
            value: card["value"].as_i64(),
        }
    }

    /// What the client counts an unknown card as.
    fn estimate(&self) -> i64 {
        self.value.unwrap_or(6)
    }
}

/// Where the turn is, as the events tell it.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    /// Before the first `game_player_turn`.
    Opening,
    /// The current player must draw or call cambia.
    Draw,
    /// The current player holds a drawn card.
    Discard,
    /// A power is on offer to the current player.
    Special(String),
    /// The King's cards were shown; swap or skip.
    SwapDecision,
    /// The current player's move is done; the next event says what comes.
    Settling,
    Over,
}

/// One client: its model of the game from events, its policy, and what happened to it.
struct Player {
    me: String,
    /// The seats in order, as the table was asked for (bots are `bot1`, …).
    seats: Vec<String>,
    /// Whether it may snap out of its own turn (only when nothing else can act at once).
    snap_any_time: bool,
    /// Turns after which it calls cambia whatever its hand.
    patience: usize,
    /// Whether it calls cambia early when it knows its whole hand to be low.
    eager: bool,
    /// Every this many turns (0: never) it snaps a card it does not know, a guess.
    guess_every: usize,
    /// Its turns (counted from 1) and the phases in which it does nothing, for the timer.
    dawdle: Vec<(usize, Phase)>,
    hands: HashMap<String, Vec<Slot>>,
    current: Option<String>,
    phase: Phase,
    drawn: Option<Slot>,
    /// The id of the card the current player drew (`player_draw_stockpile`).
    drawn_id: Option<String>,
    top: Option<Slot>,
    locked: HashSet<String>,
    caller: Option<String>,
    /// A `swap_blind` the rules turned down (`private_special_action_fail`): skip instead.
    special_failed: bool,
    my_turns: usize,
    /// The turn of the last guessed snap, and whether the last snap sent was a guess.
    guessed_turn: usize,
    last_snap_guess: bool,
    /// The action sent and not yet answered, with when it was sent.
    pending: Option<(Json, Instant)>,
    /// Actions refused since the last event: not sent again in the same state.
    refused_now: HashSet<String>,
    // What happened.
    messages: Vec<Json>,
    public_events: usize,
    actions: usize,
    refusals: Vec<(Json, String)>,
    mismatches: Vec<String>,
    snaps: usize,
    snap_fails: usize,
    guesses: usize,
    specials_used: usize,
    initial_cards: Option<usize>,
    first_turn_at: Option<usize>,
    end: Option<Json>,
}

fn user_of(message: &Json, field: &str) -> String {
    message[field]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {message}"))
        .to_string()
}

/// A hand position named by a card of an event: `{"id", "idx", "user"}`.
fn place(card: &Json) -> Option<(String, usize)> {
    Some((
        card["user"]["id"].as_str()?.to_string(),
        usize::try_from(card["idx"].as_u64()?).ok()?,
    ))
}

impl Player {
    fn new(me: &str, seats: &[&str], snap_any_time: bool, patience: usize) -> Player {
        Player {
            me: me.to_string(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            snap_any_time,
            patience,
            eager: true,
            guess_every: 0,
            dawdle: Vec::new(),
            // Every hand is dealt four cards face down (CAM-DEAL-1).
            hands: seats
                .iter()
                .map(|s| (s.to_string(), vec![Slot::default(); 4]))
                .collect(),
            current: None,
            phase: Phase::Opening,
            drawn: None,
            drawn_id: None,
            top: None,
            locked: HashSet::new(),
            caller: None,
            special_failed: false,
            my_turns: 0,
            guessed_turn: 0,
            last_snap_guess: false,
            pending: None,
            refused_now: HashSet::new(),
            messages: Vec::new(),
            public_events: 0,
            actions: 0,
            refusals: Vec::new(),
            mismatches: Vec::new(),
            snaps: 0,
            snap_fails: 0,
            guesses: 0,
            specials_used: 0,
            initial_cards: None,
            first_turn_at: None,
            end: None,
        }
    }

    fn hand(&mut self, who: &str) -> &mut Vec<Slot> {
        assert!(
            self.seats.iter().any(|s| s == who),
            "{}: an event names `{who}`, not a seat of this table",
            self.me
        );
        self.hands.get_mut(who).unwrap()
    }

    /// Check that the card an event names is where the model has it.
    fn check(&mut self, card: &Json, what: &str) -> Option<(String, usize)> {
        let Some((who, idx)) = place(card) else {
            self.mismatches
                .push(format!("{what}: no hand position in {card}"));
            return None;
        };
        let me = self.me.clone();
        let size = self.hand(&who).len();
        if idx >= size {
            self.mismatches.push(format!(
                "{me}: {what} names {who}'s slot {idx}, but the model has {size} cards there"
            ));
            return None;
        }
        let slot = &self.hands[&who][idx];
        if let (Some(known), Some(id)) = (&slot.id, card["id"].as_str())
            && known != id
        {
            self.mismatches.push(format!(
                "{me}: {what} names {id} at {who}'s slot {idx}, the model has {known} there"
            ));
        }
        Some((who, idx))
    }

    /// Record what an event shows of a card in a hand.
    fn learn(&mut self, card: &Json, what: &str) {
        if let Some((who, idx)) = self.check(card, what) {
            let slot = &mut self.hand(&who)[idx];
            let seen = Slot::of(card);
            if seen.id.is_some() {
                slot.id = seen.id;
            }
            if seen.rank.is_some() {
                slot.rank = seen.rank;
                slot.value = seen.value;
            }
        }
    }

    fn swap(&mut self, a: &Json, b: &Json, what: &str) {
        if let (Some((ua, ia)), Some((ub, ib))) = (self.check(a, what), self.check(b, what)) {
            let first = std::mem::take(&mut self.hand(&ua)[ia]);
            let second = std::mem::replace(&mut self.hand(&ub)[ib], first);
            self.hand(&ua)[ia] = second;
        }
    }

    /// Take one message from the server into the model.
    fn receive(&mut self, m: Json) {
        let kind = m["type"]
            .as_str()
            .expect("every message has a type")
            .to_string();
        let index = self.messages.len();
        self.messages.push(m.clone());
        if kind == "error" {
            let reason = m["message"].as_str().unwrap_or_default().to_string();
            let action = self.pending.take().map(|(a, _)| a).unwrap_or(Json::Null);
            self.refused_now.insert(action.to_string());
            self.refusals.push((action, reason));
            return;
        }
        if kind == "private_sync_state" {
            // The one message the client does not read (it sends no `sync`, so this is the
            // first message of the connection).
            assert_eq!(index, 0, "{}: a private_sync_state later on", self.me);
            return;
        }
        assert!(
            index > 0,
            "{}: the first message is not private_sync_state: {m}",
            self.me
        );
        if !kind.starts_with("private_") {
            self.public_events += 1;
        }
        self.refused_now.clear();
        let me = self.me.clone();
        // Whether this message answers the action in flight.
        let by_me = |field: &str| m[field]["id"].as_str() == Some(me.as_str());
        let answers = kind.starts_with("private_") || by_me("user") || by_me("player");
        if answers || kind == "game_end" {
            self.pending = None;
        }
        match kind.as_str() {
            "private_initial_cards" => {
                let cards = m["cards"].as_array().expect("cards").clone();
                for card in &cards {
                    let mut card = card.clone();
                    // The deal's cards are in the receiver's hand.
                    if card.get("user").is_none() {
                        card["user"] = json!({"id": me});
                    }
                    self.learn(&card, "private_initial_cards");
                }
                self.initial_cards.get_or_insert(index);
            }
            "game_player_turn" => {
                let user = user_of(&m, "user");
                self.first_turn_at.get_or_insert(index);
                if user == me {
                    self.my_turns += 1;
                }
                self.current = Some(user);
                self.phase = Phase::Draw;
                self.drawn = None;
                self.drawn_id = None;
                self.special_failed = false;
            }
            "private_draw_stockpile" | "private_draw_discardpile" => {
                self.drawn = Some(Slot::of(&m["card"]));
            }
            "player_draw_stockpile" | "player_draw_discardpile" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                self.drawn_id = m["card"]["id"].as_str().map(str::to_string);
                if user == me {
                    let held = self.drawn.as_ref().and_then(|d| d.id.clone());
                    if held != self.drawn_id {
                        self.mismatches
                            .push(format!("{me}: drew {held:?} privately, {m} publicly"));
                    }
                }
                if kind == "player_draw_discardpile" {
                    self.top = None; // unknown from here: this client never draws from it
                }
                self.phase = Phase::Discard;
            }
            "player_discard" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                if let (Some(id), Some(seen)) = (&self.drawn_id, m["card"]["id"].as_str())
                    && id != seen
                {
                    self.mismatches
                        .push(format!("{me}: {m} discards another card than was drawn"));
                }
                self.top = Some(Slot::of(&m["card"]));
                self.drawn = None;
                self.phase = Phase::Settling;
            }
            "player_replace" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                if let Some((who, idx)) = self.check(&m["card"], "player_replace") {
                    let new = if who == me {
                        self.drawn.take().unwrap_or_default()
                    } else {
                        Slot {
                            id: self.drawn_id.clone(),
                            ..Slot::default()
                        }
                    };
                    self.hand(&who)[idx] = new;
                }
                self.top = Some(Slot::of(&m["card"]));
                self.drawn = None;
                self.phase = Phase::Settling;
            }
            "player_special_choice" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                self.phase = Phase::Special(m["special"].as_str().unwrap_or_default().into());
            }
            "player_special_action" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                let special = m["special"].as_str().unwrap_or_default();
                self.phase = Phase::Settling;
                match special {
                    "skip" => {}
                    "peek_self" | "peek_other" => {
                        self.check(&m["card"], "player_special_action");
                    }
                    "swap_blind" | "swap_peek_swap" => {
                        self.swap(&m["card1"], &m["card2"], "player_special_action");
                    }
                    "swap_peek_reveal" => {
                        let a = self.check(&m["card1"], "player_special_action");
                        let b = self.check(&m["card2"], "player_special_action");
                        // A locked hand ends the King's power after the reveal (CAM-LOCK-3).
                        let touches_locked = [a, b]
                            .iter()
                            .flatten()
                            .any(|(who, _)| self.locked.contains(who));
                        if !touches_locked {
                            self.phase = Phase::SwapDecision;
                        }
                    }
                    other => self
                        .mismatches
                        .push(format!("{me}: unknown special `{other}` in {m}")),
                }
            }
            "private_special_action_success" => {
                for field in ["card", "card1", "card2"] {
                    if m[field].is_object() {
                        self.learn(&m[field].clone(), "private_special_action_success");
                    }
                }
            }
            "private_special_action_fail" => {
                if m["special"] == "swap_blind" {
                    // The power stays on offer (CAM-LOCK-2).
                    self.phase = Phase::Special("swap_blind".into());
                    self.special_failed = true;
                } else {
                    self.phase = Phase::Settling;
                }
            }
            "player_snap_success" => {
                if let Some((who, idx)) = self.check(&m["card"], "player_snap_success") {
                    // compact_hands (default true): the later slots shift down.
                    self.hand(&who).remove(idx);
                }
                self.top = Some(Slot::of(&m["card"]));
            }
            "player_snap_fail" => {
                self.learn(&m["card"].clone(), "player_snap_fail");
                if by_me("user") && !self.last_snap_guess {
                    self.snap_fails += 1;
                }
            }
            "player_snap_penalty" => {
                let who = user_of(&m, "player");
                let card = Slot::of(&m["card"]);
                self.hand(&who).push(card);
            }
            "private_snap_penalty" => {
                let mut card = m["card"].clone();
                if card.get("user").is_none() {
                    card["user"] = json!({"id": me});
                }
                self.check(&card, "private_snap_penalty");
            }
            "game_reshuffle_stockpile" => {}
            "player_cambia" => {
                let user = user_of(&m, "user");
                self.expect_current(&user, &m);
                self.locked.insert(user.clone());
                self.caller = Some(user);
                self.phase = Phase::Settling;
            }
            "game_turn_timeout" => {
                // What the timer did follows as player_discard, player_special_action or the
                // next turn.
                self.phase = Phase::Settling;
            }
            "game_end" => {
                self.phase = Phase::Over;
                self.pending = None;
                // A hand the client knows entirely must score what the server says.
                let hand = &self.hands[&me];
                if hand.iter().all(|s| s.value.is_some()) {
                    let total: i64 = hand.iter().filter_map(|s| s.value).sum();
                    if m["scores"][&me].as_i64() != Some(total) {
                        self.mismatches.push(format!(
                            "{me}: known hand {hand:?} adds to {total}, game_end says {m}"
                        ));
                    }
                }
                self.end = Some(m);
            }
            other => panic!("{me}: a message of a type the README does not list: {other}: {m}"),
        }
    }

    fn expect_current(&mut self, user: &str, m: &Json) {
        if self.current.as_deref() != Some(user) {
            self.mismatches.push(format!(
                "{}: {m} while the model has {:?} to play",
                self.me, self.current
            ));
        }
    }

    /// A hand position as a client names it: slot and owner, and the id when known.
    fn card_ref(&self, who: &str, idx: usize) -> Json {
        let mut card = json!({"idx": idx, "user": {"id": who}});
        if let Some(id) = &self.hands[who][idx].id {
            card["id"] = json!(id);
        }
        card
    }

    fn my_hand(&self) -> &Vec<Slot> {
        &self.hands[&self.me]
    }

    /// My slot with the highest value (counting unknown cards as 6), known cards first on ties.
    fn worst_slot(&self) -> Option<usize> {
        let hand = self.my_hand();
        (0..hand.len()).max_by_key(|&i| (hand[i].estimate(), hand[i].value.is_some()))
    }

    fn opponents(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|s| **s != self.me && !self.hands[*s].is_empty())
            .cloned()
            .collect()
    }

    /// The actions worth sending now, best first (empty: nothing to do).
    fn candidates(&self) -> Vec<Json> {
        if self.pending.is_some() || self.phase == Phase::Over {
            return Vec::new();
        }
        let mine = self.current.as_deref() == Some(self.me.as_str());
        let mut out = Vec::new();
        // Snap a known card of the top's rank (never from a locked hand).
        let may_snap =
            self.snap_any_time || (mine && matches!(self.phase, Phase::Draw | Phase::Discard));
        if may_snap
            && self.phase != Phase::Opening
            && !self.locked.contains(&self.me)
            && let Some(rank) = self.top.as_ref().and_then(|t| t.rank.clone())
        {
            let hand = self.my_hand();
            if let Some(i) = (0..hand.len()).find(|&i| hand[i].rank.as_deref() == Some(&rank)) {
                out.push(json!({"type": "action_snap", "card": self.card_ref(&self.me, i)}));
            } else if mine
                && self.phase == Phase::Draw
                && self.guess_every > 0
                && self.my_turns.is_multiple_of(self.guess_every)
                && self.guessed_turn != self.my_turns
                && let Some(i) = (0..hand.len()).find(|&i| hand[i].value.is_none())
            {
                // A guess: right or wrong, the events say what became of the hand.
                out.push(json!({"type": "action_snap", "card": self.card_ref(&self.me, i)}));
            }
        }
        if !mine {
            return out;
        }
        if self.dawdle.contains(&(self.my_turns, self.phase.clone())) {
            return Vec::new(); // the turn timer acts instead
        }
        let skip = json!({"type": "action_special", "special": "skip"});
        match &self.phase {
            Phase::Draw => {
                let hand = self.my_hand();
                let known: i64 = hand.iter().map(Slot::estimate).sum();
                let confident = hand.iter().all(|s| s.value.is_some()) && known <= 10;
                if self.caller.is_none()
                    && (self.my_turns > self.patience
                        || (self.eager && self.my_turns > 2 && confident))
                {
                    out.push(json!({"type": "action_cambia"}));
                }
                out.push(json!({"type": "action_draw_stockpile"}));
            }
            Phase::Discard => {
                let Some(drawn) = &self.drawn else {
                    return out; // `private_draw_stockpile` is on its way
                };
                let discard = json!({"type": "action_discard", "card": {"id": drawn.id}});
                match self.worst_slot() {
                    Some(i) if drawn.estimate() < self.my_hand()[i].estimate() => {
                        out.push(
                            json!({"type": "action_replace", "card": self.card_ref(&self.me, i)}),
                        );
                        out.push(discard);
                    }
                    _ => out.push(discard),
                }
            }
            Phase::Special(kind) => {
                if let Some(use_it) = self.use_special(kind) {
                    out.push(use_it);
                }
                out.push(skip);
            }
            Phase::SwapDecision => {
                out.push(self.king_decision().unwrap_or(skip.clone()));
                out.push(skip);
            }
            Phase::Opening | Phase::Settling | Phase::Over => {}
        }
        out
    }

    fn use_special(&self, kind: &str) -> Option<Json> {
        if self.special_failed {
            return None;
        }
        let me = self.me.as_str();
        let hand = self.my_hand();
        let special = |cards: Json| {
            let mut m = json!({"type": "action_special", "special": kind});
            for (k, v) in cards.as_object().unwrap() {
                m[k] = v.clone();
            }
            m
        };
        let opponents = self.opponents();
        match kind {
            "peek_self" => {
                let i = (0..hand.len()).find(|&i| hand[i].value.is_none())?;
                Some(special(json!({"card": self.card_ref(me, i)})))
            }
            "peek_other" => opponents.iter().find_map(|o| {
                let i = (0..self.hands[o].len()).find(|&i| self.hands[o][i].value.is_none())?;
                Some(special(json!({"card": self.card_ref(o, i)})))
            }),
            "swap_blind" => {
                // Give away a known high card for an unknown (or known lower) one.
                if self.locked.contains(me) {
                    return None;
                }
                let worst = self.worst_slot()?;
                let high = hand[worst].value.filter(|&v| v >= 9)?;
                opponents
                    .iter()
                    .filter(|o| !self.locked.contains(*o))
                    .find_map(|o| {
                        let theirs = &self.hands[o];
                        let i = (0..theirs.len()).find(|&i| theirs[i].estimate() < high)?;
                        Some(special(json!({
                            "card1": self.card_ref(me, worst),
                            "card2": self.card_ref(o, i),
                        })))
                    })
            }
            "swap_peek" => {
                // Look at my worst card and an opponent's first card (a locked hand too: the
                // power then ends after the reveal).
                let worst = self.worst_slot()?;
                let o = opponents.first()?;
                Some(special(json!({
                    "card1": self.card_ref(me, worst),
                    "card2": self.card_ref(o, 0),
                })))
            }
            _ => None,
        }
    }

    /// After the King's reveal: swap when the other card is lower than mine.
    fn king_decision(&self) -> Option<Json> {
        let (card1, card2) = self
            .messages
            .iter()
            .rev()
            .find(|m| m["type"] == "private_special_action_success")
            .map(|m| (m["card1"].clone(), m["card2"].clone()))?;
        let (a, b) = (card1["value"].as_i64()?, card2["value"].as_i64()?);
        let mine_first = card1["user"]["id"] == self.me.as_str();
        let (mine, theirs) = if mine_first { (a, b) } else { (b, a) };
        (theirs < mine).then(|| json!({"type": "action_special", "special": "swap_peek_swap"}))
    }

    /// The action to send now, if any.
    fn decide(&self) -> Option<Json> {
        self.candidates()
            .into_iter()
            .find(|a| !self.refused_now.contains(&a.to_string()))
    }

    fn sent(&mut self, action: Json) {
        match action["type"].as_str() {
            Some("action_snap") => {
                let hand = self.my_hand();
                let idx = action["card"]["idx"].as_u64().unwrap_or(0) as usize;
                self.last_snap_guess = hand.get(idx).is_none_or(|s| s.rank.is_none());
                if self.last_snap_guess {
                    self.guesses += 1;
                    self.guessed_turn = self.my_turns;
                } else {
                    self.snaps += 1;
                }
            }
            Some("action_special") if action["special"] != "skip" => self.specials_used += 1,
            _ => {}
        }
        self.actions += 1;
        self.pending = Some((action, Instant::now()));
    }

    fn tail(&self) -> String {
        let skip = self.messages.len().saturating_sub(25);
        self.messages[skip..]
            .iter()
            .map(|m| format!("  {m}\n"))
            .collect()
    }
}

/// Play one table's game to its end with these clients; the caller checks what they saw.
fn play(
    server: &TestServer,
    table: &str,
    seats: &Json,
    players: &mut [Player],
    lockstep: bool,
) -> Duration {
    let start = Instant::now();
    let mut conns: Vec<Conn> = players
        .iter()
        .map(|p| Conn::open(server, table, seats[&p.me].as_str().unwrap()))
        .collect();
    loop {
        let label = format!("table {table}");
        for (p, c) in players.iter_mut().zip(conns.iter_mut()) {
            while let Some(m) = c.poll() {
                p.receive(m);
                assert!(
                    p.messages.len() <= MAX_MESSAGES,
                    "{label}: {} got over {MAX_MESSAGES} messages; the last:\n{}",
                    p.me,
                    p.tail()
                );
            }
            assert!(
                !c.closed || p.end.is_some(),
                "{label}: {}'s connection closed before game_end; the last messages:\n{}",
                p.me,
                p.tail()
            );
        }
        if players.iter().all(|p| p.end.is_some()) {
            return start.elapsed();
        }
        let elapsed = start.elapsed();
        if elapsed > GAME_TIME {
            let tails: Vec<String> = players
                .iter()
                .map(|p| {
                    format!(
                        "{} ({:?}, current {:?}):\n{}",
                        p.me,
                        p.phase,
                        p.current,
                        p.tail()
                    )
                })
                .collect();
            panic!("{label}: no game_end in {GAME_TIME:?}; the last messages:\n{tails:#?}");
        }
        for i in 0..players.len() {
            if let Some((action, at)) = &players[i].pending {
                assert!(
                    at.elapsed() < ANSWER_TIME,
                    "{label}: {} sent {action} and had no answer in {ANSWER_TIME:?}:\n{}",
                    players[i].me,
                    players[i].tail()
                );
            }
            // Lockstep: act only when no other client has an action in flight and every client
            // has had the same public events, so that two clients never act on different states
            // at once (no race can then refuse an action or fail a snap).
            if lockstep {
                let events = players[i].public_events;
                let settled = players
                    .iter()
                    .enumerate()
                    .all(|(j, q)| q.public_events == events && (j == i || q.pending.is_none()));
                if !settled {
                    continue;
                }
            }
            let Some(action) = players[i].decide() else {
                continue;
            };
            assert!(
                players[i].actions < MAX_ACTIONS,
                "{label}: {} sent {MAX_ACTIONS} actions without the game ending:\n{}",
                players[i].me,
                players[i].tail()
            );
            conns[i].send(&action);
            players[i].sent(action);
        }
    }
}

/// What every client of a finished game must have seen.
fn check_client(p: &Player, what: &str) {
    let me = &p.me;
    let end = p.end.as_ref().expect("checked by play");
    assert!(
        end["winners"].is_array() && end["scores"].is_object(),
        "{what}: {me}: {end}"
    );
    let initial = p
        .initial_cards
        .unwrap_or_else(|| panic!("{what}: {me} never got private_initial_cards"));
    let first_turn = p.first_turn_at.expect("a turn was announced");
    assert!(
        initial < first_turn && initial <= 2,
        "{what}: {me} got private_initial_cards as message {initial}, the turn {first_turn}"
    );
    let opening = &p.messages[initial];
    let cards = opening["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 2, "{what}: slots 0 and 1 are shown: {opening}");
    for card in cards {
        assert!(
            card["id"].is_string() && card["rank"].is_string() && card["idx"].is_u64(),
            "{what}: {opening}"
        );
    }
    assert_eq!(
        p.mismatches,
        Vec::<String>::new(),
        "{what}: {me}'s model, built from the messages, disagreed with them"
    );
    // Refusals mean the model was wrong: a client that reads every message should have none
    // (one is allowed: an action that crossed the game's end).
    let refused: Vec<String> = p
        .refusals
        .iter()
        .map(|(action, reason)| format!("{action} -> {reason}"))
        .collect();
    assert!(
        refused.len() <= 1,
        "{what}: {me} was refused {} times: {refused:#?}\nthe last messages:\n{}",
        refused.len(),
        p.tail()
    );
    assert_eq!(
        p.snap_fails,
        0,
        "{what}: {me} snapped a card its model had wrong:\n{}",
        p.tail()
    );
    assert!(p.actions >= 2, "{what}: {me} hardly played: {}", p.actions);
}

fn summary(p: &Player) -> String {
    format!(
        "{}: {} messages, {} actions ({} snaps, {} guessed snaps, {} powers used), {} refused, \
         {} turns",
        p.me,
        p.messages.len(),
        p.actions,
        p.snaps,
        p.guesses,
        p.specials_used,
        p.refusals.len(),
        p.my_turns
    )
}

/// Count the messages a client got by type (and special).
fn tally(p: &Player, seen: &mut HashMap<String, usize>) {
    for m in &p.messages {
        let mut key = m["type"].as_str().unwrap_or_default().to_string();
        if let Some(special) = m["special"].as_str() {
            key = format!("{key}/{special}");
        }
        *seen.entry(key).or_default() += 1;
    }
}

fn assert_seen(seen: &HashMap<String, usize>, kinds: &[&str]) {
    let missing: Vec<&&str> = kinds.iter().filter(|k| !seen.contains_key(**k)).collect();
    assert!(
        missing.is_empty(),
        "the games never reached {missing:?}; they had {seen:#?}"
    );
}

#[test]
fn clients_that_only_read_events_play_whole_two_player_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("tables.db"));
    let mut seen = HashMap::new();
    // (seed, ann's patience, whether both call early, bob's guessing): the last game runs long
    // enough to reshuffle the discard pile into the stockpile.
    for (seed, patience, eager, guess) in [
        (3_u64, 5, true, 0),
        (8, 6, true, 3),
        (21, 7, true, 2),
        (34, 8, true, 0),
        (55, 30, false, 4),
    ] {
        let (table, seats) = server.table(json!({
            "variant": "cambia", "players": ["ann", "bob"], "seed": seed,
        }));
        let order = ["ann", "bob"];
        let mut players = [
            Player::new("ann", &order, true, patience),
            Player::new("bob", &order, true, patience + 3),
        ];
        for p in &mut players {
            p.eager = eager;
        }
        players[1].guess_every = guess;
        let took = play(&server, &table, &seats, &mut players, true);
        let what = format!("seed {seed}");
        for p in &players {
            check_client(p, &what);
            tally(p, &mut seen);
        }
        // Both clients saw the same end.
        assert_eq!(players[0].end, players[1].end, "{what}");
        eprintln!(
            "{what}: {took:?}\n  {}\n  {}\n  end {}",
            summary(&players[0]),
            summary(&players[1]),
            players[0].end.as_ref().unwrap()
        );
    }
    eprintln!("messages: {seen:?}");
    // The policy reaches the interesting messages, not only draw and discard.
    assert_seen(
        &seen,
        &[
            "private_initial_cards",
            "player_replace",
            "player_snap_success",
            "player_snap_fail",
            "player_snap_penalty",
            "private_snap_penalty",
            "player_special_action/peek_self",
            "player_special_action/peek_other",
            "player_special_action/swap_blind",
            "player_special_action/swap_peek_reveal",
            "player_special_action/skip",
            "game_reshuffle_stockpile",
            "player_cambia",
        ],
    );
}

#[test]
fn a_client_that_only_reads_events_plays_whole_games_against_a_bot() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(&dir.path().join("tables.db"));
    let mut seen = HashMap::new();
    for (seed, timer) in [(4_u64, 15), (9, 15), (16, 1)] {
        let (table, seats) = server.table(json!({
            "variant": "cambia", "players": ["ann"], "bots": ["easy"], "seed": seed,
            "think_ms": 0, "house_rules": {"turn_timer_seconds": timer},
        }));
        // The bot acts on its own at any time (snaps too): ann snaps only in her own turn,
        // when the bot can change nothing she snaps by.
        let mut ann = Player::new("ann", &["ann", "bot1"], false, 6);
        if timer == 1 {
            // Let the timer take a turn before the draw and one holding a drawn card.
            ann.dawdle = vec![(2, Phase::Draw), (3, Phase::Discard)];
        }
        let mut players = [ann];
        let took = play(&server, &table, &seats, &mut players, false);
        let what = format!("bot game, seed {seed}");
        let ann = &players[0];
        check_client(ann, &what);
        tally(ann, &mut seen);
        if timer == 1 {
            let timeouts = ann
                .messages
                .iter()
                .filter(|m| m["type"] == "game_turn_timeout" && m["user"]["id"] == "ann")
                .count();
            assert!(timeouts >= 2, "{what}: {timeouts} timeouts of ann's turns");
        }
        eprintln!(
            "{what}: {took:?}\n  {}\n  end {}",
            summary(ann),
            ann.end.as_ref().unwrap()
        );
    }
    eprintln!("messages: {seen:?}");
    assert_seen(&seen, &["private_initial_cards", "game_turn_timeout"]);
}
