//! The kernel API that rule scripts see: the `Game` handle and the `Card`, `Player` and `Slot`
//! types, registered on the sandboxed engine. Documented for designers in `rules/README.md`.

use super::names::{Name, NameKind};
use crate::kernel::{Arg, Audience, CardIdx, Game, Key, Loc, Payload, PhaseId, Seat, Table, Value};
use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, Map, Position};
use std::sync::{Arc, Mutex, MutexGuard};

pub(crate) type R<T> = Result<T, Box<EvalAltResult>>;

/// The game as scripts hold it. Shared so that helper functions can take it as a parameter.
#[derive(Clone)]
pub struct GameHandle(pub Arc<Mutex<Game>>);

impl GameHandle {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Game> {
        // A poisoned lock only means an earlier panic; the game data is still consistent
        // because every call is one short critical section.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A card, as scripts hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card(pub CardIdx);

/// A player, as scripts hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player(pub Seat);

/// A hand position given as an action argument (`bob's slot 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Whose hand.
    pub seat: Seat,
    /// The slot (0 is the first).
    pub slot: u32,
}

/// A card with where it was when `located` was called, for payloads (`idx`, `user`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located(pub CardIdx, pub Option<(Seat, u16)>);

/// A refusal raised by `refuse(…)`: the player's action is illegal, not a script bug.
#[derive(Clone, Debug)]
pub struct Refusal(pub String);

pub(crate) fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(msg.into()),
        Position::NONE,
    )))
}

/// The kernel value of a script value (for a game variable), at most `MAX_VALUE_DEPTH` deep and
/// `MAX_PAYLOAD_NODES` values large.
/// A value's type as scripts know it (`Game`, `Card`, `i64`, `map`): the name `register` gives a
/// kernel type, where Rhai's own `type_name` would give its Rust path.
pub(crate) fn script_type_name(d: &Dynamic) -> &'static str {
    if d.is::<GameHandle>() {
        "Game"
    } else if d.is::<Card>() {
        "Card"
    } else if d.is::<Player>() {
        "Player"
    } else if d.is::<Slot>() {
        "Slot"
    } else if d.is::<Located>() {
        "LocatedCard"
    } else if d.is::<super::view::BotView>() {
        "BotView"
    } else {
        d.type_name()
    }
}

pub fn to_value(d: &Dynamic) -> R<Value> {
    let mut nodes = 0;
    bounded_value(d, 0, &mut nodes)
}

fn bounded_value(d: &Dynamic, depth: usize, nodes: &mut usize) -> R<Value> {
    use crate::kernel::limits::{MAX_PAYLOAD_NODES, MAX_VALUE_DEPTH};
    *nodes += 1;
    if depth > MAX_VALUE_DEPTH || *nodes > MAX_PAYLOAD_NODES {
        return err(format!(
            "a variable holds at most {MAX_PAYLOAD_NODES} values nested at most {MAX_VALUE_DEPTH} deep"
        ));
    }
    Ok(if d.is_unit() {
        Value::Unit
    } else if let Some(b) = bool_of(d) {
        Value::Bool(b)
    } else if let Some(i) = int_of(d) {
        Value::Int(i)
    } else if let Some(f) = float_of(d) {
        Value::Float(f)
    } else if d.is_string() {
        Value::Str(string_of(d))
    } else if let Some(c) = d.read_lock::<Card>() {
        Value::Card(c.0)
    } else if let Some(p) = d.read_lock::<Player>() {
        Value::Player(p.0)
    } else if let Some(a) = d.read_lock::<Array>() {
        Value::List(
            a.iter()
                .map(|x| bounded_value(x, depth + 1, nodes))
                .collect::<R<_>>()?,
        )
    } else {
        return err(format!(
            "a {} cannot be stored in a game variable",
            script_type_name(d)
        ));
    })
}

/// `d`'s integer, if it holds one: a test without `as_int`'s type name on a miss (values are
/// tested this way on every event, variable and comparison).
#[inline]
pub(crate) fn int_of(d: &Dynamic) -> Option<INT> {
    if d.is_int() { d.as_int().ok() } else { None }
}

