//! What one player may see of a game (`Game::view`) and how cards and players appear to players:
//! typed, serializable shapes that a server sends as JSON.
//!
//! A card a player does not know shows only its public `id`; a card they know also shows its
//! face. Events (`Game::rendered_events`) use the same card and player shapes in their payloads.

use super::card::CardIdx;
use super::game::Game;
pub use super::seen::{CardView, FaceView};
use super::state::GameState;
use super::value::{Seat, Value};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// What one player may see of a game now, from that player's knowledge. Serialized, it is the
/// JSON a client receives; [`View::to_json`] gives that JSON directly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The player this view is for.
    pub you: PlayerRef,
    /// The variant's name, as in its `variant.yaml`.
    pub variant: String,
    /// The phase the game is in, as `variant.yaml` names it.
    pub phase: String,
    /// Whose turn it is, if anyone's.
    pub current: Option<PlayerRef>,
    /// The game clock: milliseconds since the game started.
    pub clock_ms: u64,
    /// Every player in seat order, with the hand as this player may see it.
    pub players: Vec<PlayerView>,
    /// Every pile of the variant by name: its size and its top card.
    pub piles: BTreeMap<String, PileView>,
    /// The variant's game variables (`vars:` in `variant.yaml`).
    pub vars: BTreeMap<String, Json>,
    /// The running timers, soonest first as the game holds them.
    pub timers: Vec<TimerView>,
    /// Who won and why, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeView>,
}

/// A player as payloads and views name them: `{"id": "ann"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    /// The player's name, as given to `Game::new`.
    pub id: String,
}

/// One player in a [`View`]: their hand, and the player variables the viewer may see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    /// The player's name.
    pub id: String,
    /// The hand by slot; `null` is an empty slot.
    pub hand: Vec<Option<CardView>>,
    /// The variant's player variables the viewer may see (`player_vars:` in `variant.yaml`;
    /// private ones only in the player's own entry), by name.
    #[serde(flatten)]
    pub vars: BTreeMap<String, Json>,
}

/// A pile in a [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PileView {
    /// How many cards it holds.
    pub size: usize,
    /// Its top card, as the viewer may see it; `null` when empty.
    pub top: Option<CardView>,
}

/// A running timer in a [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimerView {
    /// The timer's name, as the variant starts it.
    pub name: String,
    /// Milliseconds of game clock until it fires.
    pub remaining_ms: u64,
    /// The player it belongs to, if any.
    pub player: Option<String>,
}

/// How a finished game ended, in a [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeView {
    /// The winners' names (more than one on a tie; none if nobody won).
    pub winners: Vec<String>,
    /// The variant's reason, e.g. `cambia` or `out_of_cards`.
    pub reason: String,
}

impl View {
    /// The view as the JSON a client receives.
    pub fn to_json(&self) -> Json {
        // Every field is a string, number, map or list: serializing cannot fail.
        serde_json::to_value(self).unwrap_or(Json::Null)
    }
}

impl PlayerRef {
    /// The player in `seat`.
    pub fn of(state: &GameState, seat: Seat) -> PlayerRef {
        PlayerRef {
            id: state.players.get(seat.index()).cloned().unwrap_or_default(),
        }
    }
}

impl Game {
    /// What `seat` may see of the game now: hands and piles from that player's knowledge.
    pub fn view(&self, seat: Seat) -> View {
        let st = &self.state;
        let table = &self.table;
        let card = |c: CardIdx| -> CardView {
            let cs = &st.cards[c.0 as usize];
            CardView {
                face_up: cs.face_up,
                ..CardView::of(st, table, c, cs.public_id, cs.known_by & seat.bit() != 0)
            }
        };
        let card_json = |c: CardIdx| serde_json::to_value(card(c)).unwrap_or(Json::Null);
        let value = |v: &Value| value_json(st, v, &card_json);
        let players = (0..st.player_count())
            .map(|i| PlayerView {
                id: st.players[i].clone(),
                hand: st.hand(Seat(i as u8)).iter().map(|c| c.map(card)).collect(),
                vars: table
                    .player_vars
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| table.player_var_visible(*k, i, seat.index()))
                    .map(|(k, (name, _))| (name.clone(), value(&st.player_vars[i][k])))
                    .collect(),
            })
            .collect();
        let piles = table
            .piles
            .iter()
            .zip(&st.piles)
            .map(|(decl, cards)| {
                let pile = PileView {
                    size: cards.len(),
                    top: cards.last().map(|&c| card(c)),
                };
                (decl.name.clone(), pile)
            })
            .collect();
        let vars = table
            .game_vars
            .iter()
            .zip(st.game_vars.iter())
            .map(|((name, _), v)| (name.clone(), value(v)))
            .collect();
        View {
            you: PlayerRef::of(st, seat),
            variant: table.variant.clone(),
            phase: table.phase_name(st.phase).into(),
            current: st.current.map(|s| PlayerRef::of(st, s)),
            clock_ms: st.clock,
            players,
            piles,
            vars,
            timers: st
                .timers
                .iter()
                .map(|t| TimerView {
                    name: t.name.to_string(),
                    remaining_ms: t.deadline.saturating_sub(st.clock),
                    player: t.seat.map(|s| st.players[s.index()].clone()),
                })
                .collect(),
            outcome: st.outcome.as_ref().map(|o| OutcomeView {
                winners: o
                    .winners
                    .iter()
                    .map(|s| st.players[s.index()].clone())
                    .collect(),
                reason: o.reason.clone(),
            }),
        }
    }
}

/// A game or player variable as JSON: cards and players in their view shapes.
pub(super) fn value_json(st: &GameState, v: &Value, card: &dyn Fn(CardIdx) -> Json) -> Json {
    match v {
        Value::Unit => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(f) => Json::from(*f),
        Value::Str(s) => Json::String(s.clone()),
        Value::Card(c) => card(*c),
        Value::Player(s) => serde_json::json!({ "id": PlayerRef::of(st, *s).id }),
        Value::List(items) => Json::Array(items.iter().map(|i| value_json(st, i, card)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_shows_its_face_only_when_known_and_round_trips() {
        let known = CardView {
            id: "0badcafe".into(),
            face: Some(FaceView {
                rank: "Joker".into(),
                suit: None,
                value: 0,
            }),
            face_up: true,
        };
        let unknown = CardView {
            id: "12345678".into(),
            face: None,
            face_up: false,
        };
        let pile = PileView {
            size: 2,
            top: Some(known.clone()),
        };
        let json = serde_json::to_value((&known, &unknown, &pile)).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"id": "0badcafe", "rank": "Joker", "suit": null, "value": 0, "face_up": true},
                {"id": "12345678"},
                {"size": 2, "top": {"id": "0badcafe", "rank": "Joker", "suit": null, "value": 0, "face_up": true}}
            ])
        );
        let back: (CardView, CardView, PileView) = serde_json::from_value(json).unwrap();
        assert_eq!(back, (known, unknown, pile));
    }

    #[test]
    fn a_player_view_keeps_its_variables_beside_id_and_hand() {
        let player = PlayerView {
            id: "ann".into(),
            hand: vec![None],
            vars: [("peeked".to_string(), Json::Bool(true))].into(),
        };
        let json = serde_json::to_value(&player).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": "ann", "hand": [null], "peeked": true})
        );
        assert_eq!(serde_json::from_value::<PlayerView>(json).unwrap(), player);
    }
}
