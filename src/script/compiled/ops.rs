//! Calls of native functions from compiled code: operators on integers, booleans, strings and
//! `()` done in place, kernel API functions called through their table entry, everything else
//! (the standard library, odd argument types, every error) through Rhai itself.

use super::super::host::api::{bool_of, int_of};
use super::super::host::natives::{self, Native, Tables, Ty};
use super::{Frame, R};
use crate::script::host::MAX_STRING_BYTES;
use rhai::{Dynamic, Engine, EvalAltResult, INT, ImmutableString, Position};

/// A call site of a native function: its name, and the table entries of that name and arity.
pub(super) struct Site {
    name: ImmutableString,
    /// The operator it is, for the in-place paths.
    op: Op,
    /// In the order Rhai tries them (`natives::rhai_order`).
    natives: Vec<&'static Native>,
    /// The one entry, when there is one and no parameter after the first consumes its argument:
    /// it is tried on the arguments as they are (`Native::checked`), with no check before.
    in_place_only: Option<&'static Native>,
    /// Whether an entry takes `Any` (then `==` of unlike types is not decided in place).
    any: bool,
    /// Whether every entry takes two values of one type (`==` of two cards): then no entry
    /// takes two values of unlike types, and Rhai's built-in rule decides them.
    same_typed: bool,
}

/// Methods that change no value they are called on (the kernel's entries never do, nor do the
/// standard library's) but a map, whose entry of that name may be a function pointer called with
/// the map as its `this`.
pub(super) const READS_ONLY: [&str; 3] = ["len", "is_empty", "contains"];

/// The operators done in place on built-in types.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    RangeInclusive,
    Other,
}

impl Op {
    fn of(name: &str) -> Op {
        match name {
            "+" => Op::Add,
            "-" => Op::Sub,
            "*" => Op::Mul,
            "/" => Op::Div,
            "%" => Op::Rem,
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            ".." => Op::Range,
            "..=" => Op::RangeInclusive,
            _ => Op::Other,
        }
    }
}

impl Site {
    pub(crate) fn new(tables: Tables, name: &str, arity: usize) -> Site {
        // An entry of an earlier table hides one of a later table with the same signature, as
        // the later registration does in Rhai.
        let mut natives: Vec<&'static Native> = Vec::new();
        for table in tables {
            for n in table.iter() {
                if n.name == name
                    && n.params.len() == arity
                    && !natives.iter().any(|m| m.params == n.params)
                {
                    natives.push(n);
                }
            }
        }
        let any = natives.iter().any(|n| n.params.contains(&Ty::Any));
        let same_typed = natives
            .iter()
            .all(|n| matches!(n.params, [a, b] if a == b && *a != Ty::Any));
        let natives = natives::rhai_order(natives);
        let in_place_only = match natives[..] {
            [n] if !n.params.iter().skip(1).any(|t| t.consumes()) => Some(n),
            _ => None,
        };
        Site {
            name: name.into(),
            op: Op::of(name),
            natives,
            in_place_only,
            any,
            same_typed,
        }
    }

    /// The one table entry of its name and arity, when there is exactly one (then Rhai's
    /// dispatch picks it whenever it admits the arguments).
    pub(crate) fn only(&self) -> Option<&'static Native> {
        match self.natives[..] {
            [native] => Some(native),
            _ => None,
        }
    }

    /// The one entry when it takes its other arguments in place (see the field).
    #[inline]
    pub(super) fn in_place_only(&self) -> Option<&'static Native> {
        self.in_place_only
    }

    /// Its table entries, in the order Rhai tries them.
    pub(crate) fn entries(&self) -> &[&'static Native] {
        &self.natives
    }

    /// The function's name.
    pub(crate) fn name(&self) -> &ImmutableString {
        &self.name
    }

    /// The table entry the arguments select, as Rhai would pick it (`None`: Rhai's own call).
    #[inline]
    pub(crate) fn resolve(&self, args: &[&mut Dynamic]) -> Option<&'static Native> {
        natives::resolve_ordered(&self.natives, args)
    }

    /// Call it: the table entry the arguments select, as Rhai would pick it, or Rhai's own call.
    #[inline]
    pub(crate) fn call(
        &self,
        f: &mut Frame<'_>,
        args: &mut [&mut Dynamic],
        pos: Position,
    ) -> R<Dynamic> {
        if let Some(native) = self.in_place_only {
            // `None`: not of its types, so Rhai's dispatch would not pick it either.
            if let Some(result) = (native.checked)(args) {
                return result.map_err(|e| super::fill_position(e, pos));
            }
        } else if let Some(native) = natives::resolve_ordered(&self.natives, args) {
            return (native.call)(args).map_err(|e| super::fill_position(e, pos));
        }
        if let Some(result) = standard(f, &self.name, args) {
            return result;
        }
        let name = self.name.clone();
        let result = f.call_rhai(&name, args, pos)?;
        check_size(f.engine, result, pos)
    }
}

