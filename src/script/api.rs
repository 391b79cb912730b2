//! The kernel API that rule scripts see: the `Game` handle and the `Card`, `Player` and `Slot`
//! types, registered on the sandboxed engine. Documented for designers in `rules/README.md`.

use crate::kernel::{Arg, Audience, CardIdx, Game, Loc, Payload, Seat, Value};
use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, Map, Position};
use std::sync::{Arc, Mutex, MutexGuard};

pub(super) type R<T> = Result<T, Box<EvalAltResult>>;

/// The game as scripts hold it. Shared so that helper functions can take it as a parameter.
#[derive(Clone)]
pub struct GameHandle(pub Arc<Mutex<Game>>);

impl GameHandle {
    fn lock(&self) -> MutexGuard<'_, Game> {
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

pub(super) fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(msg.into()),
        Position::NONE,
    )))
}

/// The kernel value of a script value (for a game variable), at most `MAX_VALUE_DEPTH` deep and
/// `MAX_PAYLOAD_NODES` values large.
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
    } else if let Ok(b) = d.as_bool() {
        Value::Bool(b)
    } else if let Ok(i) = d.as_int() {
        Value::Int(i)
    } else if let Ok(f) = d.as_float() {
        Value::Float(f)
    } else if d.is_string() {
        Value::Str(d.clone().into_string().unwrap_or_default())
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
            d.type_name()
        ));
    })
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
        Value::List(items) => Dynamic::from(items.iter().map(from_value).collect::<Array>()),
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

/// Values read from a card's face (`rank`, `suit`, `face`, `points`, …) carry the card in their
/// Rhai tag (index + 1), so that an event can refuse to send them to a player who does not know
/// the card. Values computed from them (by arithmetic or string operations) are new, untagged
/// values: the guard catches passing a face on as it is, the common mistake.
fn face_value(card: CardIdx, value: Dynamic) -> Dynamic {
    let mut value = value;
    value.set_tag(i32::from(card.0) + 1);
    value
}

/// The card a face value was read from, if it is one.
fn face_source(d: &Dynamic) -> Option<CardIdx> {
    u16::try_from(d.tag() - 1).ok().map(CardIdx)
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
    if let Some(card) = face_source(d)
        && let Ok(state) = game.state.card(card)
        && state.known_by & audience != audience
    {
        let field = field();
        let blind = (0..game.state.player_count())
            .find(|&i| audience & !state.known_by & (1 << i) != 0)
            .map_or(String::new(), |i| game.state.players[i].clone());
        return err(format!(
            "`{field}` (`{d}`) was read from the face of a card that {blind} does not know: put the card itself in the event, and each player sees its face only if they know it"
        ));
    }
    let nested = |x: &Dynamic, key: &dyn std::fmt::Display| {
        payload(
            game,
            x,
            audience,
            &|| format!("{}.{key}", field()),
            depth + 1,
        )
    };
    Ok(if d.is_unit() {
        Payload::Null
    } else if let Ok(b) = d.as_bool() {
        Payload::Bool(b)
    } else if let Ok(i) = d.as_int() {
        Payload::Int(i)
    } else if let Ok(f) = d.as_float() {
        Payload::Float(f)
    } else if d.is_string() {
        Payload::Str(d.clone().into_string().unwrap_or_default())
    } else if let Some(c) = d.read_lock::<Card>() {
        game.card_ref(card(game, *c)?, false)
    } else if let Some(located) = d.read_lock::<Located>() {
        let Located(card, at) = *located;
        let mut p = game.card_ref(self::card(game, Card(card))?, false);
        if let (Payload::Card(c), Some((seat, slot))) = (&mut p, at) {
            c.extra.push(("idx".into(), Payload::Int(slot as i64)));
            c.extra.push(("user".into(), Payload::Player(seat)));
        }
        p
    } else if let Some(p) = d.read_lock::<Player>() {
        Payload::Player(p.0)
    } else if let Some(s) = d.read_lock::<Slot>() {
        Payload::Map(vec![
            ("user".into(), Payload::Player(s.seat)),
            ("idx".into(), Payload::Int(s.slot as i64)),
        ])
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
                .map(|(k, v)| Ok((k.to_string(), nested(v, k)?)))
                .collect::<R<_>>()?,
        )
    } else {
        return err(format!("a {} cannot go in an event", d.type_name()));
    })
}

