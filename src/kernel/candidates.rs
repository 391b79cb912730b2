//! The actions the variant declares as possible now, as a compact set: each action form open to
//! a seat with its arguments' options, so a random player can count them, pick by number and
//! build only the actions it tries.

use super::game::{Action, Arg, Game};
use super::table::{Actor, ArgDomain, Guard};
use super::value::{Seat, Value};
use std::ops::Range;
use std::sync::Arc;

/// One action form open to one seat: every combination of its arguments' options.
#[derive(Clone, Debug)]
struct Block {
    seat: Seat,
    name: Arc<str>,
    /// Its arguments' options, in order: a range of `Candidates::domains`.
    domains: Range<usize>,
    /// The number of combinations (the product of the options' counts).
    count: usize,
}

/// The candidate actions of a game at one moment, numbered in `Game::candidates` order.
///
/// Three flat lists, whatever the number of blocks: a set refilled for each step
/// (`Candidates::refill`) allocates only when it outgrows the last one.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    blocks: Vec<Block>,
    /// Each argument's options: a range of `options`.
    domains: Vec<Range<usize>>,
    options: Vec<Arg>,
    len: usize,
}

impl Candidates {
    /// The candidates of `game` now (of `seat` only, when given).
    pub(super) fn of(game: &Game, seat: Option<Seat>) -> Candidates {
        let mut set = Candidates::default();
        set.refill(game, seat);
        set
    }

    /// Make this set the candidates of `game` now (of `seat` only, when given), in the memory
    /// it already has.
    pub fn refill(&mut self, game: &Game, seat: Option<Seat>) {
        self.blocks.clear();
        self.domains.clear();
        self.options.clear();
        self.len = 0;
        if game.is_over() {
            return;
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
                    let (domains_at, options_at) = (self.domains.len(), self.options.len());
                    let mut count = 1usize;
                    for d in &form.args {
                        let from = self.options.len();
                        push_domain(game, d, actor, &mut self.options);
                        count = count.saturating_mul(self.options.len() - from);
                        self.domains.push(from..self.options.len());
                    }
                    if count == 0 {
                        self.domains.truncate(domains_at);
                        self.options.truncate(options_at);
                        continue;
                    }
                    self.len += count;
                    self.blocks.push(Block {
                        seat: actor,
                        name: decl.name.clone(),
                        domains: domains_at..self.domains.len(),
                        count,
                    });
                }
            }
        }
    }

    /// Whether some candidate is the action `name`.
    pub fn has_action(&self, name: &str) -> bool {
        self.blocks.iter().any(|b| &*b.name == name)
    }

    /// A set of exactly these actions, in this order (each its own block): for tests.
    #[cfg(test)]
    pub(crate) fn from_actions(actions: &[Action]) -> Candidates {
        let mut set = Candidates::default();
        for action in actions {
            let domains_at = set.domains.len();
            for arg in &action.args {
                set.options.push(arg.clone());
                set.domains.push(set.options.len() - 1..set.options.len());
            }
            set.blocks.push(Block {
                seat: action.seat,
                name: action.name.clone(),
                domains: domains_at..set.domains.len(),
                count: 1,
            });
            set.len += 1;
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
                return Some(self.action(block, i));
            }
            i -= block.count;
        }
        None
    }

    /// Every candidate, in order.
    pub fn to_vec(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(self.len);
        for block in &self.blocks {
            out.extend((0..block.count).map(|i| self.action(block, i)));
        }
        out
    }

    /// Combination `i` of `block` (`i < count`): a mixed-radix number, the last argument the
    /// lowest digit.
    fn action(&self, block: &Block, mut i: usize) -> Action {
        let domains = &self.domains[block.domains.clone()];
        let mut args = vec![Arg::Drawn; domains.len()];
        for (arg, range) in args.iter_mut().zip(domains).rev() {
            let options = &self.options[range.clone()];
            *arg = options[i % options.len()].clone();
            i /= options.len();
        }
        Action {
            seat: block.seat,
            name: block.name.clone(),
            args,
        }
    }
}

/// Game-level guards when `actor` is `None`; actor-level guards otherwise.
fn guards_hold(game: &Game, guards: &[Guard], actor: Option<Seat>) -> bool {
    let st = &game.state;
    guards.iter().all(|g| match (g, actor) {
        (Guard::VarIs(i, v), None) => same(&st.game_vars[*i], v),
        (Guard::VarIsNot(i, v), None) => !same(&st.game_vars[*i], v),
        (Guard::HouseIs(i, v), None) => same(&st.house[*i], v),
        (Guard::PileNotEmpty(p), None) => !st.pile(*p).is_empty(),
        (Guard::ActorVarIs(i, v), Some(seat)) => same(&st.player_vars[seat.index()][*i], v),
        _ => true,
    })
}

/// `a == b`, the booleans and numbers most guards compare done without a call.
#[inline(always)]
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Unit, Value::Unit) => true,
        _ => a == b,
    }
}

/// Add the options of one argument for `actor` to `options`.
fn push_domain(game: &Game, domain: &ArgDomain, actor: Seat, options: &mut Vec<Arg>) {
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
        ArgDomain::Word(w) => options.push(Arg::Word(w.clone())),
        ArgDomain::Drawn => options.push(Arg::Drawn),
        ArgDomain::OwnSlot => options.extend(slots_of(actor)),
        ArgDomain::OtherSlot => options.extend(seats.filter(|&s| s != actor).flat_map(slots_of)),
        ArgDomain::AnySlot => options.extend(seats.flat_map(slots_of)),
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
        let words = vec![word("a"), word("b")];
        let ints = vec![Arg::Int(1), Arg::Int(2), Arg::Int(3)];
        let set = Candidates {
            blocks: vec![
                Block {
                    seat: Seat(0),
                    name: "pair".into(),
                    domains: 0..2,
                    count: 6,
                },
                Block {
                    seat: Seat(1),
                    name: "pass".into(),
                    domains: 2..2,
                    count: 1,
                },
            ],
            domains: vec![0..2, 2..5],
            options: words.into_iter().chain(ints).collect(),
            len: 7,
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
        assert!(set.has_action("pass") && !set.has_action("pa"));
        let again = Candidates::from_actions(&set.to_vec());
        assert_eq!(again.to_vec(), set.to_vec());
        assert_eq!(again.len(), 7);
    }
}
