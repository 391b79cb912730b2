//! The general way of a chain: every link's arguments evaluated first, in order, as Rhai
//! does, then the links walked from the root, in place inside maps and arrays; and the last link
//! of an assignment.

use super::super::build::mismatch;
use super::super::indexing::At;
use super::super::ops::{self, Site};
use super::super::receivers::Receivers;
use super::super::{Frame, R};
use super::{Link, Literal};
use rhai::{Dynamic, EvalAltResult, ImmutableString, Position};

/// The variable an assigned chain starts from, as its errors name it.
pub(in crate::script::compiled) struct Assigned {
    pub(crate) name: ImmutableString,
    pub(crate) pos: Position,
}

/// The argument values of one link, evaluated before the walk.
pub(super) enum Evaluated {
    None,
    Index(Dynamic),
    Args(Vec<Dynamic>),
}

/// The argument values of each link, in order.
pub(super) fn arguments(links: &[Link], f: &mut Frame<'_>) -> R<Vec<Evaluated>> {
    links
        .iter()
        .map(|link| {
            Ok(match link {
                Link::Property { .. } => Evaluated::None,
                Link::Index { index, .. } => Evaluated::Index(index(f)?),
                Link::Method { args, .. } => {
                    Evaluated::Args(args.iter().map(|a| a(f)).collect::<R<_>>()?)
                }
            })
        })
        .collect()
}

/// The last link of an assignment, on the value the others reached.
#[allow(clippy::too_many_arguments)]
pub(super) fn assign_last(
    f: &mut Frame<'_>,
    target: &mut Dynamic,
    last: &Link,
    last_value: Evaluated,
    new: Dynamic,
    op: Option<&ops::OpAssign>,
    op_pos: Position,
    root: &Assigned,
) -> R<()> {
    // The new value, with the old one when it is an op-assignment. An item of a constant is
    // read-only (Rhai marks a constant's items so), and changing it is refused as changing the
    // constant, before the operator runs.
    let mut new = Some(new);
    let mut combine = |f: &mut Frame<'_>, old: Dynamic| -> R<Dynamic> {
        if old.is_read_only() {
            return Err(
                EvalAltResult::ErrorAssignmentToConstant(root.name.to_string(), root.pos).into(),
            );
        }
        let new = new.take().expect("one new value");
        match op {
            Some(op) => ops::op_assign(f, op, old, new, op_pos),
            None => Ok(new),
        }
    };
    match last {
        Link::Property {
            key,
            getter,
            setter,
            pos,
        } => {
            if target.is_map() {
                return set_entry(f, target, key, combine, *pos);
            }
            let old = if op.is_some() {
                getter.call(f, &mut [target], *pos)?
            } else {
                Dynamic::UNIT
            };
            let mut v = combine(f, old)?;
            setter.call(f, &mut [target, &mut v], *pos).map(drop)
        }
        Link::Index { pos, open, .. } => {
            let Evaluated::Index(idx) = last_value else {
                unreachable!("an index link has an index value")
            };
            if target.is_array() {
                let i = ops::index_int(&idx, *pos)?;
                let (len, at, old) = {
                    let mut array = target.as_array_mut().expect("an array");
                    let len = array.len();
                    let at = position(len, i);
                    let old = at.map(|at| std::mem::take(&mut array[at]));
                    (len, at, old)
                };
                let (Some(at), Some(old)) = (at, old) else {
                    return Err(EvalAltResult::ErrorArrayBounds(len, i, *pos).into());
                };
                let v = combine(f, old)?;
                target.as_array_mut().expect("an array")[at] = v;
                return ops::check_size_of(f.engine, target, *pos);
            }
            if target.is_map() {
                let key = idx.read_lock::<ImmutableString>().map(|k| k.clone());
                let Some(key) = key else {
                    return Err(mismatch("string", idx.type_name(), *pos));
                };
                return set_entry(f, target, &key, combine, *pos);
            }
            let at = At {
                open: *open,
                index: *pos,
                assign: op_pos,
            };
            // As Rhai: an op-assignment reads the old value through the indexer; a value that
            // has no indexer to read is set to the new value as it is, and the setter says
            // whether that can be done (`range= [i64] = string`).
            let new = new.take().expect("one new value");
            let v = match op {
                None => new,
                Some(op) => match f.program.indexing.get(f.engine, target, idx.clone(), at) {
                    Ok(old) => {
                        let v = ops::op_assign(f, op, old, new, op_pos)?;
                        ops::check_size_of(f.engine, &v, op_pos)?;
                        v
                    }
                    Err(e) if matches!(*e, EvalAltResult::ErrorIndexingType(..)) => new,
                    Err(e) => return Err(e),
                },
            };
            f.program.indexing.set(f.engine, target, idx, v, at)?;
            ops::check_size_of(f.engine, target, *pos)
        }
        Link::Method { pos, .. } => {
            Err(EvalAltResult::ErrorRuntime("cannot assign to a method call".into(), *pos).into())
        }
    }
}