pub(super) fn pile_id(game: &Game, name: &str) -> R<crate::kernel::PileId> {
    match game.table.pile(name) {
        Some(p) => Ok(p),
        None => err(format!(
            "`{name}` is not a pile of this variant{}",
            super::error::suggest(name, game.table.piles.iter().map(|p| p.name.as_str()))
        )),
    }
}

/// A card of this game (a script cannot make others, but every input is checked).
fn card(game: &Game, c: Card) -> R<CardIdx> {
    game.state
        .card(c.0)
        .map(|_| c.0)
        .or_else(|e| err(e.to_string()))
}

/// Where a card of this game is.
fn loc(game: &Game, c: Card) -> R<Loc> {
    Ok(game.state.cards[card(game, c)?.0 as usize].loc)
}

fn seat(game: &Game, p: Player) -> R<Seat> {
    game.state.seat(p.0).or_else(|e| err(e.to_string()))
}

fn slot_index(slot: INT) -> R<usize> {
    usize::try_from(slot).or_else(|_| err(format!("slot {slot} is negative")))
}

fn opt_card(c: Option<CardIdx>) -> Dynamic {
    c.map_or(Dynamic::UNIT, |c| Dynamic::from(Card(c)))
}

fn card_arg(game: &Game, p: Player, arg: &Dynamic) -> R<Dynamic> {
    if let Some(c) = arg.clone().try_cast::<Card>() {
        return Ok(Dynamic::from(c));
    }
    let (owner, slot) = if let Some(s) = arg.clone().try_cast::<Slot>() {
        (s.seat, s.slot as usize)
    } else if let Some(i) = arg.clone().try_cast::<INT>() {
        (p.0, slot_index(i)?)
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

fn refusal<T>(msg: String) -> R<T> {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(Refusal(msg)),
        Position::NONE,
    )))
}

/// Every function of the game API with how it is called (as `rules/README.md` documents it), for
/// did-you-mean and "takes …" messages when a script calls one wrongly.
pub const API: &[(&str, &str)] = &[
    ("players", "game.players"),
    ("player_count", "game.player_count"),
    ("current", "game.current"),
    ("set_current", "game.set_current(player)"),
    ("next_player", "game.next_player(player)"),
    ("player_at", "game.player_at(seat_number)"),
    ("name", "game.name(player)"),
    ("phase", "game.phase"),
    ("set_phase", "game.set_phase(\"phase\")"),
    ("turns_started", "game.turns_started"),
    ("begin_turns", "game.begin_turns()"),
    ("hand", "game.hand(player)"),
    ("cards_in_hand", "game.cards_in_hand(player)"),
    ("hand_count", "game.hand_count(player)"),
    ("slot_count", "game.slot_count(player)"),
    ("card_at", "game.card_at(player, slot)"),
    ("owner", "game.owner(card)"),
    ("slot_of", "game.slot_of(card)"),
    ("pile_of", "game.pile_of(card)"),
    ("card_arg", "game.card_arg(player, arg)"),
    ("located", "game.located(card)"),
    ("holds", "game.holds(player, card)"),
    ("top", "game.top(\"pile\")"),
    ("pile_size", "game.pile_size(\"pile\")"),
    ("pile", "game.pile(\"pile\")"),
    ("to_pile", "game.to_pile(card, \"pile\")"),
    ("under_pile", "game.under_pile(card, \"pile\")"),
    ("to_slot", "game.to_slot(card, player, slot)"),
    ("add_to_hand", "game.add_to_hand(card, player)"),
    ("append_to_hand", "game.append_to_hand(card, player)"),
    ("compact", "game.compact(player)"),
    ("swap", "game.swap(card, card)"),
    ("deal", "game.deal(\"pile\", count)"),
    ("shuffle", "game.shuffle(\"pile\")"),
    ("recycle", "game.recycle(\"from\", \"to\", keep)"),
    ("rank", "game.rank(card)"),
    ("rank_number", "game.rank_number(card)"),
    ("suit", "game.suit(card)"),
    ("face", "game.face(card)"),
    ("is_red", "game.is_red(card)"),
    ("points", "game.points(card)"),
    ("reveal", "game.reveal(card, player)"),
    ("reveal_all", "game.reveal_all(card)"),
    ("knows", "game.knows(player, card)"),
    ("broadcast", "game.broadcast(\"event\", #{ … })"),
    ("tell", "game.tell(player, \"event\", #{ … })"),
    ("get", "game.get(\"variable\")"),
    ("set", "game.set(\"variable\", value)"),
    ("pget", "game.pget(player, \"variable\")"),
    ("pset", "game.pset(player, \"variable\", value)"),
    ("house", "game.house(\"rule\")"),
    (
        "set_timer",
        "game.set_timer(\"timer\", seconds) or game.set_timer(\"timer\", seconds, player)",
    ),
    ("cancel_timer", "game.cancel_timer(\"timer\")"),
    ("clock", "game.clock"),
    ("random", "game.random(n)"),
    ("end", "game.end([winners], \"reason\")"),
    ("is_over", "game.is_over"),
    ("refuse", "refuse(\"reason\")"),
];