/// The standard library's functions that scripts call most, done in place for the types they
/// are called on as Rhai's own would do them (`None`: call Rhai's).
fn standard(f: &mut Frame<'_>, name: &str, args: &mut [&mut Dynamic]) -> Option<R<Dynamic>> {
    let first = args.first()?;
    // A constant is changed by no method: Rhai's own call refuses the ones that would.
    if first.is_read_only() && matches!(name, "push" | "pop" | "shift") {
        return None;
    }
    let result: Dynamic = match (name, args.len()) {
        ("len", 1) if first.is_array() => (first.as_array_ref().ok()?.len() as INT).into(),
        ("len", 1) if first.is_map() => (first.as_map_ref().ok()?.len() as INT).into(),
        ("len", 1) if first.is_string() => {
            (first.read_lock::<ImmutableString>()?.chars().count() as INT).into()
        }
        ("is_empty", 1) if first.is_array() => first.as_array_ref().ok()?.is_empty().into(),
        ("push", 2) if first.is_array() => {
            let item = args[1].take();
            args[0].as_array_mut().ok()?.push(item);
            Dynamic::UNIT
        }
        ("pop", 1) if first.is_array() => {
            let mut array = args[0].as_array_mut().ok()?;
            array.pop().unwrap_or(Dynamic::UNIT)
        }
        ("shift", 1) if first.is_array() => {
            let mut array = args[0].as_array_mut().ok()?;
            if array.is_empty() {
                Dynamic::UNIT
            } else {
                array.remove(0)
            }
        }
        ("contains", 2) if first.is_array() => {
            let array = first.as_array_ref().ok()?;
            let mut found = false;
            // Rhai calls `==` for each item it compares, and counts each call.
            let mut compared = 0;
            for item in array.iter() {
                compared += 1;
                if equal(item, args[1])? {
                    found = true;
                    break;
                }
            }
            f.add_operations(compared);
            found.into()
        }
        ("contains", 2) if first.is_map() && args[1].is_string() => {
            let key = args[1].read_lock::<ImmutableString>()?;
            first.as_map_ref().ok()?.contains_key(key.as_str()).into()
        }
        _ => return None,
    };
    Some(Ok(result))
}

/// `a == b` as Rhai decides it, for the types it is sure of (`None`: ask Rhai).
fn equal(a: &Dynamic, b: &Dynamic) -> Option<bool> {
    use super::super::host::api::{Card, Player, Slot};
    if let (Some(x), Some(y)) = (int_of(a), int_of(b)) {
        return Some(x == y);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Card>(), b.read_lock::<Card>()) {
        return Some(*x == *y);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Player>(), b.read_lock::<Player>()) {
        return Some(*x == *y);
    }
    if let (Some(x), Some(y)) = (a.read_lock::<Slot>(), b.read_lock::<Slot>()) {
        return Some(*x == *y);
    }
    if a.is_string() && b.is_string() {
        return Some(*a.read_lock::<ImmutableString>()? == *b.read_lock::<ImmutableString>()?);
    }
    if let (Some(x), Some(y)) = (bool_of(a), bool_of(b)) {
        return Some(x == y);
    }
    // A character and a string are equal when the string is that one character (Rhai's
    // built-in rule, either way round).
    if let (Ok(c), true) = (a.as_char(), b.is_string()) {
        return Some(one_char(&b.read_lock::<ImmutableString>()?, c));
    }
    if let (true, Ok(c)) = (a.is_string(), b.as_char()) {
        return Some(one_char(&a.read_lock::<ImmutableString>()?, c));
    }
    // Unlike types that are not both numbers are unequal (Rhai's built-in rule), unless an
    // entry of the table takes them: the table's `==` entries take two values of one type.
    let numeric = |d: &Dynamic| d.is_int() || d.is_float();
    if a.type_id() != b.type_id() && !(numeric(a) && numeric(b)) {
        return Some(false);
    }
    None
}

