//! The sizes a state holds that could grow without bound: each variable's values (list items
//! counted at every depth), each hand's slots, the running timers. A size past its bound is
//! reported as growing, with the path that grew it and the loop of moves at its end that grows
//! it (the shortest run of moves that repeats to the end of the path, adding to the size each
//! time round).

use super::space::{Move, Path, Space};
use crate::kernel::{Game, Value};

/// What can grow, so that its size can be read on any state of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Grown {
    /// A game variable, by index.
    GameVar(usize),
    /// A player variable: the seat, the variable's index.
    PlayerVar(usize, usize),
    /// A hand's slots, by seat.
    Hand(usize),
    /// The running timers.
    Timers,
}

impl Grown {
    /// Its size in `game` (0 when `game` has no such thing).
    pub(super) fn size(self, game: &Game) -> usize {
        let st = &game.state;
        match self {
            Grown::GameVar(i) => st.game_vars.get(i).map_or(0, size),
            Grown::PlayerVar(s, i) => st.player_vars.get(s).and_then(|v| v.get(i)).map_or(0, size),
            Grown::Hand(s) => st.hands.get(s).map_or(0, Vec::len),
            Grown::Timers => st.timers.len(),
        }
    }
}

/// Something that grew past its bound, and how big it was.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Growth {
    /// What grew, in the variant's words (`game variable specials`).
    pub(super) what: String,
    pub(super) grown: Grown,
    pub(super) size: usize,
    pub(super) bound: usize,
}

/// The loop at the end of a path: `moves` repeated `rounds` times, each adding `added`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Loop {
    /// The moves of one round, in words (`p1 same_rank`, `time passing`).
    pub(super) moves: Vec<String>,
    pub(super) rounds: usize,
    /// What one round adds to the size, on the last round.
    pub(super) added: usize,
}

/// The most moves in one round of a loop looked for.
const MAX_ROUND: usize = 64;

/// A move in words, for loops: who and what, not the arguments (`p1 same_rank`).
fn label(game: &Game, mv: &Move) -> String {
    match mv {
        Move::Act(action) => format!(
            "{} {}",
            game.state
                .players
                .get(action.seat.index())
                .map_or("?", String::as_str),
            action.name
        ),
        Move::Wait => "time passing".to_string(),
    }
}

impl Growth {
    /// What grew, how far, after how many moves, and the loop at the end of the way that grows
    /// it (found by playing the path again); without one, who made which moves in the last
    /// quarter of the way.
    pub(super) fn message(&self, space: &Space<'_>, path: &Path) -> String {
        let n = path.moves.len();
        let mut text = format!(
            "{} holds {} values, past its bound of {}, after {n} moves",
            self.what, self.size, self.bound
        );
        let Some((labels, sizes)) = self.replay(space, path) else {
            return text;
        };
        if let Some(found) = round_at_end(&labels, &sizes) {
            text.push_str(&format!(
                "; the loop that grows it: {} ({} move{}, {} times at the end of the way, each adding {})",
                found.moves.join(", "),
                found.moves.len(),
                if found.moves.len() == 1 { "" } else { "s" },
                found.rounds,
                found.added
            ));
            return text;
        }
        let last = &labels[n - n / 4..];
        let mut kinds: Vec<(&str, usize)> = Vec::new();
        for label in last {
            match kinds.iter_mut().find(|(k, _)| *k == label.as_str()) {
                Some((_, count)) => *count += 1,
                None => kinds.push((label, 1)),
            }
        }
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        if !kinds.is_empty() {
            let made: Vec<String> = kinds
                .iter()
                .take(4)
                .map(|(kind, count)| format!("{count} {kind}"))
                .collect();
            text.push_str(&format!(
                "; the last {} moves, growing it from {} to {}: {}",
                last.len(),
                sizes[n - last.len()],
                sizes[n],
                made.join(", ")
            ));
            if kinds.len() > 4 {
                text.push_str(", …");
            }
            if !path.moves[n - last.len()..].contains(&Move::Wait) {
                text.push_str(", with no time passing");
            }
        }
        text
    }