/// `d`'s boolean, if it holds one (as `int_of`).
#[inline]
pub(crate) fn bool_of(d: &Dynamic) -> Option<bool> {
    if d.is_bool() { d.as_bool().ok() } else { None }
}

/// `d`'s float, if it holds one (as `int_of`).
#[inline]
pub(super) fn float_of(d: &Dynamic) -> Option<rhai::FLOAT> {
    if d.is_float() {
        d.as_float().ok()
    } else {
        None
    }
}

/// A script string's text, read in place (a copy of the value would count a reference up and
/// down just to read it).
fn string_of(d: &Dynamic) -> String {
    d.as_immutable_string_ref()
        .map(|s| String::from(s.as_str()))
        .unwrap_or_default()
}

/// The script value of a kernel value.
pub fn from_value(v: &Value) -> Dynamic {
    match v {
        Value::Unit => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from(*b),
        Value::Int(i) => Dynamic::from(*i),
        Value::Float(f) => Dynamic::from(*f),
        Value::Str(s) => Dynamic::from(s.clone()),
        Value::Card(c) => Dynamic::from(Card(*c)),
        Value::Player(p) => Dynamic::from(Player(*p)),
        Value::List(items) => Dynamic::from_array(items.iter().map(from_value).collect()),
    }
}

/// The script value of an action argument.
pub fn arg_value(arg: &Arg) -> Dynamic {
    match arg {
        Arg::Word(w) => Dynamic::from(w.clone()),
        Arg::Int(i) => Dynamic::from(*i),
        Arg::Float(f) => Dynamic::from(*f),
        Arg::Card(c) => Dynamic::from(Card(*c)),
        Arg::Slot { seat, slot } => Dynamic::from(Slot {
            seat: *seat,
            slot: *slot,
        }),
        Arg::Drawn => Dynamic::from("drawn".to_string()),
    }
}

/// Values read from a card's face (`rank`, `suit`, `face`, `points`, …) carry the card, so that
/// an event or a variable can refuse them for a player who does not know the card: in their
/// Rhai tag (index + 1), and a text also by its address, since Rhai's `let` makes a string value
/// anew without its tag but with the same shared text (`FACE_TEXTS`). Every way of passing the
/// value on keeps it (a variable, a constant, a copy, a parameter, a returned value, an item of
/// an array or map); values computed from it (arithmetic, joined or formatted text) are new
/// values, which the guard does not follow.
pub(super) fn face_value(card: CardIdx, value: Dynamic) -> Dynamic {
    let mut value = value;
    value.set_tag(i32::from(card.0) + 1);
    if let Some(text) = value.read_lock::<ImmutableString>() {
        let text = text.clone();
        FACE_TEXTS.with_borrow_mut(|texts| texts.push((text, card)));
    }
    value
}

thread_local! {
    /// The texts read from faces in the script call running on this thread, each with its card.
    /// Each read makes its own text, so a text's address names its card; the texts are kept
    /// until the call ends, so no other text can take an address while it is listed. The
    /// operation limit bounds how many a call reads.
    static FACE_TEXTS: std::cell::RefCell<Vec<(ImmutableString, CardIdx)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Run a script call with a list of face texts of its own (see `FACE_TEXTS`).
pub(super) fn with_face_texts<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(Vec<(ImmutableString, CardIdx)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = std::mem::take(&mut self.0);
            FACE_TEXTS.with_borrow_mut(|texts| *texts = outer);
        }
    }
    let _restore = Restore(FACE_TEXTS.with_borrow_mut(std::mem::take));
    f()
}

/// A value of one of the API's own types.
enum KernelValue {
    Card(Card),
    Located(Located),
    Player(Player),
    Slot(Slot),
}

