//! The game API as designers read it: each function's name, how it is called and what it does
//! (as `rules/README.md` documents it), for did-you-mean messages and an editor's completion and
//! hover, and what each string argument names. A test holds it to the functions the engine
//! registers.

pub use super::names::NameKind;
use super::natives::NATIVES;

/// One function of the game API.
#[derive(Clone, Copy, Debug)]
pub struct ApiFn {
    /// Its name (`top`).
    pub name: &'static str,
    /// How it is called (`game.top("pile")`).
    pub usage: &'static str,
    /// What it does, in a sentence or two.
    pub doc: &'static str,
}

const fn f(name: &'static str, usage: &'static str, doc: &'static str) -> ApiFn {
    ApiFn { name, usage, doc }
}

/// Every function of the game API.
pub const API: &[ApiFn] = &[
    f(
        "players",
        "game.players",
        "The players, as an array in seat order.",
    ),
    f(
        "player_count",
        "game.player_count",
        "How many players the game has.",
    ),
    f("current", "game.current", "The player whose turn it is."),
    f(
        "set_current",
        "game.set_current(player)",
        "Make `player` the current player.",
    ),
    f(
        "next_player",
        "game.next_player(player)",
        "The player after `player` in seat order.",
    ),
    f(
        "player_at",
        "game.player_at(seat_number)",
        "The player at a seat (0 is the first).",
    ),
    f(
        "name",
        "game.name(player)",
        "A player's name, as scenarios and clients write it.",
    ),
    f(
        "phase",
        "game.phase",
        "The name of the phase the game is in.",
    ),
    f(
        "set_phase",
        "game.set_phase(\"phase\")",
        "Move the game to a phase declared under `phases:`.",
    ),
    f(
        "turns_started",
        "game.turns_started",
        "Whether the set-up is over and turns have begun.",
    ),
    f(
        "begin_turns",
        "game.begin_turns()",
        "End the set-up: turns begin (and the turn timer with them).",
    ),
    f(
        "hand",
        "game.hand(player)",
        "A player's hand as an array by slot, `()` for an empty slot.",
    ),
    f(
        "cards_in_hand",
        "game.cards_in_hand(player)",
        "The cards of a player's hand, empty slots left out.",
    ),
    f(
        "hand_count",
        "game.hand_count(player)",
        "How many cards a player holds.",
    ),
    f(
        "slot_count",
        "game.slot_count(player)",
        "How many slots a player's hand has, empty ones included.",
    ),
    f(
        "card_at",
        "game.card_at(player, slot)",
        "The card in a slot of a player's hand, or `()`.",
    ),
    f(
        "owner",
        "game.owner(card)",
        "The player holding a card, or `()` when it is in a pile.",
    ),
    f(
        "slot_of",
        "game.slot_of(card)",
        "The slot of a card in its holder's hand, `-1` if it is in no hand.",
    ),
    f(
        "pile_of",
        "game.pile_of(card)",
        "The name of the pile a card is in, or `()`.",
    ),
    f(
        "card_arg",
        "game.card_arg(player, arg)",
        "The card an action's slot argument names, checked against who may name it.",
    ),
    f(
        "located",
        "game.located(card)",
        "The card with its slot (`idx`) and holder (`user`) at this moment, for a payload.",
    ),
    f(
        "holds",
        "game.holds(player, card)",
        "Whether `player` holds `card`.",
    ),
    f(
        "top",
        "game.top(\"pile\")",
        "The top card of a pile, or `()` when it is empty.",
    ),
    f(
        "pile_size",
        "game.pile_size(\"pile\")",
        "How many cards a pile holds.",
    ),
    f(
        "pile",
        "game.pile(\"pile\")",
        "The cards of a pile, bottom first.",
    ),
    f(
        "to_pile",
        "game.to_pile(card, \"pile\")",
        "Put a card on top of a pile, from wherever it is.",
    ),
    f(
        "under_pile",
        "game.under_pile(card, \"pile\")",
        "Put a card at the bottom of a pile.",
    ),
    f(
        "to_slot",
        "game.to_slot(card, player, slot)",
        "Put a card into a slot of a player's hand.",
    ),
    f(
        "add_to_hand",
        "game.add_to_hand(card, player)",
        "Put a card into the first empty slot of a hand, else a new one; returns the slot.",
    ),
    f(
        "append_to_hand",
        "game.append_to_hand(card, player)",
        "Put a card into a new slot at the end of a hand.",
    ),
    f(
        "compact",
        "game.compact(player)",
        "Close the empty slots of a hand: later cards shift down.",
    ),
    f(
        "swap",
        "game.swap(card, card)",
        "Exchange two cards' places (knowledge follows each card).",
    ),
    f(
        "deal",
        "game.deal(\"pile\", count)",
        "Deal `count` cards from a pile to each player, in seat order.",
    ),
    f(
        "shuffle",
        "game.shuffle(\"pile\")",
        "Shuffle a pile from the game's seed; its cards become unknown to everyone.",
    ),
    f(
        "recycle",
        "game.recycle(\"from\", \"to\", keep)",
        "Move all but the top `keep` cards of `from` under `to`, shuffled face down.",
    ),
    f(
        "rank",
        "game.rank(card)",
        "A card's rank: `\"A\"`, `\"2\"`…`\"10\"`, `\"J\"`, `\"Q\"`, `\"K\"`, `\"JK\"`.",
    ),
    f(
        "rank_number",
        "game.rank_number(card)",
        "A card's rank as a number: 1 to 13, a joker 0.",
    ),
    f(
        "suit",
        "game.suit(card)",
        "A card's suit: `\"S\"`, `\"H\"`, `\"D\"`, `\"C\"`, `\"\"` for a joker.",
    ),
    f(
        "face",
        "game.face(card)",
        "A card's face as scenarios write it (`\"7S\"`).",
    ),
    f(
        "is_red",
        "game.is_red(card)",
        "Whether a card is a heart or a diamond.",
    ),
    f(
        "points",
        "game.points(card)",
        "A card's value, from `points:` in variant.yaml.",
    ),
    f(
        "reveal",
        "game.reveal(card, player)",
        "Let `player` know a card.",
    ),
    f(
        "reveal_all",
        "game.reveal_all(card)",
        "Let every player know a card.",
    ),
    f(
        "knows",
        "game.knows(player, card)",
        "Whether `player` knows a card.",
    ),
    f(
        "set_face_up",
        "game.set_face_up(card, true or false)",
        "Lay a card of a hand face up (everyone knows it while it lies so), or face down again.",
    ),
    f(
        "is_face_up",
        "game.is_face_up(card)",
        "Whether a card of a hand lies face up.",
    ),
    f(
        "broadcast",
        "game.broadcast(\"event\", #{ … })",
        "Send an event declared under `events:` to every player; each sees a card's face only if it knew the card.",
    ),
    f(
        "tell",
        "game.tell(player, \"event\", #{ … })",
        "Send an event declared under `events:` to one player.",
    ),
    f(
        "get",
        "game.get(\"variable\")",
        "A game variable declared under `vars:`.",
    ),
    f(
        "set",
        "game.set(\"variable\", value)",
        "Set a game variable (every player reads game variables).",
    ),
    f(
        "pget",
        "game.pget(player, \"variable\")",
        "A player's variable declared under `player_vars:`.",
    ),
    f(
        "pset",
        "game.pset(player, \"variable\", value)",
        "Set a player's variable.",
    ),
    f(
        "house",
        "game.house(\"rule\")",
        "A house rule's value for this game, declared under `house_rules:`.",
    ),
    f(
        "set_timer",
        "game.set_timer(\"timer\", seconds) or game.set_timer(\"timer\", seconds, player)",
        "Start a timer declared under `timers:` (replacing one of the same name); 0.001 to 86,400 seconds.",
    ),
    f(
        "cancel_timer",
        "game.cancel_timer(\"timer\")",
        "Stop a timer.",
    ),
    f("clock", "game.clock", "The game's clock, in milliseconds."),
    f(
        "random",
        "game.random(n)",
        "A number from 0 to n − 1, from the game's seed.",
    ),
    f(
        "end",
        "game.end([winners], \"reason\")",
        "End the game; an empty `winners` array is a draw.",
    ),
    f("is_over", "game.is_over", "Whether the game has ended."),
    f(
        "refuse",
        "refuse(\"reason\")",
        "Refuse the player's action: the game is unchanged and the player is told why.",
    ),
];

