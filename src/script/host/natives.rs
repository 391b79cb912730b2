//! Every function of the kernel API as one table entry with an explicit signature: the Rhai
//! registration is generated from the table, and a caller that knows its argument types (the
//! load-time compiler) can find and call an entry directly, without Rhai's function resolution.

use super::api::{
    self, Card, GameHandle, Located, Player, R, Slot, card, card_arg, err, face_value, from_value,
    house_rule, loc, opt_card, pile_id, pile_named, refusal, seat, set_timer, slot_index,
    unknown_var,
};
use super::effects;
use super::items::{self, ItemsFn};
use super::names::{
    Named, consumes_besides_name, is_name, name_view, named, named_arg, named_kind, param_ty,
};
use crate::kernel::{CardIdx, Game, Loc, PileId, Seat};
use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, Map, Position};
use std::any::TypeId;
use std::sync::Arc;

/// The type of one parameter, as Rhai dispatches on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(
    dead_code,
    reason = "no kernel API function takes a `Located` or `Unit`; the load-time compiler types values with them"
)]
pub(crate) enum Ty {
    Game,
    Player,
    Card,
    Slot,
    Located,
    Int,
    Bool,
    Str,
    Array,
    Map,
    Unit,
    Any,
    /// A bot's view (`bots::BotView`), the receiver of the bot script API.
    View,
}

impl Ty {
    /// The Rust type Rhai registers the parameter as (`Any` is `Dynamic`: any value).
    pub(crate) fn type_id(self) -> TypeId {
        match self {
            Ty::Game => TypeId::of::<GameHandle>(),
            Ty::Player => TypeId::of::<Player>(),
            Ty::Card => TypeId::of::<Card>(),
            Ty::Slot => TypeId::of::<Slot>(),
            Ty::Located => TypeId::of::<Located>(),
            Ty::Int => TypeId::of::<INT>(),
            Ty::Bool => TypeId::of::<bool>(),
            Ty::Str => TypeId::of::<ImmutableString>(),
            Ty::Array => TypeId::of::<Array>(),
            Ty::Map => TypeId::of::<Map>(),
            Ty::Unit => TypeId::of::<()>(),
            Ty::Any => TypeId::of::<Dynamic>(),
            Ty::View => TypeId::of::<super::view::BotView>(),
        }
    }

    /// Whether an entry consumes an argument passed for the parameter (other than the first):
    /// strings and containers are moved out; the rest are copied out of it, and an `Any` value
    /// is read in place (`take!`).
    #[inline]
    pub(crate) const fn consumes(self) -> bool {
        matches!(self, Ty::Str | Ty::Array | Ty::Map)
    }

    /// Whether a value can be passed for the parameter: the check Rhai's dispatch makes (the
    /// value's own type), and `Any` admits every value.
    #[inline]
    pub(crate) fn admits(self, value: &Dynamic) -> bool {
        self == Ty::Any || value.type_id() == self.type_id()
    }
}

/// The native implementation: arguments exactly as Rhai passes them to a raw function.
pub(super) type NativeCall = fn(&mut [&mut Dynamic]) -> Result<Dynamic, Box<EvalAltResult>>;

/// The implementation checking its arguments' types itself: `None` when one is not of its
/// parameter's type (or their number is not the entry's), which is when Rhai's dispatch would
/// not pick the entry. The arguments before the first that does not fit may have been taken
/// already: a caller that tries an entry whose parameters consume (`Ty::consumes`) checks them
/// first (`Native::admits_except`).
pub(crate) type CheckedCall =
    fn(&mut [&mut Dynamic]) -> Option<Result<Dynamic, Box<EvalAltResult>>>;

/// One kernel API function as scripts call it.
pub(crate) struct Native {
    /// As Rhai names it: `set_phase`, a property getter `get$phase`, a setter `set$x`, an
    /// operator `==`.
    pub(crate) name: &'static str,
    /// Its parameters, the receiver first for a method or property.
    pub(crate) params: &'static [Ty],
    /// The implementation. It reads the first argument in place and never consumes it (Rhai may
    /// pass the caller's own variable there); it may consume the others.
    pub(crate) call: NativeCall,
    /// The same implementation, `None` instead of an error when the arguments are not of its
    /// types (see `CheckedCall`).
    pub(crate) checked: CheckedCall,
    /// For an entry with a name parameter (a pile, phase, variable, event or house rule): the
    /// same implementation with the name given resolved, for call sites that write it as a
    /// literal (see `names::Named`).
    pub(crate) named: Option<Named>,
    /// For an entry that makes a list of players or cards: its items, for a compiled `for`
    /// loop to walk without making the list (see `items`).
    pub(crate) items: Option<ItemsFn>,
}

impl Native {
    /// The entry, with `items` giving the items of the list it makes.
    pub(crate) const fn with_items(mut self, items: ItemsFn) -> Native {
        self.items = Some(items);
        self
    }