/// `d` as a value of the API's own types, if it is one. Each typed read of a custom type asks
/// its type id (through two dynamic calls), so the commonest types are tried first: a card,
/// then a player (events and variables are a hot path).
fn kernel_value(d: &Dynamic) -> Option<KernelValue> {
    if !d.is_variant() {
        return None;
    }
    if let Some(c) = d.read_lock::<Card>() {
        Some(KernelValue::Card(*c))
    } else if let Some(p) = d.read_lock::<Player>() {
        Some(KernelValue::Player(*p))
    } else if let Some(l) = d.read_lock::<Located>() {
        Some(KernelValue::Located(*l))
    } else {
        d.read_lock::<Slot>().map(|s| KernelValue::Slot(*s))
    }
}

/// The card a face value was read from, if it is one.
fn face_source(d: &Dynamic) -> Option<CardIdx> {
    if let Ok(card) = u16::try_from(d.tag() - 1) {
        return Some(CardIdx(card));
    }
    // Only a string can be a face text (`face_refused` has already passed over values that
    // are neither tagged nor text).
    let text = d.read_lock::<ImmutableString>()?;
    FACE_TEXTS.with_borrow(|texts| {
        texts
            .iter()
            .find(|(t, _)| t.ptr_eq(&text))
            .map(|&(_, card)| card)
    })
}

/// A value read from the face of a card that some of `audience` do not know cannot go in their
/// event.
fn check_face(game: &Game, d: &Dynamic, audience: u32, field: &dyn Fn() -> String) -> R<()> {
    face_refused(game, d, audience, field, "put the card itself in the event")
}

/// The refusal of face value `d` for `audience`, with what to do instead.
#[inline]
fn face_refused(
    game: &Game,
    d: &Dynamic,
    audience: u32,
    field: &dyn Fn() -> String,
    instead: &str,
) -> R<()> {
    // Only a tagged value or a text can be a face value (`face_source`): most values are
    // neither, and this runs for every value a variable or an event gets.
    if d.tag() == 0 && !d.is_string() {
        return Ok(());
    }
    face_refused_tagged(game, d, audience, field, instead)
}

/// `face_refused` of a value that may have been read from a face.
#[inline(never)]
fn face_refused_tagged(
    game: &Game,
    d: &Dynamic,
    audience: u32,
    field: &dyn Fn() -> String,
    instead: &str,
) -> R<()> {
    if let Some(card) = face_source(d)
        && let Ok(state) = game.state.card(card)
        && state.known_by & audience != audience
    {
        let field = field();
        let blind = (0..game.state.player_count())
            .find(|&i| audience & !state.known_by & (1 << i) != 0)
            .map_or(String::new(), |i| game.state.players[i].clone());
        return err(format!(
            "`{field}` (`{d}`) was read from the face of a card that {blind} does not know: {instead}, and each player sees its face only if they know it"
        ));
    }
    Ok(())
}

/// A value to store in a variable that `readers` read (every player for a game variable, its
/// player, or everyone when it is public, for a player variable): refused when it is, or holds,
/// a value read from the face of a card some reader does not know.
pub(super) fn to_variable(game: &Game, d: &Dynamic, readers: u32, name: &str) -> R<Value> {
    // Most values stored are numbers and flags not read from a face (no tag): nothing to refuse
    // and nothing nested, so they skip the walk below (this runs on every `set` and `pset`).
    if d.tag() == 0 {
        if let Some(i) = int_of(d) {
            return Ok(Value::Int(i));
        }
        if let Some(b) = bool_of(d) {
            return Ok(Value::Bool(b));
        }
        match kernel_value(d) {
            Some(KernelValue::Card(c)) => return Ok(Value::Card(c.0)),
            Some(KernelValue::Player(p)) => return Ok(Value::Player(p.0)),
            _ => {}
        }
    }
    fn faces(game: &Game, d: &Dynamic, readers: u32, name: &str, depth: usize) -> R<()> {
        face_refused(
            game,
            d,
            readers,
            &|| name.to_string(),
            "store the card itself",
        )?;
        if depth >= crate::kernel::limits::MAX_VALUE_DEPTH {
            return Ok(());
        }
        // A map cannot be stored, but a face in one is refused as a face, as in an event. A
        // value's kind is looked at before a typed read, which asks its type id.
        if !d.is_array() && !d.is_map() {
            return Ok(());
        }
        if let Some(items) = d.read_lock::<Array>() {
            for item in items.iter() {
                faces(game, item, readers, name, depth + 1)?;
            }
        } else if let Some(entries) = d.read_lock::<Map>() {
            for entry in entries.values() {
                faces(game, entry, readers, name, depth + 1)?;
            }
        }
        Ok(())
    }
    faces(game, d, readers, name, 0)?;
    to_value(d)
}

