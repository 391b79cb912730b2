//! Lists of players and cards that a compiled `for` loop walks without making them:
//! `for p in game.players`, `for c in game.cards_in_hand(p)`, `for c in view.hand(p)`.
//!
//! Such a list is an array of players or cards, each a boxed value of Rhai's, made and dropped on
//! every loop. A kernel entry that makes one can also give its items (`Native::items`); the
//! compiled loop then writes each item into the loop variable, in place when the variable
//! already holds a player or card (see `store`). The interpreter, the reference, makes the list.

use super::api::{Card, GameHandle, Player};
use super::view::BotView;
use crate::kernel::{CardIdx, Seat};
use rhai::Dynamic;

/// The items of a list an entry makes, in its order.
pub(crate) enum Items {
    /// The seats `0..n`, as players (`game.players`).
    Seats(u8),
    /// Cards; `None` (an empty slot of a hand) is `()`.
    Cards(Vec<Option<CardIdx>>),
}

/// The items the entry would make its list of, for these arguments (the receiver first); `None`
/// when an argument is not of the entry's type or the entry would fail, for the caller to call
/// the entry itself (which then fails, or makes what Rhai's dispatch picks).
///
/// An entry given one must take no `Any` parameter: then, among the entries of one name and
/// arity, at most one admits any arguments, and only its items function answers.
pub(crate) type ItemsFn = fn(&[&Dynamic]) -> Option<Items>;

/// One item, for the loop variable.
pub(crate) enum Item {
    /// Any value (an item of a list that was made).
    Value(Dynamic),
    /// A player, by seat.
    Player(Seat),
    /// A card; `None` is an empty slot, `()`.
    Card(Option<CardIdx>),
}

impl Items {
    /// The items, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Item> + '_ {
        let (seats, cards) = match self {
            Items::Seats(n) => (0..*n, &[][..]),
            Items::Cards(cards) => (0..0, &cards[..]),
        };
        seats
            .map(|s| Item::Player(Seat(s)))
            .chain(cards.iter().map(|&c| Item::Card(c)))
    }
}

/// Put `item` in the loop variable `slot`. A player or card is written into the box the variable
/// already holds when it holds one of that type, plainly (not read-only, untagged after the
/// write), which is what a new value would be.
pub(crate) fn store(slot: &mut Dynamic, item: Item) {
    let reusable = |slot: &Dynamic| !slot.is_read_only();
    match item {
        Item::Value(v) => replace(slot, v),
        Item::Player(s) => {
            if reusable(slot) && slot.is::<Player>() {
                slot.set_tag(0);
                if let Some(mut p) = slot.write_lock::<Player>() {
                    *p = Player(s);
                }
                return;
            }
            *slot = Dynamic::from(Player(s));
        }
        Item::Card(None) => replace(slot, Dynamic::UNIT),
        Item::Card(Some(c)) => {
            if reusable(slot) && slot.is::<Card>() {
                slot.set_tag(0);
                if let Some(mut card) = slot.write_lock::<Card>() {
                    *card = Card(c);
                }
                return;
            }
            *slot = Dynamic::from(Card(c));
        }
    }
}

/// `read` of the receiver and the player of a `(receiver, player)` entry.
fn with_player<T: Clone + Send + Sync + 'static>(
    args: &[&Dynamic],
    read: impl FnOnce(&T, Seat) -> Option<Items>,
) -> Option<Items> {
    let [recv, p] = args else { return None };
    let p = p.read_lock::<Player>()?.0;
    read(&*recv.read_lock::<T>()?, p)
}

/// `game.players`.
pub(super) fn game_players(args: &[&Dynamic]) -> Option<Items> {
    let [g] = args else { return None };
    let count = g.read_lock::<GameHandle>()?.lock().state.player_count();
    u8::try_from(count).ok().map(Items::Seats)
}

/// `game.cards_in_hand(p)`: the cards of the hand, without its empty slots.
pub(super) fn game_cards_in_hand(args: &[&Dynamic]) -> Option<Items> {
    with_player(args, |g: &GameHandle, p| {
        let game = g.lock();
        let s = game.state.seat(p).ok()?;
        Some(Items::Cards(
            game.state
                .hand(s)
                .iter()
                .filter(|c| c.is_some())
                .copied()
                .collect(),
        ))
    })
}

/// `game.hand(p)`: the hand's slots, `()` where empty.
pub(super) fn game_hand(args: &[&Dynamic]) -> Option<Items> {
    with_player(args, |g: &GameHandle, p| {
        let game = g.lock();
        let s = game.state.seat(p).ok()?;
        Some(Items::Cards(game.state.hand(s).to_vec()))
    })
}

/// `view.players`.
pub(super) fn view_players(args: &[&Dynamic]) -> Option<Items> {
    let [v] = args else { return None };
    let count = v.read_lock::<BotView>()?.0.game.state.player_count();
    u8::try_from(count).ok().map(Items::Seats)
}

/// `view.hand(p)`: the hand's slots, `()` where empty; no cards for a seat that is not in the
/// game.
pub(super) fn view_hand(args: &[&Dynamic]) -> Option<Items> {
    with_player(args, |v: &BotView, p| {
        let hand = v.0.game.state.hands.get(p.index());
        Some(Items::Cards(hand.map_or_else(Vec::new, |h| h.clone())))
    })
}

/// `*place = value`, without a call of `Dynamic`'s drop glue when the old value holds nothing to
/// free (a variable's `()` before its `let`, a number before its next one).
#[inline(always)]
pub(crate) fn replace(place: &mut Dynamic, value: Dynamic) {
    discard(std::mem::replace(place, value));
}

/// Drop a value, without a call of `Dynamic`'s drop glue when it holds nothing to free: most
/// values compiled code drops are `()`, booleans and numbers, and the glue is a call a value.
#[inline(always)]
pub(crate) fn discard(value: Dynamic) {
    let plain = value.is_unit() || value.is_bool() || value.is_int() || value.is_float();
    if plain {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}