/// `map.key = new` (or `op=`, `combine` given the old value, `()` when there was none).
fn set_entry(
    f: &mut Frame<'_>,
    target: &mut Dynamic,
    key: &str,
    combine: impl FnOnce(&mut Frame<'_>, Dynamic) -> R<Dynamic>,
    pos: Position,
) -> R<()> {
    // A copy is writable; a constant's entry is handed on read-only, for `combine` to refuse.
    let old = target
        .as_map_ref()
        .ok()
        .and_then(|m| {
            m.get(key).map(|entry| match entry.is_read_only() {
                true => entry.clone().into_read_only(),
                false => entry.clone(),
            })
        })
        .unwrap_or(Dynamic::UNIT);
    let v = combine(f, old)?;
    if let Ok(mut map) = target.as_map_mut() {
        map.insert(key.into(), v);
    }
    ops::check_size_of(f.engine, target, pos)
}

/// A Rhai array index (negative counts from the end) as a position, if in bounds.
pub(super) fn position(len: usize, i: rhai::INT) -> Option<usize> {
    if i >= 0 {
        usize::try_from(i).ok().filter(|&i| i < len)
    } else {
        usize::try_from(i.unsigned_abs())
            .ok()
            .and_then(|back| len.checked_sub(back))
    }
}

/// What to do with the value a walk reaches.
pub(super) type Reached<'k> = dyn FnMut(&mut Frame<'_>, &mut Dynamic) -> R<Dynamic> + 'k;