    /// The path played again: each move in words, and the size before each move and after the
    /// last.
    fn replay(&self, space: &Space<'_>, path: &Path) -> Option<(Vec<String>, Vec<usize>)> {
        let mut game = space.deal_with(space.rules).ok()?;
        game.set_keep_events(false);
        let mut labels = Vec::with_capacity(path.moves.len());
        let mut sizes = vec![self.grown.size(&game)];
        for mv in &path.moves {
            labels.push(label(&game, mv));
            if !matches!(space.play(&mut game, space.rules, mv), Ok(true)) {
                return None;
            }
            sizes.push(self.grown.size(&game));
        }
        Some((labels, sizes))
    }
}

/// The shortest round `labels` repeat at least three times to their end with `sizes` (one more
/// than `labels`: the size before each move and after the last) growing over each of them.
fn round_at_end(labels: &[String], sizes: &[usize]) -> Option<Loop> {
    let n = labels.len();
    for round in 1..=MAX_ROUND.min(n / 3) {
        // How far back the moves repeat with this round's length.
        let mut repeated = round;
        while repeated < n && labels[n - 1 - repeated] == labels[n - 1 - repeated + round] {
            repeated += 1;
        }
        let rounds = repeated / round;
        if rounds < 3 {
            continue;
        }
        let grows = (0..3).all(|k| sizes[n - k * round] > sizes[n - (k + 1) * round]);
        if grows {
            return Some(Loop {
                moves: labels[n - round..].to_vec(),
                rounds,
                added: sizes[n] - sizes[n - round],
            });
        }
    }
    None
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
        for (i, ((name, _), value)) in table.game_vars.iter().zip(st.game_vars.iter()).enumerate() {
            let size = size(value);
            if size > self.values {
                return Some(Growth {
                    what: format!("game variable {name}"),
                    grown: Grown::GameVar(i),
                    size,
                    bound: self.values,
                });
            }
        }
        for (seat, vars) in st.player_vars.iter().enumerate() {
            for (i, ((name, _), value)) in table.player_vars.iter().zip(vars.iter()).enumerate() {
                let size = size(value);
                if size > self.values {
                    return Some(Growth {
                        what: format!("player variable {name} of {}", st.players[seat]),
                        grown: Grown::PlayerVar(seat, i),
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
                    grown: Grown::Hand(seat),
                    size: hand.len(),
                    bound: self.slots,
                });
            }
        }
        if st.timers.len() > self.timers {
            return Some(Growth {
                what: "the running timers".into(),
                grown: Grown::Timers,
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

#[cfg(test)]
mod tests {
    use super::round_at_end;

    fn labels(text: &str) -> Vec<String> {
        text.split(',').map(str::to_string).collect()
    }

    #[test]
    fn the_shortest_round_repeated_to_the_end_that_grows_is_the_loop() {
        // draw, play, then (a snap, b snap) three times, growing by one each round.
        let moves = labels("a draw,a play,a snap,b snap,a snap,b snap,a snap,b snap");
        let sizes = [0, 0, 0, 1, 1, 2, 2, 3, 3];
        let found = round_at_end(&moves, &sizes).expect("a loop");
        assert_eq!(found.moves, labels("a snap,b snap"));
        assert_eq!((found.rounds, found.added), (3, 1));
    }

    #[test]
    fn a_round_that_repeats_without_growing_or_too_few_times_is_no_loop() {
        let moves = labels("a snap,b snap,a snap,b snap,a snap,b snap");
        assert_eq!(round_at_end(&moves, &[1, 1, 1, 1, 1, 1, 1]), None);
        let twice = labels("x,a snap,a snap");
        assert_eq!(round_at_end(&twice, &[0, 0, 1, 2]), None);
    }
}
