//! Values held in game variables, house rules and event payloads, and the seat type for players.

use super::card::CardIdx;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's seat: the index in the order players were listed (which is turn order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat as an index into per-player lists (`GameState::hands`, `View::players`…): 0-based.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat's bit in a knowledge mask (`CardState::known_by`, `CardRef::shown_to`): `1 << seat`.
    /// Seats are below `limits::MAX_PLAYERS` (32), so the bit always fits.
    pub fn bit(self) -> u32 {
        1 << self.0
    }
}

/// A dynamically typed value: what variables, house rules and script arguments hold.
///
/// Cards and players are references, never copies of what a card shows, so a value can be
/// rendered for a player from what that player knows.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// No value (the default); scripts see it as `()`.
    #[default]
    Unit,
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A floating-point number. [`Value::as_f64`] reads `Int` and `Float` alike.
    Float(f64),
    /// Text (error messages call it a word).
    Str(String),
    /// A reference to a physical card; what it shows depends on who looks.
    Card(CardIdx),
    /// A reference to a player, by seat.
    Player(Seat),
    /// A list of values. What a script stores nests at most `limits::MAX_VALUE_DEPTH` deep.
    List(Vec<Value>),
}

impl Clone for Value {
    fn clone(&self) -> Value {
        match self {
            Value::Unit => Value::Unit,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(n) => Value::Int(*n),
            Value::Float(x) => Value::Float(*x),
            Value::Str(s) => Value::Str(s.clone()),
            Value::Card(c) => Value::Card(*c),
            Value::Player(p) => Value::Player(*p),
            Value::List(items) => Value::List(items.clone()),
        }
    }

    /// Into the same kind of value, its text or list keeps its memory: a state copied into a
    /// spare (`GameState::clone_from`, once per checked step) then allocates almost nothing.
    #[inline]
    fn clone_from(&mut self, source: &Value) {
        let scalar = match source {
            Value::Str(from) => {
                match self {
                    Value::Str(to) => to.clone_from(from),
                    to => *to = Value::Str(from.clone()),
                }
                return;
            }
            Value::List(from) => {
                match self {
                    Value::List(to) => clone_list(to, from),
                    to => *to = Value::List(from.clone()),
                }
                return;
            }
            Value::Unit => Value::Unit,
            Value::Bool(b) => Value::Bool(*b),
            Value::Int(n) => Value::Int(*n),
            Value::Float(x) => Value::Float(*x),
            Value::Card(c) => Value::Card(*c),
            Value::Player(p) => Value::Player(*p),
        };
        match self {
            // Nothing to drop in a value without text or list: skip the drop glue.
            Value::Str(_) | Value::List(_) => *self = scalar,
            to => std::mem::forget(std::mem::replace(to, scalar)),
        }
    }
}

/// `to.clone_from(from)` for lists of values, element by element into the memory `to` has
/// (the standard library's version goes through a slice copy that is not inlined).
fn clone_list(to: &mut Vec<Value>, from: &[Value]) {
    to.truncate(from.len());
    let kept = to.len();
    for (t, f) in to.iter_mut().zip(from) {
        t.clone_from(f);
    }
    to.extend(from[kept..].iter().cloned());
}

impl Value {
    /// Whether writing `other` over this value would change nothing anyone can see: equal, and
    /// numbers equal bit for bit (`0.0` and `-0.0` compare equal but divide differently).
    pub fn is_identical(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_identical(y))
            }
            (Value::Float(_) | Value::List(_), _) => false,
            (a, b) => a == b,
        }
    }

    /// The kind of value in words, for error messages: `an integer`, `a card`, `nothing`…
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Unit => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a word",
            Value::Card(_) => "a card",
            Value::Player(_) => "a player",
            Value::List(_) => "a list",
        }
    }

    /// The boolean, if this is a `Bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The whole number, if this is an `Int` or a `Float` with no fraction (which is truncated to
    /// `i64`, saturating at its bounds).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.fract() == 0.0 => Some(*f as i64),
            _ => None,
        }
    }

    /// The number as a float, if this is an `Int` or a `Float`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Whether a value given for a house rule has the same kind as its default.
    pub fn same_kind(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => true,
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
    }
}

/// Plain text, without resolving cards or players (those print as `card#N` / `seat#N`).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unit => f.write_str("()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => f.write_str(s),
            Value::Card(c) => write!(f, "card#{}", c.0),
            Value::Player(s) => write!(f, "seat#{}", s.0),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CardIdx, Seat, Value};

    #[test]
    fn identical_values_are_equal_bit_for_bit() {
        let list = |v: Vec<Value>| Value::List(v);
        for (a, b, same) in [
            (Value::Int(3), Value::Int(3), true),
            (Value::Int(3), Value::Float(3.0), false),
            (Value::Float(0.0), Value::Float(0.0), true),
            (Value::Float(0.0), Value::Float(-0.0), false),
            (Value::Float(f64::NAN), Value::Float(f64::NAN), true),
            (Value::Str("a".into()), Value::Str("a".into()), true),
            (Value::Unit, Value::Bool(false), false),
            (
                list(vec![Value::Float(-0.0)]),
                list(vec![Value::Float(0.0)]),
                false,
            ),
            (list(vec![Value::Int(1)]), list(vec![Value::Int(1)]), true),
            (list(vec![Value::Int(1)]), list(vec![]), false),
        ] {
            assert_eq!(a.is_identical(&b), same, "{a:?} {b:?}");
        }
    }

    #[test]
    fn clone_from_makes_an_equal_value_from_any_kind_into_any_kind() {
        let samples = [
            Value::Unit,
            Value::Bool(true),
            Value::Int(-3),
            Value::Float(2.5),
            Value::Str("a longer text than the other".into()),
            Value::Str("b".into()),
            Value::Card(CardIdx(7)),
            Value::Player(Seat(2)),
            Value::List(vec![Value::Int(1), Value::Str("x".into())]),
            Value::List(vec![
                Value::List(vec![Value::Card(CardIdx(1))]),
                Value::Unit,
            ]),
            Value::List(Vec::new()),
        ];
        for to in &samples {
            for from in &samples {
                let mut copy = to.clone();
                assert_eq!(&copy, to);
                copy.clone_from(from);
                assert_eq!(&copy, from, "{to:?} from {from:?}");
            }
        }
    }
}