/// Walk the links from `target`, each from where the last one reached (in place inside maps and
/// arrays), and hand the value reached to `reached`.
pub(super) fn walk(
    f: &mut Frame<'_>,
    target: &mut Dynamic,
    links: &[Link],
    values: &mut [Evaluated],
    reached: &mut Reached<'_>,
) -> R<Dynamic> {
    let (Some((link, links)), Some((value, values))) =
        (links.split_first(), values.split_first_mut())
    else {
        return reached(f, target);
    };
    match link {
        Link::Property {
            key,
            getter,
            setter,
            pos,
        } => {
            if target.is_map() {
                let mut map = target.as_map_mut().expect("a map");
                return match map.get_mut(key.as_str()) {
                    Some(entry) => walk(f, entry, links, values, reached),
                    // A missing property reads as `()`.
                    None => walk(f, &mut Dynamic::UNIT.clone(), links, values, reached),
                };
            }
            let mut next = getter.call(f, &mut [target], *pos)?;
            let (result, changed) = watched(f, |f| walk(f, &mut next, links, values, reached))?;
            if changed {
                write_back(f, target, setter, next, *pos)?;
            }
            Ok(result)
        }
        Link::Method {
            site, pos, literal, ..
        } => {
            let Evaluated::Args(mut args) = std::mem::replace(value, Evaluated::None) else {
                unreachable!("a method link has its arguments")
            };
            if let Some(fn_ptr) = object_method(target, site.name()) {
                let name = site.name().clone();
                let mut next = f.call_object_method(&fn_ptr, &name, target, args, *pos)?;
                ops::check_size_of(f.engine, target, *pos)?;
                return walk(f, &mut next, links, values, reached);
            }
            if let Some(l) = literal
                && let Some(result) = call_literal(l, target, &mut args)
            {
                // A kernel entry: it never changes its receiver, but Rhai calls it a method.
                let mut next = result.map_err(|e| super::super::fill_position(e, *pos))?;
                if links.is_empty() {
                    mark_changed(f, true);
                }
                return walk(f, &mut next, links, values, reached);
            }
            // Whether a walk above writes the value back after this last link (its arguments'
            // types, before the call may take them).
            if links.is_empty() && f.chain_changed.is_some() {
                let by_ref = {
                    let mut refs: Vec<&mut Dynamic> = Vec::with_capacity(args.len() + 1);
                    refs.push(target);
                    refs.extend(args.iter_mut());
                    f.program
                        .receivers
                        .get_or_init(|| Receivers::new(f.engine))
                        .by_ref(site.name(), &refs)
                };
                mark_changed(f, by_ref);
            }
            let mut next = match args.len() {
                0 => site.call(f, &mut [target], *pos)?,
                1 => site.call(f, &mut [target, &mut args[0]], *pos)?,
                _ => {
                    let mut refs: Vec<&mut Dynamic> = Vec::with_capacity(args.len() + 1);
                    refs.push(target);
                    refs.extend(args.iter_mut());
                    site.call(f, &mut refs, *pos)?
                }
            };
            // A method that changed its value in place (`push`) keeps to Rhai's size limits.
            ops::check_size_of(f.engine, target, *pos)?;
            walk(f, &mut next, links, values, reached)
        }
        Link::Index { pos, open, .. } => {
            let Evaluated::Index(idx) = std::mem::replace(value, Evaluated::None) else {
                unreachable!("an index link has an index value")
            };
            if target.is_array() {
                let i = ops::index_int(&idx, *pos)?;
                let mut array = target.as_array_mut().expect("an array");
                let len = array.len();
                let Some(at) = position(len, i) else {
                    return Err(EvalAltResult::ErrorArrayBounds(len, i, *pos).into());
                };
                return walk(f, &mut array[at], links, values, reached);
            }
            if target.is_map() {
                let key = idx.read_lock::<ImmutableString>().map(|k| k.clone());
                let Some(key) = key else {
                    return Err(mismatch("string", idx.type_name(), *pos));
                };
                let mut map = target.as_map_mut().expect("a map");
                if let Some(entry) = map.get_mut(key.as_str()) {
                    return walk(f, entry, links, values, reached);
                }
                drop(map);
                // A missing entry is a value of its own: when the rest may have changed it,
                // Rhai offers it to the indexer setter, which no map has (one operation).
                let mut missing = Dynamic::UNIT;
                let (result, changed) =
                    watched(f, |f| walk(f, &mut missing, links, values, reached))?;
                if changed {
                    f.add_operations(1);
                }
                return Ok(result);
            }
            if target.is_string() && idx.is_int() {
                let mut next = string_index(target, &idx, *pos)?;
                return walk(f, &mut next, links, values, reached);
            }
            let at = At {
                open: *open,
                index: *pos,
                assign: Position::NONE,
            };
            let mut next = f.program.indexing.get(f.engine, target, idx, at)?;
            walk(f, &mut next, links, values, reached)
        }
    }
}

