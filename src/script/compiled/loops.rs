//! `for` loops and `switch` statements, compiled: ranges counted without a list, items walked in
//! place, and `switch` cases looked up by Rhai's own hash.

use super::super::host::items::{self, Item};
use super::build::{Compiler, Unsupported, unsupported, value};
use super::chain::{self, Listed};
use super::ops::{self, Site};
use super::{Exec, Flow, Frame, R};
use rhai::{ASTNode, Dynamic, Engine, EvalAltResult, Expr, Position, Stmt};
use std::hash::{Hash, Hasher};

/// One round of a `for` loop: the item and its counter; `Some` when the loop ends there.
type Round = dyn Fn(&mut Frame<'_>, Item, usize) -> R<Option<Flow>>;

/// The hash Rhai files a `switch` case under (its own hasher, with no seed set).
pub(super) fn switch_hash(value: &Dynamic) -> u64 {
    let mut hasher = ahash::AHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Whether `switch_hash` agrees with Rhai's case table, checked on a compiled switch: when it
/// does not (a Rhai that hashes otherwise), functions with a `switch` stay interpreted.
pub(super) fn switch_hash_works(engine: &Engine) -> bool {
    let Ok(ast) = engine.compile(r#"fn f(x) { switch x { "probe" => 1, 7 => 2, _ => 3 } }"#) else {
        return false;
    };
    let mut ok = false;
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::Switch(x, _))) = path.last() {
            let cases = &x.1.cases;
            ok = cases.len() == 2
                && cases.contains_key(&switch_hash(&Dynamic::from("probe")))
                && cases.contains_key(&switch_hash(&Dynamic::from(7 as rhai::INT)));
        }
        true
    });
    ok
}

/// Whether Rhai can look a value up in a `switch` (its `is_hashable`, for the types scripts have).
fn hashable(value: &Dynamic) -> bool {
    if value.is_unit()
        || value.is_bool()
        || value.is_string()
        || value.is_char()
        || value.is_int()
        || value.is_float()
    {
        return true;
    }
    if let Some(array) = value.read_lock::<rhai::Array>() {
        return array.iter().all(hashable);
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return map.values().all(hashable);
    }
    false
}