/// For an event that is not kept (`Game::set_keep_events`): the number of values a field at
/// `depth` (1 for a field of the event) makes in the payload, as `Game::emit` counts them, after
/// the checks `payload` makes of it, in its order, without making it: a plain value, a card or
/// a player is one value (a card in a hand three, with its `idx` and `user`; a slot three), a
/// list or a map one and its items. `None` for anything else, and for a level `payload` or
/// `Game::emit` would refuse: only they say what happens there.
fn unkept_field_nodes(
    game: &Game,
    d: &Dynamic,
    audience: u32,
    field: &dyn Fn() -> String,
    depth: usize,
) -> R<Option<usize>> {
    use crate::kernel::limits::MAX_VALUE_DEPTH;
    if depth > MAX_VALUE_DEPTH {
        return Ok(None);
    }
    // A number or a flag not read from a face (no tag), the commonest field: one value, with
    // nothing to refuse.
    if d.tag() == 0 && (d.is_int() || d.is_bool()) {
        return Ok(Some(1));
    }
    // `payload`'s checks of a value: a face value, then the card a kernel value refers to.
    check_face(game, d, audience, field)?;
    // A value with fields of its own (a card in a hand, a slot) has them one level deeper.
    let inner_fits = depth < MAX_VALUE_DEPTH;
    if d.is_variant() {
        return Ok(match kernel_value(d) {
            Some(KernelValue::Card(c)) => card(game, c).map(|_| Some(1))?,
            Some(KernelValue::Located(Located(c, at))) => {
                card(game, Card(c))?;
                match at {
                    None => Some(1),
                    Some(_) if inner_fits => Some(3),
                    Some(_) => None,
                }
            }
            Some(KernelValue::Player(_)) => Some(1),
            Some(KernelValue::Slot(_)) => inner_fits.then_some(3),
            None => None,
        });
    }
    let plain = d.is_unit()
        || bool_of(d).is_some()
        || int_of(d).is_some()
        || float_of(d).is_some()
        || d.is_string();
    if plain {
        return Ok(Some(1));
    }
    let mut nodes = 1usize;
    let mut add = |x: &Dynamic, key: &dyn std::fmt::Display| -> R<bool> {
        let item = || format!("{}.{key}", field());
        Ok(
            match unkept_field_nodes(game, x, audience, &item, depth + 1)? {
                Some(n) => {
                    nodes = nodes.saturating_add(n);
                    true
                }
                None => false,
            },
        )
    };
    if let Some(a) = d.read_lock::<Array>() {
        for (i, x) in a.iter().enumerate() {
            if !add(x, &i)? {
                return Ok(None);
            }
        }
    } else if let Some(m) = d.read_lock::<Map>() {
        for (k, v) in m.iter() {
            if !add(v, k)? {
                return Ok(None);
            }
        }
    } else {
        return Ok(None);
    }
    Ok(Some(nodes))
}

