//! The fixed action enumeration an agent chooses from: number 0 is `pass`, then every form of
//! every declared action with each of its arguments' options, slots named relative to the actor.

use crate::kernel::{Action, Arg, ArgDomain, Seat, Table};
use std::sync::Arc;

/// The number of `pass`: let the offer go (and, when every seat passes, let time run).
pub const PASS: usize = 0;

/// One argument's options in the enumeration.
#[derive(Clone, Debug, PartialEq)]
enum ArgSpace {
    /// Exactly this word: one option.
    Word(String),
    /// The drawn card: one option.
    Drawn,
    /// A slot of the actor's own hand: `slots` options.
    Own,
    /// A slot of another seat's hand: seat `actor + 1 + k` (around the table), `slot`, for
    /// `k` in `0..players - 1`: `(players - 1) * slots` options.
    Other,
    /// A slot of any hand: seat `actor + k`, `slot`, for `k` in `0..players`.
    Any,
}

/// One declared form and the numbers it takes.
#[derive(Clone, Debug)]
struct FormSpace {
    name: Arc<str>,
    args: Vec<ArgSpace>,
    /// The first number of the form, and how many it takes.
    start: usize,
    count: usize,
}

/// The enumeration for a table, a player count and a number of slots per hand.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    players: usize,
    slots: usize,
    forms: Vec<FormSpace>,
    size: usize,
}

impl ActionSpace {
    /// The actions of `table` for `players` seats, naming slots `0..slots` of each hand.
    pub fn new(table: &Table, players: usize, slots: usize) -> ActionSpace {
        let mut forms = Vec::new();
        let mut next = PASS + 1;
        for decl in &table.actions {
            for form in &decl.forms {
                let args: Vec<ArgSpace> = form
                    .args
                    .iter()
                    .map(|d| match d {
                        ArgDomain::Word(w) => ArgSpace::Word(w.clone()),
                        ArgDomain::Drawn => ArgSpace::Drawn,
                        ArgDomain::OwnSlot => ArgSpace::Own,
                        ArgDomain::OtherSlot => ArgSpace::Other,
                        ArgDomain::AnySlot => ArgSpace::Any,
                    })
                    .collect();
                let count = args
                    .iter()
                    .map(|a| options(a, players, slots))
                    .fold(1usize, |n, k| n.saturating_mul(k));
                forms.push(FormSpace {
                    name: decl.name.clone(),
                    args,
                    start: next,
                    count,
                });
                next = next.saturating_add(count);
            }
        }
        ActionSpace {
            players,
            slots,
            forms,
            size: next,
        }
    }

    /// How many numbers there are, `pass` included.
    pub fn len(&self) -> usize {
        self.size
    }

    /// Never: `pass` is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The slots of each hand the enumeration names.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The number of `action`, when the enumeration has it (an action on a slot past `slots`,
    /// or with an argument no form declares, has none).
    pub fn index_of(&self, action: &Action) -> Option<usize> {
        let actor = action.seat.index();
        self.forms
            .iter()
            .filter(|f| *f.name == *action.name && f.args.len() == action.args.len())
            .find_map(|form| {
                let mut number = 0usize;
                for (space, arg) in form.args.iter().zip(&action.args) {
                    let option = self.option_of(space, arg, actor)?;
                    number = number * options(space, self.players, self.slots) + option;
                }
                Some(form.start + number)
            })
    }

    fn option_of(&self, space: &ArgSpace, arg: &Arg, actor: usize) -> Option<usize> {
        let (p, s) = (self.players, self.slots);
        match (space, arg) {
            (ArgSpace::Word(w), Arg::Word(a)) => (w == a).then_some(0),
            (ArgSpace::Drawn, Arg::Drawn) => Some(0),
            // A bare number where the form takes one of the actor's slots (`initial_peek 0 1`,
            // as bots and scenarios write it) names that slot.
            (ArgSpace::Own, Arg::Int(n)) => usize::try_from(*n).ok().filter(|&x| x < s),
            (ArgSpace::Own | ArgSpace::Other | ArgSpace::Any, Arg::Slot { seat, slot }) => {
                let slot = usize::try_from(*slot).ok().filter(|&x| x < s)?;
                let around = (seat.index() + p).checked_sub(actor)? % p;
                match space {
                    ArgSpace::Own => (around == 0).then_some(slot),
                    ArgSpace::Other => (around != 0).then(|| (around - 1) * s + slot),
                    _ => Some(around * s + slot),
                }
            }
            _ => None,
        }
    }

    /// The action number `index` means for `actor`; `None` for `pass` and past the end.
    pub fn action(&self, index: usize, actor: Seat) -> Option<Action> {
        let form = self
            .forms
            .iter()
            .find(|f| (f.start..f.start + f.count).contains(&index))?;
        let mut rest = index - form.start;
        let mut args = Vec::with_capacity(form.args.len());
        for space in form.args.iter().rev() {
            let n = options(space, self.players, self.slots);
            let option = rest % n;
            rest /= n;
            args.push(self.arg_of(space, option, actor));
        }
        args.reverse();
        Some(Action {
            seat: actor,
            name: form.name.clone(),
            args,
        })
    }

    fn arg_of(&self, space: &ArgSpace, option: usize, actor: Seat) -> Arg {
        let (p, s) = (self.players, self.slots);
        let at = |around: usize, slot: usize| Arg::Slot {
            seat: Seat(((actor.index() + around) % p) as u8),
            // `slot < slots`, which the constructor's caller bounds far below u32::MAX.
            slot: u32::try_from(slot).unwrap_or(u32::MAX),
        };
        match space {
            ArgSpace::Word(w) => Arg::Word(w.clone()),
            ArgSpace::Drawn => Arg::Drawn,
            ArgSpace::Own => at(0, option),
            ArgSpace::Other => at(1 + option / s, option % s),
            ArgSpace::Any => at(option / s, option % s),
        }
    }

    /// What number `index` means, for any actor: `pass`, `draw`, `swap own 0 next+1 2`
    /// (`own` is the actor's hand, `next+k` the hand `k` seats on around the table).
    pub fn describe(&self, index: usize) -> Option<String> {
        if index == PASS {
            return Some("pass".to_string());
        }
        let action = self.action(index, Seat(0))?;
        let mut text = action.name.to_string();
        for arg in &action.args {
            text.push(' ');
            match arg {
                Arg::Slot { seat, slot } if seat.index() == 0 => {
                    text.push_str(&format!("own {slot}"))
                }
                Arg::Slot { seat, slot } => text.push_str(&format!("next+{} {slot}", seat.0)),
                Arg::Word(w) => text.push_str(w),
                Arg::Drawn => text.push_str("drawn"),
                other => text.push_str(&format!("{other:?}")),
            }
        }
        Some(text)
    }
}

/// How many options an argument has.
fn options(space: &ArgSpace, players: usize, slots: usize) -> usize {
    match space {
        ArgSpace::Word(_) | ArgSpace::Drawn => 1,
        ArgSpace::Own => slots,
        ArgSpace::Other => players.saturating_sub(1) * slots,
        ArgSpace::Any => players * slots,
    }
}
