//! The commonest call of a rule script, a kernel entry that reads its arguments in place called
//! on a local variable with local variables and constants (`game.pget(p, "locked")`,
//! `game.rank(card)`): what `One::method<N>` decides at every call, decided once at load.

use super::super::super::host::api::{self, Card, GameHandle, Player, seat};
use super::super::super::host::bot_natives::{self, ViewCardFn};
use super::super::super::host::names::NameKind;
use super::super::super::host::natives::{self, CardFn, CheckedCall, Native, Ty};
use super::super::super::host::view::BotView;
use super::super::{Frame, R, discard, fill_position, put_back};
use super::{Link, Literal, One};
use crate::kernel::{Game, PileId};
use rhai::{Dynamic, Position};

/// Where one argument comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
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
    var: Option<Var>,
}

/// A call of the kernel's commonest entries with a literal name (`game.get("drawn")`,
/// `game.pset(p, "locked", true)`, `game.pile_size("deck")`): run by the entry's own body
/// (`natives::game_var` and the rest) once the receiver is the game and the player a player,
/// without making the argument list; anything else goes the `Direct` way, which gives the same
/// value or error.
#[derive(Clone, Copy)]
pub(super) enum Var {
    /// `game.get(name)`, `game.house(name)`, `game.pile_size(name)`, `game.top(name)`: the
    /// value read at the name's index in the table, `None` when the index does not fit the
    /// kind (then the `Direct` way says why).
    Read(ReadFn),
    Set,
    PlayerGet,
    PlayerSet,
    /// `game.rank(card)` and the other entries on the game and one card
    /// (`natives::CARD_ENTRIES`).
    Card(CardFn),
    /// `view.rank(card)` and the other entries on a bot's view and one card
    /// (`bot_natives::VIEW_CARD_ENTRIES`).
    ViewCard(ViewCardFn),
}

/// A read at a name's index in the table (`Var::Read`).
pub(super) type ReadFn = fn(&Game, usize) -> Option<Dynamic>;

/// The entries `Var::Read` runs, each with the kind of name it takes.
fn read_entry(name: &str) -> Option<(NameKind, ReadFn)> {
    fn pile(i: usize) -> Option<PileId> {
        u16::try_from(i).ok().map(PileId)
    }
    Some(match name {
        "get" => (NameKind::GameVar, |g, i| Some(natives::game_var(g, i))),
        "house" => (NameKind::HouseRule, |g, i| Some(api::house_value(g, i))),
        "pile_size" => (NameKind::Pile, |g, i| {
            pile(i).map(|p| Dynamic::from_int(natives::pile_size(g, p)))
        }),
        "top" => (NameKind::Pile, |g, i| {
            pile(i).map(|p| natives::pile_top(g, p))
        }),
        _ => return None,
    })
}

impl Var {
    /// The entry `native` with `arity` arguments, when it takes the game or a view and one card.
    fn of_card(native: &Native, arity: usize) -> Option<Var> {
        match (arity, native.params) {
            (1, [Ty::Game, Ty::Card]) => natives::card_entry(native.name).map(Var::Card),
            (1, [Ty::View, Ty::Card]) => {
                bot_natives::view_card_entry(native.name).map(Var::ViewCard)
            }
            _ => None,
        }
    }

    /// The entry `literal`'s call site is, with `arity` arguments, when it is one of these.
    fn of(literal: &Literal, arity: usize) -> Option<Var> {
        if literal.native.params.first() != Some(&Ty::Game) {
            return None;
        }
        let (var, kind) = match (literal.native.name, arity) {
            ("set", 2) => (Var::Set, NameKind::GameVar),
            ("pget", 2) => (Var::PlayerGet, NameKind::PlayerVar),
            ("pset", 3) => (Var::PlayerSet, NameKind::PlayerVar),
            (name, 1) => {
                let (kind, read) = read_entry(name)?;
                (Var::Read(read), kind)
            }
            _ => return None,
        };
        // The name's place: first, or after the player for a player's variable.
        let name_at = usize::from(kind == NameKind::PlayerVar);
        (literal.named.kind == kind && literal.index() == name_at).then_some(var)
    }
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
        let var = match (&entry, site.in_place_only()) {
            (Entry::Named(l), _) => Var::of(l, args.len()),
            (Entry::Checked(_), Some(native)) => Var::of_card(native, args.len()),
            (Entry::Checked(_), None) => None,
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
            var,
        })
    }
}