    /// Whether every argument but the one at `skip` is of its parameter's type: for an entry
    /// that is the only one of its name and arity, whether Rhai's dispatch picks it.
    #[inline]
    pub(crate) fn admits_except(&self, args: &[&mut Dynamic], skip: usize) -> bool {
        self.params.len() == args.len()
            && self
                .params
                .iter()
                .zip(args)
                .enumerate()
                .all(|(i, (&ty, arg))| i == skip || ty.admits(arg))
    }
}

/// Register every entry of `table` on the engine (`Engine::register_raw_fn`, one per entry).
///
/// `register_raw_fn` marks a function pure (it does not change its first argument) unless it is
/// a property setter (`set$…` with two parameters) or an index setter, exactly as `register_fn`
/// does: no entry changes its first argument (the game is changed through its shared handle),
/// and a setter added to the table is impure by its name.
pub(crate) fn register(engine: &mut Engine, table: &'static [Native]) {
    for native in table {
        let call = native.call;
        let types: Vec<TypeId> = native.params.iter().map(|ty| ty.type_id()).collect();
        engine.register_raw_fn(native.name, types, move |_, args: &mut [&mut Dynamic]| {
            call(args)
        });
    }
}

/// Rhai's limit on the arguments it tries as `Dynamic` when no exact signature matches.
const MAX_DYNAMIC_PARAMETERS: usize = 16;

/// The entry a call resolves to among `candidates` (entries of the call's name and arity), as
/// Rhai would pick it: first the signature of the arguments' own types, then with `Any` standing
/// for some of them, from the last argument backwards in Rhai's order. (A function the scripts
/// define with the same name and arity comes before any entry in Rhai: that is the caller's to
/// check.) Written out mask by mask as the reference that `resolve_ordered`, which runs, is
/// tested against.
#[cfg(test)]
pub(super) fn resolve_among(
    candidates: &[&'static Native],
    args: &[&mut Dynamic],
) -> Option<&'static Native> {
    let n = args.len();
    let exact = |f: &&&'static Native| {
        f.params
            .iter()
            .zip(args)
            .all(|(&ty, arg)| ty != Ty::Any && ty.admits(arg))
    };
    if let Some(found) = candidates.iter().find(exact) {
        return Some(found);
    }
    if !candidates.iter().any(|f| f.params.contains(&Ty::Any)) {
        return None;
    }
    let dynamic = n.min(MAX_DYNAMIC_PARAMETERS);
    (1..1usize << dynamic).find_map(|mask| {
        candidates.iter().copied().find(|f| {
            f.params
                .iter()
                .zip(args)
                .enumerate()
                .all(|(i, (&ty, arg))| {
                    if i < dynamic && mask & (1 << (dynamic - 1 - i)) != 0 {
                        ty == Ty::Any
                    } else {
                        ty != Ty::Any && ty.admits(arg)
                    }
                })
        })
    })
}

/// The same entries in the order Rhai's dispatch tries them, for `resolve_ordered`: an entry
/// matches under exactly one of `resolve_among`'s masks (the set of its `Any` parameters), so
/// trying the entries by that mask, ties in their given order, finds what the masks find without
/// trying each mask. An entry with `Any` beyond the parameters Rhai tries as `Dynamic` can never
/// match, and is left out.
pub(crate) fn rhai_order(mut candidates: Vec<&'static Native>) -> Vec<&'static Native> {
    let mask = |f: &Native| -> Option<u32> {
        let n = f.params.len();
        let dynamic = n.min(MAX_DYNAMIC_PARAMETERS);
        f.params
            .iter()
            .enumerate()
            .filter(|&(_, &ty)| ty == Ty::Any)
            .try_fold(0u32, |mask, (i, _)| {
                (i < dynamic).then(|| mask | (1 << (dynamic - 1 - i)))
            })
    };
    candidates.retain(|f| mask(f).is_some());
    // A stable sort: entries with the same mask keep their order.
    candidates.sort_by_key(|f| mask(f));
    candidates
}

/// The entry a call resolves to among candidates in `rhai_order`: the first whose every
/// parameter admits its argument (what `resolve_among` finds).
#[inline]
pub(crate) fn resolve_ordered(
    ordered: &[&'static Native],
    args: &[&mut Dynamic],
) -> Option<&'static Native> {
    ordered.iter().copied().find(|f| {
        f.params.len() == args.len() && f.params.iter().zip(args).all(|(&ty, arg)| ty.admits(arg))
    })
}

/// The error of an entry called with arguments not of its declared types (Rhai never does;
/// a direct caller must not either).
#[cold]
pub(crate) fn wrong_args(name: &str) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(format!(
            "internal error: `{name}` was called with arguments that do not match its parameters"
        )),
        Position::NONE,
    ))
}