/// What the string argument at `position` (0 is the first after the receiver) of a call of the
/// game API's `function` names, when it names a declaration.
pub fn name_argument(function: &str, position: usize) -> Option<NameKind> {
    // Functions that take a name without resolving it at load (timers, `recycle`'s piles).
    match (function, position) {
        ("set_timer" | "cancel_timer", 0) => return Some(NameKind::Timer),
        ("recycle", 0 | 1) => return Some(NameKind::Pile),
        _ => {}
    }
    NATIVES
        .iter()
        .filter(|n| n.name == function)
        .filter_map(|n| n.named.as_ref())
        .find(|named| named.arg == position + 1)
        .map(|named| named.kind)
}

/// The entry of the API function `name`.
pub fn api_fn(name: &str) -> Option<&'static ApiFn> {
    API.iter().find(|f| f.name == name)
}

#[cfg(test)]
mod tests {
    use super::{API, NameKind as Declared, name_argument};
    use crate::script::host::natives::{NATIVES, Ty};
    use std::collections::BTreeSet;

    #[test]
    fn the_reference_names_every_function_on_the_game_and_nothing_else() {
        let registered: BTreeSet<&str> = NATIVES
            .iter()
            .filter(|n| n.params.first() == Some(&Ty::Game) || n.name == "refuse")
            .map(|n| n.name.strip_prefix("get$").unwrap_or(n.name))
            .collect();
        let documented: BTreeSet<&str> = API.iter().map(|f| f.name).collect();
        assert_eq!(registered, documented);
        for f in API {
            assert!(
                !f.doc.is_empty() && f.doc.ends_with('.'),
                "{}: {}",
                f.name,
                f.doc
            );
            assert!(f.usage.contains(f.name), "{}: {}", f.name, f.usage);
        }
    }

    #[test]
    fn string_arguments_name_what_the_api_takes() {
        assert_eq!(name_argument("top", 0), Some(Declared::Pile));
        assert_eq!(name_argument("to_pile", 1), Some(Declared::Pile));
        assert_eq!(name_argument("to_pile", 0), None);
        assert_eq!(name_argument("pset", 1), Some(Declared::PlayerVar));
        assert_eq!(name_argument("set_phase", 0), Some(Declared::Phase));
        assert_eq!(name_argument("tell", 1), Some(Declared::Event));
        assert_eq!(name_argument("house", 0), Some(Declared::HouseRule));
        assert_eq!(name_argument("set_timer", 0), Some(Declared::Timer));
        assert_eq!(name_argument("recycle", 1), Some(Declared::Pile));
        assert_eq!(name_argument("rank", 0), None);
    }
}
