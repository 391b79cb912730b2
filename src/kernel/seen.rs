//! A card as players see it (`CardView`): its public id always, its face only to a player who
//! knows it, in the typed form views use and the JSON form event payloads extend. Below both
//! `view` and `event`, so neither needs the other.

use super::card::CardIdx;
use super::state::GameState;
use super::table::Table;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// A card as a player sees it: always its public id, its face only if the player knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// The card's public id: eight hex digits, stable for the game, revealing nothing
    /// (`Game::card_from_id` finds the card).
    pub id: String,
    /// The face, present only when the player knows the card.
    #[serde(flatten)]
    pub face: Option<FaceView>,
    /// `true` when the card lies face up in a hand (everyone knows it); absent otherwise. Only
    /// views say it: an event shows a card as it was when sent, its face to whoever knew it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_up: bool,
}

/// A card's face in a [`CardView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceView {
    /// `Ace`, `2` … `10`, `Jack`, `Queen`, `King` or `Joker`.
    pub rank: String,
    /// `Hearts`, `Diamonds`, `Clubs` or `Spades`; `null` for a joker.
    pub suit: Option<String>,
    /// The card's points in this variant (house rules included).
    pub value: i64,
}

impl CardView {
    /// `card` as a player sees it: `shown` says whether they know its face.
    pub fn of(
        state: &GameState,
        table: &Table,
        card: CardIdx,
        public_id: u32,
        shown: bool,
    ) -> Self {
        CardView {
            id: public_id_text(public_id),
            face: shown.then(|| {
                let face = state.face(card);
                FaceView {
                    rank: face.rank.name().into(),
                    suit: face.suit.map(|s| s.name().into()),
                    value: table.points_of(face),
                }
            }),
            face_up: false,
        }
    }
}

/// A card as players see it (`CardView`) as a JSON map, for payloads to extend.
pub fn card_json(
    state: &GameState,
    table: &Table,
    card: CardIdx,
    public_id: u32,
    shown: bool,
) -> Map<String, Json> {
    match serde_json::to_value(CardView::of(state, table, card, public_id, shown)) {
        Ok(Json::Object(map)) => map,
        _ => Map::new(),
    }
}

/// How a public card id is written: eight hex digits.
pub fn public_id_text(id: u32) -> String {
    format!("{id:08x}")
}