/// An event payload from a script value. `audience` is the seats that receive it; `field` gives
/// the dotted name of the value, built only for an error message (events are a hot path).
fn payload(
    game: &Game,
    d: &Dynamic,
    audience: u32,
    field: &dyn Fn() -> String,
    depth: usize,
) -> R<Payload> {
    use crate::kernel::limits::MAX_VALUE_DEPTH;
    if depth > MAX_VALUE_DEPTH {
        let field = field();
        return err(format!(
            "`{field}` nests more than {MAX_VALUE_DEPTH} levels deep: events hold plain values, lists and maps"
        ));
    }
    check_face(game, d, audience, field)?;
    let nested = |x: &Dynamic, key: &dyn std::fmt::Display| {
        payload(
            game,
            x,
            audience,
            &|| format!("{}.{key}", field()),
            depth + 1,
        )
    };
    // A card or a player (most fields) first: a value in a box is none of the plain types below.
    let kernel = if d.is_variant() {
        kernel_value(d)
    } else {
        None
    };
    Ok(if let Some(kernel) = kernel {
        kernel_payload(game, kernel)?
    } else if d.is_unit() {
        Payload::Null
    } else if let Some(b) = bool_of(d) {
        Payload::Bool(b)
    } else if let Some(i) = int_of(d) {
        Payload::Int(i)
    } else if let Some(f) = float_of(d) {
        Payload::Float(f)
    } else if d.is_string() {
        Payload::Str(string_of(d))
    } else if let Some(kernel) = kernel_value(d) {
        // A shared one.
        kernel_payload(game, kernel)?
    } else if let Some(a) = d.read_lock::<Array>() {
        Payload::List(
            a.iter()
                .enumerate()
                .map(|(i, x)| nested(x, &i))
                .collect::<R<_>>()?,
        )
    } else if let Some(m) = d.read_lock::<Map>() {
        Payload::Map(
            m.iter()
                .map(|(k, v)| Ok((Key::from(k.as_str()), nested(v, k)?)))
                .collect::<R<_>>()?,
        )
    } else {
        return err(format!("a {} cannot go in an event", script_type_name(d)));
    })
}

/// The payload of a card, a located card, a player or a slot.
fn kernel_payload(game: &Game, kernel: KernelValue) -> R<Payload> {
    Ok(match kernel {
        KernelValue::Card(c) => game.card_ref(card(game, c)?, false),
        KernelValue::Located(Located(card, at)) => {
            let mut p = game.card_ref(self::card(game, Card(card))?, false);
            if let (Payload::Card(c), Some((seat, slot))) = (&mut p, at) {
                c.extra
                    .push((crate::kernel::idx_key(), Payload::Int(slot as i64)));
                c.extra
                    .push((crate::kernel::user_key(), Payload::Player(seat)));
            }
            p
        }
        KernelValue::Player(p) => Payload::Player(p.0),
        KernelValue::Slot(s) => Payload::Map(vec![
            (crate::kernel::user_key(), Payload::Player(s.seat)),
            (crate::kernel::idx_key(), Payload::Int(s.slot as i64)),
        ]),
    })
}

pub(super) fn pile_id(game: &Game, name: &str) -> R<crate::kernel::PileId> {
    pile_named(game, Name::new(name, NameKind::Pile))
}

/// The pile a name argument names (see `natives::Name`).
pub(super) fn pile_named(game: &Game, name: Name<'_>) -> R<crate::kernel::PileId> {
    match name.id(&game.table).map(u16::try_from) {
        Some(Ok(p)) => Ok(crate::kernel::PileId(p)),
        _ => err(format!(
            "`{name}` is not a pile of this variant{}",
            super::error::suggest(
                name.text(),
                game.table.piles.iter().map(|p| p.name.as_str())
            )
        )),
    }
}

/// A card of this game (a script cannot make others, but every input is checked).
pub(crate) fn card(game: &Game, c: Card) -> R<CardIdx> {
    game.state
        .card(c.0)
        .map(|_| c.0)
        .or_else(|e| err(e.to_string()))
}

/// Where a card of this game is.
pub(crate) fn loc(game: &Game, c: Card) -> R<Loc> {
    Ok(game.state.cards[card(game, c)?.0 as usize].loc)
}

pub(crate) fn seat(game: &Game, p: Player) -> R<Seat> {
    game.state.seat(p.0).or_else(|e| err(e.to_string()))
}