/// A parameter other than the first, taken from its argument: consumed (`Ty::consumes`), copied
/// out of it, or read in place.
macro_rules! take {
    (Card, $d:expr) => {
        $d.read_lock::<Card>().map(|v| *v)
    };
    (Player, $d:expr) => {
        $d.read_lock::<Player>().map(|v| *v)
    };
    (Slot, $d:expr) => {
        $d.read_lock::<Slot>().map(|v| *v)
    };
    (Located, $d:expr) => {
        $d.read_lock::<Located>().map(|v| *v)
    };
    (Int, $d:expr) => {
        $d.as_int().ok()
    };
    (Bool, $d:expr) => {
        $d.as_bool().ok()
    };
    (Str, $d:expr) => {
        $d.take().try_cast::<ImmutableString>()
    };
    // A `named!` entry's name, passed as a string.
    (Name, $d:expr) => {
        $d.take().try_cast::<ImmutableString>()
    };
    (Array, $d:expr) => {
        $d.take().try_cast::<Array>()
    };
    (Map, $d:expr) => {
        $d.take().try_cast::<Map>()
    };
    // Read in place, never consumed (no entry keeps it): a caller may lend its variable.
    (Any, $d:expr) => {
        Some(&*$d)
    };
}

/// The first parameter, read in place (never consumed).
macro_rules! borrow {
    (Game, $d:expr) => {
        $d.read_lock::<GameHandle>()
    };
    // Copied out of the argument, as `take!` does: nothing is consumed.
    (Card, $d:expr) => {
        take!(Card, $d)
    };
    (Player, $d:expr) => {
        take!(Player, $d)
    };
    (Slot, $d:expr) => {
        take!(Slot, $d)
    };
    (Str, $d:expr) => {
        $d.read_lock::<ImmutableString>().map(|s| s.clone())
    };
    (View, $d:expr) => {
        $d.read_lock::<$crate::script::host::view::BotView>()
    };
}

/// How the body sees a parameter: the game, strings and `Any` values by reference, the rest as
/// values.
macro_rules! view {
    (Game, $x:ident) => {
        &*$x
    };
    (View, $x:ident) => {
        &*$x
    };
    (Str, $x:ident) => {
        $x.as_str()
    };
    ($ty:ident, $x:ident) => {
        $x
    };
}

/// The start of an entry's implementation: the receiver (`first`) and the other arguments, in
/// turn (`rest`); `None` (arguments not of the entry's types) when there are none.
macro_rules! entry_args {
    ($args:ident => $first:ident, $rest:ident) => {
        let ($first, $rest) = $args.split_first_mut()?;
        let mut $rest = $rest.iter_mut();
    };
}

/// The end of an entry's implementation, once its other arguments are taken: none left over,
/// the receiver read, the body run and its value made a `Dynamic`. The body is a closure's, so
/// that its `?` returns its error.
macro_rules! entry_body {
    ($name:literal, $first:ident, $rest:ident, $recv:ident: $rty:ident, $body:expr) => {{
        if $rest.next().is_some() {
            return None;
        }
        let $recv = borrow!($rty, $first)?;
        let $recv = view!($rty, $recv);
        // A closure of its own, so that the body's `?` gives its error, not `None`.
        #[allow(clippy::redundant_closure_call)]
        let result = (|| -> Result<_, Box<rhai::EvalAltResult>> {
            // An entry that changes the game stops a legality check there (`effects::changing`).
            const CHANGES_GAME: bool = $crate::script::host::effects::changes_game($name);
            if CHANGES_GAME {
                $crate::script::host::effects::changing()?;
            }
            $body
        })();
        Some(result.map(rhai::Dynamic::from))
    }};
}

/// A table entry: `native!("name", |receiver: Ty, arg: Ty, …| body)`, the body a `R<T>` for
/// any `T` Rhai holds (the entry returns it as a `Dynamic`, as `register_fn` did).
macro_rules! native {
    ($name:literal, |$recv:ident: $rty:ident $(, $arg:ident: $ty:ident)*| $body:expr) => {{
        const CHECKED: $crate::script::host::natives::CheckedCall = |args| {
            entry_args!(args => first, rest);
            $(
                let $arg = rest.next().and_then(|d| take!($ty, d))?;
                let $arg = view!($ty, $arg);
            )*
            entry_body!($name, first, rest, $recv: $rty, $body)
        };
        $crate::script::host::natives::Native {
            name: $name,
            params: &[$crate::script::host::natives::Ty::$rty $(, $crate::script::host::natives::Ty::$ty)*],
            call: |args| {
                CHECKED(args).unwrap_or_else(|| Err($crate::script::host::natives::wrong_args($name)))
            },
            checked: CHECKED,
            named: None,
            items: None,
        }
    }};
}

pub(crate) use {borrow, entry_args, entry_body, native, take, view};

/// A card's face value, carrying its card (see `face_value`).
fn face(game: &Game, c: Card, read: fn(&Game, CardIdx) -> Dynamic) -> R<Dynamic> {
    let idx = card(game, c)?;
    Ok(face_value(idx, read(game, idx)))
}

/// An entry on the game and one card (`game.rank(card)`, `game.reveal_all(card)`), on the game
/// locked: the body the table's entry runs, and the compiled engine's direct calls.
pub(crate) type CardFn = fn(&mut Game, Card) -> R<Dynamic>;

/// `game.rank(card)`.
fn card_rank(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| g.state.face(c).rank.short().into())
}

/// `game.rank_number(card)`.
fn card_rank_number(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| INT::from(g.state.face(c).rank.0).into())
}

/// `game.suit(card)`.
fn card_suit(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| {
        let suit = g.state.face(c).suit;
        suit.map_or(String::new(), |s| s.letter().to_string())
            .into()
    })
}

