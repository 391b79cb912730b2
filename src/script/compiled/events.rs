//! Map literals, and the event calls that take one (`game.broadcast("name", #{ user: p })`,
//! `game.tell(p, "name", #{ card: c })`): the event's fields are read from the literal's values
//! in key order, without making the map, when that gives what the map would.

use super::build::Compiler;
use super::chain::Literal;
use super::ops::{self, Site};
use super::{Eval, Frame, R};
use crate::script::host::api::{self, GameHandle, Player};
use crate::script::host::natives::Ty;
use rhai::{Dynamic, EvalAltResult, Expr, ImmutableString, Position, StaticVec};
use std::sync::Arc;

/// `#{ key: value, … }`.
pub(super) struct MapLiteral {
    /// The keys and values in the order written, which is the order the values are evaluated in.
    entries: Vec<(ImmutableString, Eval)>,
    /// The keys as an event's fields hold them, made once.
    keys: Vec<crate::kernel::Key>,
    /// `entries` by key, the order a map keeps.
    by_key: Vec<usize>,
    /// Rhai's map of the keys, which the values are put into.
    template: rhai::Map,
    /// For each entry that is a local variable no other entry mentions, its slot: an event
    /// reads it there instead of a copy (no other entry can change it).
    locals: Vec<Option<usize>>,
    pos: Position,
}