/// `walk` below a link that writes the value back when the rest changed it: its result, and
/// whether the rest changed it. A walk already watching goes on seeing the flag (Rhai hands it
/// up through every link).
fn watched(
    f: &mut Frame<'_>,
    walk: impl FnOnce(&mut Frame<'_>) -> R<Dynamic>,
) -> R<(Dynamic, bool)> {
    let started = f.chain_changed.is_none();
    if started {
        f.chain_changed = Some(false);
    }
    let result = walk(f);
    let changed = f.chain_changed.unwrap_or(false);
    if started {
        f.chain_changed = None;
    }
    Ok((result?, changed))
}

/// The last link of a walk done: whether it may have changed the value it reached, for a walk
/// watching above it.
pub(super) fn mark_changed(f: &mut Frame<'_>, changed: bool) {
    if let Some(flag) = &mut f.chain_changed {
        *flag = changed;
    }
}

/// Rhai's write-back of a value read through a getter, after the rest of the chain may have
/// changed it: the setter (`set$tag`, refused on a constant); with none, the indexer setter with
/// the property's name, which no type a script sees has, so nothing is written. One operation
/// each.
fn write_back(
    f: &mut Frame<'_>,
    target: &mut Dynamic,
    setter: &Site,
    mut value: Dynamic,
    pos: Position,
) -> R<()> {
    f.add_operations(1);
    match setter.call(f, &mut [target, &mut value], pos) {
        Ok(_) => Ok(()),
        Err(e) if matches!(*e, EvalAltResult::ErrorDotExpr(..)) => {
            f.add_operations(1);
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// A method link's one entry with its literal name resolved, when it takes the arguments (then
/// it is the entry Rhai's dispatch picks); `None` leaves the arguments as they were, for the
/// general way. `args` are the arguments after the receiver, the name among them as evaluated.
fn call_literal(l: &Literal, target: &mut Dynamic, args: &mut [Dynamic]) -> Option<R<Dynamic>> {
    let i = l.index();
    if i >= args.len() {
        return None;
    }
    // The entry finds `()` in the name's place.
    let name = std::mem::take(&mut args[i]);
    let result = match args {
        [a] => named_call(l, &mut [target, a]),
        [a, b] => named_call(l, &mut [target, a, b]),
        [a, b, c] => named_call(l, &mut [target, a, b, c]),
        _ => None,
    };
    if result.is_none() {
        args[i] = name;
    }
    result
}

/// `l`'s entry on `args`, if it takes them (an entry that takes its arguments in place says so
/// itself; another is asked first, as it may consume them).
fn named_call(l: &Literal, args: &mut [&mut Dynamic]) -> Option<R<Dynamic>> {
    if l.named.in_place {
        return (l.named.call)(args, l.name());
    }
    if !l.native.admits_except(args, l.named.arg) {
        return None;
    }
    Some((l.named.call)(args, l.name()).unwrap_or_else(|| {
        Err(super::super::super::host::natives::wrong_args(
            l.native.name,
        ))
    }))
}

/// The function pointer a map holds under a method's name (Rhai calls it for `map.name(…)`).
fn object_method(target: &Dynamic, name: &str) -> Option<rhai::FnPtr> {
    if !target.is_map() {
        return None;
    }
    let map = target.as_map_ref().ok()?;
    map.get(name)?.read_lock::<rhai::FnPtr>().map(|p| p.clone())
}

/// A string's character: Rhai's indexing of strings (from the end when negative).
fn string_index(target: &Dynamic, idx: &Dynamic, pos: Position) -> R<Dynamic> {
    let i = ops::index_int(idx, pos)?;
    let s = target.read_lock::<ImmutableString>().expect("a string");
    let count = s.chars().count();
    let found = if i >= 0 {
        usize::try_from(i).ok().and_then(|i| s.chars().nth(i))
    } else {
        usize::try_from(i.unsigned_abs())
            .ok()
            .and_then(|back| count.checked_sub(back))
            .and_then(|i| s.chars().nth(i))
    };
    found
        .map(Dynamic::from)
        .ok_or_else(|| EvalAltResult::ErrorStringBounds(count, i, pos).into())
}