pub(super) fn slot_index(slot: INT) -> R<usize> {
    usize::try_from(slot).or_else(|_| err(format!("slot {slot} is negative")))
}

pub(super) fn opt_card(c: Option<CardIdx>) -> Dynamic {
    c.map_or(Dynamic::UNIT, |c| Dynamic::from(Card(c)))
}

pub(crate) fn card_arg(game: &Game, p: Player, arg: &Dynamic) -> R<Dynamic> {
    // Read in place: a copy of a card or slot value would allocate just to learn its type.
    if let Some(c) = arg.read_lock::<Card>() {
        return Ok(Dynamic::from(*c));
    }
    let slot = arg.read_lock::<Slot>().map(|s| *s);
    let (owner, slot) = if let Some(s) = slot {
        (s.seat, s.slot as usize)
    } else if let Some(i) = int_of(arg) {
        // A number is a slot of the player's own hand, as a client sends it: a negative one is
        // that client's mistake, refused like a slot that holds no card.
        match usize::try_from(i) {
            Ok(slot) => (p.0, slot),
            Err(_) => return refusal(format!("slot {i} is negative: slots count from 0")),
        }
    } else {
        return refusal(format!("expected a card, not `{arg}`"));
    };
    match game.state.hand(owner).get(slot).copied().flatten() {
        Some(c) => Ok(Dynamic::from(Card(c))),
        None => refusal(format!(
            "no card in slot {slot} of {}'s hand",
            game.state.players[owner.index()]
        )),
    }
}

pub(crate) fn refusal<T>(msg: String) -> R<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(Refusal(msg)),
        Position::NONE,
    )))
}

/// Rhai's "Function not found: name (types…)" for a call on the game, said for designers: the
/// way to call an API function given the wrong arguments, or the closest API name to a typo.
pub fn explain_missing(signature: &str) -> Option<String> {
    let (name, types) = signature.split_once(" (")?;
    let types = types.trim_end_matches(')');
    if let Some(f) = super::reference::api_fn(name) {
        return Some(format!(
            "`{name}` is called as {}, not with ({types})",
            f.usage
        ));
    }
    // Only calls on the game (first argument `Game`) are the API's to explain.
    if !types.starts_with("Game") {
        return None;
    }
    let close = crate::suggest::did_you_mean(name, super::reference::API.iter().map(|f| f.name))?;
    let usage = super::reference::api_fn(close).map_or("", |f| f.usage);
    Some(format!(
        "`{name}` is not a function of the game: did you mean `{close}` ({usage})?"
    ))
}

/// Register the API on a fresh engine: its types, then every function of `natives::NATIVES`.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<GameHandle>("Game")
        .register_type_with_name::<Card>("Card")
        .register_type_with_name::<Player>("Player")
        .register_type_with_name::<Slot>("Slot")
        .register_type_with_name::<Located>("LocatedCard")
        .register_type_with_name::<Refusal>("Refusal");
    super::natives::register(engine, super::natives::NATIVES);
    // Rhai's `pad` of a string with an empty padding never returns (it adds nothing, forever,
    // in one operation no limit can stop): this one refuses it, and otherwise pads as Rhai's.
    engine.register_fn("pad", pad_with_text);
}

/// `text.pad(len, padding)`: Rhai's, except that an empty padding is an error.
fn pad_with_text(
    ctx: rhai::NativeCallContext,
    text: &mut ImmutableString,
    len: INT,
    padding: &str,
) -> R<()> {
    let too_long = || {
        Box::new(EvalAltResult::ErrorDataTooLarge(
            "Length of string".to_string(),
            Position::NONE,
        ))
    };
    if len <= 0 {
        return Ok(());
    }
    let len = usize::try_from(len).map_err(|_| too_long())?;
    let max = ctx.engine().max_string_size();
    if max > 0 && len > max {
        return Err(too_long());
    }
    let mut text_len = text.chars().count();
    if len <= text_len {
        return Ok(());
    }
    if padding.is_empty() {
        return err("`pad` needs a padding of at least one character");
    }
    let padding_len = padding.chars().count();
    let p = text.make_mut();
    while text_len < len {
        if text_len + padding_len <= len {
            p.push_str(padding);
            text_len += padding_len;
        } else {
            p.extend(padding.chars().take(len - text_len));
            text_len = len;
        }
    }
    if max > 0 && text.len() > max {
        return Err(too_long());
    }
    Ok(())
}