impl Compiler<'_> {
    /// A `for` loop over an array, a range or a string's characters.
    pub(super) fn for_loop(
        &mut self,
        x: &(rhai::Ident, Option<rhai::Ident>, rhai::FlowControl),
    ) -> Result<Exec, Unsupported> {
        let (var, counter, flow) = x;
        if !self.loop_variables_fit(counter.is_some()) {
            // Rhai refuses the loop's variables past the limit before it evaluates what it walks.
            let pos = var.pos;
            return Ok(Box::new(move |_| {
                Err(EvalAltResult::ErrorTooManyVariables(pos).into())
            }));
        }
        let iterable_pos = flow.expr.start_position();
        // `a..b` counts without making the range.
        let range = match &flow.expr {
            Expr::FnCall(call, _)
                if call.namespace.is_empty()
                    && call.args.len() == 2
                    && matches!(call.name.as_str(), ".." | "..=") =>
            {
                Some((
                    self.expr(&call.args[0])?,
                    self.expr(&call.args[1])?,
                    call.name.as_str() == "..=",
                ))
            }
            _ => None,
        };
        let iterable = match range {
            Some(_) => None,
            None => Some(self.expr(&flow.expr)?),
        };
        let source = match range {
            Some(_) => None,
            None => chain::ItemsSource::of(self, &flow.expr)?,
        };
        let (mark, next) = (self.scope.len(), self.next);
        let var_slot = self.declare(&var.name);
        let counter_slot = counter.as_ref().map(|c| self.declare(&c.name));
        let body_first = self.first_cost(flow.body.statements());
        let body = self.statements(flow.body.statements(), true);
        self.scope.truncate(mark);
        self.next = next;
        let body = body?;
        let pos = flow.body.position();
        // Rhai counts a round of an empty body as one; a body's first statement is charged with
        // its round, the others count themselves.
        let round_cost = u64::from(flow.body.is_empty()) + body_first;
        // One round: the variable and counter set, the body run; `Some` ends the loop.
        let round = move |f: &mut Frame<'_>, item: Item, i: usize| -> R<Option<Flow>> {
            f.charge(round_cost, pos)?;
            items::store(f.slot(var_slot), item);
            if let Some(c) = counter_slot {
                *f.slot(c) = Dynamic::from(i as rhai::INT);
            }
            looped(body(f))
        };
        let end = |flow: Option<Flow>| -> R<Flow> {
            match flow {
                Some(Flow::Break(v)) => Ok(Flow::Value(v)),
                Some(other) => Ok(other),
                None => value(Dynamic::UNIT),
            }
        };
        if let Some((from, to, inclusive)) = range {
            let site = Site::new(self.natives(), if inclusive { "..=" } else { ".." }, 2);
            return Ok(Box::new(move |f| {
                let (a, b) = (from(f)?, to(f)?);
                let (Ok(start), Ok(stop)) = (a.as_int(), b.as_int()) else {
                    // Not integers: whatever Rhai makes of them (a type error, most likely).
                    let range = ops::binary(f, &site, a, b, iterable_pos)?;
                    return end(for_each(f, range, iterable_pos, &round)?);
                };
                // Rhai walks an inclusive range as `start..=stop`: one ending at `i64::MAX` ends
                // there, with no overflow.
                let flow = if inclusive {
                    walk_range(f, start..=stop, &round)?
                } else {
                    walk_range(f, start..stop, &round)?
                };
                if flow.is_some() {
                    return end(flow);
                }
                value(Dynamic::UNIT)
            }));
        }
        let iterable = iterable.expect("not a range");
        Ok(Box::new(move |f| {
            // A list of players or cards: walked by its items, without making it.
            let listed = match &source {
                Some(source) => source.list(f)?,
                None => Listed::Neither,
            };
            let items = match listed {
                Listed::Items(items) => {
                    for (i, item) in items.iter().enumerate() {
                        if let Some(flow) = round(f, item, i)? {
                            return end(Some(flow));
                        }
                    }
                    return end(None);
                }
                Listed::List(list) => list,
                Listed::Neither => iterable(f)?,
            };
            end(for_each(f, items, iterable_pos, &round)?)
        }))
    }

    pub(super) fn switch(
        &mut self,
        x: &(Expr, rhai::SwitchCasesCollection),
        pos: Position,
    ) -> Result<Exec, Unsupported> {
        if !self.switch_ok {
            return Err(unsupported(
                "`switch` is not compiled with this version of Rhai",
                pos,
            ));
        }
        let (subject, cases) = x;
        if !cases.ranges.is_empty() {
            return Err(unsupported("`switch` on ranges is not compiled", pos));
        }
        let subject = self.expr(subject)?;
        let mut arms = Vec::with_capacity(cases.expressions.len());
        for arm in &cases.expressions {
            // Rhai counts a case's condition when it tries it, and the chosen case's value.
            let cond = match arm.lhs {
                Expr::BoolConstant(true, _) => None,
                ref c => Some((self.expr_cost(c), self.condition(c)?)),
            };
            arms.push((cond, self.expr_cost(&arm.rhs), self.arm(&arm.rhs)?));
        }
        // Sorted by hash and searched: a switch has a few cases, and a `HashMap` would hash the
        // subject's hash again (with SipHash) on every run.
        let mut table: Vec<(u64, Vec<usize>)> = cases
            .cases
            .iter()
            .map(|(&hash, list)| (hash, list.blocks.to_vec()))
            .collect();
        table.sort_unstable_by_key(|&(hash, _)| hash);
        let default = cases.def_case;
        let find = move |table: &[(u64, Vec<usize>)], v: &Dynamic| -> Option<usize> {
            if !hashable(v) {
                return None;
            }
            let hash = switch_hash(v);
            table.binary_search_by_key(&hash, |&(h, _)| h).ok()
        };
        let phase = super::phase::PhaseCases::of(self, &x.0, |v| find(&table, v));
        Ok(Box::new(move |f| {
            let found = match phase.as_ref().and_then(|p| p.case(f)) {
                Some(found) => found,
                None => {
                    let v = subject(f)?;
                    let found = find(&table, &v);
                    super::discard(v);
                    found
                }
            };
            if let Some(at) = found {
                let list = &table[at].1;
                for &i in list {
                    let (cond, cost, body) = &arms[i];
                    let take = match cond {
                        None => true,
                        Some((cond_cost, c)) => {
                            f.add_operations(*cond_cost);
                            c(f)?
                        }
                    };
                    if take {
                        f.add_operations(*cost);
                        return body(f);
                    }
                }
            }
            match default {
                Some(i) => {
                    f.add_operations(arms[i].1);
                    arms[i].2(f)
                }
                None => value(Dynamic::UNIT),
            }
        }))
    }
}