/// `game.face(card)`.
fn card_face(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| g.state.face(c).to_string().into())
}

/// `game.is_red(card)`.
fn card_is_red(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| g.state.face(c).is_red().into())
}

/// `game.points(card)`.
fn card_points(g: &mut Game, c: Card) -> R<Dynamic> {
    face(g, c, |g, c| g.table.points_of(g.state.face(c)).into())
}

/// `game.owner(card)`.
fn card_owner(g: &mut Game, c: Card) -> R<Dynamic> {
    Ok(match loc(g, c)? {
        Loc::Hand { seat, .. } => Dynamic::from(Player(seat)),
        Loc::Pile(_) => Dynamic::UNIT,
    })
}

/// `game.slot_of(card)`.
fn card_slot_of(g: &mut Game, c: Card) -> R<Dynamic> {
    Ok(Dynamic::from_int(match loc(g, c)? {
        Loc::Hand { slot, .. } => INT::from(slot),
        Loc::Pile(_) => -1,
    }))
}

/// `game.located(card)`.
fn card_located(g: &mut Game, c: Card) -> R<Dynamic> {
    Ok(Dynamic::from(match loc(g, c)? {
        Loc::Hand { seat, slot } => Located(c.0, Some((seat, slot))),
        Loc::Pile(_) => Located(c.0, None),
    }))
}

/// `game.reveal_all(card)`.
fn card_reveal_all(g: &mut Game, c: Card) -> R<Dynamic> {
    effects::changing()?;
    let c = card(g, c)?;
    g.state.reveal_to_all(c);
    Ok(Dynamic::UNIT)
}

/// The entries of `NATIVES` taking the game and one card, by name, with their bodies.
pub(crate) static CARD_ENTRIES: &[(&str, CardFn)] = &[
    ("rank", card_rank),
    ("rank_number", card_rank_number),
    ("suit", card_suit),
    ("face", card_face),
    ("is_red", card_is_red),
    ("points", card_points),
    ("owner", card_owner),
    ("slot_of", card_slot_of),
    ("located", card_located),
    ("reveal_all", card_reveal_all),
];

/// The body of the card entry `name` (see `CARD_ENTRIES`).
pub(crate) fn card_entry(name: &str) -> Option<CardFn> {
    body_named(CARD_ENTRIES, name)
}

/// The body filed under `name` in a table of entries' bodies.
pub(crate) fn body_named<F: Copy>(bodies: &[(&str, F)], name: &str) -> Option<F> {
    bodies
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, body)| body)
}

/// `game.pile_size(name)`, the pile found.
#[inline]
pub(crate) fn pile_size(game: &Game, p: PileId) -> INT {
    // A pile holds at most `limits::MAX_DECK_CARDS` cards.
    game.state.pile(p).len() as INT
}

/// `game.top(name)`, the pile found: its top card, `()` when it is empty.
#[inline]
pub(crate) fn pile_top(game: &Game, p: PileId) -> Dynamic {
    opt_card(game.state.pile(p).last().copied())
}

/// `game.get(name)`, the variable declared `i`-th found: its value.
#[inline]
pub(crate) fn game_var(game: &Game, i: usize) -> Dynamic {
    from_value(&game.state.game_vars[i])
}

/// `game.set(name, v)`, the variable declared `i`-th found.
pub(crate) fn set_game_var(game: &mut Game, i: usize, v: &Dynamic) -> R<()> {
    effects::changing()?;
    // Game variables are in every player's view.
    let everyone = (1u32 << game.state.player_count()) - 1;
    let value = api::to_variable(game, v, everyone, &game.table.game_vars[i].0)?;
    // As for `pset`: writing the value a variable already holds copies nothing.
    if !game.state.game_vars[i].is_identical(&value) {
        Arc::make_mut(&mut game.state.game_vars)[i] = value;
    }
    Ok(())
}

/// `game.pget(p, name)`, the player in seat `s` and the variable declared `i`-th found.
#[inline]
pub(crate) fn player_var(game: &Game, s: Seat, i: usize) -> Dynamic {
    from_value(&game.state.player_vars[s.index()][i])
}

/// `game.pset(p, name, v)`, the player in seat `s` and the variable declared `i`-th found.
pub(crate) fn set_player_var(game: &mut Game, s: Seat, i: usize, v: &Dynamic) -> R<()> {
    effects::changing()?;
    let readers = if game
        .table
        .public_player_vars
        .get(i)
        .copied()
        .unwrap_or(false)
    {
        (1u32 << game.state.player_count()) - 1
    } else {
        1 << s.index()
    };
    let value = api::to_variable(game, v, readers, &game.table.player_vars[i].0)?;
    // The variables are shared with the step's copy of the state until one changes: writing
    // the value a variable already holds copies nothing.
    if !game.state.player_vars[s.index()][i].is_identical(&value) {
        Arc::make_mut(&mut game.state.player_vars[s.index()])[i] = value;
    }
    Ok(())
}

/// Native tables in the order a call site looks in them: an entry hides a later table's entry
/// of the same signature (the table registered last on the engine comes first).
pub(crate) type Tables = &'static [&'static [Native]];