impl MapLiteral {
    pub(super) fn compile(
        c: &mut Compiler<'_>,
        x: &(StaticVec<(rhai::Ident, Expr)>, rhai::Map),
        pos: Position,
    ) -> Result<MapLiteral, String> {
        let (entries, template) = x;
        let values: Vec<Expr> = entries.iter().map(|(_, v)| v.clone()).collect();
        let locals = c.lendable(&values);
        let entries = entries
            .iter()
            .map(|(key, v)| Ok((key.name.clone(), c.expr(v)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let keys = entries.iter().map(|(k, _)| k.as_str().into()).collect();
        let mut by_key: Vec<usize> = (0..entries.len()).collect();
        by_key.sort_by(|&a, &b| entries[a].0.as_str().cmp(entries[b].0.as_str()));
        Ok(MapLiteral {
            entries,
            keys,
            by_key,
            template: template.clone(),
            locals,
            pos,
        })
    }

    /// The map.
    pub(super) fn make(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        let values = self.values(f)?;
        self.with_values(f, values)
    }

    /// Its values, evaluated in the order written.
    fn values(&self, f: &mut Frame<'_>) -> R<StaticVec<Dynamic>> {
        self.entries.iter().map(|(_, v)| v(f)).collect()
    }

    /// Its values, evaluated in the order written, but `()` for those read in place (`locals`):
    /// `value` gives each.
    fn values_but_locals(&self, f: &mut Frame<'_>) -> R<StaticVec<Dynamic>> {
        (self.entries.iter().zip(&self.locals))
            .map(|((_, v), local)| match local {
                Some(_) => Ok(Dynamic::UNIT),
                None => v(f),
            })
            .collect()
    }

    /// Entry `i`'s value, of `values` from `values_but_locals`.
    fn value<'v>(&self, f: &'v Frame<'_>, values: &'v [Dynamic], i: usize) -> &'v Dynamic {
        match self.locals[i] {
            Some(slot) => f.slot_ref(slot),
            None => &values[i],
        }
    }

    /// `values` from `values_but_locals` with the locals' values copied in: as `values` gives.
    fn with_locals(&self, f: &Frame<'_>, mut values: StaticVec<Dynamic>) -> StaticVec<Dynamic> {
        for (i, local) in self.locals.iter().enumerate() {
            if let Some(slot) = local {
                values[i] = f.slot_ref(*slot).clone();
            }
        }
        values
    }

    /// The map of `values` (as `values` gives them), its size checked.
    fn with_values(&self, f: &Frame<'_>, values: StaticVec<Dynamic>) -> R<Dynamic> {
        let mut map = self.template.clone();
        for ((key, _), v) in self.entries.iter().zip(values) {
            map.insert(key.as_str().into(), v);
        }
        ops::check_size(f.engine, Dynamic::from_map(map), self.pos)
    }

    /// The size check the map of `values` gets (its entries, and the items, entries and string
    /// bytes its values hold, nested ones included), as Rhai makes it. `None` when a value is a
    /// blob, or holds one, or nests deeper than `MAX_SIZED_DEPTH` (then the map is made
    /// and Rhai checks it).
    fn check_sizes(&self, f: &Frame<'_>, values: &[Dynamic]) -> Option<R<()>> {
        let mut sizes = Sizes {
            items: 0,
            entries: values.len(),
            bytes: 0,
        };
        for v in (0..values.len()).map(|i| self.value(f, values, i)) {
            sizes.add(held(v, 0)?);
        }
        let too_large = |what: &str| {
            Some(Err(
                EvalAltResult::ErrorDataTooLarge(what.into(), self.pos).into()
            ))
        };
        let engine = f.engine;
        // Rhai checks strings, then arrays, then maps; 0 is no limit.
        if engine.max_string_size() != 0 && sizes.bytes > engine.max_string_size() {
            return too_large("Length of string");
        }
        if engine.max_array_size() != 0 && sizes.items > engine.max_array_size() {
            return too_large("Size of array/BLOB");
        }
        if engine.max_map_size() != 0 && sizes.entries > engine.max_map_size() {
            return too_large("Size of object map");
        }
        Some(Ok(()))
    }
}

/// What Rhai's size check counts in a value: array items, object map entries, string bytes.
#[derive(Clone, Copy)]
struct Sizes {
    items: usize,
    entries: usize,
    bytes: usize,
}

impl Sizes {
    fn add(&mut self, other: Sizes) {
        self.items = self.items.saturating_add(other.items);
        self.entries = self.entries.saturating_add(other.entries);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

/// How deep `held` looks into lists and maps before it leaves the check to Rhai.
const MAX_SIZED_DEPTH: usize = 32;

/// What Rhai's size check counts for a value held by a map or an array, beyond the entry or item
/// itself: an array's items and a map's entries (and what they hold), a string's bytes. `None`
/// for a blob, or past `MAX_SIZED_DEPTH` (the caller leaves the check to Rhai).
fn held(v: &Dynamic, depth: usize) -> Option<Sizes> {
    let mut sizes = Sizes {
        items: 0,
        entries: 0,
        bytes: 0,
    };
    // A number, a flag, a card or a player (most fields) holds nothing more.
    if v.is_variant() || v.is_int() || v.is_bool() {
        return Some(sizes);
    }
    if v.is_blob() || depth > MAX_SIZED_DEPTH {
        return None;
    }
    if v.is_array() {
        for item in v.as_array_ref().ok()?.iter() {
            sizes.items = sizes.items.saturating_add(1);
            sizes.add(held(item, depth + 1)?);
        }
    } else if v.is_map() {
        for value in v.as_map_ref().ok()?.values() {
            sizes.entries = sizes.entries.saturating_add(1);
            sizes.add(held(value, depth + 1)?);
        }
    } else if let Some(s) = v.read_lock::<ImmutableString>() {
        sizes.bytes = s.len();
    }
    Some(sizes)
}

/// `game.broadcast("name", #{…})` or `game.tell(p, "name", #{…})` on a local `game`.
pub(super) struct EventCall {
    name: Literal,
    /// Whether it is `tell` (its first argument is the player).
    tell: bool,
    fields: Arc<MapLiteral>,
}

impl EventCall {
    /// For a call of `site` (a method on a local variable) with `args`, whose name is `name`
    /// and whose last argument compiled to `fields`.
    pub(super) fn of(
        site: &Site,
        args: &[Expr],
        name: Option<&Literal>,
        fields: Option<&Arc<MapLiteral>>,
    ) -> Option<EventCall> {
        let native = site.only()?;
        let tell = match (native.name, native.params) {
            ("broadcast", [Ty::Game, Ty::Str, Ty::Map]) => false,
            ("tell", [Ty::Game, Ty::Player, Ty::Str, Ty::Map]) => true,
            _ => return None,
        };
        if !matches!(args.last(), Some(Expr::Map(..))) {
            return None;
        }
        Some(EventCall {
            name: name?.clone(),
            tell,
            fields: fields?.clone(),
        })
    }

    /// The call, on the local variable in `at` (not a map), with the link's arguments (`args`,
    /// the last one the map literal), `lent[0]` the player's slot when it is lent.
    pub(super) fn call(
        &self,
        f: &mut Frame<'_>,
        at: usize,
        site: &Site,
        args: &[Eval],
        lent: &[Option<usize>],
        pos: Position,
    ) -> R<Dynamic> {
        // Rhai's order: the arguments in turn (a lent player is read after them), then the call.
        let player_value = match (self.tell, lent.first().copied().flatten()) {
            (true, None) => Some(args[0](f)?),
            _ => None,
        };
        let values = self.fields.values_but_locals(f)?;
        let sized = self.fields.check_sizes(f, &values);
        if let Some(Err(e)) = sized {
            return Err(e);
        }
        let player = if self.tell {
            match (&player_value, lent.first().copied().flatten()) {
                (Some(v), _) => v.read_lock::<Player>().map(|p| *p),
                (None, Some(slot)) => f.slot_ref(slot).read_lock::<Player>().map(|p| *p),
                (None, None) => None,
            }
        } else {
            None
        };
        let direct = sized.is_some() && (!self.tell || player.is_some());
        if direct && let Some(g) = f.stack[at].read_lock::<GameHandle>() {
            let name = self.name.name();
            let fields = self.fields.by_key.iter().map(|&i| {
                let value = self.fields.value(f, &values, i);
                (&self.fields.keys[i], value)
            });
            let result = match player {
                Some(p) => api::tell(&g, p, name, fields),
                None => api::broadcast(&g, name, fields),
            };
            return result
                .map(|()| Dynamic::UNIT)
                .map_err(|e| super::fill_position(e, pos));
        }
        // Not the entry's types: the call as written, for Rhai's dispatch.
        let values = self.fields.with_locals(f, values);
        let mut map = self.fields.with_values(f, values)?;
        let mut name = Dynamic::from(self.name.text().clone());
        let mut target = std::mem::take(&mut f.stack[at]);
        let result = match (self.tell, player_value, lent.first().copied().flatten()) {
            (false, ..) => site.call(f, &mut [&mut target, &mut name, &mut map], pos),
            (true, Some(mut p), _) => {
                site.call(f, &mut [&mut target, &mut p, &mut name, &mut map], pos)
            }
            (true, None, Some(slot)) => {
                let mut p = f.slot_ref(slot).clone();
                site.call(f, &mut [&mut target, &mut p, &mut name, &mut map], pos)
            }
            (true, None, None) => unreachable!("tell's player is evaluated or lent"),
        };
        super::chain::put_receiver_back(f, at, target, result, pos)
    }
}
