//! Events: what the rules announce, to whom, and how each recipient sees it.
//!
//! A payload holds card references, never card faces. When an event is emitted, each card
//! reference records which players knew that card at that moment; rendering for a recipient
//! adds rank, suit and value only if the recipient was among them. So no event can show a
//! face-down card to a player who does not know it, whatever a script puts in it.

use super::card::CardIdx;
pub use super::seen::{card_json, public_id_text};
use super::state::GameState;
use super::table::Table;
use super::value::Seat;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};
use std::sync::Arc;

/// Who receives an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    /// Every player.
    Everyone,
    /// One player only.
    Player(Seat),
}

impl Audience {
    /// Whether the player in `seat` receives events sent to this audience.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Player(s) => s == seat,
        }
    }
}

/// A card as it appears in a payload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardRef {
    /// The card referred to.
    pub card: CardIdx,
    /// The card's public id when the event was emitted.
    pub public_id: u32,
    /// Players who knew the card's face when the event was emitted.
    pub shown_to: u32,
    /// Extra fields, such as `idx` and `user` for a card in a hand.
    pub extra: Vec<(Key, Payload)>,
}

/// A payload field's name: shared, since most are written once in a script or here and sent in
/// many events.
pub type Key = Arc<str>;

/// The key of a hand position's slot number (`idx`).
pub fn idx_key() -> Key {
    static KEY: std::sync::LazyLock<Key> = std::sync::LazyLock::new(|| "idx".into());
    KEY.clone()
}

/// The key of a hand position's player (`user`).
pub fn user_key() -> Key {
    static KEY: std::sync::LazyLock<Key> = std::sync::LazyLock::new(|| "user".into());
    KEY.clone()
}

/// An event payload: a JSON-like tree whose cards and players are references.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Payload {
    /// No value: JSON `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// Text.
    Str(String),
    /// A list: a JSON array.
    List(Vec<Payload>),
    /// Named fields: a JSON object.
    Map(Vec<(Key, Payload)>),
    /// A player, rendered as `{"id": "<name>"}`.
    Player(Seat),
    /// A card, rendered as its public id, plus its face for recipients who knew it when the event
    /// was emitted.
    Card(Box<CardRef>),
}

/// One event in the game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    /// The event's type, one of the variant's `Table::events` (`game_player_turn`…).
    pub name: Arc<str>,
    /// Who receives it.
    pub to: Audience,
    /// Game-clock time in milliseconds.
    pub time: u64,
    /// What it says; cards and players in it are references, rendered per recipient.
    pub payload: Payload,
}

impl EventRecord {
    /// The event as `seat` receives it: `{"type": name, ...payload}`.
    pub fn render(&self, state: &GameState, table: &Table, seat: Seat) -> Json {
        let mut out = Map::new();
        out.insert("type".into(), Json::String(self.name.to_string()));
        match self.payload.render(state, table, seat) {
            Json::Object(fields) => out.extend(fields),
            Json::Null => {}
            other => {
                out.insert("payload".into(), other);
            }
        }
        Json::Object(out)
    }

    /// The cards whose faces this event shows `seat` (none if `seat` does not receive it).
    pub fn shown_cards(&self, seat: Seat, out: &mut Vec<CardIdx>) {
        if self.to.includes(seat) {
            self.payload.shown_cards(seat, out);
        }
    }

    /// Whether the rendering for `seat` shows the face of `card`.
    pub fn reveals(&self, seat: Seat, card: CardIdx) -> bool {
        self.to.includes(seat) && self.payload.reveals(seat, card)
    }
}

impl Payload {
    /// The payload as `seat` receives it: cards show their faces only if `seat` knew them when the
    /// event was emitted.
    pub fn render(&self, state: &GameState, table: &Table, seat: Seat) -> Json {
        match self {
            Payload::Null => Json::Null,
            Payload::Bool(b) => Json::Bool(*b),
            Payload::Int(i) => Json::from(*i),
            Payload::Float(f) => Json::from(*f),
            Payload::Str(s) => Json::String(s.clone()),
            Payload::List(items) => {
                Json::Array(items.iter().map(|p| p.render(state, table, seat)).collect())
            }
            Payload::Map(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.render(state, table, seat)))
                    .collect(),
            ),
            Payload::Player(s) => player_json(state, *s),
            Payload::Card(card) => card.render(state, table, seat),
        }
    }

    fn shown_cards(&self, seat: Seat, out: &mut Vec<CardIdx>) {
        match self {
            Payload::List(items) => items.iter().for_each(|p| p.shown_cards(seat, out)),
            Payload::Map(fields) => fields.iter().for_each(|(_, p)| p.shown_cards(seat, out)),
            Payload::Card(c) => {
                if c.shown_to & seat.bit() != 0 {
                    out.push(c.card);
                }
                c.extra.iter().for_each(|(_, p)| p.shown_cards(seat, out));
            }
            _ => {}
        }
    }

    fn reveals(&self, seat: Seat, card: CardIdx) -> bool {
        match self {
            Payload::List(items) => items.iter().any(|p| p.reveals(seat, card)),
            Payload::Map(fields) => fields.iter().any(|(_, p)| p.reveals(seat, card)),
            Payload::Card(c) => {
                (c.card == card && c.shown_to & seat.bit() != 0)
                    || c.extra.iter().any(|(_, p)| p.reveals(seat, card))
            }
            _ => false,
        }
    }

    /// Follow a dotted path (`card.rank`) through maps; list indexes are numbers (`cards.0`).
    pub fn get_path(&self, path: &str) -> Option<&Payload> {
        let mut node = self;
        for key in path.split('.') {
            node = match node {
                Payload::Map(fields) => fields.iter().find(|(k, _)| &**k == key).map(|(_, v)| v)?,
                Payload::List(items) => items.get(key.parse::<usize>().ok()?)?,
                Payload::Card(card) => card
                    .extra
                    .iter()
                    .find(|(k, _)| &**k == key)
                    .map(|(_, v)| v)?,
                _ => return None,
            };
        }
        Some(node)
    }
}

impl CardRef {
    fn render(&self, state: &GameState, table: &Table, seat: Seat) -> Json {
        let shown = self.shown_to & seat.bit() != 0;
        let mut out = card_json(state, table, self.card, self.public_id, shown);
        for (k, v) in &self.extra {
            out.insert(k.to_string(), v.render(state, table, seat));
        }
        Json::Object(out)
    }
}

/// How a player appears in payloads and views: `{"id": "<name>"}`.
pub fn player_json(state: &GameState, seat: Seat) -> Json {
    let mut out = Map::new();
    out.insert(
        "id".into(),
        Json::String(state.players.get(seat.index()).cloned().unwrap_or_default()),
    );
    Json::Object(out)
}
