//! Compiled calls of script functions and of natives with a local first argument: the
//! arguments evaluated in Rhai's order, a local passed by reference where Rhai passes the
//! variable itself, and locals lent to script functions that keep them as given.

use super::ops::{self, Site};
use super::params::{Methods, ParamUse};
use super::{Eval, FnId, Frame, R};
use rhai::{Dynamic, Position};

/// A call of a compiled script function: the arguments pushed as its first slots. When the
/// first argument is the local variable in `first_local`, it is read after the others, as Rhai
/// copies it only when it makes the call.
pub(super) fn script_call(
    id: FnId,
    args: Vec<Eval>,
    first_local: Option<usize>,
    pos: Position,
) -> Eval {
    Box::new(move |f| {
        let at = push_arguments(f, &args, |i| i == 0 && first_local.is_some())?;
        if let Some(slot) = first_local {
            f.stack[at] = f.slot(slot).clone();
        }
        f.call_compiled(id, at, pos)
    })
}

/// `script_call` with arguments lent: `lent[i]` is the caller's slot of argument i when the
/// callee keeps that parameter as given; it is lent when the callee calls no method on it either,
/// or when its value is one no method changes (the game, a view, a card, a player). The lent
/// values are moved in after the other arguments are evaluated, and back after the call.
pub(super) fn lending_script_call(
    id: FnId,
    args: Vec<Eval>,
    first_local: Option<usize>,
    lent: Vec<Option<usize>>,
    uses: ParamUse,
    pos: Position,
) -> Eval {
    // The arguments that may be lent, with their slots (`script_call` keeps none past the 64th).
    let lendable: Vec<(usize, usize)> = lent
        .iter()
        .enumerate()
        .filter_map(|(i, slot)| slot.map(|slot| (i, slot)))
        .collect();
    Box::new(move |f| {
        let mut lent_now = 0u64;
        for &(i, slot) in &lendable {
            if uses.lends(i, || methods_on(f.slot_ref(slot))) {
                lent_now |= 1 << i;
            }
        }
        // Bit i: argument i is put in place after the others are evaluated.
        let later = lent_now | u64::from(first_local.is_some());
        let at = push_arguments(f, &args, |i| i < 64 && later & (1 << i) != 0)?;
        if let Some(slot) = first_local
            && lent_now & 1 == 0
        {
            f.stack[at] = f.slot(slot).clone();
        }
        let mut out = lent_now;
        while out != 0 {
            let i = out.trailing_zeros() as usize;
            out &= out - 1;
            if let Some(Some(slot)) = lent.get(i) {
                let lent = std::mem::take(f.slot(*slot));
                super::put_back(&mut f.stack[at + i], lent);
            }
        }
        f.call_compiled_lending(id, at, pos, &lent, lent_now)
    })
}

/// Push a call's arguments onto the stack in order, a `()` in the place of each one `later`
/// names (the caller puts it there after the others); gives where they start. On an error the
/// stack is as it was.
#[inline]
fn push_arguments(f: &mut Frame<'_>, args: &[Eval], later: impl Fn(usize) -> bool) -> R<usize> {
    let at = f.stack.len();
    for (i, a) in args.iter().enumerate() {
        let v = if later(i) { Ok(Dynamic::UNIT) } else { a(f) };
        match v {
            Ok(v) => f.stack.push(v),
            Err(e) => {
                f.stack.truncate(at);
                return Err(e);
            }
        }
    }
    Ok(at)
}

/// What methods could do to the value. None changes the game, a bot's view, a card or a player
/// (the API's entries never change their first argument, and the standard library has none for
/// them but `take` and `set_tag`, which `ParamUse::kept` rules out). A map's entry may be a
/// function pointer called as a method, with the map as its `this`.
pub(super) fn methods_on(value: &Dynamic) -> Methods {
    use super::super::host::api::{Card, GameHandle, Player};
    use std::any::TypeId;
    let t = value.type_id();
    if t == TypeId::of::<GameHandle>()
        || t == TypeId::of::<Card>()
        || t == TypeId::of::<Player>()
        || t == TypeId::of::<super::super::host::view::BotView>()
    {
        Methods::ChangeNothing
    } else if value.is_map() {
        Methods::Any
    } else {
        Methods::ByName
    }
}

/// A native call `f(x, …)` whose first argument is the local variable `x`, passed by reference
/// after the other arguments are evaluated: a method changes the variable in place, and its size
/// is checked after, as Rhai checks a `&mut` argument.
pub(super) fn by_reference(site: Site, slot: usize, args: Vec<Eval>, pos: Position) -> Eval {
    Box::new(move |f| {
        let mut rest = args[1..]
            .iter()
            .map(|a| a(f))
            .collect::<R<Vec<Dynamic>>>()?;
        // Out of its slot for the call (natives never see the frame), and back whatever happens.
        let mut first = std::mem::take(f.slot(slot));
        let result = {
            let mut refs: Vec<&mut Dynamic> = Vec::with_capacity(args.len());
            refs.push(&mut first);
            refs.extend(rest.iter_mut());
            site.call(f, &mut refs, pos)
        };
        let checked = match result {
            Ok(v) if first.is_array() || first.is_map() || first.is_string() => {
                ops::check_size_of(f.engine, &first, pos).map(|()| v)
            }
            other => other,
        };
        super::put_back(f.slot(slot), first);
        checked
    })
}