/// Whether `s` is the one character `c`.
fn one_char(s: &str, c: char) -> bool {
    let mut chars = s.chars();
    chars.next() == Some(c) && chars.next().is_none()
}

/// An operator on two values: in place for the common types, else as Rhai calls it.
pub(crate) fn binary(
    f: &mut Frame<'_>,
    site: &Site,
    a: Dynamic,
    b: Dynamic,
    pos: Position,
) -> R<Dynamic> {
    if let Some(v) = fast_binary_counted(f, site, &a, &b) {
        super::discard(a);
        super::discard(b);
        return Ok(v);
    }
    count_operator(f, site, &a, &b);
    binary_uncounted(f, site, a, b, pos)
}

/// `fast_binary`, counting the call Rhai makes when an operand is of a type it has no
/// built-in operator for (`card != ()`: decided in place, but counted as Rhai's call).
#[inline]
pub(super) fn fast_binary_counted(
    f: &mut Frame<'_>,
    site: &Site,
    a: &Dynamic,
    b: &Dynamic,
) -> Option<Dynamic> {
    let v = fast_binary(site, a, b)?;
    if a.is_variant() || b.is_variant() {
        f.add_operations(1);
    }
    Some(v)
}

/// Rhai counts the call of an operator it has not built in for the operands' types.
#[inline]
pub(super) fn count_operator(f: &mut Frame<'_>, site: &Site, a: &Dynamic, b: &Dynamic) {
    if !builtin_operator(site.name.as_str(), a, b) {
        f.add_operations(1);
    }
}

/// `binary` without its count.
pub(super) fn binary_uncounted(
    f: &mut Frame<'_>,
    site: &Site,
    mut a: Dynamic,
    mut b: Dynamic,
    pos: Position,
) -> R<Dynamic> {
    if let Some(v) = fast_binary(site, &a, &b) {
        super::discard(a);
        super::discard(b);
        return Ok(v);
    }
    if let Some(result) = same_typed(site, &mut a, &mut b, pos) {
        return result;
    }
    site.call(f, &mut [&mut a, &mut b], pos)
}

/// Two kernel values of one type (`game.current != p`): when every entry takes two values of
/// one type, the entry for theirs is the one Rhai's dispatch picks, found by one type check
/// instead of matching each entry's parameters. Such an entry reads both values in place and
/// keeps neither (`None`, with both as they were, when there is none for them).
#[inline]
pub(super) fn same_typed(
    site: &Site,
    a: &mut Dynamic,
    b: &mut Dynamic,
    pos: Position,
) -> Option<R<Dynamic>> {
    if !(site.same_typed && !site.any && a.is_variant()) {
        return None;
    }
    let t = a.type_id();
    if t != b.type_id() {
        return None;
    }
    let native = site
        .natives
        .iter()
        .find(|n| n.params[0].type_id() == t && !n.params[1].consumes())?;
    let result = (native.checked)(&mut [a, b])?;
    Some(result.map_err(|e| super::fill_position(e, pos)))
}

/// An op-assignment (`x += y`): the operator's call site and the assignment's name.
pub(super) struct OpAssign {
    site: Site,
    /// `+=`, as Rhai names the function.
    name: &'static str,
}