/// Rhai's "Function not found: name (types…)" for a call on the game, said for designers: the
/// way to call an API function given the wrong arguments, or the closest API name to a typo.
pub fn explain_missing(signature: &str) -> Option<String> {
    let (name, types) = signature.split_once(" (")?;
    let types = types.trim_end_matches(')');
    if let Some((_, usage)) = API.iter().find(|(n, _)| *n == name) {
        return Some(format!("`{name}` is called as {usage}, not with ({types})"));
    }
    // Only calls on the game (first argument `Game`) are the API's to explain.
    if !types.starts_with("Game") {
        return None;
    }
    let close = crate::suggest::did_you_mean(name, API.iter().map(|(n, _)| *n))?;
    let usage = API.iter().find(|(n, _)| *n == close).map_or("", |(_, u)| u);
    Some(format!(
        "`{name}` is not a function of the game: did you mean `{close}` ({usage})?"
    ))
}

/// Register the API on a fresh engine.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<GameHandle>("Game")
        .register_type_with_name::<Card>("Card")
        .register_type_with_name::<Player>("Player")
        .register_type_with_name::<Slot>("Slot")
        .register_type_with_name::<Located>("LocatedCard")
        .register_type_with_name::<Refusal>("Refusal");

    engine.register_fn("refuse", |msg: ImmutableString| -> R<()> {
        refusal(msg.to_string())
    });

    // Cards and players compare by identity.
    engine
        .register_fn("==", |a: Card, b: Card| a == b)
        .register_fn("!=", |a: Card, b: Card| a != b)
        .register_fn("==", |a: Player, b: Player| a == b)
        .register_fn("!=", |a: Player, b: Player| a != b)
        .register_fn("==", |a: Slot, b: Slot| a == b)
        .register_fn("to_string", |c: &mut Card| format!("card#{}", c.0.0))
        .register_fn("to_debug", |c: &mut Card| format!("card#{}", c.0.0))
        .register_fn("to_string", |p: &mut Player| format!("seat#{}", p.0.0))
        .register_fn("to_debug", |p: &mut Player| format!("seat#{}", p.0.0))
        .register_get("seat", |p: &mut Player| p.0.0 as INT)
        .register_get("player", |s: &mut Slot| Player(s.seat))
        .register_get("slot", |s: &mut Slot| s.slot as INT);

    register_players(engine);
    register_cards(engine);
    register_state(engine);
}

