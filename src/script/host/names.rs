//! Name arguments of kernel functions (a pile, phase, variable, event or house rule): looked up
//! in the game's table by their text, or, when a script writes the name as a literal, found once
//! at load time. `named!` writes a table entry with a name parameter once for both.

use crate::kernel::Table;
use rhai::{Dynamic, EvalAltResult, ImmutableString};
use std::sync::Arc;

/// What a name parameter names: where the table declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// Under `vars: game:`.
    GameVar,
    /// Under `vars: player:`.
    PlayerVar,
    /// Under `piles:`.
    Pile,
    /// Under `phases:`.
    Phase,
    /// Under `events:`.
    Event,
    /// Under `house_rules:`.
    HouseRule,
    /// Under `timers:` (named by `set_timer` and `cancel_timer`, looked up when they run).
    Timer,
}

impl NameKind {
    /// What the kind is called in a message.
    pub fn describe(self) -> &'static str {
        match self {
            NameKind::GameVar => "a game variable",
            NameKind::PlayerVar => "a player variable",
            NameKind::Pile => "a pile",
            NameKind::Phase => "a phase",
            NameKind::Event => "an event",
            NameKind::HouseRule => "a house rule",
            NameKind::Timer => "a timer",
        }
    }

    /// The keys of `variant.yaml` it is declared under.
    pub fn section(self) -> &'static [&'static str] {
        match self {
            NameKind::GameVar => &["vars", "game"],
            NameKind::PlayerVar => &["vars", "player"],
            NameKind::Pile => &["piles"],
            NameKind::Phase => &["phases"],
            NameKind::Event => &["events"],
            NameKind::HouseRule => &["house_rules"],
            NameKind::Timer => &["timers"],
        }
    }

    /// Every name of this kind the table declares, for a did-you-mean.
    pub fn declared(self, table: &Table) -> Vec<&str> {
        match self {
            NameKind::GameVar => table.game_vars.iter().map(|v| v.0.as_str()).collect(),
            NameKind::PlayerVar => table.player_vars.iter().map(|v| v.0.as_str()).collect(),
            NameKind::Pile => table.piles.iter().map(|p| p.name.as_str()).collect(),
            NameKind::Phase => table.phases.iter().map(|p| p.name.as_str()).collect(),
            NameKind::Event => table.events.iter().map(|e| &**e).collect(),
            NameKind::HouseRule => table.house_rules.iter().map(|h| h.0.as_str()).collect(),
            NameKind::Timer => table.timers.iter().map(String::as_str).collect(),
        }
    }

    /// The index of the declaration named `name` (a hash lookup).
    pub(crate) fn lookup(self, table: &Table, name: &str) -> Option<usize> {
        match self {
            NameKind::GameVar => table.game_var(name),
            NameKind::PlayerVar => table.player_var(name),
            NameKind::Pile => table.pile(name).map(|p| p.0 as usize),
            NameKind::Phase => table.phase(name).map(|p| p.0 as usize),
            NameKind::Event => table.event_index(name),
            NameKind::HouseRule => table.house_rule(name),
            NameKind::Timer => table.timers.iter().position(|t| t == name),
        }
    }
}

/// A name argument as an entry's body sees it: its text, and where the table declares it.
#[derive(Clone, Copy)]
pub(crate) struct Name<'a> {
    text: NameText<'a>,
    kind: NameKind,
    /// Where a call site's literal name is declared in the variant's table, found at load time.
    home: Option<(&'a Table, usize)>,
}

