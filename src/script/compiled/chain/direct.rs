//! The commonest call of a rule script, a kernel entry that reads its arguments in place called
//! on a local variable with local variables and constants (`game.pget(p, "locked")`,
//! `game.rank(card)`): what `One::method<N>` decides at every call, decided once at load.

use super::super::super::host::natives::CheckedCall;
use super::super::{Frame, R, fill_position, put_back};
use super::{Link, Literal, One};
use rhai::{Dynamic, Position};

/// Where one argument comes from.
#[derive(Clone, Copy)]
enum Source {
    /// A local variable lent from its slot for the call.
    Lent(usize),
    /// The literal name the entry gets resolved (a `()` in its place).
    Name,
    /// A constant or a local variable that is not lent: evaluated, which reads it.
    Evaluated,
}

/// The entry, known at load to be the one Rhai's dispatch picks whenever it admits the
/// arguments, and to read them all in place (`Named::in_place`, `Site::in_place_only`).
enum Entry {
    Named(Literal),
    Checked(CheckedCall),
}

/// A one-link method call of one to three arguments whose entry and argument sources were
/// decided at load. When the entry does not admit the arguments (it gives `None` and has taken
/// nothing), the call is made again the general way, `One::method<N>`: the arguments are
/// constants and local variables, so reading them twice reads the same values.
pub(super) struct Direct {
    one: One,
    plan: Plan,
}

/// What a `Direct` call decided at load.
pub(super) struct Plan {
    sources: [Source; 3],
    entry: Entry,
    pos: Position,
}

impl Plan {
    /// The plan of `one`, when it is of that shape.
    pub(super) fn of(one: &One) -> Option<Plan> {
        let Link::Method {
            args,
            lent,
            literal,
            event: None,
            reads: Some(_),
            site,
            pos,
        } = &one.link
        else {
            return None;
        };
        if args.is_empty() || args.len() > 3 {
            return None;
        }
        let entry = match (literal, site.in_place_only()) {
            (Some(l), _) if l.named.in_place => Entry::Named(l.clone()),
            (None, Some(native)) => Entry::Checked(native.checked),
            _ => return None,
        };
        let name_at = literal.as_ref().map(Literal::index);
        let mut sources = [Source::Evaluated; 3];
        for (i, source) in sources.iter_mut().enumerate().take(args.len()) {
            *source = match lent[i] {
                _ if name_at == Some(i) => Source::Name,
                Some(slot) => Source::Lent(slot),
                None => Source::Evaluated,
            };
        }
        Some(Plan {
            sources,
            entry,
            pos: *pos,
        })
    }
}

impl Direct {
    /// `one`, called as `plan` (made by `Plan::of(&one)`) says.
    pub(super) fn new(one: One, plan: Plan) -> Direct {
        Direct { one, plan }
    }

    /// The number of arguments.
    pub(super) fn arity(&self) -> usize {
        match &self.one.link {
            Link::Method { args, .. } => args.len(),
            _ => unreachable!("a direct call is a method link"),
        }
    }

    /// Argument `i` before the lent ones are taken: evaluated, or a `()` for now.
    #[inline(always)]
    fn evaluate(&self, f: &mut Frame<'_>, i: usize) -> R<Dynamic> {
        match self.plan.sources[i] {
            Source::Evaluated => {
                let Link::Method { args, .. } = &self.one.link else {
                    unreachable!("a direct call is a method link")
                };
                args[i](f)
            }
            Source::Lent(_) | Source::Name => Ok(Dynamic::UNIT),
        }
    }

    /// Argument `i`, when lent, taken out of its slot.
    #[inline(always)]
    fn borrow(&self, f: &mut Frame<'_>, i: usize, value: &mut Dynamic) {
        if let Source::Lent(slot) = self.plan.sources[i] {
            // `value` holds a `()` here: no drop glue.
            put_back(value, std::mem::take(f.slot(slot)));
        }
    }

    /// Argument `i` after the call: a lent one back to its slot, the rest dropped.
    #[inline(always)]
    fn give_back(&self, f: &mut Frame<'_>, i: usize, value: Dynamic) {
        match self.plan.sources[i] {
            Source::Lent(slot) => put_back(f.slot(slot), value),
            _ => super::super::discard(value),
        }
    }

    #[inline(always)]
    fn call_entry(&self, args: &mut [&mut Dynamic]) -> Option<R<Dynamic>> {
        match &self.plan.entry {
            Entry::Named(l) => (l.named.call)(args, l.name()),
            Entry::Checked(checked) => checked(args),
        }
    }
}

/// `Direct::call<N>`: the arguments evaluated in order, the lent ones and the receiver taken
/// from their slots, the entry called, and all put back, whatever it gives.
macro_rules! direct_call {
    ($name:ident, $general:ident, [$($v:ident: $i:tt),*]) => {
        pub(super) fn $name(&self, f: &mut Frame<'_>) -> R<Dynamic> {
            let slot = self.one.slot;
            if f.slot_ref(slot).is_map() {
                return self.one.walk(f);
            }
            $(let mut $v = self.evaluate(f, $i)?;)*
            $(self.borrow(f, $i, &mut $v);)*
            let at = f.base + slot;
            let mut target = std::mem::take(&mut f.stack[at]);
            let tried = self.call_entry(&mut [&mut target, $(&mut $v),*]);
            // A kernel entry never changes its receiver: it goes back without a size check.
            put_back(&mut f.stack[at], target);
            $(self.give_back(f, $i, $v);)*
            match tried {
                Some(result) => result.map_err(|e| fill_position(e, self.plan.pos)),
                None => self.one.$general(f),
            }
        }
    };
}

impl Direct {
    direct_call!(call1, method1, [a: 0]);
    direct_call!(call2, method2, [a: 0, b: 1]);
    direct_call!(call3, method3, [a: 0, b: 1, c: 2]);
}
