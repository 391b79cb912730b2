//! Calls of native functions from compiled code: operators on integers, booleans, strings and
//! `()` done in place, kernel API functions called through their table entry, everything else
//! (the standard library, odd argument types, every error) through Rhai itself.

use super::super::natives::{self, Native, Ty};
use super::{Frame, R};
use crate::script::{MAX_ARRAY_ITEMS, MAX_MAP_ENTRIES, MAX_STRING_BYTES};
use rhai::{Dynamic, EvalAltResult, INT, ImmutableString, Position};

/// A call site of a native function: its name, and the table entries of that name and arity.
pub(crate) struct Site {
    name: ImmutableString,
    natives: Vec<&'static Native>,
    /// Whether an entry takes `Any` (then `==` of unlike types is not decided in place).
    any: bool,
}

impl Site {
    pub(crate) fn new(name: &str, arity: usize) -> Site {
        let natives: Vec<&'static Native> = natives::NATIVES
            .iter()
            .filter(|n| n.name == name && n.params.len() == arity)
            .collect();
        let any = natives.iter().any(|n| n.params.contains(&Ty::Any));
        Site {
            name: name.into(),
            natives,
            any,
        }
    }

    /// Call it: the table entry the arguments select, as Rhai would pick it, or Rhai's own call.
    #[inline]
    pub(crate) fn call(
        &self,
        f: &mut Frame<'_>,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> R<Dynamic> {
        if let Some(native) = natives::resolve_among(&self.natives, args) {
            return (native.call)(args).map_err(|e| super::fill_position(e, pos));
        }
        let name = self.name.clone();
        let result = f.call_rhai(&name, args, pos)?;
        check_size(result, pos)
    }
}

/// An operator on two values: in place for the common types, else as Rhai calls it.
pub(crate) fn binary(
    f: &mut Frame<'_>,
    site: &Site,
    mut a: Dynamic,
    mut b: Dynamic,
    pos: Position,
) -> R<Dynamic> {
    if let Some(v) = fast_binary(site, &a, &b) {
        return Ok(v);
    }
    site.call(f, &mut [&mut a, &mut b], pos)
}

/// `op` on the types Rhai has built in, when the result needs no error (`None`: ask Rhai, which
/// also makes the error of an overflow or a division by zero).
#[inline]
fn fast_binary(site: &Site, a: &Dynamic, b: &Dynamic) -> Option<Dynamic> {
    let op = site.name.as_str();
    if let (Ok(x), Ok(y)) = (a.as_int(), b.as_int()) {
        return Some(match op {
            "+" => x.checked_add(y)?.into(),
            "-" => x.checked_sub(y)?.into(),
            "*" => x.checked_mul(y)?.into(),
            "/" if y != 0 => x.checked_div(y)?.into(),
            "%" if y != 0 => x.checked_rem(y)?.into(),
            "==" => (x == y).into(),
            "!=" => (x != y).into(),
            "<" => (x < y).into(),
            "<=" => (x <= y).into(),
            ">" => (x > y).into(),
            ">=" => (x >= y).into(),
            ".." => Dynamic::from(x..y),
            "..=" => Dynamic::from(x..=y),
            _ => return None,
        });
    }
    if let (Ok(x), Ok(y)) = (a.as_bool(), b.as_bool()) {
        return match op {
            "==" => Some((x == y).into()),
            "!=" => Some((x != y).into()),
            _ => None,
        };
    }
    if a.is_string() && b.is_string() {
        let (x, y) = (a.read_lock::<ImmutableString>()?, b.read_lock::<ImmutableString>()?);
        return match op {
            "==" => Some((*x == *y).into()),
            "!=" => Some((*x != *y).into()),
            "+" if x.len() + y.len() <= MAX_STRING_BYTES => Some(Dynamic::from(&*x + &*y)),
            _ => None,
        };
    }
    // Rhai's built-in comparison of unlike types, when no table entry could take them:
    // `card != ()`.
    if (a.is_unit() || b.is_unit()) && !site.any {
        let same = a.is_unit() && b.is_unit();
        return match op {
            "==" => Some(same.into()),
            "!=" => Some((!same).into()),
            _ => None,
        };
    }
    None
}

/// A unary operator (`!`, `-`).
pub(crate) fn unary(f: &mut Frame<'_>, site: &Site, mut a: Dynamic, pos: Position) -> R<Dynamic> {
    match site.name.as_str() {
        "!" if a.is_bool() => return Ok((!a.as_bool().expect("a bool")).into()),
        "-" if a.is_int() => {
            if let Some(n) = a.as_int().expect("an integer").checked_neg() {
                return Ok(n.into());
            }
        }
        _ => {}
    }
    site.call(f, &mut [&mut a], pos)
}

/// A string with `${…}` parts, each shown as Rhai shows it (`to_string`).
pub(crate) fn interpolate(
    f: &mut Frame<'_>,
    parts: &[(super::Eval, Position)],
    pos: Position,
) -> R<Dynamic> {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (part, part_pos) in parts {
        let mut v = part(f)?;
        if let Some(s) = v.read_lock::<ImmutableString>() {
            out.push_str(&s);
        } else if let Ok(n) = v.as_int() {
            let _ = write!(out, "{n}");
        } else {
            let site = Site::new("to_string", 1);
            let shown = site.call(f, &mut [&mut v], *part_pos)?;
            out.push_str(&shown.to_string());
        }
        if out.len() > MAX_STRING_BYTES {
            return Err(too_large("Length of string", pos));
        }
    }
    Ok(Dynamic::from(out))
}

fn too_large(what: &str, pos: Position) -> Box<EvalAltResult> {
    EvalAltResult::ErrorDataTooLarge(what.into(), pos).into()
}

/// Rhai's size check of a value: its arrays' items, maps' entries and strings' bytes, in all.
pub(crate) fn check_size(value: Dynamic, pos: Position) -> R<Dynamic> {
    if value.is_array() || value.is_map() {
        let (arrays, maps, strings) = sizes(&value);
        if arrays > MAX_ARRAY_ITEMS {
            return Err(too_large("Size of array/BLOB", pos));
        }
        if maps > MAX_MAP_ENTRIES {
            return Err(too_large("Size of object map", pos));
        }
        if strings > MAX_STRING_BYTES {
            return Err(too_large("Length of string", pos));
        }
    } else if let Some(s) = value.read_lock::<ImmutableString>()
        && s.len() > MAX_STRING_BYTES
    {
        return Err(too_large("Length of string", pos));
    }
    Ok(value)
}

/// Items of arrays, entries of maps, bytes of strings, counted as Rhai counts them.
fn sizes(value: &Dynamic) -> (usize, usize, usize) {
    if let Some(array) = value.read_lock::<rhai::Array>() {
        return array.iter().fold((0, 0, 0), |(a, m, s), item| {
            let (ia, im, is) = sizes(item);
            (a + 1 + ia, m + im, s + is)
        });
    }
    if let Some(map) = value.read_lock::<rhai::Map>() {
        return map.values().fold((0, 0, 0), |(a, m, s), item| {
            let (ia, im, is) = sizes(item);
            (a + ia, m + 1 + im, s + is)
        });
    }
    if let Some(s) = value.read_lock::<ImmutableString>() {
        return (0, 0, s.len());
    }
    (0, 0, 0)
}

/// An integer of an index, or Rhai's type error.
pub(crate) fn index_int(idx: &Dynamic, pos: Position) -> R<INT> {
    idx.as_int()
        .map_err(|typ| super::build::mismatch("i64", typ, pos))
}