/// The rules engine's tables.
pub(crate) static RULES: Tables = &[NATIVES];

/// Every function of the kernel API, in the order api.rs registered them.
pub(crate) static NATIVES: &[Native] = &[
    native!("refuse", |msg: Str| refusal::<()>(msg.to_string())),
    // Cards and players compare by identity.
    native!("==", |a: Card, b: Card| Ok(a == b)),
    native!("!=", |a: Card, b: Card| Ok(a != b)),
    native!("==", |a: Player, b: Player| Ok(a == b)),
    native!("!=", |a: Player, b: Player| Ok(a != b)),
    native!("==", |a: Slot, b: Slot| Ok(a == b)),
    native!("to_string", |c: Card| Ok(format!("card#{}", c.0.0))),
    native!("to_debug", |c: Card| Ok(format!("card#{}", c.0.0))),
    native!("to_string", |p: Player| Ok(format!("seat#{}", p.0.0))),
    native!("to_debug", |p: Player| Ok(format!("seat#{}", p.0.0))),
    native!("get$seat", |p: Player| Ok(p.0.0 as INT)),
    native!("get$player", |s: Slot| Ok(Player(s.seat))),
    native!("get$slot", |s: Slot| Ok(s.slot as INT)),
    // Players.
    native!("get$players", |g: Game| {
        let count = g.lock().state.player_count();
        Ok(Dynamic::from_array(
            (0..count)
                .map(|i| Dynamic::from(Player(Seat(i as u8))))
                .collect::<Array>(),
        ))
    })
    .with_items(items::game_players),
    native!("get$player_count", |g: Game| {
        Ok(g.lock().state.player_count() as INT)
    }),
    native!("get$current", |g: Game| {
        let current = g.lock().state.current;
        Ok(current.map_or(Dynamic::UNIT, |s| Dynamic::from(Player(s))))
    }),
    native!("set_current", |g: Game, p: Player| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        game.state.current = Some(s);
        Ok(())
    }),
    native!("next_player", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(Player(Seat(
            ((s.index() + 1) % game.state.player_count()) as u8,
        )))
    }),
    native!("player_at", |g: Game, i: Int| {
        let game = g.lock();
        match usize::try_from(i) {
            Ok(i) if i < game.state.player_count() => Ok(Player(Seat(i as u8))),
            _ => err(format!("there is no seat {i}")),
        }
    }),
    native!("name", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(game.state.players[s.index()].clone())
    }),
    // Faces: each value carries its card (see `face_value`).
    native!("rank", |g: Game, c: Card| card_rank(&mut g.lock(), c)),
    native!("rank_number", |g: Game, c: Card| card_rank_number(
        &mut g.lock(),
        c
    )),
    native!("suit", |g: Game, c: Card| card_suit(&mut g.lock(), c)),
    native!("face", |g: Game, c: Card| card_face(&mut g.lock(), c)),
    native!("is_red", |g: Game, c: Card| card_is_red(&mut g.lock(), c)),
    native!("points", |g: Game, c: Card| card_points(&mut g.lock(), c)),
    // Hands.
    native!("hand", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(Dynamic::from_array(
            game.state
                .hand(s)
                .iter()
                .map(|&c| opt_card(c))
                .collect::<Array>(),
        ))
    })
    .with_items(items::game_hand),
    native!("cards_in_hand", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(Dynamic::from_array(
            game.state
                .hand(s)
                .iter()
                .flatten()
                .map(|&c| Dynamic::from(Card(c)))
                .collect::<Array>(),
        ))
    })
    .with_items(items::game_cards_in_hand),
    native!("hand_count", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(game.state.hand(s).iter().flatten().count() as INT)
    }),
    native!("slot_count", |g: Game, p: Player| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(game.state.hand(s).len() as INT)
    }),
    native!("card_at", |g: Game, p: Player, slot: Int| {
        let game = g.lock();
        let s = seat(&game, p)?;
        let slot = slot_index(slot)?;
        Ok(opt_card(game.state.hand(s).get(slot).copied().flatten()))
    }),
    native!("owner", |g: Game, c: Card| card_owner(&mut g.lock(), c)),
    native!("slot_of", |g: Game, c: Card| card_slot_of(&mut g.lock(), c)),
    native!("pile_of", |g: Game, c: Card| {
        let game = g.lock();
        Ok(match loc(&game, c)? {
            Loc::Hand { .. } => Dynamic::UNIT,
            Loc::Pile(p) => Dynamic::from(game.table.piles[p.0 as usize].name.clone()),
        })
    }),
    native!("card_arg", |g: Game, p: Player, arg: Any| {
        card_arg(&g.lock(), p, arg)
    }),
    native!("located", |g: Game, c: Card| card_located(&mut g.lock(), c)),
    // Piles.
    named!("pile_size", |g: Game, name: Name(Pile)| {
        let game = g.lock();
        let p = pile_named(&game, name)?;
        Ok(pile_size(&game, p))
    }),
    named!("top", |g: Game, name: Name(Pile)| {
        let game = g.lock();
        let p = pile_named(&game, name)?;
        Ok(pile_top(&game, p))
    }),
    native!("pile", |g: Game, name: Str| {
        let game = g.lock();
        let p = pile_id(&game, name)?;
        Ok(Dynamic::from_array(
            game.state
                .pile(p)
                .iter()
                .map(|&c| Dynamic::from(Card(c)))
                .collect::<Array>(),
        ))
    }),
    // Moving cards.
    named!("to_pile", |g: Game, c: Card, name: Name(Pile)| {
        let mut game = g.lock();
        let p = pile_named(&game, name)?;
        let c = card(&game, c)?;
        let table = game.table.clone();
        game.state.move_to_pile(&table, c, p);
        Ok(())
    }),
    native!("under_pile", |g: Game, c: Card, name: Str| {
        let mut game = g.lock();
        let p = pile_id(&game, name)?;
        let c = card(&game, c)?;
        let table = game.table.clone();
        game.state.move_under_pile(&table, c, p);
        Ok(())
    }),
    native!("to_slot", |g: Game, c: Card, p: Player, slot: Int| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        let slot = slot_index(slot)?;
        game.state
            .move_to_slot(c.0, s, slot)
            .or_else(|e| err(e.to_string()))
    }),
    native!("add_to_hand", |g: Game, c: Card, p: Player| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        game.state
            .add_to_hand(c.0, s)
            .map(|slot| slot as INT)
            .or_else(|e| err(e.to_string()))
    }),
    native!("append_to_hand", |g: Game, c: Card, p: Player| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        game.state
            .append_to_hand(c.0, s)
            .map(|slot| slot as INT)
            .or_else(|e| err(e.to_string()))
    }),
    native!("compact", |g: Game, p: Player| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        game.state.compact_hand(s).or_else(|e| err(e.to_string()))
    }),
    native!("swap", |g: Game, a: Card, b: Card| {
        let mut game = g.lock();
        let (a, b) = (card(&game, a)?, card(&game, b)?);
        game.state.swap(a, b).or_else(|e| err(e.to_string()))
    }),
    native!("shuffle", |g: Game, name: Str| {
        let mut game = g.lock();
        let p = pile_id(&game, name)?;
        game.state.shuffle_pile(p);
        Ok(())
    }),
    native!("recycle", |g: Game, from: Str, to: Str, keep: Int| {
        let mut game = g.lock();
        let (f, t) = (pile_id(&game, from)?, pile_id(&game, to)?);
        Ok(game.state.recycle(f, t, keep.max(0) as usize) as INT)
    }),
    native!("holds", |g: Game, p: Player, c: Card| {
        let at = loc(&g.lock(), c)?;
        Ok(matches!(at, Loc::Hand { seat, .. } if seat == p.0))
    }),
    native!("deal", |g: Game, name: Str, count: Int| {
        let mut game = g.lock();
        let p = pile_id(&game, name)?;
        for _ in 0..count {
            for s in 0..game.state.player_count() {
                let Some(&c) = game.state.pile(p).last() else {
                    return err(format!("the pile `{name}` ran out while dealing"));
                };
                game.state
                    .append_to_hand(c, Seat(s as u8))
                    .or_else(|e| err(e.to_string()))?;
            }
        }
        Ok(())
    }),
    // Knowledge.
    native!("reveal", |g: Game, c: Card, p: Player| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        let c = card(&game, c)?;
        game.state.reveal_to(c, s);
        Ok(())
    }),
    native!("reveal_all", |g: Game, c: Card| card_reveal_all(
        &mut g.lock(),
        c
    )),
    native!("set_face_up", |g: Game, c: Card, up: Bool| {
        let mut game = g.lock();
        let c = card(&game, c)?;
        game.state
            .set_face_up(c, up)
            .or_else(|e| err(e.to_string()))
    }),
    native!("is_face_up", |g: Game, c: Card| {
        let game = g.lock();
        Ok(game.state.is_face_up(card(&game, c)?))
    }),
    native!("knows", |g: Game, p: Player, c: Card| {
        let game = g.lock();
        let s = seat(&game, p)?;
        Ok(game.state.knows(s, card(&game, c)?))
    }),
    // Phases and turns.
    native!("get$phase", |g: Game| {
        let game = g.lock();
        Ok(api::phase_name(&game.table, game.state.phase))
    }),
    named!("set_phase", |g: Game, name: Name(Phase)| {
        let mut game = g.lock();
        match name.id(&game.table).map(u16::try_from) {
            Some(Ok(p)) => {
                game.state.phase = crate::kernel::PhaseId(p);
                Ok(())
            }
            _ => err(format!(
                "`{name}` is not a phase of this variant{}",
                super::error::suggest(
                    name.text(),
                    game.table.phases.iter().map(|p| p.name.as_str())
                )
            )),
        }
    }),
    native!("get$turns_started", |g: Game| {
        Ok(g.lock().state.turns_started)
    }),
    native!("begin_turns", |g: Game| {
        g.lock().state.turns_started = true;
        Ok(())
    }),
    // Variables and house rules.
    named!("get", |g: Game, name: Name(GameVar)| {
        let game = g.lock();
        match name.id(&game.table) {
            Some(i) => Ok(game_var(&game, i)),
            None => unknown_var(&game, name.text(), false),
        }
    }),
    named!("set", |g: Game, name: Name(GameVar), v: Any| {
        let mut game = g.lock();
        match name.id(&game.table) {
            Some(i) => set_game_var(&mut game, i, v),
            None => unknown_var(&game, name.text(), false),
        }
    }),
    named!("pget", |g: Game, p: Player, name: Name(PlayerVar)| {
        let game = g.lock();
        let s = seat(&game, p)?;
        match name.id(&game.table) {
            Some(i) => Ok(player_var(&game, s, i)),
            None => unknown_var(&game, name.text(), true),
        }
    }),
    named!("pset", |g: Game,
                    p: Player,
                    name: Name(PlayerVar),
                    v: Any| {
        let mut game = g.lock();
        let s = seat(&game, p)?;
        match name.id(&game.table) {
            Some(i) => set_player_var(&mut game, s, i, v),
            None => unknown_var(&game, name.text(), true),
        }
    }),
    named!("house", |g: Game, name: Name(HouseRule)| house_rule(
        &g.lock(),
        name
    )),
    // Events.
    named!("broadcast", |g: Game, name: Name(Event), fields: Map| {
        api::broadcast(g, name, fields.iter().map(|(k, v)| (k.as_str(), v)))
    }),
    named!("tell", |g: Game,
                    p: Player,
                    name: Name(Event),
                    fields: Map| {
        api::tell(g, p, name, fields.iter().map(|(k, v)| (k.as_str(), v)))
    }),
    // Time, chance and the end.
    native!("set_timer", |g: Game, name: Str, secs: Any| {
        set_timer(g, name, secs, None)
    }),
    native!("set_timer", |g: Game, name: Str, secs: Any, p: Player| {
        set_timer(g, name, secs, Some(p))
    }),
    native!("cancel_timer", |g: Game, name: Str| {
        g.lock().state.cancel_timer(name);
        Ok(())
    }),
    native!("get$clock", |g: Game| Ok(g.lock().state.clock as INT)),
    native!("random", |g: Game, n: Int| {
        if n <= 0 {
            return err(format!("random({n}) needs a positive bound"));
        }
        Ok(g.lock().state.random_below(n as u64) as INT)
    }),
    native!("end", |g: Game, winners: Array, reason: Str| {
        let seats = winners
            .iter()
            .map(|w| match w.clone().try_cast::<Player>() {
                Some(p) => Ok(p.0),
                None => err(format!(
                    "end() takes a list of players, not a {}",
                    api::script_type_name(w)
                )),
            })
            .collect::<R<Vec<_>>>()?;
        g.lock()
            .finish(seats, reason)
            .or_else(|e| err(format!("end(): {e}")))
    }),
    native!("get$is_over", |g: Game| Ok(g.lock().is_over())),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A value of the type: `Any` gets a float, a type no entry declares, so that only an
    /// `Any` parameter takes it.
    fn sample(ty: Ty) -> Dynamic {
        match ty {
            Ty::Game => Dynamic::from(GameHandle(Arc::new(Mutex::new(Game::default())))),
            Ty::Player => Dynamic::from(Player(Seat(0))),
            Ty::Card => Dynamic::from(Card(CardIdx(0))),
            Ty::Slot => Dynamic::from(Slot {
                seat: Seat(0),
                slot: 0,
            }),
            Ty::Located => Dynamic::from(Located(CardIdx(0), None)),
            Ty::Int => Dynamic::from(1 as INT),
            Ty::Bool => Dynamic::TRUE,
            Ty::Str => Dynamic::from("x"),
            Ty::Array => Dynamic::from_array(Array::new()),
            Ty::Map => Dynamic::from_map(Map::new()),
            Ty::Unit => Dynamic::UNIT,
            Ty::Any => Dynamic::from(1.5),
            Ty::View => Dynamic::from(crate::script::host::view::BotView::sample()),
        }
    }

    /// Both tables: the rules' and the bots'.
    const TABLES: [&[Native]; 2] = [NATIVES, crate::script::host::bot_natives::BOT_NATIVES];

    /// The entry a call of `name` with these values resolves to.
    fn resolve(name: &str, args: &[&Dynamic]) -> Option<&'static Native> {
        resolve_in(NATIVES, name, args)
    }

    fn resolve_in(
        table: &'static [Native],
        name: &str,
        args: &[&Dynamic],
    ) -> Option<&'static Native> {
        let candidates: Vec<&'static Native> = table
            .iter()
            .filter(|f| f.name == name && f.params.len() == args.len())
            .collect();
        let mut values: Vec<Dynamic> = args.iter().map(|&d| d.clone()).collect();
        let refs: Vec<&mut Dynamic> = values.iter_mut().collect();
        resolve_among(&candidates, &refs)
    }

    #[test]
    fn every_entry_resolves_from_its_own_types() {
        for native in TABLES.iter().flat_map(|t| t.iter()) {
            let table = TABLES
                .into_iter()
                .find(|t| t.iter().any(|n| std::ptr::eq(n, native)))
                .expect("its table");
            let values: Vec<Dynamic> = native.params.iter().map(|&ty| sample(ty)).collect();
            let args: Vec<&Dynamic> = values.iter().collect();
            let found = resolve_in(table, native.name, &args)
                .unwrap_or_else(|| panic!("`{}` {:?} is not found", native.name, native.params));
            assert!(
                std::ptr::eq(found, native),
                "`{}` {:?} resolves to {:?}",
                native.name,
                native.params,
                found.params
            );
        }
    }

    #[test]
    fn rhai_order_resolves_as_the_masks_do() {
        use std::collections::BTreeSet;
        let tys = [
            Ty::Game,
            Ty::Player,
            Ty::Card,
            Ty::Slot,
            Ty::Located,
            Ty::Int,
            Ty::Bool,
            Ty::Str,
            Ty::Array,
            Ty::Map,
            Ty::Unit,
            Ty::Any,
            Ty::View,
        ];
        for table in TABLES {
            let groups: BTreeSet<(&str, usize)> =
                table.iter().map(|n| (n.name, n.params.len())).collect();
            for (name, arity) in groups {
                let candidates: Vec<&'static Native> = table
                    .iter()
                    .filter(|f| f.name == name && f.params.len() == arity)
                    .collect();
                let ordered = rhai_order(candidates.clone());
                // Every combination of argument types (`Any` stands for a float: no entry's own).
                let combinations = tys.len().pow(arity as u32);
                for mut k in 0..combinations {
                    let mut values: Vec<Dynamic> = (0..arity)
                        .map(|_| {
                            let ty = tys[k % tys.len()];
                            k /= tys.len();
                            sample(ty)
                        })
                        .collect();
                    let refs: Vec<&mut Dynamic> = values.iter_mut().collect();
                    let by_masks = resolve_among(&candidates, &refs).map(|n| n.params);
                    let by_order = resolve_ordered(&ordered, &refs).map(|n| n.params);
                    assert_eq!(by_order, by_masks, "`{name}` with {refs:?}");
                }
            }
        }
    }

    #[test]
    fn signatures_are_unique() {
        for table in TABLES {
            for (i, a) in table.iter().enumerate() {
                for b in &table[i + 1..] {
                    assert!(
                        a.name != b.name || a.params != b.params,
                        "`{}` {:?} is in the table twice",
                        a.name,
                        a.params
                    );
                }
            }
        }
    }

    #[test]
    fn resolve_tries_exact_types_before_any() {
        let (card, player) = (sample(Ty::Card), sample(Ty::Player));
        assert!(resolve("==", &[&card, &player]).is_none());
        assert!(resolve("nothing", &[&card]).is_none());
        assert!(resolve("to_string", &[&card, &card]).is_none());
        let (g, name, secs) = (sample(Ty::Game), sample(Ty::Str), sample(Ty::Int));
        let timer = resolve("set_timer", &[&g, &name, &secs]).expect("set_timer");
        assert_eq!(timer.params, &[Ty::Game, Ty::Str, Ty::Any]);
        // `Any` stands in only where an entry declares it: a `Str` is no `Player`.
        assert!(resolve("card_arg", &[&g, &name, &secs]).is_none());
        assert!(Ty::Any.admits(&card) && !Ty::Player.admits(&card) && Ty::Card.admits(&card));
    }

    #[test]
    fn wrong_arguments_are_an_error_not_a_panic() {
        for native in TABLES.iter().flat_map(|t| t.iter()) {
            assert!(
                (native.call)(&mut []).is_err(),
                "`{}` with none",
                native.name
            );
            let mut units: Vec<Dynamic> = native.params.iter().map(|_| Dynamic::UNIT).collect();
            let mut args: Vec<&mut Dynamic> = units.iter_mut().collect();
            assert!(
                (native.call)(&mut args).is_err(),
                "`{}` with units",
                native.name
            );
            let mut values: Vec<Dynamic> = native.params.iter().map(|&t| sample(t)).collect();
            values.push(Dynamic::UNIT);
            let mut args: Vec<&mut Dynamic> = values.iter_mut().collect();
            assert!(
                (native.call)(&mut args).is_err(),
                "`{}` with one more",
                native.name
            );
        }
    }

    #[test]
    fn the_engine_has_every_entry() {
        let mut engine = Engine::new_raw();
        crate::script::host::api::register(&mut engine);
        every_entry_is_on(&engine, NATIVES);
        let mut engine = Engine::new_raw();
        register(&mut engine, crate::script::host::bot_natives::BOT_NATIVES);
        every_entry_is_on(&engine, crate::script::host::bot_natives::BOT_NATIVES);
    }

    fn every_entry_is_on(engine: &Engine, table: &'static [Native]) {
        let signatures = engine.gen_fn_signatures(false);
        for native in table {
            let blanks = vec!["_"; native.params.len()].join(", ");
            let signature = format!("{}({blanks})", native.name);
            let count = signatures.iter().filter(|s| **s == signature).count();
            let overloads = table
                .iter()
                .filter(|n| n.name == native.name && n.params.len() == native.params.len())
                .count();
            assert_eq!(count, overloads, "{signature} in {signatures:?}");
        }
    }
}