/// The value of a house rule, or an error naming the house rules there are.
pub(crate) fn house_rule(game: &Game, name: Name<'_>) -> R<Dynamic> {
    match name.id(&game.table) {
        Some(i) => Ok(house_value(game, i)),
        None => err(format!(
            "`{name}` is not a house rule of this variant{}",
            super::error::suggest(
                name.text(),
                game.table.house_rules.iter().map(|h| h.0.as_str())
            )
        )),
    }
}

/// `game.house(name)`, the house rule declared `i`-th found: its value in this game.
#[inline]
pub(crate) fn house_value(game: &Game, i: usize) -> Dynamic {
    from_value(&game.state.house[i])
}

pub(super) fn unknown_var<T>(game: &Game, name: &str, player: bool) -> R<T> {
    let (kind, names): (&str, Vec<&str>) = if player {
        (
            "player",
            game.table
                .player_vars
                .iter()
                .map(|v| v.0.as_str())
                .collect(),
        )
    } else {
        (
            "game",
            game.table.game_vars.iter().map(|v| v.0.as_str()).collect(),
        )
    };
    err(format!(
        "`{name}` is not a {kind} variable: declare it under vars.{kind} in variant.yaml{}",
        super::error::suggest(name, names)
    ))
}

/// An event field's name as its caller holds it: text, made a key when the event is sent, or a
/// key made once (a compiled map literal's).
pub(crate) trait FieldName {
    fn text(&self) -> &str;
    fn key(&self) -> Key;
}

impl FieldName for &str {
    fn text(&self) -> &str {
        self
    }
    fn key(&self) -> Key {
        Key::from(*self)
    }
}

impl FieldName for &Key {
    fn text(&self) -> &str {
        self
    }
    fn key(&self) -> Key {
        Key::clone(self)
    }
}

/// `game.broadcast(name, fields)`: an event for every player. `fields` in key order, as a map
/// holds them.
pub(crate) fn broadcast<'v>(
    g: &GameHandle,
    name: Name<'_>,
    fields: impl Iterator<Item = (impl FieldName, &'v Dynamic)> + Clone,
) -> R<()> {
    emit(g, name, Audience::Everyone, fields)
}

/// `game.tell(p, name, fields)`: an event for player `p` alone.
pub(crate) fn tell<'v>(
    g: &GameHandle,
    p: Player,
    name: Name<'_>,
    fields: impl Iterator<Item = (impl FieldName, &'v Dynamic)> + Clone,
) -> R<()> {
    let s = seat(&g.lock(), p)?;
    emit(g, name, Audience::Player(s), fields)
}

fn emit<'v>(
    g: &GameHandle,
    name: Name<'_>,
    to: Audience,
    fields: impl Iterator<Item = (impl FieldName, &'v Dynamic)> + Clone,
) -> R<()> {
    let mut game = g.lock();
    let Some(event) = name.id(&game.table) else {
        return err(format!(
            "`{name}` is not an event of this variant: declare it under events in variant.yaml{}",
            super::error::suggest(name.text(), game.table.events.iter().map(|e| &**e))
        ));
    };
    let audience = match to {
        Audience::Everyone => game.state.all_players_mask(),
        Audience::Player(s) => s.bit(),
    };
    if !game.keeps_events() {
        // Checked and counted without making the payload, unless a field holds something else
        // (a function pointer, say) or nests as deep as the limit: those are made in full.
        let mut nodes = Some(1);
        for (k, v) in fields.clone() {
            let Some(n) = unkept_field_nodes(&game, v, audience, &|| k.text().to_string(), 1)?
            else {
                nodes = None;
                break;
            };
            nodes = nodes.map(|total| total + n);
        }
        if let Some(nodes) = nodes {
            match game.emit_unkept(event, nodes) {
                Ok(true) => return Ok(()),
                // Kept after all: made in full below, never dropped unsent.
                Ok(false) => {}
                Err(e) => return err(format!("`{name}`: {e}")),
            }
        }
    }
    let payload = Payload::Map(
        fields
            .map(|(k, v)| {
                Ok((
                    k.key(),
                    payload(&game, v, audience, &|| k.text().to_string(), 1)?,
                ))
            })
            .collect::<R<_>>()?,
    );
    let event = game.table.events[event].clone();
    game.emit(event, to, payload)
        .or_else(|e| err(format!("`{name}`: {e}")))
}