impl OpAssign {
    pub(crate) fn new(site: Site, name: &'static str) -> OpAssign {
        OpAssign { site, name }
    }
}

/// `old op= new` as Rhai does it: in place for the common types; else the op-assignment
/// function (a registered `+=`, or Rhai's built-in one, such as `array += item` pushing the
/// item); and when there is none, `old op new`.
pub(crate) fn op_assign(
    f: &mut Frame<'_>,
    op: &OpAssign,
    mut old: Dynamic,
    mut new: Dynamic,
    pos: Position,
) -> R<Dynamic> {
    if let Some(v) = fast_binary(&op.site, &old, &new) {
        super::discard(old);
        super::discard(new);
        return Ok(v);
    }
    // Rhai counts nothing for an op-assignment it has built in, one for a call of an `op=`
    // function, and one more for the operator when there is none.
    let builtin = builtin_op_assignment(op.name, &old, &new);
    if op.name == "+=" && old.is_array() && new.is_array() {
        return append(f, old, new, pos);
    }
    let kept = new.clone();
    match f.call_rhai(op.name, &mut [&mut old, &mut new], pos) {
        Ok(_) => {
            f.add_operations(u64::from(!builtin));
            check_size_of(f.engine, &old, pos)?;
            Ok(old)
        }
        Err(e) if matches!(&*e, EvalAltResult::ErrorFunctionNotFound(name, _) if name.starts_with(op.name)) =>
        {
            f.add_operations(2);
            binary_uncounted(f, &op.site, old, kept, pos)
        }
        Err(e) => Err(e),
    }
}

/// `array += array` as Rhai's built-in does it (`func/builtin.rs`): nothing for an empty right
/// side; the left side's size checked *before* appending, and only when it is not empty; nothing
/// checked after (with fast operators, `eval_op_assignment` checks no built-in's target).
fn append(f: &mut Frame<'_>, mut old: Dynamic, new: Dynamic, pos: Position) -> R<Dynamic> {
    let Ok(items) = new.into_array() else {
        return Ok(old);
    };
    if items.is_empty() {
        return Ok(old);
    }
    if old.as_array_ref().is_ok_and(|a| !a.is_empty()) {
        check_size_of(f.engine, &old, pos)?;
    }
    if let Ok(mut array) = old.as_array_mut() {
        if array.is_empty() {
            *array = items;
        } else {
            array.extend(items);
        }
    }
    Ok(old)
}

/// `op` on the types Rhai has built in, when the result needs no error (`None`: ask Rhai, which
/// also makes the error of an overflow or a division by zero).
#[inline]
pub(super) fn fast_binary(site: &Site, a: &Dynamic, b: &Dynamic) -> Option<Dynamic> {
    let op = site.op;
    if op == Op::Other {
        return None;
    }
    if let (Some(x), Some(y)) = (int_of(a), int_of(b)) {
        return Some(match op {
            Op::Add => x.checked_add(y)?.into(),
            Op::Sub => x.checked_sub(y)?.into(),
            Op::Mul => x.checked_mul(y)?.into(),
            Op::Div if y != 0 => x.checked_div(y)?.into(),
            Op::Rem if y != 0 => x.checked_rem(y)?.into(),
            Op::Eq => (x == y).into(),
            Op::Ne => (x != y).into(),
            Op::Lt => (x < y).into(),
            Op::Le => (x <= y).into(),
            Op::Gt => (x > y).into(),
            Op::Ge => (x >= y).into(),
            Op::Range => Dynamic::from(x..y),
            Op::RangeInclusive => Dynamic::from(x..=y),
            _ => return None,
        });
    }
    if let (Some(x), Some(y)) = (bool_of(a), bool_of(b)) {
        return match op {
            Op::Eq => Some((x == y).into()),
            Op::Ne => Some((x != y).into()),
            _ => None,
        };
    }
    if a.is_string() && b.is_string() {
        let (x, y) = (
            a.read_lock::<ImmutableString>()?,
            b.read_lock::<ImmutableString>()?,
        );
        return match op {
            Op::Eq => Some((*x == *y).into()),
            Op::Ne => Some((*x != *y).into()),
            Op::Add if x.len() + y.len() <= MAX_STRING_BYTES => Some(Dynamic::from(&*x + &*y)),
            _ => None,
        };
    }
    // Rhai's built-in comparison of unlike types, when no table entry could take them:
    // `card != ()`.
    if (a.is_unit() || b.is_unit()) && !site.any {
        let same = a.is_unit() && b.is_unit();
        return match op {
            Op::Eq => Some(same.into()),
            Op::Ne => Some((!same).into()),
            _ => None,
        };
    }
    // A kernel value against a value of another type (`slot != "drawn"`): Rhai's last built-in
    // rule, for values of unlike types that are not both numbers, when no entry takes them (none
    // of Rhai's earlier built-in pairs involves a kernel value).
    if site.same_typed && (is_kernel_value(a) || is_kernel_value(b)) && a.type_id() != b.type_id() {
        return match op {
            Op::Ne => Some(true.into()),
            Op::Eq | Op::Lt | Op::Le | Op::Gt | Op::Ge => Some(false.into()),
            _ => None,
        };
    }
    None
}

