//! Dot and index chains (`game.phase`, `seen.push(x)`, `scores[name] = total`,
//! `view.me.hand[0]`): compiled into links, the common shapes on a local variable given code of
//! their own, the rest walked from the root (`walk.rs`), in place when it is a local variable.

use super::super::host::items::{Items, ItemsFn};
use super::super::host::names::{LiteralName, Name, Named};
use super::super::host::natives::{Native, Ty};
use super::build::{Compiler, mismatch};
use super::events::{EventCall, MapLiteral};
use super::ops::{self, Site};
use super::{Eval, Frame, R};
use crate::kernel::Table;
use rhai::{ASTFlags, Dynamic, EvalAltResult, Expr, ImmutableString, Position};
use std::sync::Arc;
pub(super) use walk::Assigned;
use walk::{Evaluated, arguments, assign_last, position, walk};

mod direct;
mod walk;

pub(super) enum Root {
    /// A local variable: the chain works on it in place (`seen.push(x)` changes `seen`).
    Local(usize),
    /// Any other value: the chain works on a copy.
    Value(Eval),
}

enum Link {
    /// `.name` on a map: its entry; on another value: its getter (`get$name`).
    Property {
        key: ImmutableString,
        getter: Site,
        setter: Site,
        pos: Position,
    },
    /// `.name(args)`: the value is the function's first argument.
    Method {
        site: Site,
        args: Vec<Eval>,
        /// For each argument, the local variable it is, when it can be lent to the call instead
        /// of copied (see `Compiler::lendable`; only the one-link fast path of `get` lends).
        lent: Vec<Option<usize>>,
        /// When the site's one entry takes a name and the script wrote it as a literal: the
        /// entry and the name, which the one-link fast path passes resolved (`Native::named`).
        literal: Option<Literal>,
        /// When it is an event call with a map literal (`events::EventCall`).
        event: Option<EventCall>,
        /// When every argument is a local variable or a constant: the local variables read.
        reads: Option<Vec<usize>>,
        pos: Position,
    },
    /// `[index]`; `pos` is the index's, `open` the `[`'s.
    Index {
        index: Eval,
        /// When the index is a local variable or a constant: the local variable read.
        reads: Option<Vec<usize>>,
        pos: Position,
        open: Position,
    },
}

impl Link {
    /// When the link's arguments are local variables and constants only: the local variables
    /// read (none for a property).
    fn reads(&self) -> Option<&[usize]> {
        match self {
            Link::Property { .. } => Some(&[]),
            Link::Method { reads, .. } | Link::Index { reads, .. } => reads.as_deref(),
        }
    }
}

/// A literal name argument of a call site whose one entry takes a name.
#[derive(Clone)]
pub(crate) struct Literal {
    native: &'static Native,
    named: &'static Named,
    name: LiteralName,
}

impl Literal {
    /// For a call of `site` with `args` (the receiver not among them), names resolved in
    /// `table`.
    fn of(site: &Site, args: &[Expr], table: Option<&Arc<Table>>) -> Option<Literal> {
        let native = site.only()?;
        let named = native.named.as_ref()?;
        match args.get(named.arg.checked_sub(1)?)? {
            Expr::StringConstant(text, _) => Some(Literal {
                native,
                named,
                name: LiteralName::new(text.clone(), named.kind, table),
            }),
            _ => None,
        }
    }

    /// The argument it is (the receiver not counted).
    #[inline]
    fn index(&self) -> usize {
        self.named.arg - 1
    }

    /// The name as the entry's body sees it.
    #[inline(always)]
    pub(super) fn name(&self) -> Name<'_> {
        self.name.name(self.named.kind)
    }

    /// The name as written.
    pub(super) fn text(&self) -> &ImmutableString {
        &self.name.text
    }
}

pub(super) struct Chain {
    pub(crate) root: Root,
    links: Vec<Link>,
    /// A chain on a local variable whose first link is a method call and whose other links'
    /// arguments are constants and other local variables (`game.pget(p, "cards").contains(c)`):
    /// the first call is made as a one-link chain's, and the rest walked on its value. Rhai
    /// evaluates every link's arguments before the first call; here the rest are read after it,
    /// which reads the same values, since no call changes a local variable but its receiver.
    first_then_walk: bool,
}

