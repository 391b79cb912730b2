//! The actions the variant declares as possible now, as a compact set: each action form open to
//! a seat with its arguments' options, so a random player can count them, pick by number and
//! build only the actions it tries.

use super::game::{Action, Arg, Game};
use super::table::{Actor, ArgDomain, Guard};
use super::value::{Seat, Value};
use std::sync::Arc;

/// One action form open to one seat: every combination of its arguments' options.
#[derive(Clone, Debug)]
struct Block {
    seat: Seat,
    name: Arc<str>,
    /// Each argument's options, in order.
    domains: Vec<Vec<Arg>>,
    /// The number of combinations (the product of the options' counts).
    count: usize,
}

/// The candidate actions of a game at one moment, numbered in `Game::candidates` order.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    blocks: Vec<Block>,
    len: usize,
}

impl Candidates {
    /// The candidates of `game` now (of `seat` only, when given).
    pub(super) fn of(game: &Game, seat: Option<Seat>) -> Candidates {
        let mut set = Candidates::default();
        if game.is_over() {
            return set;
        }
        let st = &game.state;
        for decl in &game.table.actions {
            if let Some(phases) = &decl.phases
                && !phases.contains(&st.phase)
            {
                continue;
            }
            if !guards_hold(game, &decl.guards, None) {
                continue;
            }
            let (single, anyone) = match &decl.actor {
                Actor::Current => (st.current, false),
                Actor::Anyone => (None, true),
                Actor::Var(i) => match &st.game_vars[*i] {
                    Value::Player(s) => (Some(*s), false),
                    _ => (None, false),
                },
            };
            let everyone = if anyone { st.player_count() } else { 0 };
            let actors = single
                .into_iter()
                .chain((0..everyone).map(|i| Seat(i as u8)));
            for actor in actors {
                if seat.is_some_and(|s| s != actor) || !guards_hold(game, &decl.guards, Some(actor))
                {
                    continue;
                }
                for form in &decl.forms {
                    if !guards_hold(game, &form.guards, None)
                        || !guards_hold(game, &form.guards, Some(actor))
                    {
                        continue;
                    }
                    let domains: Vec<Vec<Arg>> =
                        form.args.iter().map(|d| domain(game, d, actor)).collect();
                    let count: usize = domains.iter().map(Vec::len).product();
                    if count == 0 {
                        continue;
                    }
                    set.len += count;
                    set.blocks.push(Block {
                        seat: actor,
                        name: decl.name.clone(),
                        domains,
                        count,
                    });
                }
            }
        }
        set
    }

    /// How many candidates there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Candidate number `i` (the last argument varies fastest), or `None` past the end.
    pub fn get(&self, mut i: usize) -> Option<Action> {
        for block in &self.blocks {
            if i < block.count {
                return Some(block.action(i));
            }
            i -= block.count;
        }
        None
    }

    /// Every candidate, in order.
    pub fn to_vec(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(self.len);
        for block in &self.blocks {
            out.extend((0..block.count).map(|i| block.action(i)));
        }
        out
    }
}

impl Block {
    /// Combination `i` of the block (`i < count`): a mixed-radix number, the last argument the
    /// lowest digit.
    fn action(&self, mut i: usize) -> Action {
        let mut args = vec![Arg::Drawn; self.domains.len()];
        for (arg, options) in args.iter_mut().zip(&self.domains).rev() {
            *arg = options[i % options.len()].clone();
            i /= options.len();
        }
        Action {
            seat: self.seat,
            name: self.name.clone(),
            args,
        }
    }
}

/// Game-level guards when `actor` is `None`; actor-level guards otherwise.
fn guards_hold(game: &Game, guards: &[Guard], actor: Option<Seat>) -> bool {
    let st = &game.state;
    guards.iter().all(|g| match (g, actor) {
        (Guard::VarIs(i, v), None) => &st.game_vars[*i] == v,
        (Guard::VarIsNot(i, v), None) => &st.game_vars[*i] != v,
        (Guard::HouseIs(i, v), None) => &st.house[*i] == v,
        (Guard::PileNotEmpty(p), None) => !st.pile(*p).is_empty(),
        (Guard::ActorVarIs(i, v), Some(seat)) => &st.player_vars[seat.index()][*i] == v,
        _ => true,
    })
}

/// The options of one argument for `actor`.
fn domain(game: &Game, domain: &ArgDomain, actor: Seat) -> Vec<Arg> {
    let st = &game.state;
    let slots_of = |seat: Seat| {
        st.hand(seat)
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_some())
            .map(move |(slot, _)| Arg::Slot {
                seat,
                slot: slot as u32,
            })
    };
    let seats = (0..st.player_count()).map(|i| Seat(i as u8));
    match domain {
        ArgDomain::Word(w) => vec![Arg::Word(w.clone())],
        ArgDomain::Drawn => vec![Arg::Drawn],
        ArgDomain::OwnSlot => slots_of(actor).collect(),
        ArgDomain::OtherSlot => seats.filter(|&s| s != actor).flat_map(slots_of).collect(),
        ArgDomain::AnySlot => seats.flat_map(slots_of).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(w: &str) -> Arg {
        Arg::Word(w.into())
    }

    #[test]
    fn numbers_run_through_each_block_the_last_argument_fastest() {
        let block = |seat: u8, name: &str, domains: Vec<Vec<Arg>>| Block {
            seat: Seat(seat),
            name: name.into(),
            count: domains.iter().map(Vec::len).product(),
            domains,
        };
        let blocks = vec![
            block(
                0,
                "pair",
                vec![
                    vec![word("a"), word("b")],
                    vec![Arg::Int(1), Arg::Int(2), Arg::Int(3)],
                ],
            ),
            block(1, "pass", vec![]),
        ];
        let set = Candidates {
            len: blocks.iter().map(|b| b.count).sum(),
            blocks,
        };
        let shown: Vec<String> = set
            .to_vec()
            .iter()
            .map(|a| format!("{}:{}{:?}", a.seat.0, a.name, a.args))
            .collect();
        assert_eq!(
            shown,
            [
                "0:pair[Word(\"a\"), Int(1)]",
                "0:pair[Word(\"a\"), Int(2)]",
                "0:pair[Word(\"a\"), Int(3)]",
                "0:pair[Word(\"b\"), Int(1)]",
                "0:pair[Word(\"b\"), Int(2)]",
                "0:pair[Word(\"b\"), Int(3)]",
                "1:pass[]",
            ]
        );
        assert_eq!(set.len(), 7);
        assert!(set.get(7).is_none() && !set.is_empty());
    }
}
