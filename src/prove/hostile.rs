//! Hostile moves: actions a client could send that no declared form offers now (another
//! player's, out of its phases, with an argument too few or too many, a slot past the hand, a
//! word no form has). The walks try one now and then: the rules must refuse it without changing
//! the game (or accept it, as any accepted move), and the refusals' lines run as they would for a
//! stranger's message.

use crate::kernel::{Action, Arg, ArgDomain, Candidates, CardIdx, Game, Seat};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A random action for `game`: a declared action's name, sent by any seat, with one of its
/// forms' arguments made wrong in one way (or left as they are, out of the action's turn or
/// phase).
///
/// `offered` are the moves the declared forms offer now (`Candidates`): half the time the action
/// is one of the phase's that they do not offer its sender (a guard of `when:` says no), which
/// is what a client that ignores the hints sends.
pub(super) fn hostile(game: &Game, offered: &Candidates, rng: &mut ChaCha8Rng) -> Option<Action> {
    // Half the time a move the forms offer, one argument made wrong: it passes the checks of
    // whose turn and which phase, and meets the rules' checks of its arguments.
    if !offered.is_empty() && rng.random_bool(0.5) {
        let mut action = offered.get(rng.random_range(0..offered.len()))?;
        let table = &game.table;
        let domains = table
            .actions
            .iter()
            .find(|a| a.name == action.name)
            .and_then(|a| a.forms.iter().find(|f| f.args.len() == action.args.len()))
            .map(|f| f.args.clone())
            .unwrap_or_default();
        match action.args.len() {
            0 => action.args.push(any_arg(game, rng)),
            n => {
                let i = rng.random_range(0..n);
                action.args[i] = match domains.get(i) {
                    Some(domain) if rng.random_bool(0.75) => {
                        wrong_arg(game, action.seat, domain, rng)
                    }
                    _ => any_arg(game, rng),
                };
            }
        }
        return Some(action);
    }
    let table = &game.table;
    let players = game.state.player_count().max(1);
    let seat = match game.state.current {
        Some(current) if rng.random_bool(0.5) => current,
        _ => Seat(u8::try_from(rng.random_range(0..players)).unwrap_or(0)),
    };
    // Mostly an action of the phase the game is in: where the rules check arguments, not just
    // the phase.
    let open: Vec<usize> = (0..table.actions.len())
        .filter(|&i| {
            table.actions[i]
                .phases
                .as_ref()
                .is_none_or(|phases| phases.contains(&game.state.phase))
        })
        .collect();
    let withheld: Vec<usize> = open
        .iter()
        .copied()
        .filter(|&i| {
            let name = &table.actions[i].name;
            !(0..offered.len())
                .filter_map(|c| offered.get(c))
                .any(|a| a.seat == seat && a.name == *name)
        })
        .collect();
    let decl = if !withheld.is_empty() && rng.random_bool(0.5) {
        withheld[rng.random_range(0..withheld.len())]
    } else if open.is_empty() || rng.random_bool(0.25) {
        rng.random_range(0..table.actions.len().max(1))
    } else {
        open[rng.random_range(0..open.len())]
    };
    let decl = table.actions.get(decl)?;
    let form = decl.forms.get(rng.random_range(0..decl.forms.len().max(1)));
    let domains: &[ArgDomain] = form.map_or(&[], |f| &f.args);
    let mut args: Vec<Arg> = domains.iter().map(|d| arg_of(game, seat, d, rng)).collect();
    match rng.random_range(0..4) {
        // One too few.
        0 => {
            args.pop();
        }
        // One or two too many.
        1 => {
            for _ in 0..rng.random_range(1..=2) {
                args.push(any_arg(game, rng));
            }
        }
        // One argument wrong for its place: another's card where one's own is wanted, a card
        // on a pile where a hand's is, or of another kind.
        2 if !args.is_empty() => {
            let i = rng.random_range(0..args.len());
            args[i] = match rng.random_bool(0.5) {
                true => wrong_arg(game, seat, &domains[i], rng),
                false => any_arg(game, rng),
            };
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
        // Now and then someone else's: the rules must tell.
        ArgDomain::OwnSlot if rng.random_bool(0.75) => slot_of(game, seat, rng),
        ArgDomain::OtherSlot if rng.random_bool(0.25) => slot_of(game, seat, rng),
        ArgDomain::OwnSlot | ArgDomain::OtherSlot | ArgDomain::AnySlot => {
            let players = game.state.player_count().max(1);
            let owner = Seat(u8::try_from(rng.random_range(0..players)).unwrap_or(0));
            slot_of(game, owner, rng)
        }
    }
}

/// An argument that `domain` does not admit for `seat`.
fn wrong_arg(game: &Game, seat: Seat, domain: &ArgDomain, rng: &mut ChaCha8Rng) -> Arg {
    let players = game.state.player_count().max(1);
    let other = Seat(
        u8::try_from((seat.index() + rng.random_range(1..players.max(2))) % players).unwrap_or(0),
    );
    let pile_top = game
        .state
        .piles
        .iter()
        .filter_map(|p| p.last().copied())
        .nth(rng.random_range(0..game.state.piles.len().max(1)));
    match (domain, pile_top) {
        (_, Some(card)) if rng.random_bool(0.5) => Arg::Card(card),
        (ArgDomain::OwnSlot, _) => slot_of(game, other, rng),
        (ArgDomain::OtherSlot, _) => slot_of(game, seat, rng),
        (ArgDomain::AnySlot | ArgDomain::Drawn, _) => Arg::Slot {
            seat,
            slot: u32::try_from(game.state.hand(seat).len()).unwrap_or(0),
        },
        (ArgDomain::Word(_), _) => Arg::Word("nonsense".into()),
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
        // A card anywhere (in a hand, held), or a pile's top: a card no hand holds.
        1 => {
            let tops: Vec<CardIdx> = game
                .state
                .piles
                .iter()
                .filter_map(|p| p.last().copied())
                .collect();
            match tops.is_empty() || rng.random_bool(0.5) {
                true => {
                    let cards = game.state.cards.len().max(1);
                    Arg::Card(CardIdx(
                        u16::try_from(rng.random_range(0..cards)).unwrap_or(0),
                    ))
                }
                false => Arg::Card(tops[rng.random_range(0..tops.len())]),
            }
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
