//! The actions the variant declares as possible now, as a compact set: each action form open to
//! a seat with its arguments' options, so a random player can count them, pick by number and
//! build only the actions it tries.

use super::game::{Action, Arg, Game, Rules};
use super::table::{Actor, ArgDomain, Guard, Table};
use super::value::{Seat, Value};
use std::ops::Range;
use std::sync::Arc;

/// One action form open to one seat: every combination of its arguments' options.
#[derive(Clone, Debug)]
struct Block {
    seat: Seat,
    /// The declared action: an index into `Plan::names`.
    decl: usize,
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
    options: Vec<Opt>,
    /// The arguments `Opt::Given` names.
    given: Vec<Arg>,
    len: usize,
    plan: Plan,
}

/// One option of one argument, as a set keeps it: plain data, so that a refill frees nothing,
/// made an `Arg` only for the actions that are built.
#[derive(Clone, Copy, Debug)]
enum Opt {
    Slot {
        seat: Seat,
        slot: u32,
    },
    Drawn,
    /// The word of argument `arg` of form `form` of declared action `decl` (`ArgDomain::Word`).
    Word {
        decl: u32,
        form: u32,
        arg: u32,
    },
    /// `Candidates::given[i]`: a set made of whole actions (`from_actions`), or a word whose
    /// place does not fit `Word`.
    Given(usize),
}

/// What a refill reads of the variant's declarations, made once for a table (and made again
/// only when a set is refilled for a game of another table): the actions' names, and by phase
/// the actions open in it, so that a refill looks only at those.
#[derive(Clone, Debug, Default)]
struct Plan {
    /// The table it was made for, compared by address.
    table: Option<Arc<Table>>,
    /// By declared action, its name (shared: a candidate's name costs a count).
    names: Vec<Arc<str>>,
    /// By phase, the declared actions open in it, in declaration order.
    by_phase: Vec<Vec<usize>>,
    /// The actions open in every phase: those of a phase the table does not list.
    every_phase: Vec<usize>,
}

impl Plan {
    fn of(table: &Arc<Table>) -> Plan {
        let open_in = |phase: Option<usize>| -> Vec<usize> {
            table
                .actions
                .iter()
                .enumerate()
                .filter(|(_, decl)| match (&decl.phases, phase) {
                    (None, _) => true,
                    (Some(phases), Some(p)) => phases.iter().any(|id| id.0 as usize == p),
                    (Some(_), None) => false,
                })
                .map(|(i, _)| i)
                .collect()
        };
        Plan {
            table: Some(table.clone()),
            names: table.actions.iter().map(|a| a.name.clone()).collect(),
            by_phase: (0..table.phases.len()).map(|p| open_in(Some(p))).collect(),
            every_phase: open_in(None),
        }
    }