/// A name's text, read only when the name is looked up by it or shown: a script string is kept
/// as it is, since reading its text costs a branch on where it is stored, and a literal name
/// whose declaration was found at load time is never read on the way to it.
#[derive(Clone, Copy)]
enum NameText<'a> {
    Str(&'a str),
    Script(&'a ImmutableString),
}

impl<'a> Name<'a> {
    /// A name passed as a string: looked up in the table each call.
    pub(crate) fn new(text: &'a str, kind: NameKind) -> Name<'a> {
        Name {
            text: NameText::Str(text),
            kind,
            home: None,
        }
    }

    /// A name passed as a script string: looked up in the table each call.
    pub(crate) fn of_script(text: &'a ImmutableString, kind: NameKind) -> Name<'a> {
        Name {
            text: NameText::Script(text),
            kind,
            home: None,
        }
    }

    /// The name as written.
    pub(crate) fn text(&self) -> &'a str {
        match self.text {
            NameText::Str(text) => text,
            NameText::Script(text) => text.as_str(),
        }
    }

    /// The index of the declaration it names in `table`, `None` when the table has none. A
    /// literal's index found at load time serves the variant's own table; a game with another
    /// table is looked up by name.
    #[inline]
    pub(crate) fn id(&self, table: &Table) -> Option<usize> {
        match self.home {
            Some((home, i)) if std::ptr::eq(home, table) => Some(i),
            _ => self.kind.lookup(table, self.text()),
        }
    }
}

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// A `Named` implementation: the arguments with the name already resolved; `None` when the
/// others are not of the entry's types.
pub(super) type NamedCall =
    fn(&mut [&mut Dynamic], Name<'_>) -> Option<Result<Dynamic, Box<EvalAltResult>>>;

/// An entry's implementation for a call site whose name argument is a literal: the name comes
/// resolved, the arguments hold `()` in its place. It is what `Native::call` does with the same
/// arguments and that name; the compiled engine uses it when the entry is the one Rhai would
/// pick: tried at once when it takes its other arguments in place (`in_place`), else once
/// `Native::admits_except` says so.
pub(crate) struct Named {
    /// What the name names.
    pub(crate) kind: NameKind,
    /// Its position among the arguments (the receiver is 0).
    pub(crate) arg: usize,
    /// `None` when the other arguments are not of the entry's types (see
    /// `natives::CheckedCall`).
    pub(crate) call: NamedCall,
    /// Whether no parameter but the name consumes its argument: then `call` takes nothing from
    /// arguments that do not fit, and is tried without checking them first.
    pub(crate) in_place: bool,
}

/// A call site's literal name, with where the variant's table declares it (the table is kept
/// alive with it, so that no other table can take its address).
#[derive(Clone)]
pub(crate) struct LiteralName {
    pub(crate) text: ImmutableString,
    home: Option<(Arc<Table>, usize)>,
}

impl LiteralName {
    /// `text` as a name of `kind`, resolved in `table` if given.
    pub(crate) fn new(
        text: ImmutableString,
        kind: NameKind,
        table: Option<&Arc<Table>>,
    ) -> LiteralName {
        let home = table.and_then(|t| Some((t.clone(), kind.lookup(t, &text)?)));
        LiteralName { text, home }
    }

    /// The name as an entry of `kind` sees it.
    #[inline(always)]
    pub(crate) fn name(&self, kind: NameKind) -> Name<'_> {
        Name {
            text: NameText::Script(&self.text),
            kind,
            home: self.home.as_ref().map(|(t, i)| (&**t, *i)),
        }
    }
}

/// Whether any flag is `true`.
pub(crate) const fn any_true(flags: &[bool]) -> bool {
    let mut i = 0;
    while i < flags.len() {
        if flags[i] {
            return true;
        }
        i += 1;
    }
    false
}

/// The position of the first `true`: where a `named!` entry's name parameter is.
pub(crate) const fn first_true(flags: &[bool]) -> usize {
    let mut i = 0;
    while i < flags.len() && !flags[i] {
        i += 1;
    }
    i
}

/// An entry with one name parameter, written `name: Name(Kind)`:
/// `named!("get", |g: Game, name: Name(GameVar)| body)`. The body sees a `Name`; the entry's
/// `call` looks it up from the string argument, its `named` takes it resolved.
macro_rules! named {
    ($name:literal, |$recv:ident: $rty:ident $(, $arg:ident: $ty:ident $(($kind:ident))?)*| $body:expr) => {{
        const CHECKED: $crate::script::host::natives::CheckedCall = |args| {
            entry_args!(args => first, rest);
            $(
                let $arg = rest.next().and_then(|d| take!($ty, d))?;
                let $arg = name_view!($ty $(($kind))?, $arg);
            )*
            entry_body!($name, first, rest, $recv: $rty, $body)
        };
        $crate::script::host::natives::Native {
            name: $name,
            params: &[$crate::script::host::natives::Ty::$rty $(, param_ty!($ty))*],
            call: |args| {
                CHECKED(args).unwrap_or_else(|| Err($crate::script::host::natives::wrong_args($name)))
            },
            checked: CHECKED,
            named: Some($crate::script::host::names::Named {
                kind: named_kind!($($ty $(($kind))?),*),
                arg: 1 + $crate::script::host::names::first_true(&[$(is_name!($ty)),*]),
                call: |args, given| {
                    entry_args!(args => first, rest);
                    $(
                        let $arg = named_arg!($ty, rest.next(), given);
                    )*
                    entry_body!($name, first, rest, $recv: $rty, $body)
                },
                in_place: !$crate::script::host::names::any_true(&[$(consumes_besides_name!($ty)),*]),
            }),
            items: None,
        }
    }};
}

/// A `named!` parameter's type as Rhai dispatches on it (a name is a string).
macro_rules! param_ty {
    (Name) => {
        $crate::script::host::natives::Ty::Str
    };
    ($ty:ident) => {
        $crate::script::host::natives::Ty::$ty
    };
}

/// How a `named!` body sees a parameter taken by `take!`: a name looked up by its text.
macro_rules! name_view {
    (Name($kind:ident), $x:ident) => {
        $crate::script::host::names::Name::of_script(
            &$x,
            $crate::script::host::names::NameKind::$kind,
        )
    };
    ($ty:ident, $x:ident) => {
        view!($ty, $x)
    };
}

macro_rules! is_name {
    (Name) => {
        true
    };
    ($ty:ident) => {
        false
    };
}

/// The kind of a `named!` entry's one name parameter.
macro_rules! named_kind {
    (Name($kind:ident) $(, $($rest:tt)*)?) => {
        $crate::script::host::names::NameKind::$kind
    };
    ($ty:ident $(, $($rest:tt)*)?) => {
        named_kind!($($($rest)*)?)
    };
}

/// A `named!` parameter in the `named` call: the name given, any other taken from its argument.
macro_rules! named_arg {
    (Name, $d:expr, $given:ident) => {{
        let _ = $d;
        $given
    }};
    ($ty:ident, $d:expr, $given:ident) => {{
        let x = $d.and_then(|d| take!($ty, d))?;
        view!($ty, x)
    }};
}

/// Whether a `named!` parameter other than the name consumes its argument (`Ty::consumes`).
macro_rules! consumes_besides_name {
    (Name) => {
        false
    };
    ($ty:ident) => {
        $crate::script::host::natives::Ty::$ty.consumes()
    };
}

pub(crate) use {
    consumes_besides_name, is_name, name_view, named, named_arg, named_kind, param_ty,
};