/// Whether a value is one of the kernel API's own types (a card, a player, a slot, a located
/// card).
fn is_kernel_value(d: &Dynamic) -> bool {
    use super::super::host::api::{Card, Located, Player, Slot};
    use std::any::TypeId;
    if !d.is_variant() {
        return false;
    }
    let t = d.type_id();
    t == TypeId::of::<Card>()
        || t == TypeId::of::<Player>()
        || t == TypeId::of::<Slot>()
        || t == TypeId::of::<Located>()
}

/// A unary operator (`!`, `-`).
pub(super) fn unary(f: &mut Frame<'_>, site: &Site, mut a: Dynamic, pos: Position) -> R<Dynamic> {
    // Rhai counts a call unless it has the operator built in: `!` of a boolean, `-` of a number.
    let builtin = match site.name.as_str() {
        "!" => a.is_bool(),
        "-" => a.is_int() || a.is_float(),
        _ => false,
    };
    if !builtin {
        f.add_operations(1);
    }
    match site.name.as_str() {
        "!" if a.is_bool() => return Ok((!a.as_bool().expect("a bool")).into()),
        "-" if a.is_int() => {
            // Rhai's built-in negation says no more than this.
            return match a.as_int().expect("an integer").checked_neg() {
                Some(n) => Ok(n.into()),
                None => Err(EvalAltResult::ErrorArithmetic("integer overflow".into(), pos).into()),
            };
        }
        _ => {}
    }
    site.call(f, &mut [&mut a], pos)
}

/// A string with `${…}` parts, each shown as Rhai shows it (`to_string`).
pub(super) fn interpolate(
    f: &mut Frame<'_>,
    parts: &[(super::Eval, Position)],
    to_string: &Site,
    pos: Position,
) -> R<Dynamic> {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (part, part_pos) in parts {
        let mut v = part(f)?;
        if let Some(s) = v.read_lock::<ImmutableString>() {
            out.push_str(&s);
            continue_checked(&out, pos)?;
            continue;
        }
        // Rhai counts the call of `to_string` for a part that is not a string.
        f.add_operations(1);
        if let Some(n) = int_of(&v) {
            let _ = write!(out, "{n}");
        } else {
            let shown = to_string.call(f, &mut [&mut v], *part_pos)?;
            out.push_str(&shown.to_string());
        }
        if out.len() > MAX_STRING_BYTES {
            return Err(too_large("Length of string", pos));
        }
    }
    Ok(Dynamic::from(out))
}

/// The size check `interpolate` makes after each part.
fn continue_checked(out: &str, pos: Position) -> R<()> {
    if out.len() > MAX_STRING_BYTES {
        return Err(too_large("Length of string", pos));
    }
    Ok(())
}