    /// The declared actions open in `phase`.
    fn open_in(&self, phase: usize) -> &[usize] {
        self.by_phase.get(phase).unwrap_or(&self.every_phase)
    }
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
        self.given.clear();
        self.len = 0;
        if game.is_over() {
            return;
        }
        if !self
            .plan
            .table
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, &game.table))
        {
            self.plan = Plan::of(&game.table);
        }
        let st = &game.state;
        for &d in self.plan.open_in(st.phase.0 as usize) {
            let decl = &game.table.actions[d];
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
                for (f, form) in decl.forms.iter().enumerate() {
                    if !guards_hold(game, &form.guards, None)
                        || !guards_hold(game, &form.guards, Some(actor))
                    {
                        continue;
                    }
                    let (domains_at, options_at) = (self.domains.len(), self.options.len());
                    let mut count = 1usize;
                    for (a, domain) in form.args.iter().enumerate() {
                        let from = self.options.len();
                        let place = (d, f, a);
                        push_domain(
                            game,
                            domain,
                            place,
                            actor,
                            &mut self.options,
                            &mut self.given,
                        );
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
                        decl: d,
                        domains: domains_at..self.domains.len(),
                        count,
                    });
                }
            }
        }
    }

    /// Whether some candidate is the action `name`.
    pub fn has_action(&self, name: &str) -> bool {
        self.blocks
            .iter()
            .any(|b| &*self.plan.names[b.decl] == name)
    }

    /// A set of exactly these actions, in this order (each its own block): for tests.
    #[cfg(test)]
    pub(crate) fn from_actions(actions: &[Action]) -> Candidates {
        let mut set = Candidates::default();
        for action in actions {
            let domains_at = set.domains.len();
            for arg in &action.args {
                set.given.push(arg.clone());
                set.options.push(Opt::Given(set.given.len() - 1));
                set.domains.push(set.options.len() - 1..set.options.len());
            }
            set.plan.names.push(action.name.clone());
            set.blocks.push(Block {
                seat: action.seat,
                decl: set.plan.names.len() - 1,
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
            *arg = self.arg(options[i % options.len()]);
            i /= options.len();
        }
        Action {
            seat: block.seat,
            name: self.plan.names[block.decl].clone(),
            args,
        }
    }

    /// The argument an option stands for.
    fn arg(&self, opt: Opt) -> Arg {
        match opt {
            Opt::Slot { seat, slot } => Arg::Slot { seat, slot },
            Opt::Drawn => Arg::Drawn,
            Opt::Word { decl, form, arg } => {
                // Pushed only from a word of the table the plan was made for.
                let table = self.plan.table.as_ref().expect("a refilled set's table");
                match &table.actions[decl as usize].forms[form as usize].args[arg as usize] {
                    ArgDomain::Word(w) => Arg::Word(w.clone()),
                    other => unreachable!("a word option names {other:?}"),
                }
            }
            Opt::Given(i) => self.given[i].clone(),
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

/// Add the options of one argument for `actor` to `options`: the occupied slots of the hands it
/// names, in seat order, the drawn card, or its word (`place`: the declared action, form and
/// argument it is).
fn push_domain(
    game: &Game,
    domain: &ArgDomain,
    place: (usize, usize, usize),
    actor: Seat,
    options: &mut Vec<Opt>,
    given: &mut Vec<Arg>,
) {
    let st = &game.state;
    let mut slots_of = |seat: Seat| {
        for (slot, card) in st.hand(seat).iter().enumerate() {
            if card.is_some() {
                // A hand has at most `limits::MAX_HAND_SLOTS` slots, far below `u32::MAX`.
                let slot = slot as u32;
                options.push(Opt::Slot { seat, slot });
            }
        }
    };
    let seats = (0..st.player_count()).map(|i| Seat(i as u8));
    match domain {
        ArgDomain::OwnSlot => slots_of(actor),
        ArgDomain::OtherSlot => seats.filter(|&s| s != actor).for_each(slots_of),
        ArgDomain::AnySlot => seats.for_each(slots_of),
        ArgDomain::Drawn => options.push(Opt::Drawn),
        ArgDomain::Word(w) => {
            let (d, f, a) = place;
            options.push(
                match (u32::try_from(d), u32::try_from(f), u32::try_from(a)) {
                    (Ok(decl), Ok(form), Ok(arg)) => Opt::Word { decl, form, arg },
                    _ => {
                        given.push(Arg::Word(w.clone()));
                        Opt::Given(given.len() - 1)
                    }
                },
            );
        }
    }
}

/// The candidate enumeration as the game's own methods (here, so that `game` needs none of it).
impl Game {
    /// The actions the variant declares as possible now, before the rules check them.
    /// Every legal action is among them; `legal_actions` keeps those the rules accept.
    pub fn candidates(&self) -> Vec<Action> {
        self.candidate_set(None).to_vec()
    }

    /// The candidates (of `seat` only, when given) as a set that counts them and builds each
    /// by its number, in `candidates` order.
    pub fn candidate_set(&self, seat: Option<Seat>) -> Candidates {
        Candidates::of(self, seat)
    }

    /// The candidates the rules accept now (each tried on a copy of the game).
    pub fn legal_actions(&self, rules: &dyn Rules) -> Vec<Action> {
        self.candidates()
            .into_iter()
            .filter(|a| {
                let mut trial = self.trial();
                let accepted = trial.apply(rules, a).is_ok();
                trial.recycle();
                accepted
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::CardIdx;
    use crate::kernel::table::PhaseId;

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
                    decl: 0,
                    domains: 0..2,
                    count: 6,
                },
                Block {
                    seat: Seat(1),
                    decl: 1,
                    domains: 2..2,
                    count: 1,
                },
            ],
            domains: vec![0..2, 2..5],
            options: (0..5).map(Opt::Given).collect(),
            given: words.into_iter().chain(ints).collect(),
            len: 7,
            plan: Plan {
                names: vec!["pair".into(), "pass".into()],
                ..Plan::default()
            },
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

    /// A table whose actions are open in some phases, all phases, or none of those listed, each
    /// with one form of no arguments.
    fn table(phases: &[&str], actions: &[(&str, Option<&[u16]>)]) -> Arc<Table> {
        let no_args = actions
            .iter()
            .map(|&(name, phases)| (name, phases, vec![Vec::new()]));
        table_with_forms(phases, no_args.collect())
    }

    /// `table`, with each action's forms given.
    #[allow(clippy::type_complexity)]
    fn table_with_forms(
        phases: &[&str],
        actions: Vec<(&str, Option<&[u16]>, Vec<Vec<ArgDomain>>)>,
    ) -> Arc<Table> {
        use crate::kernel::table::{ActionDecl, FormDecl, PhaseDecl};
        let phases = phases.iter().map(|name| PhaseDecl {
            name: name.to_string(),
            setup: false,
        });
        let actions = actions.into_iter().map(|(name, phases, forms)| ActionDecl {
            name: name.into(),
            actor: Actor::Anyone,
            phases: phases.map(|ids| ids.iter().map(|&i| PhaseId(i)).collect()),
            guards: Vec::new(),
            forms: forms
                .into_iter()
                .map(|args| FormDecl {
                    args,
                    guards: Vec::new(),
                    reveals: false,
                })
                .collect(),
        });
        let mut table = Table {
            phases: phases.collect(),
            actions: actions.collect(),
            ..Table::default()
        };
        table.reindex();
        Arc::new(table)
    }

    /// The names `refill` gives for `game`, and the names a plain reading of the declarations
    /// gives (each action open in the phase, for each seat).
    fn names(set: &mut Candidates, game: &Game) -> (Vec<String>, Vec<String>) {
        set.refill(game, None);
        let got = set
            .to_vec()
            .iter()
            .map(|a| format!("{}{}", a.seat.0, a.name))
            .collect();
        let mut want = Vec::new();
        for decl in &game.table.actions {
            if decl
                .phases
                .as_ref()
                .is_none_or(|p| p.contains(&game.state.phase))
            {
                want.extend((0..game.state.player_count()).map(|s| format!("{s}{}", decl.name)));
            }
        }
        (got, want)
    }

    #[test]
    fn a_refill_offers_the_actions_open_in_the_phase_in_declaration_order() {
        let first = table(
            &["a", "b", "c"],
            &[
                ("only_b", Some(&[1])),
                ("always", None),
                ("a_or_c", Some(&[0, 2])),
                ("never", Some(&[])),
            ],
        );
        let second = table(&["x", "y"], &[("y_only", Some(&[1])), ("anywhere", None)]);
        let game = |table: &Arc<Table>, phase: u16| {
            let mut game = Game::new(table.clone(), vec!["p".into(), "q".into()], 1, &[]).unwrap();
            game.state.phase = PhaseId(phase);
            game
        };
        // One set refilled for games of both tables, in turn, and for a phase id past the
        // table's phases (open: the actions of every phase).
        let mut set = Candidates::default();
        for (t, phase) in [
            (&first, 0),
            (&first, 1),
            (&second, 1),
            (&first, 2),
            (&second, 0),
            (&first, 7),
        ] {
            let (got, want) = names(&mut set, &game(t, phase));
            assert_eq!(got, want, "phase {phase}");
            assert!(!got.is_empty());
        }
        let (got, _) = names(&mut set, &game(&first, 1));
        assert_eq!(got, ["0only_b", "1only_b", "0always", "1always"]);
        assert!(set.has_action("always") && !set.has_action("a_or_c"));
    }

    #[test]
    fn words_slots_and_the_drawn_card_are_built_into_the_actions_they_belong_to() {
        use ArgDomain::{AnySlot, Drawn, OtherSlot, OwnSlot, Word};
        let word = |w: &str| Word(w.into());
        let table = table_with_forms(
            &["only"],
            vec![
                ("pass", None, vec![vec![]]),
                (
                    "special",
                    Some(&[0]),
                    vec![
                        vec![word("skip")],
                        vec![word("peek"), OwnSlot],
                        vec![word("swap"), OtherSlot, Drawn],
                    ],
                ),
                ("look", None, vec![vec![AnySlot]]),
            ],
        );
        let mut game = Game::new(table, vec!["p".into(), "q".into()], 1, &[]).unwrap();
        // p holds slots 0 and 2 (1 is empty), q holds slot 0.
        game.state.hands = vec![
            vec![Some(CardIdx(0)), None, Some(CardIdx(1))],
            vec![Some(CardIdx(2))],
        ];
        let shown = |set: &Candidates| -> Vec<String> {
            set.to_vec()
                .iter()
                .filter(|a| a.seat == Seat(0))
                .map(|a| {
                    let args: Vec<String> = a
                        .args
                        .iter()
                        .map(|arg| match arg {
                            Arg::Word(w) => w.clone(),
                            Arg::Slot { seat, slot } => format!("{}.{slot}", seat.0),
                            Arg::Drawn => "drawn".into(),
                            other => format!("{other:?}"),
                        })
                        .collect();
                    format!("{} {}", a.name, args.join(" "))
                })
                .collect()
        };
        let mut set = Candidates::default();
        set.refill(&game, None);
        let want = [
            "pass ",
            "special skip",
            "special peek 0.0",
            "special peek 0.2",
            "special swap 1.0 drawn",
            "look 0.0",
            "look 0.2",
            "look 1.0",
        ];
        assert_eq!(shown(&set), want);
        // q: pass, skip, a peek at its one card, two swaps with p's cards, three looks.
        assert_eq!(set.len(), want.len() + 8);
        // A refill in the same memory, and one for one seat, build the same actions.
        set.refill(&game, None);
        assert_eq!(shown(&set), want);
        set.refill(&game, Some(Seat(0)));
        assert_eq!(shown(&set), want);
        assert_eq!(set.len(), want.len());
    }
}