/// A list that a `for` loop can walk by its items (`items::Items`) instead of making it:
/// `x.name` or `x.name(a, …)` where `x` is a local variable and every entry of that name and
/// arity gives its items (`Native::items`).
pub(super) struct ItemsSource {
    /// The receiver's slot.
    slot: usize,
    /// The arguments after the receiver.
    args: Vec<Eval>,
    /// The entries' items functions; at most one answers for any arguments.
    entries: Vec<ItemsFn>,
    /// The receiver types the entries take.
    receivers: Vec<Ty>,
    site: Site,
    pos: Position,
}

/// What an `ItemsSource` gives a loop.
pub(crate) enum Listed {
    /// The items: walk them.
    Items(Items),
    /// The list, made by the entry Rhai's dispatch picks (the arguments did not suit the items
    /// functions): walk it as any list.
    List(Dynamic),
    /// The receiver is of none of the entries' types (a map, say): the iterable is evaluated as
    /// written, nothing of it having been evaluated yet.
    Neither,
}

impl ItemsSource {
    /// When `e` is such a list.
    pub(super) fn of(c: &mut Compiler<'_>, e: &Expr) -> Result<Option<ItemsSource>, String> {
        let Expr::Dot(x, flags, _) = e else {
            return Ok(None);
        };
        if flags.contains(ASTFlags::NEGATED) || !matches!(x.lhs, Expr::Variable(..)) {
            return Ok(None);
        }
        let Some(slot) = c.root_slot(&x.lhs)? else {
            return Ok(None);
        };
        let (site, call_args, pos) = match &x.rhs {
            Expr::Property(p, pos) => (Site::new(c.natives(), &(p.0).0, 1), &[][..], *pos),
            Expr::MethodCall(call, pos) if call.args.len() <= 2 => {
                let arity = call.args.len() + 1;
                if c.is_script_method(&call.name, call.args.len()) {
                    return Ok(None);
                }
                (
                    Site::new(c.natives(), &call.name, arity),
                    &call.args[..],
                    *pos,
                )
            }
            _ => return Ok(None),
        };
        let Some(entries) = site
            .entries()
            .iter()
            .map(|n| n.items)
            .collect::<Option<Vec<_>>>()
        else {
            return Ok(None);
        };
        if entries.is_empty() {
            return Ok(None);
        }
        let receivers = site.entries().iter().map(|n| n.params[0]).collect();
        let args = call_args
            .iter()
            .map(|a| c.expr(a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(ItemsSource {
            slot,
            args,
            entries,
            receivers,
            site,
            pos,
        }))
    }

    /// The list's items, or the list itself when no entry's items function takes the
    /// arguments, or `Neither` when the receiver is of no entry's type.
    pub(super) fn list(&self, f: &mut Frame<'_>) -> R<Listed> {
        let at = f.base + self.slot;
        if self.args.is_empty() {
            // A property: when no entry answers, the general path reads it (nothing evaluated).
            let recv = &f.stack[at];
            return Ok(match self.entries.iter().find_map(|items| items(&[recv])) {
                Some(items) => Listed::Items(items),
                None => Listed::Neither,
            });
        }
        if !self.receivers.iter().any(|ty| ty.admits(&f.stack[at])) {
            return Ok(Listed::Neither);
        }
        let mut values = Vec::with_capacity(self.args.len());
        for arg in &self.args {
            values.push(arg(f)?);
        }
        let listed = {
            let recv = &f.stack[at];
            let args: &[&Dynamic] = match &values[..] {
                [] => &[recv],
                [a] => &[recv, a],
                [a, b, ..] => &[recv, a, b],
            };
            self.entries.iter().find_map(|items| items(args))
        };
        if let Some(items) = listed {
            return Ok(Listed::Items(items));
        }
        // The call the chain would make: the receiver lent from its slot, then put back.
        let mut target = std::mem::take(&mut f.stack[at]);
        let result = match &mut values[..] {
            [] => self.site.call(f, &mut [&mut target], self.pos),
            [a] => self.site.call(f, &mut [&mut target, a], self.pos),
            [a, b, ..] => self.site.call(f, &mut [&mut target, a, b], self.pos),
        };
        put_receiver_back(f, at, target, result, self.pos).map(Listed::List)
    }
}

/// Rhai's chains bind to the right: `a.b[1].c()` is `Dot(a, Index(b, Dot(1, c())))`, where a
/// node without `BREAK` continues the chain in its right-hand side and a node with it ends
/// there.
#[derive(Clone, Copy)]
enum Kind {
    Dot,
    Index,
}

pub(super) fn compile(c: &mut Compiler<'_>, e: &Expr) -> Result<Chain, String> {
    let (x, flags, kind, op_pos) = match e {
        Expr::Dot(x, flags, pos) => (x, flags, Kind::Dot, *pos),
        Expr::Index(x, flags, pos) => (x, flags, Kind::Index, *pos),
        _ => unreachable!("a chain is a dot or index expression"),
    };
    let root = match c.root_slot(&x.lhs)? {
        Some(slot) => Root::Local(slot),
        None => Root::Value(c.expr(&x.lhs)?),
    };
    let mut links = Vec::new();
    continuation(c, kind, *flags, op_pos, &x.rhs, &mut links)?;
    let first_then_walk = match (&root, &links[..]) {
        (
            Root::Local(slot),
            [
                Link::Method {
                    event: None, args, ..
                },
                rest @ ..,
            ],
        ) => {
            !rest.is_empty()
                && args.len() <= 3
                && rest
                    .iter()
                    .all(|l| l.reads().is_some_and(|r| !r.contains(slot)))
        }
        _ => false,
    };
    // Only the method call on a local `x` that is made as a one-link chain's (`x.method(args)`)
    // lends its arguments, and never `x` itself (it is lent as the first argument already).
    let receiver = match (&root, links.len()) {
        (Root::Local(slot), 1) => Some(*slot),
        (Root::Local(slot), _) if first_then_walk => Some(*slot),
        _ => None,
    };
    for (i, link) in links.iter_mut().enumerate() {
        if let Link::Method { lent, .. } = link {
            for l in lent.iter_mut() {
                if receiver.is_none() || i > 0 || *l == receiver {
                    *l = None;
                }
            }
        }
    }
    Ok(Chain {
        root,
        links,
        first_then_walk,
    })
}

/// The links after a node of `kind` with `flags` at `op_pos` (its `.` or `[`), whose right-hand
/// side is `rhs`.
fn continuation(
    c: &mut Compiler<'_>,
    kind: Kind,
    flags: ASTFlags,
    op_pos: Position,
    rhs: &Expr,
    links: &mut Vec<Link>,
) -> Result<(), String> {
    if flags.contains(ASTFlags::NEGATED) {
        return Err(format!(
            "`?.` and `?[` are not compiled (line {})",
            rhs.position().line().unwrap_or(0)
        ));
    }
    if !flags.contains(ASTFlags::BREAK) {
        let next = match rhs {
            Expr::Dot(y, next_flags, pos) => Some((y, *next_flags, Kind::Dot, *pos)),
            Expr::Index(y, next_flags, pos) => Some((y, *next_flags, Kind::Index, *pos)),
            _ => None,
        };
        if let Some((y, next_flags, next_kind, next_pos)) = next {
            links.push(link(c, kind, op_pos, &y.lhs)?);
            return continuation(c, next_kind, next_flags, next_pos, &y.rhs, links);
        }
    }
    links.push(link(c, kind, op_pos, rhs)?);
    Ok(())
}

/// One link: an index (after `[` at `op_pos`) or a property or method (after `.`).
fn link(c: &mut Compiler<'_>, kind: Kind, op_pos: Position, e: &Expr) -> Result<Link, String> {
    match (kind, e) {
        (Kind::Index, index) => Ok(Link::Index {
            index: c.expr(index)?,
            reads: c.local_reads(std::slice::from_ref(index)),
            pos: index.start_position(),
            open: op_pos,
        }),
        (Kind::Dot, Expr::Property(x, pos)) => {
            let ((getter, _), (setter, _), key) = &**x;
            Ok(Link::Property {
                key: key.clone(),
                getter: Site::new(c.natives(), getter, 1),
                setter: Site::new(c.natives(), setter, 2),
                pos: *pos,
            })
        }
        (Kind::Dot, Expr::MethodCall(call, pos)) => {
            let arity = call.args.len() + 1;
            // What Rhai does itself rather than call a function of that name.
            if matches!(call.name.as_str(), "call" | "curry" | "is_shared") {
                return Err(format!(
                    "the method `.{}(…)` is not compiled (line {})",
                    call.name,
                    pos.line().unwrap_or(0)
                ));
            }
            if c.is_script_method(&call.name, call.args.len()) {
                return Err(format!(
                    "the method call `.{}(…)` of a script function is not compiled (line {})",
                    call.name,
                    pos.line().unwrap_or(0)
                ));
            }
            // A map literal is kept, for an event call to read its values.
            let mut fields = None;
            let args = call
                .args
                .iter()
                .map(|a| match a {
                    Expr::Map(x, pos) => {
                        let map = Arc::new(MapLiteral::compile(c, x, *pos)?);
                        fields = Some(map.clone());
                        Ok(Box::new(move |f: &mut Frame<'_>| map.make(f)) as Eval)
                    }
                    other => c.expr(other),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let site = Site::new(c.natives(), &call.name, arity);
            let literal = Literal::of(&site, &call.args, c.table());
            Ok(Link::Method {
                event: EventCall::of(&site, &call.args, literal.as_ref(), fields.as_ref()),
                literal,
                site,
                args,
                lent: c.lendable(&call.args),
                reads: c.local_reads(&call.args),
                pos: *pos,
            })
        }
        (Kind::Dot, other) => Err(format!(
            "this chain is not compiled (line {})",
            other.position().line().unwrap_or(0)
        )),
    }
}

/// `x.method(a, b, …)` on the local variable `x` (in the stack at `at`): the arguments that are
/// not lent evaluated in order, then `x` and the lent ones taken out of their slots for the call.
/// A lent value that the entry consumes (or that Rhai's own call may) is copied for the call and
/// put back at once; the rest go back after it, whatever it returns. Gives the receiver (for
/// the caller to put back), the result, and whether a kernel entry was called (which never
/// changes its receiver: it needs no size check).
///
/// A literal name (`literal`) is not made into a string: when the entry admits the other
/// arguments, it gets the name resolved; otherwise the string is passed as written, for Rhai's
/// dispatch to pick as it would.
macro_rules! lend {
    ($f:ident, $at:ident, $site:ident, $args:ident, $lent:ident, $literal:ident, $pos:ident, [$($v:ident: $i:tt),*]) => {{
        let skip = $literal.map(Literal::index);
        $(
            let mut $v = match $lent[$i] {
                None if skip == Some($i) => Dynamic::UNIT,
                None => $args[$i]($f)?,
                Some(_) => Dynamic::UNIT,
            };
        )*
        $(
            if let Some(s) = $lent[$i] {
                let lent = std::mem::take($f.slot(s));
                super::put_back(&mut $v, lent);
            }
        )*
        let mut target = std::mem::take(&mut $f.stack[$at]);
        // An entry that takes its other arguments in place is tried at once: `None` (an
        // argument not of its type) leaves them as they were, for the general way.
        let tried = match ($literal, $site.in_place_only()) {
            (Some(l), _) if l.named.in_place => {
                (l.named.call)(&mut [&mut target, $(&mut $v),*], l.name())
            }
            (None, Some(n)) => (n.checked)(&mut [&mut target, $(&mut $v),*]),
            _ => None,
        };
        let result = if let Some(result) = tried {
            $(
                match $lent[$i] {
                    Some(s) => super::put_back($f.slot(s), $v),
                    None => super::discard($v),
                }
            )*
            (result.map_err(|e| super::fill_position(e, $pos)), true)
        } else {
            lend_general!($f, $site, $lent, $literal, $pos, target, [$($v: $i),*])
        };
        (target, result.0, result.1)
    }};
}

/// The rest of `lend!` when no entry was tried in place: the entry Rhai's dispatch picks, the
/// lent arguments it may consume copied back first, the call, and the rest put back after it.
macro_rules! lend_general {
    ($f:ident, $site:ident, $lent:ident, $literal:ident, $pos:ident, $target:ident, [$($v:ident: $i:tt),*]) => {{
        let direct = $literal.filter(|l| {
            !l.named.in_place
                && l.native
                    .admits_except(&[&mut $target, $(&mut $v),*], l.named.arg)
        });
        let native = match direct {
            Some(l) => Some(l.native),
            None => {
                if let Some(l) = $literal {
                    $(
                        if l.index() == $i {
                            $v = Dynamic::from(l.name.text.clone());
                        }
                    )*
                }
                $site.resolve(&[&mut $target, $(&mut $v),*])
            }
        };
        // Bit i: argument i is still out of its slot.
        let mut out = 0u8;
        $(
            if let Some(s) = $lent[$i] {
                if native.is_none_or(|n| n.params[$i + 1].consumes()) {
                    let copy = $v.clone();
                    super::put_back($f.slot(s), std::mem::replace(&mut $v, copy));
                } else {
                    out |= 1 << $i;
                }
            }
        )*
        let result = match (direct, native) {
            (Some(l), _) => (l.named.call)(&mut [&mut $target, $(&mut $v),*], l.name())
                .unwrap_or_else(|| Err(super::super::host::natives::wrong_args(l.native.name)))
                .map_err(|e| super::fill_position(e, $pos)),
            (None, Some(n)) => (n.call)(&mut [&mut $target, $(&mut $v),*])
                .map_err(|e| super::fill_position(e, $pos)),
            (None, None) => $site.call($f, &mut [&mut $target, $(&mut $v),*], $pos),
        };
        let entry = direct.is_some() || native.is_some();
        $(
            if out & (1 << $i) != 0
                && let Some(s) = $lent[$i]
            {
                super::put_back($f.slot(s), $v);
            }
        )*
        (result, entry)
    }};
}

/// The value of `links` walked from the local variable in `slot`, lent to the walk (which needs
/// the frame for Rhai's calls) and put back.
fn walk_local(f: &mut Frame<'_>, slot: usize, links: &[Link]) -> R<Dynamic> {
    let mut values = arguments(links, f)?;
    let at = f.base + slot;
    let mut owned = std::mem::take(&mut f.stack[at]);
    let result = walk(f, &mut owned, links, &mut values, &mut |_, v| Ok(v.clone()));
    super::put_back(&mut f.stack[at], owned);
    result
}

impl Chain {
    /// The chain's value, by the walk (`One` takes the common shapes).
    pub(crate) fn get(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        match &self.root {
            Root::Local(slot) => walk_local(f, *slot, &self.links),
            Root::Value(e) => {
                let mut values = arguments(&self.links, f)?;
                let mut owned = e(f)?;
                walk(f, &mut owned, &self.links, &mut values, &mut |_, v| {
                    Ok(v.clone())
                })
            }
        }
    }

    /// The chain as a compiled expression: the common shapes on a local variable
    /// (`game.phase`, `game.set("x", v)`, `game.broadcast("e", #{…})`) each get their own
    /// code, with the link kept in the expression itself; the rest walk.
    pub(super) fn into_eval(self) -> Eval {
        if self.first_then_walk
            && let Root::Local(slot) = self.root
        {
            return first_then_walk(slot, self.links);
        }
        let (&Root::Local(slot), 1) = (&self.root, self.links.len()) else {
            return Box::new(move |f| self.get(f));
        };
        let link = self.links.into_iter().next().expect("one link");
        let one = One { slot, link };
        if let Some(plan) = direct::Plan::of(&one) {
            let direct = direct::Direct::new(one, plan);
            return match (direct.var(), direct.arity()) {
                (Some(direct::Var::Read(read)), _) => Box::new(move |f| direct.read(f, read)),
                (Some(direct::Var::Set), _) => Box::new(move |f| direct.set_var(f)),
                (Some(direct::Var::PlayerGet), _) => Box::new(move |f| direct.player_get_var(f)),
                (Some(direct::Var::PlayerSet), _) => Box::new(move |f| direct.player_set_var(f)),
                (Some(direct::Var::Card(call)), _) => Box::new(move |f| direct.card(f, call)),
                (Some(direct::Var::ViewCard(call)), _) => {
                    Box::new(move |f| direct.view_card(f, call))
                }
                (None, arity) => match arity {
                    1 => Box::new(move |f| direct.call1(f)),
                    2 => Box::new(move |f| direct.call2(f)),
                    _ => Box::new(move |f| direct.call3(f)),
                },
            };
        }
        match &one.link {
            Link::Method { event: Some(_), .. } => Box::new(move |f| one.event(f)),
            Link::Method { args, .. } => match args.len() {
                0 => Box::new(move |f| one.method0(f)),
                1 => Box::new(move |f| one.method1(f)),
                2 => Box::new(move |f| one.method2(f)),
                3 => Box::new(move |f| one.method3(f)),
                _ => Box::new(move |f| walk_local(f, one.slot, std::slice::from_ref(&one.link))),
            },
            Link::Property { .. } => Box::new(move |f| one.property(f)),
            Link::Index { .. } => Box::new(move |f| one.index(f)),
        }
    }

    /// `chain = value` (or `chain op= value`); the root is a local variable, `root`.
    pub(crate) fn assign(
        &self,
        f: &mut Frame<'_>,
        new: Dynamic,
        op: Option<&ops::OpAssign>,
        op_pos: Position,
        root: &Assigned,
    ) -> R<()> {
        let Root::Local(slot) = self.root else {
            unreachable!("assignments are compiled for local roots only")
        };
        let mut values = arguments(&self.links, f)?;
        let (last, init) = self.links.split_last().expect("a chain has links");
        let (last_value, init_values) = values.split_last_mut().expect("one value a link");
        let last_value = std::mem::replace(last_value, Evaluated::None);
        let mut new = Some((new, last_value));
        let mut set = |f: &mut Frame<'_>, target: &mut Dynamic| -> R<Dynamic> {
            let (new, last_value) = new.take().expect("assigned once");
            assign_last(f, target, last, last_value, new, op, op_pos, root)?;
            // An assignment changed what it reached.
            walk::mark_changed(f, true);
            Ok(Dynamic::UNIT)
        };
        let at = f.base + slot;
        let mut owned = std::mem::take(&mut f.stack[at]);
        let result = walk(f, &mut owned, init, init_values, &mut set);
        super::put_back(&mut f.stack[at], owned);
        result.map(drop)
    }
}

/// See `Chain::first_then_walk`: `links[0]` is a method call of at most three arguments.
fn first_then_walk(slot: usize, mut links: Vec<Link>) -> Eval {
    let first = links.remove(0);
    let call: fn(&One, &mut Frame<'_>) -> R<Dynamic> = match &first {
        Link::Method { args, .. } => match args.len() {
            0 => One::method0,
            1 => One::method1,
            2 => One::method2,
            _ => One::method3,
        },
        _ => unreachable!("the first link is a method call"),
    };
    let one = One { slot, link: first };
    Box::new(move |f| {
        let mut value = call(&one, f)?;
        let mut values = arguments(&links, f)?;
        // The value is the chain's own: what the walk reaches is taken, not copied.
        walk(f, &mut value, &links, &mut values, &mut |_, v| {
            Ok(std::mem::take(v))
        })
    })
}

/// A chain of one link on a local variable, the common shape (`game.phase`,
/// `game.set("x", v)`): its link kept in the compiled expression itself, and each kind of link
/// (and each method's arity) with code of its own.
struct One {
    slot: usize,
    link: Link,
}

/// `One::method<N>`: a method call with N arguments on the local variable; on a map (whose
/// method may be a function pointer it holds) the walk looks.
macro_rules! one_method {
    ($name:ident, [$($v:ident: $i:tt),*]) => {
        fn $name(&self, f: &mut Frame<'_>) -> R<Dynamic> {
            let Link::Method {
                site,
                args,
                lent,
                literal,
                pos,
                ..
            } = &self.link
            else {
                unreachable!("compiled for a method link")
            };
            if f.slot(self.slot).is_map() {
                return self.walk(f);
            }
            let pos = *pos;
            let literal = literal.as_ref();
            let at = f.base + self.slot;
            let (target, result, entry) = lend!(f, at, site, args, lent, literal, pos, [$($v: $i),*]);
            if entry {
                super::put_back(&mut f.stack[at], target);
                return result;
            }
            put_receiver_back(f, at, target, result, pos)
        }
    };
}

impl One {
    /// The general way, by the walk.
    #[cold]
    fn walk(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        walk_local(f, self.slot, std::slice::from_ref(&self.link))
    }

    /// An event call with a map literal (`events::EventCall`).
    fn event(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        let Link::Method {
            site,
            args,
            lent,
            event: Some(event),
            pos,
            ..
        } = &self.link
        else {
            unreachable!("compiled for an event call")
        };
        if f.slot(self.slot).is_map() {
            return self.walk(f);
        }
        event.call(f, f.base + self.slot, site, args, lent, *pos)
    }

    /// A method call without arguments.
    fn method0(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        let Link::Method { site, pos, .. } = &self.link else {
            unreachable!("compiled for a method link")
        };
        if f.slot(self.slot).is_map() {
            return self.walk(f);
        }
        let at = f.base + self.slot;
        let mut target = std::mem::take(&mut f.stack[at]);
        let result = site.call(f, &mut [&mut target], *pos);
        // Even after a method that changes nothing (`len`): Rhai checks every receiver, and one
        // can be too large already (`array += array` checks before it appends).
        put_receiver_back(f, at, target, result, *pos)
    }

    one_method!(method1, [a: 0]);
    one_method!(method2, [a: 0, b: 1]);
    one_method!(method3, [a: 0, b: 1, c: 2]);

    /// `[index]`: an array's item or a map's entry read in place; other values by the walk,
    /// given the index already evaluated.
    fn index(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        let Link::Index { index, pos, .. } = &self.link else {
            unreachable!("compiled for an index link")
        };
        let idx = index(f)?;
        let at = f.base + self.slot;
        let target = &f.stack[at];
        if target.is_array() {
            let i = ops::index_int(&idx, *pos)?;
            let array = target.as_array_ref().expect("an array");
            let len = array.len();
            return match position(len, i) {
                Some(k) => Ok(array[k].clone()),
                None => Err(EvalAltResult::ErrorArrayBounds(len, i, *pos).into()),
            };
        }
        if target.is_map() {
            let Some(key) = idx.read_lock::<ImmutableString>() else {
                return Err(mismatch("string", idx.type_name(), *pos));
            };
            let map = target.as_map_ref().expect("a map");
            // A missing entry reads as `()`.
            return Ok(map.get(key.as_str()).cloned().unwrap_or(Dynamic::UNIT));
        }
        let mut values = [Evaluated::Index(idx)];
        let mut owned = std::mem::take(&mut f.stack[at]);
        let result = walk(
            f,
            &mut owned,
            std::slice::from_ref(&self.link),
            &mut values,
            &mut |_, v| Ok(v.clone()),
        );
        super::put_back(&mut f.stack[at], owned);
        result
    }

    /// `.name`: a map's entry (`params.chance`, `()` when it has none), or the getter's value.
    fn property(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        let Link::Property {
            key, getter, pos, ..
        } = &self.link
        else {
            unreachable!("compiled for a property link")
        };
        let at = f.base + self.slot;
        // `is_map` first: on a kernel value `as_map_ref` is two dynamic type checks.
        if f.stack[at].is_map()
            && let Ok(map) = f.stack[at].as_map_ref()
        {
            return Ok(map.get(key.as_str()).cloned().unwrap_or(Dynamic::UNIT));
        }
        let mut target = std::mem::take(&mut f.stack[at]);
        let result = getter.call(f, &mut [&mut target], *pos);
        super::put_back(&mut f.stack[at], target);
        result
    }
}

/// After a method call on the local variable in `at`: the receiver put back in its slot, its size
/// checked (only a container or a string can have grown), and the call's result.
pub(super) fn put_receiver_back(
    f: &mut Frame<'_>,
    at: usize,
    target: Dynamic,
    result: R<Dynamic>,
    pos: Position,
) -> R<Dynamic> {
    let checked = if target.is_array() || target.is_map() || target.is_string() {
        ops::check_size_of(f.engine, &target, pos)
    } else {
        Ok(())
    };
    super::put_back(&mut f.stack[at], target);
    checked?;
    result
}