/// A loop body's flow: `None` to go on, `Some` to leave the loop (`Break`) or the function.
/// `break` and `continue` from inside an expression arrive as Rhai's signals.
pub(super) fn looped(flow: R<Flow>) -> R<Option<Flow>> {
    match flow {
        Ok(Flow::Value(v)) => {
            super::discard(v);
            Ok(None)
        }
        Ok(Flow::Continue) => Ok(None),
        Ok(other) => Ok(Some(other)),
        Err(e) => match *e {
            EvalAltResult::LoopBreak(false, ..) => Ok(None),
            EvalAltResult::LoopBreak(true, v, _) => Ok(Some(Flow::Break(v))),
            _ => Err(e),
        },
    }
}

/// Run `round` for each item, with its counter; `Some` when a round left the loop.
fn each(f: &mut Frame<'_>, items: impl Iterator<Item = Dynamic>, round: &Round) -> R<Option<Flow>> {
    for (i, item) in items.enumerate() {
        if let Some(flow) = round(f, Item::Value(item), i)? {
            return Ok(Some(flow));
        }
    }
    Ok(None)
}

/// Run `round` for each item of an array, range or string; `Some` when a round left the loop.
fn for_each(f: &mut Frame<'_>, items: Dynamic, pos: Position, round: &Round) -> R<Option<Flow>> {
    let items = items.flatten();
    if items.is_array() {
        let array = items.into_array().expect("an array");
        return each(f, array.into_iter(), round);
    }
    if let Some(range) = items
        .read_lock::<std::ops::Range<rhai::INT>>()
        .map(|r| r.clone())
    {
        return each(f, range.map(Dynamic::from), round);
    }
    if let Some(range) = items
        .read_lock::<std::ops::RangeInclusive<rhai::INT>>()
        .map(|r| r.clone())
    {
        return each(f, range.map(Dynamic::from), round);
    }
    if items.is_string() {
        let s = items.into_immutable_string().expect("a string");
        return each(f, s.chars().map(Dynamic::from), round);
    }
    // Any other type (a step range, a blob, a string's `chars()`): the iterator the standard
    // package registers for it, as the interpreter finds it.
    let mut global = f.engine.new_global_runtime_state();
    global.push_import("std", super::super::host::standard_package());
    let Some(iterator) = global.get_iter(items.type_id()) else {
        return Err(EvalAltResult::ErrorFor(pos).into());
    };
    for (i, item) in iterator(items).enumerate() {
        let item = item.map_err(|e| super::fill_position(e, pos))?.flatten();
        if let Some(flow) = round(f, Item::Value(item), i)? {
            return Ok(Some(flow));
        }
    }
    Ok(None)
}

/// The rounds of a `for` loop over a range of integers, until one leaves the loop.
fn walk_range(
    f: &mut Frame<'_>,
    range: impl Iterator<Item = rhai::INT>,
    round: &Round,
) -> R<Option<Flow>> {
    for (i, n) in range.enumerate() {
        if let Some(flow) = round(f, Item::Value(Dynamic::from(n)), i)? {
            return Ok(Some(flow));
        }
    }
    Ok(None)
}
