//! The sizes a state holds that could grow without bound: each variable's values (list items
//! counted at every depth), each hand's slots, the running timers. A size past its bound is
//! reported as growing, with the path that grew it.

use super::space::{Move, Path};
use crate::kernel::{Game, Value};

/// Something that grew past its bound, and how big it was.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Growth {
    /// What grew, in the variant's words (`game variable specials`).
    pub(super) what: String,
    pub(super) size: usize,
    pub(super) bound: usize,
}

impl Growth {
    /// What grew, how far, after how many moves, and which moves made the last quarter of the
    /// way (the loop that grew it, most often).
    pub(super) fn message(&self, path: &Path) -> String {
        let n = path.moves.len();
        let mut text = format!(
            "{} holds {} values, past its bound of {}, after {n} moves",
            self.what, self.size, self.bound
        );
        let last = &path.moves[n - n / 4..];
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for mv in last {
            let kind = match mv {
                Move::Act(action) => action.name.to_string(),
                Move::Wait => "time passing".to_string(),
            };
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, count)) => *count += 1,
                None => kinds.push((kind, 1)),
            }
        }
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        if !kinds.is_empty() {
            let made: Vec<String> = kinds
                .iter()
                .take(3)
                .map(|(kind, count)| format!("{count} {kind}"))
                .collect();
            text.push_str(&format!(
                "; the last {} moves: {}",
                last.len(),
                made.join(", ")
            ));
            if kinds.len() > 3 {
                text.push_str(", …");
            }
        }
        text
    }
}

/// The bounds a configuration's states are held to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    /// Values a variable may hold (list items at every depth, the list itself counted once).
    pub(super) values: usize,
    /// Slots a hand may have.
    pub(super) slots: usize,
    /// Timers running at once.
    pub(super) timers: usize,
}

impl Bounds {
    /// Bounds for a game of `game`'s size, or `values` when given: a variable may hold four values
    /// per card of the game, a hand as many slots as there are cards, and every timer of the
    /// variant may run once per player.
    pub(super) fn of(game: &Game, values: Option<usize>) -> Bounds {
        let cards = game.state.cards.len().max(1);
        Bounds {
            values: values.unwrap_or(4 * cards),
            slots: cards,
            timers: game.table.timers.len().max(1) * game.state.player_count().max(1),
        }
    }

    /// The first size of `game` past its bound, if any.
    pub(super) fn passed(&self, game: &Game) -> Option<Growth> {
        let st = &game.state;
        let table = &game.table;
        for ((name, _), value) in table.game_vars.iter().zip(st.game_vars.iter()) {
            let size = size(value);
            if size > self.values {
                return Some(Growth {
                    what: format!("game variable {name}"),
                    size,
                    bound: self.values,
                });
            }
        }
        for (seat, vars) in st.player_vars.iter().enumerate() {
            for ((name, _), value) in table.player_vars.iter().zip(vars.iter()) {
                let size = size(value);
                if size > self.values {
                    return Some(Growth {
                        what: format!("player variable {name} of {}", st.players[seat]),
                        size,
                        bound: self.values,
                    });
                }
            }
        }
        for (seat, hand) in st.hands.iter().enumerate() {
            if hand.len() > self.slots {
                return Some(Growth {
                    what: format!("the hand of {} (slots)", st.players[seat]),
                    size: hand.len(),
                    bound: self.slots,
                });
            }
        }
        if st.timers.len() > self.timers {
            return Some(Growth {
                what: "the running timers".into(),
                size: st.timers.len(),
                bound: self.timers,
            });
        }
        None
    }
}

/// A value's size: 1, plus the sizes of a list's items.
pub(super) fn size(value: &Value) -> usize {
    match value {
        Value::List(items) => 1 + items.iter().map(size).sum::<usize>(),
        Value::Str(s) => 1 + s.len() / 64,
        _ => 1,
    }
}
