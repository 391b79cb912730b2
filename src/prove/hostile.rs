//! Hostile moves: actions a client could send that no declared form offers now (another
//! player's, out of its phases, with an argument too few or too many, a slot past the hand, a
//! word no form has). The walks try one now and then: the rules must refuse it without changing
//! the game (or accept it, as any accepted move), and the refusals' lines run as they would for a
//! stranger's message.

use crate::kernel::{Action, Arg, ArgDomain, CardIdx, Game, Seat};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A random action for `game`: a declared action's name, sent by any seat, with one of its
/// forms' arguments made wrong in one way (or left as they are, out of the action's turn or
/// phase).
pub(super) fn hostile(game: &Game, rng: &mut ChaCha8Rng) -> Option<Action> {
    let table = &game.table;
    let decl = table
        .actions
        .get(rng.random_range(0..table.actions.len().max(1)))?;
    let players = game.state.player_count().max(1);
    let seat = Seat(u8::try_from(rng.random_range(0..players)).unwrap_or(0));
    let form = decl.forms.get(rng.random_range(0..decl.forms.len().max(1)));
    let mut args: Vec<Arg> = form
        .map(|f| f.args.iter().map(|d| arg_of(game, seat, d, rng)).collect())
        .unwrap_or_default();
    match rng.random_range(0..4) {
        // One too few.
        0 => {
            args.pop();
        }
        // One too many.
        1 => args.push(any_arg(game, rng)),
        // One argument of another kind, or out of range.
        2 if !args.is_empty() => {
            let i = rng.random_range(0..args.len());
            args[i] = any_arg(game, rng);
        }
        // As the form has it: sent by a seat, in a phase, that it may not be.
        _ => {}
    }
    Some(Action {
        seat,
        name: decl.name.clone(),
        args,
    })
}

/// An argument of `domain`'s kind for `seat`, any slot of the hand (an empty one included).
fn arg_of(game: &Game, seat: Seat, domain: &ArgDomain, rng: &mut ChaCha8Rng) -> Arg {
    match domain {
        ArgDomain::Word(word) => Arg::Word(word.clone()),
        ArgDomain::Drawn => Arg::Drawn,
        ArgDomain::OwnSlot => slot_of(game, seat, rng),
        ArgDomain::OtherSlot | ArgDomain::AnySlot => {
            let players = game.state.player_count().max(1);
            let owner = Seat(u8::try_from(rng.random_range(0..players)).unwrap_or(0));
            slot_of(game, owner, rng)
        }
    }
}

/// A slot of `owner`'s hand, or one past its end.
fn slot_of(game: &Game, owner: Seat, rng: &mut ChaCha8Rng) -> Arg {
    let len = game.state.hand(owner).len();
    Arg::Slot {
        seat: owner,
        slot: u32::try_from(rng.random_range(0..=len)).unwrap_or(0),
    }
}

/// An argument of any kind: a slot of anyone's hand, a card anywhere, a word of some form or
/// none, a number, or `drawn`.
fn any_arg(game: &Game, rng: &mut ChaCha8Rng) -> Arg {
    let players = game.state.player_count().max(1);
    match rng.random_range(0..5) {
        0 => {
            let owner = Seat(u8::try_from(rng.random_range(0..players)).unwrap_or(0));
            slot_of(game, owner, rng)
        }
        1 => {
            let cards = game.state.cards.len().max(1);
            Arg::Card(CardIdx(
                u16::try_from(rng.random_range(0..cards)).unwrap_or(0),
            ))
        }
        2 => {
            let words: Vec<&str> = game
                .table
                .actions
                .iter()
                .flat_map(|a| a.forms.iter())
                .flat_map(|f| f.args.iter())
                .filter_map(|d| match d {
                    ArgDomain::Word(w) => Some(w.as_str()),
                    _ => None,
                })
                .collect();
            match words.is_empty() || rng.random_bool(0.25) {
                true => Arg::Word("nonsense".into()),
                false => Arg::Word(words[rng.random_range(0..words.len())].to_string()),
            }
        }
        3 => Arg::Int(rng.random_range(-1..=6)),
        _ => Arg::Drawn,
    }
}