impl Direct {
    /// `one`, called as `plan` (made by `Plan::of(&one)`) says.
    pub(super) fn new(one: One, plan: Plan) -> Direct {
        Direct { one, plan }
    }

    /// The variable entry it calls, if it is one (see `Var`).
    pub(super) fn var(&self) -> Option<Var> {
        self.plan.var
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

/// `Direct::call<N>`: the arguments evaluated in order, the lent ones taken from their slots,
/// the entry called on the receiver in its slot, and the lent ones put back, whatever it gives.
macro_rules! direct_call {
    ($name:ident, $general:ident, [$($v:ident: $i:tt),*]) => {
        pub(super) fn $name(&self, f: &mut Frame<'_>) -> R<Dynamic> {
            let slot = self.one.slot;
            if f.slot_ref(slot).is_map() {
                return self.one.walk(f);
            }
            $(let mut $v = self.evaluate(f, $i)?;)*
            $(self.borrow(f, $i, &mut $v);)*
            // A kernel entry reads its receiver in place and never changes it: it is lent where
            // it is (an argument lent from the same variable has taken it already, and the
            // entry then finds a `()` there and declines, as on the general way).
            let at = f.base + slot;
            let tried = self.call_entry(&mut [&mut f.stack[at], $(&mut $v),*]);
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

/// The value of argument `i` as the entry reads it: a lent local variable in its slot, or the
/// value evaluated (`evaluated`, when the argument is not lent).
fn argument<'a>(
    f: &'a Frame<'_>,
    source: Source,
    evaluated: &'a Option<Dynamic>,
) -> Option<&'a Dynamic> {
    match (source, evaluated) {
        (_, Some(value)) => Some(value),
        (Source::Lent(slot), None) => Some(f.slot_ref(slot)),
        _ => None,
    }
}

impl Direct {
    /// Argument `i` evaluated when it is not a local variable lent in place (an evaluated one is
    /// a constant or a copy of a local variable: evaluating it again, on the `Direct` way,
    /// gives the same value).
    fn evaluated(&self, f: &mut Frame<'_>, i: usize) -> R<Option<Dynamic>> {
        match self.plan.sources[i] {
            Source::Evaluated => self.evaluate(f, i).map(Some),
            _ => Ok(None),
        }
    }

    /// The literal name's entry.
    fn literal(&self) -> &Literal {
        match &self.plan.entry {
            Entry::Named(l) => l,
            Entry::Checked(_) => unreachable!("a variable call has a literal name"),
        }
    }

    /// Whether argument `i` is the receiver's own variable, lent: then the `Direct` way, which
    /// takes it out of its slot before the receiver, decides.
    fn lends_receiver(&self, i: usize) -> bool {
        self.plan.sources[i] == Source::Lent(self.one.slot)
    }

    /// `game.get("name")` and the other reads (`Var::Read`).
    pub(super) fn read(&self, f: &mut Frame<'_>, read: ReadFn) -> R<Dynamic> {
        if let Some(handle) = f.slot_ref(self.one.slot).read_lock::<GameHandle>() {
            let game = handle.lock();
            if let Some(value) = self
                .literal()
                .name()
                .id(&game.table)
                .and_then(|i| read(&game, i))
            {
                return Ok(value);
            }
        }
        self.call1(f)
    }

    /// `game.set("name", value)`.
    pub(super) fn set_var(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        if self.lends_receiver(1) {
            return self.call2(f);
        }
        let evaluated = self.evaluated(f, 1)?;
        let done = (|| {
            let value = argument(f, self.plan.sources[1], &evaluated)?;
            let handle = f.slot_ref(self.one.slot).read_lock::<GameHandle>()?;
            let mut game = handle.lock();
            let i = self.literal().name().id(&game.table)?;
            Some(natives::set_game_var(&mut game, i, value).map(|()| Dynamic::UNIT))
        })();
        if let Some(value) = evaluated {
            discard(value);
        }
        self.settled(f, done, Direct::call2)
    }

    /// `game.pget(player, "name")`.
    pub(super) fn player_get_var(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        if self.lends_receiver(0) {
            return self.call2(f);
        }
        let evaluated = self.evaluated(f, 0)?;
        let done = (|| {
            let player = *argument(f, self.plan.sources[0], &evaluated)?.read_lock::<Player>()?;
            let handle = f.slot_ref(self.one.slot).read_lock::<GameHandle>()?;
            let game = handle.lock();
            let s = match seat(&game, player) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            let i = self.literal().name().id(&game.table)?;
            Some(Ok(natives::player_var(&game, s, i)))
        })();
        if let Some(value) = evaluated {
            discard(value);
        }
        self.settled(f, done, Direct::call2)
    }

    /// `game.pset(player, "name", value)`.
    pub(super) fn player_set_var(&self, f: &mut Frame<'_>) -> R<Dynamic> {
        if self.lends_receiver(0) || self.lends_receiver(2) {
            return self.call3(f);
        }
        let player_value = self.evaluated(f, 0)?;
        let value = match self.evaluated(f, 2) {
            Ok(value) => value,
            Err(e) => {
                if let Some(v) = player_value {
                    discard(v);
                }
                return Err(e);
            }
        };
        let done = (|| {
            let player =
                *argument(f, self.plan.sources[0], &player_value)?.read_lock::<Player>()?;
            let v = argument(f, self.plan.sources[2], &value)?;
            let handle = f.slot_ref(self.one.slot).read_lock::<GameHandle>()?;
            let mut game = handle.lock();
            let s = match seat(&game, player) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            let i = self.literal().name().id(&game.table)?;
            Some(natives::set_player_var(&mut game, s, i, v).map(|()| Dynamic::UNIT))
        })();
        for v in [player_value, value].into_iter().flatten() {
            discard(v);
        }
        self.settled(f, done, Direct::call3)
    }

    /// `game.rank(card)` and the other card entries (`Var::Card`).
    pub(super) fn card(&self, f: &mut Frame<'_>, call: CardFn) -> R<Dynamic> {
        self.with_card(f, |receiver, card| {
            let handle = receiver.read_lock::<GameHandle>()?;
            let mut game = handle.lock();
            Some(call(&mut game, card))
        })
    }

    /// `view.rank(card)` and the other view card entries (`Var::ViewCard`).
    pub(super) fn view_card(&self, f: &mut Frame<'_>, call: ViewCardFn) -> R<Dynamic> {
        self.with_card(f, |receiver, card| {
            let view = receiver.read_lock::<BotView>()?;
            Some(call(&view, card))
        })
    }

    /// A card entry's call: `run` given the receiver and the card, `None` when the receiver is
    /// not of the entry's type (then, as when the argument is not a card, the `Direct` way).
    fn with_card(
        &self,
        f: &mut Frame<'_>,
        run: impl FnOnce(&Dynamic, Card) -> Option<R<Dynamic>>,
    ) -> R<Dynamic> {
        if self.lends_receiver(0) {
            return self.call1(f);
        }
        let evaluated = self.evaluated(f, 0)?;
        let done = (|| {
            let card = *argument(f, self.plan.sources[0], &evaluated)?.read_lock::<Card>()?;
            run(f.slot_ref(self.one.slot), card)
        })();
        if let Some(value) = evaluated {
            discard(value);
        }
        self.settled(f, done, Direct::call1)
    }

    /// A variable call's value: its entry's, an error given the call's position, or, when the
    /// entry did not run (`None`), the `Direct` way's.
    fn settled(
        &self,
        f: &mut Frame<'_>,
        done: Option<R<Dynamic>>,
        general: fn(&Direct, &mut Frame<'_>) -> R<Dynamic>,
    ) -> R<Dynamic> {
        match done {
            Some(result) => result.map_err(|e| fill_position(e, self.plan.pos)),
            None => general(self, f),
        }
    }
}