fn register_players(engine: &mut Engine) {
    engine
        .register_get("players", |g: &mut GameHandle| -> Array {
            (0..g.lock().state.player_count())
                .map(|i| Dynamic::from(Player(Seat(i as u8))))
                .collect()
        })
        .register_get("player_count", |g: &mut GameHandle| {
            g.lock().state.player_count() as INT
        })
        .register_get("current", |g: &mut GameHandle| {
            g.lock()
                .state
                .current
                .map_or(Dynamic::UNIT, |s| Dynamic::from(Player(s)))
        })
        .register_fn("set_current", |g: &mut GameHandle, p: Player| -> R<()> {
            let mut game = g.lock();
            let s = seat(&game, p)?;
            game.state.current = Some(s);
            Ok(())
        })
        .register_fn(
            "next_player",
            |g: &mut GameHandle, p: Player| -> R<Player> {
                let game = g.lock();
                let s = seat(&game, p)?;
                Ok(Player(Seat(
                    ((s.index() + 1) % game.state.player_count()) as u8,
                )))
            },
        )
        .register_fn("player_at", |g: &mut GameHandle, i: INT| -> R<Player> {
            let game = g.lock();
            match usize::try_from(i) {
                Ok(i) if i < game.state.player_count() => Ok(Player(Seat(i as u8))),
                _ => err(format!("there is no seat {i}")),
            }
        })
        .register_fn("name", |g: &mut GameHandle, p: Player| -> R<String> {
            let game = g.lock();
            let s = seat(&game, p)?;
            Ok(game.state.players[s.index()].clone())
        });
}