pub(crate) fn set_timer(g: &GameHandle, name: &str, seconds: &Dynamic, p: Option<Player>) -> R<()> {
    let mut game = g.lock();
    if !game.table.timers.iter().any(|t| t == name) {
        return err(format!(
            "`{name}` is not a timer of this variant: declare it under timers in variant.yaml{}",
            super::error::suggest(name, game.table.timers.iter().map(String::as_str))
        ));
    }
    use crate::kernel::limits::MAX_TIMER_MILLIS;
    let max_seconds = MAX_TIMER_MILLIS / 1000;
    // Whole milliseconds from 1 ms to a day: checked as a float before any conversion.
    let millis = match to_value(seconds)?.as_f64().map(|s| (s * 1000.0).round()) {
        Some(ms) if (1.0..=MAX_TIMER_MILLIS as f64).contains(&ms) => ms as u64,
        _ => {
            return err(format!(
                "a timer runs from 0.001 to {max_seconds} seconds, not `{seconds}`"
            ));
        }
    };
    let seat = match p {
        Some(p) => Some(seat(&game, p)?),
        None => None,
    };
    game.state
        .set_timer(name, millis, seat)
        .or_else(|e| err(e.to_string()))
}

thread_local! {
    /// The phase names of the variant last asked on this thread, as script strings: reading
    /// `game.phase` then copies a shared string instead of making one. The table is held, so
    /// another variant's table cannot take its address.
    static PHASE_NAMES: std::cell::RefCell<Option<(Arc<Table>, Vec<ImmutableString>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The name of `phase` in `table`, as a script string.
pub(crate) fn phase_name(table: &Arc<Table>, phase: PhaseId) -> ImmutableString {
    PHASE_NAMES.with(|names| {
        let mut names = names.borrow_mut();
        let (_, list) = match &mut *names {
            Some(entry) if Arc::ptr_eq(&entry.0, table) => entry,
            other => other.insert((
                table.clone(),
                table
                    .phases
                    .iter()
                    .map(|p| ImmutableString::from(p.name.as_str()))
                    .collect(),
            )),
        };
        // Built from this table, so it has every phase the table has.
        list[phase.0 as usize].clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::table::PhaseDecl;

    fn table(phases: &[&str]) -> Arc<Table> {
        Arc::new(Table {
            phases: phases
                .iter()
                .map(|&name| PhaseDecl {
                    name: name.into(),
                    setup: false,
                })
                .collect(),
            ..Table::default()
        })
    }

    #[test]
    fn phase_names_follow_the_table_asked() {
        let (a, b) = (table(&["deal", "play"]), table(&["peek", "turn", "end"]));
        // Alternating tables on one thread, and a table equal to another but not the same one.
        let a_again = table(&["one", "two"]);
        for _ in 0..2 {
            assert_eq!(phase_name(&a, PhaseId(1)).as_str(), "play");
            assert_eq!(phase_name(&b, PhaseId(2)).as_str(), "end");
            assert_eq!(phase_name(&b, PhaseId(0)).as_str(), "peek");
            assert_eq!(phase_name(&a_again, PhaseId(0)).as_str(), "one");
        }
    }
}