/// Whether Rhai has operator `op` built in for the types of `a` and `b` (`builtin.rs` of Rhai):
/// then it counts no call.
pub(super) fn builtin_operator(op: &str, a: &Dynamic, b: &Dynamic) -> bool {
    if a.is_variant() || b.is_variant() {
        return false;
    }
    let compare = matches!(op, "==" | "!=" | ">" | ">=" | "<" | "<=");
    let number = |d: &Dynamic| d.is_int() || d.is_float();
    let arithmetic = matches!(op, "+" | "-" | "*" | "/" | "%" | "**");
    if a.is_int() && b.is_int() {
        return compare || arithmetic || matches!(op, ">>" | "<<" | "&" | "|" | "^" | ".." | "..=");
    }
    if number(a) && number(b) {
        return compare || arithmetic;
    }
    if a.is_bool() && b.is_bool() {
        return compare || matches!(op, "&" | "|" | "^");
    }
    if a.is_string() && b.is_string() {
        return compare || matches!(op, "+" | "-");
    }
    if a.is_char() && b.is_char() {
        return compare || op == "+";
    }
    if a.is_blob() && b.is_blob() {
        return matches!(op, "+" | "==" | "!=");
    }
    if a.is_unit() && b.is_unit() {
        return compare;
    }
    if (a.is_int() && b.is_unit()) || (a.is_unit() && b.is_int()) {
        // Ranges open at one end; comparisons as for any two types.
        return matches!(op, ".." | "..=") || compare;
    }
    if a.is_char() && b.is_string() {
        return compare || op == "+";
    }
    if a.is_string() && b.is_char() {
        return compare || matches!(op, "+" | "-");
    }
    if (a.is_unit() && b.is_string()) || (a.is_string() && b.is_unit()) {
        return compare || op == "+";
    }
    if a.is_blob() && b.is_char() {
        return op == "+";
    }
    // Values of two other types compare as unequal (not both numbers: those are above).
    a.type_id() != b.type_id() && compare
}

/// Whether Rhai has op-assignment `op` (`+=`) built in for the types of `a` and `b`.
pub(super) fn builtin_op_assignment(op: &str, a: &Dynamic, b: &Dynamic) -> bool {
    if a.is_int() && b.is_int() {
        return true;
    }
    let arithmetic = matches!(op, "+=" | "-=" | "*=" | "/=" | "%=" | "**=");
    if a.is_float() && (b.is_float() || b.is_int()) {
        return arithmetic;
    }
    if a.is_bool() && b.is_bool() {
        return matches!(op, "&=" | "|=" | "^=");
    }
    if a.is_string() && (b.is_string() || b.is_char()) {
        return matches!(op, "+=" | "-=");
    }
    if a.is_char() && (b.is_char() || b.is_string()) {
        return op == "+=";
    }
    if a.is_array() {
        return op == "+=";
    }
    if a.is_blob() && (b.is_blob() || b.is_int() || b.is_char() || b.is_string()) {
        return op == "+=";
    }
    false
}

fn too_large(what: &str, pos: Position) -> Box<EvalAltResult> {
    EvalAltResult::ErrorDataTooLarge(what.into(), pos).into()
}

/// Rhai's size check of a value (its arrays' items, maps' entries and strings' bytes, in all),
/// done by the engine itself: the same limits, the same errors.
pub(super) fn check_size(engine: &Engine, value: Dynamic, pos: Position) -> R<Dynamic> {
    check_size_of(engine, &value, pos)?;
    Ok(value)
}

/// `check_size` of a value in place.
#[inline]
pub(super) fn check_size_of(engine: &Engine, value: &Dynamic, pos: Position) -> R<()> {
    engine
        .ensure_data_size_within_limits(value)
        .map_err(|e| super::fill_position(e, pos))
}

/// An integer of an index, or Rhai's type error.
pub(super) fn index_int(idx: &Dynamic, pos: Position) -> R<INT> {
    idx.as_int()
        .map_err(|typ| super::build::mismatch("i64", typ, pos))
}