fn register_cards(engine: &mut Engine) {
    // Faces: each value carries its card (see `face_value`).
    fn face_fn(engine: &mut Engine, name: &str, read: fn(&Game, CardIdx) -> Dynamic) {
        engine.register_fn(name, move |g: &mut GameHandle, c: Card| -> R<Dynamic> {
            let game = g.lock();
            let idx = card(&game, c)?;
            Ok(face_value(idx, read(&game, idx)))
        });
    }
    face_fn(engine, "rank", |g, c| g.state.face(c).rank.short().into());
    face_fn(engine, "rank_number", |g, c| {
        INT::from(g.state.face(c).rank.0).into()
    });
    face_fn(engine, "suit", |g, c| {
        g.state
            .face(c)
            .suit
            .map_or(String::new(), |s| s.letter().to_string())
            .into()
    });
    face_fn(engine, "face", |g, c| g.state.face(c).to_string().into());
    face_fn(engine, "is_red", |g, c| g.state.face(c).is_red().into());
    face_fn(engine, "points", |g, c| {
        g.table.points_of(g.state.face(c)).into()
    });

    // Hands.
    engine
        .register_fn("hand", |g: &mut GameHandle, p: Player| -> R<Array> {
            let game = g.lock();
            let s = seat(&game, p)?;
            Ok(game.state.hand(s).iter().map(|&c| opt_card(c)).collect())
        })
        .register_fn(
            "cards_in_hand",
            |g: &mut GameHandle, p: Player| -> R<Array> {
                let game = g.lock();
                let s = seat(&game, p)?;
                Ok(game
                    .state
                    .hand(s)
                    .iter()
                    .flatten()
                    .map(|&c| Dynamic::from(Card(c)))
                    .collect())
            },
        )
        .register_fn("hand_count", |g: &mut GameHandle, p: Player| -> R<INT> {
            let game = g.lock();
            let s = seat(&game, p)?;
            Ok(game.state.hand(s).iter().flatten().count() as INT)
        })
        .register_fn("slot_count", |g: &mut GameHandle, p: Player| -> R<INT> {
            let game = g.lock();
            let s = seat(&game, p)?;
            Ok(game.state.hand(s).len() as INT)
        })
        .register_fn(
            "card_at",
            |g: &mut GameHandle, p: Player, slot: INT| -> R<Dynamic> {
                let game = g.lock();
                let s = seat(&game, p)?;
                let slot = slot_index(slot)?;
                Ok(opt_card(game.state.hand(s).get(slot).copied().flatten()))
            },
        )
        .register_fn("owner", |g: &mut GameHandle, c: Card| -> R<Dynamic> {
            Ok(match loc(&g.lock(), c)? {
                Loc::Hand { seat, .. } => Dynamic::from(Player(seat)),
                Loc::Pile(_) => Dynamic::UNIT,
            })
        })
        .register_fn("slot_of", |g: &mut GameHandle, c: Card| -> R<INT> {
            Ok(match loc(&g.lock(), c)? {
                Loc::Hand { slot, .. } => INT::from(slot),
                Loc::Pile(_) => -1,
            })
        })
        .register_fn("pile_of", |g: &mut GameHandle, c: Card| -> R<Dynamic> {
            let game = g.lock();
            Ok(match loc(&game, c)? {
                Loc::Hand { .. } => Dynamic::UNIT,
                Loc::Pile(p) => Dynamic::from(game.table.piles[p.0 as usize].name.clone()),
            })
        })
        .register_fn(
            "card_arg",
            |g: &mut GameHandle, p: Player, arg: Dynamic| -> R<Dynamic> {
                card_arg(&g.lock(), p, &arg)
            },
        )
        .register_fn("located", |g: &mut GameHandle, c: Card| -> R<Located> {
            Ok(match loc(&g.lock(), c)? {
                Loc::Hand { seat, slot } => Located(c.0, Some((seat, slot))),
                Loc::Pile(_) => Located(c.0, None),
            })
        });

    // Piles.
    engine
        .register_fn("pile_size", |g: &mut GameHandle, name: &str| -> R<INT> {
            let game = g.lock();
            let p = pile_id(&game, name)?;
            Ok(game.state.pile(p).len() as INT)
        })
        .register_fn("top", |g: &mut GameHandle, name: &str| -> R<Dynamic> {
            let game = g.lock();
            let p = pile_id(&game, name)?;
            Ok(opt_card(game.state.pile(p).last().copied()))
        })
        .register_fn("pile", |g: &mut GameHandle, name: &str| -> R<Array> {
            let game = g.lock();
            let p = pile_id(&game, name)?;
            Ok(game
                .state
                .pile(p)
                .iter()
                .map(|&c| Dynamic::from(Card(c)))
                .collect())
        });

    // Moving cards.
    engine
        .register_fn(
            "to_pile",
            |g: &mut GameHandle, c: Card, name: &str| -> R<()> {
                let mut game = g.lock();
                let p = pile_id(&game, name)?;
                let c = card(&game, c)?;
                let table = game.table.clone();
                game.state.move_to_pile(&table, c, p);
                Ok(())
            },
        )
        .register_fn(
            "under_pile",
            |g: &mut GameHandle, c: Card, name: &str| -> R<()> {
                let mut game = g.lock();
                let p = pile_id(&game, name)?;
                let c = card(&game, c)?;
                let table = game.table.clone();
                game.state.move_under_pile(&table, c, p);
                Ok(())
            },
        )
        .register_fn(
            "to_slot",
            |g: &mut GameHandle, c: Card, p: Player, slot: INT| -> R<()> {
                let mut game = g.lock();
                let s = seat(&game, p)?;
                let slot = slot_index(slot)?;
                game.state
                    .move_to_slot(c.0, s, slot)
                    .or_else(|e| err(e.to_string()))
            },
        )
        .register_fn(
            "add_to_hand",
            |g: &mut GameHandle, c: Card, p: Player| -> R<INT> {
                let mut game = g.lock();
                let s = seat(&game, p)?;
                game.state
                    .add_to_hand(c.0, s)
                    .map(|slot| slot as INT)
                    .or_else(|e| err(e.to_string()))
            },
        )
        .register_fn(
            "append_to_hand",
            |g: &mut GameHandle, c: Card, p: Player| -> R<INT> {
                let mut game = g.lock();
                let s = seat(&game, p)?;
                game.state
                    .append_to_hand(c.0, s)
                    .map(|slot| slot as INT)
                    .or_else(|e| err(e.to_string()))
            },
        )
        .register_fn("compact", |g: &mut GameHandle, p: Player| -> R<()> {
            let mut game = g.lock();
            let s = seat(&game, p)?;
            game.state.compact_hand(s).or_else(|e| err(e.to_string()))
        })
        .register_fn("swap", |g: &mut GameHandle, a: Card, b: Card| -> R<()> {
            let mut game = g.lock();
            let (a, b) = (card(&game, a)?, card(&game, b)?);
            game.state.swap(a, b).or_else(|e| err(e.to_string()))
        })
        .register_fn("shuffle", |g: &mut GameHandle, name: &str| -> R<()> {
            let mut game = g.lock();
            let p = pile_id(&game, name)?;
            game.state.shuffle_pile(p);
            Ok(())
        })
        .register_fn(
            "recycle",
            |g: &mut GameHandle, from: &str, to: &str, keep: INT| -> R<INT> {
                let mut game = g.lock();
                let (f, t) = (pile_id(&game, from)?, pile_id(&game, to)?);
                Ok(game.state.recycle(f, t, keep.max(0) as usize) as INT)
            },
        )
        .register_fn(
            "holds",
            |g: &mut GameHandle, p: Player, c: Card| -> R<bool> {
                Ok(matches!(loc(&g.lock(), c)?, Loc::Hand { seat, .. } if seat == p.0))
            },
        )
        .register_fn(
            "deal",
            |g: &mut GameHandle, name: &str, count: INT| -> R<()> {
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
            },
        );

    // Knowledge.
    engine
        .register_fn(
            "reveal",
            |g: &mut GameHandle, c: Card, p: Player| -> R<()> {
                let mut game = g.lock();
                let s = seat(&game, p)?;
                let c = card(&game, c)?;
                game.state.reveal_to(c, s);
                Ok(())
            },
        )
        .register_fn("reveal_all", |g: &mut GameHandle, c: Card| -> R<()> {
            let mut game = g.lock();
            let c = card(&game, c)?;
            game.state.reveal_to_all(c);
            Ok(())
        })
        .register_fn(
            "knows",
            |g: &mut GameHandle, p: Player, c: Card| -> R<bool> {
                let game = g.lock();
                let s = seat(&game, p)?;
                Ok(game.state.knows(s, card(&game, c)?))
            },
        );
}

fn register_state(engine: &mut Engine) {
    // Phases and turns.
    engine
        .register_get("phase", |g: &mut GameHandle| {
            let game = g.lock();
            game.table.phase_name(game.state.phase).to_string()
        })
        .register_fn("set_phase", |g: &mut GameHandle, name: &str| -> R<()> {
            let mut game = g.lock();
            match game.table.phase(name) {
                Some(p) => {
                    game.state.phase = p;
                    Ok(())
                }
                None => err(format!(
                    "`{name}` is not a phase of this variant{}",
                    super::error::suggest(name, game.table.phases.iter().map(|p| p.name.as_str()))
                )),
            }
        })
        .register_get("turns_started", |g: &mut GameHandle| {
            g.lock().state.turns_started
        })
        .register_fn("begin_turns", |g: &mut GameHandle| {
            g.lock().state.turns_started = true;
        });

    // Variables and house rules.
    engine
        .register_fn("get", |g: &mut GameHandle, name: &str| -> R<Dynamic> {
            let game = g.lock();
            match game.table.game_var(name) {
                Some(i) => Ok(from_value(&game.state.game_vars[i])),
                None => unknown_var(&game, name, false),
            }
        })
        .register_fn(
            "set",
            |g: &mut GameHandle, name: &str, v: Dynamic| -> R<()> {
                let mut game = g.lock();
                match game.table.game_var(name) {
                    Some(i) => {
                        game.state.game_vars[i] = to_value(&v)?;
                        Ok(())
                    }
                    None => unknown_var(&game, name, false),
                }
            },
        )
        .register_fn(
            "pget",
            |g: &mut GameHandle, p: Player, name: &str| -> R<Dynamic> {
                let game = g.lock();
                let s = seat(&game, p)?;
                match game.table.player_var(name) {
                    Some(i) => Ok(from_value(&game.state.player_vars[s.index()][i])),
                    None => unknown_var(&game, name, true),
                }
            },
        )
        .register_fn(
            "pset",
            |g: &mut GameHandle, p: Player, name: &str, v: Dynamic| -> R<()> {
                let mut game = g.lock();
                let s = seat(&game, p)?;
                match game.table.player_var(name) {
                    Some(i) => {
                        game.state.player_vars[s.index()][i] = to_value(&v)?;
                        Ok(())
                    }
                    None => unknown_var(&game, name, true),
                }
            },
        )
        .register_fn("house", |g: &mut GameHandle, name: &str| -> R<Dynamic> {
            house_rule(&g.lock(), name)
        });

    // Events.
    engine
        .register_fn(
            "broadcast",
            |g: &mut GameHandle, name: &str, fields: Map| -> R<()> {
                emit(g, name, Audience::Everyone, fields)
            },
        )
        .register_fn(
            "tell",
            |g: &mut GameHandle, p: Player, name: &str, fields: Map| -> R<()> {
                let s = seat(&g.lock(), p)?;
                emit(g, name, Audience::Player(s), fields)
            },
        );

    // Time, chance and the end.
    engine
        .register_fn(
            "set_timer",
            |g: &mut GameHandle, name: &str, seconds: Dynamic| -> R<()> {
                set_timer(g, name, seconds, None)
            },
        )
        .register_fn(
            "set_timer",
            |g: &mut GameHandle, name: &str, seconds: Dynamic, p: Player| -> R<()> {
                set_timer(g, name, seconds, Some(p))
            },
        )
        .register_fn("cancel_timer", |g: &mut GameHandle, name: &str| {
            g.lock().state.cancel_timer(name);
        })
        .register_get("clock", |g: &mut GameHandle| g.lock().state.clock as INT)
        .register_fn("random", |g: &mut GameHandle, n: INT| -> R<INT> {
            if n <= 0 {
                return err(format!("random({n}) needs a positive bound"));
            }
            Ok(g.lock().state.random_below(n as u64) as INT)
        })
        .register_fn(
            "end",
            |g: &mut GameHandle, winners: Array, reason: &str| -> R<()> {
                let seats = winners
                    .iter()
                    .map(|w| match w.clone().try_cast::<Player>() {
                        Some(p) => Ok(p.0),
                        None => err(format!(
                            "end() takes a list of players, not a {}",
                            w.type_name()
                        )),
                    })
                    .collect::<R<Vec<_>>>()?;
                g.lock()
                    .finish(seats, reason)
                    .or_else(|e| err(format!("end(): {e}")))
            },
        )
        .register_get("is_over", |g: &mut GameHandle| g.lock().is_over());
}

/// The value of a house rule, or an error naming the house rules there are.
pub(super) fn house_rule(game: &Game, name: &str) -> R<Dynamic> {
    match game.table.house_rule(name) {
        Some(i) => Ok(from_value(&game.state.house[i])),
        None => err(format!(
            "`{name}` is not a house rule of this variant{}",
            super::error::suggest(name, game.table.house_rules.iter().map(|h| h.0.as_str()))
        )),
    }
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

fn emit(g: &GameHandle, name: &str, to: Audience, fields: Map) -> R<()> {
    let mut game = g.lock();
    let Some(event) = game.table.event(name).cloned() else {
        return err(format!(
            "`{name}` is not an event of this variant: declare it under events in variant.yaml{}",
            super::error::suggest(name, game.table.events.iter().map(|e| &**e))
        ));
    };
    let audience = match to {
        Audience::Everyone => game.state.all_players_mask(),
        Audience::Player(s) => s.bit(),
    };
    let payload = Payload::Map(
        fields
            .iter()
            .map(|(k, v)| {
                Ok((
                    k.to_string(),
                    payload(&game, v, audience, &|| k.to_string(), 1)?,
                ))
            })
            .collect::<R<_>>()?,
    );
    game.emit(event, to, payload)
        .or_else(|e| err(format!("`{name}`: {e}")))
}

fn set_timer(g: &GameHandle, name: &str, seconds: Dynamic, p: Option<Player>) -> R<()> {
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
    let millis = match to_value(&seconds)?.as_f64().map(|s| (s * 1000.0).round()) {
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
