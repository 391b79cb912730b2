//! The static description of a variant that the kernel needs: deck, points, piles, phases,
//! variables, events, house rules and the declared actions used to enumerate candidates.
//!
//! The script layer builds it from `variant.yaml`; the kernel never reads files.

use super::card::{Face, standard_deck};
use super::value::Value;
/// Name lookups hash with ahash: scripts look names up on every call, and SipHash's resistance
/// to chosen keys buys nothing for a table's own names.
type HashMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;
use std::sync::Arc;

/// Index of a pile in `Table::piles`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PileId(pub u16);

/// Index of a phase in `Table::phases`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct PhaseId(pub u16);

/// A pile the variant declares (`piles:` in `variant.yaml`).
#[derive(Clone, Debug, PartialEq)]
pub struct PileDecl {
    /// The pile's name, as scripts, scenarios and views use it (`stockpile`, `discardpile`…).
    pub name: String,
    /// Cards entering a face-up pile become known to every player.
    pub face_up: bool,
}

/// A phase the variant declares (`phases:` in `variant.yaml`).
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseDecl {
    /// The phase's name, as scripts, scenarios and views use it.
    pub name: String,
    /// A setup phase (such as an initial peek) ends before the first turn.
    pub setup: bool,
}

/// Who may send an action, for candidate enumeration.
#[derive(Clone, Debug, PartialEq)]
pub enum Actor {
    /// The player whose turn it is.
    Current,
    /// Any player.
    Anyone,
    /// The player held in this game variable (for example whoever resolves a pending ability).
    Var(usize),
}

/// A precondition on a declared action, checked in Rust before a candidate is tried.
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    /// Game variable `index` equals the value.
    VarIs(usize, Value),
    /// Game variable `index` does not equal the value.
    VarIsNot(usize, Value),
    /// House rule `index` equals the value.
    HouseIs(usize, Value),
    /// The pile is not empty.
    PileNotEmpty(PileId),
    /// Per-player variable `index` of the actor equals the value.
    ActorVarIs(usize, Value),
}

/// One argument position of an action form, as a domain to enumerate.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgDomain {
    /// Exactly this word.
    Word(String),
    /// An occupied slot of the actor's own hand.
    OwnSlot,
    /// An occupied slot of another player's hand.
    OtherSlot,
    /// An occupied slot of any hand.
    AnySlot,
    /// The drawn card (`drawn`).
    Drawn,
}

/// An action the variant declares (`actions:` in `variant.yaml`): who may send it, when, and
/// with which arguments. It only shapes `Game::candidates`; the rules decide what is legal.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionDecl {
    /// The action's name, as players send it.
    pub name: Arc<str>,
    /// Who may send it.
    pub actor: Actor,
    /// `None`: every phase.
    pub phases: Option<Vec<PhaseId>>,
    /// Preconditions of every form (`when:`); all must hold.
    pub guards: Vec<Guard>,
    /// Alternative argument lists; an action with no arguments has one empty form.
    pub forms: Vec<FormDecl>,
}

/// One argument list of an action, with its own extra preconditions.
#[derive(Clone, Debug, PartialEq)]
pub struct FormDecl {
    /// The arguments in order, each as the values to enumerate.
    pub args: Vec<ArgDomain>,
    /// Preconditions of this form only; all must hold.
    pub guards: Vec<Guard>,
    /// The form turns up a card its actor need not know, by design (`reveals: true` on the
    /// action or the form: a peek, Golf's flip). Bot checks and `simulate`'s counts of actions
    /// "on unknown cards" leave such actions out.
    pub reveals: bool,
}

/// The values a numeric house rule may take (inclusive; `None`: no bound).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HouseRuleRange {
    /// The least value allowed, if any.
    pub min: Option<f64>,
    /// The most value allowed, if any.
    pub max: Option<f64>,
}

impl HouseRuleRange {
    /// Whether the range allows any value (no bound either side).
    pub fn is_unbounded(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }

    /// `Err` with the reason when a numeric value is outside the range. For a list the range
    /// bounds each entry, and every entry must be a whole number (a list of slots, say).
    pub fn check(&self, value: &Value) -> Result<(), String> {
        if let Value::List(items) = value {
            if self.is_unbounded() {
                return Ok(());
            }
            for (i, item) in items.iter().enumerate() {
                let nth = i + 1;
                let Value::Int(n) = item else {
                    return Err(format!("has {item} as entry {nth}, not a whole number"));
                };
                if let Some(how) = self.outside(*n as f64) {
                    return Err(format!("has {item} as entry {nth}, {how}"));
                }
            }
            return Ok(());
        }
        match value.as_f64().and_then(|x| self.outside(x)) {
            Some(how) => Err(format!("is {value}, {how}")),
            None => Ok(()),
        }
    }

    /// How `x` is outside the range (`outside 0 to 10`), or `None` when it is inside.
    fn outside(&self, x: f64) -> Option<String> {
        let text = |b: f64| Value::Float(b).to_string();
        match (self.min, self.max) {
            (Some(lo), Some(hi)) if !(lo..=hi).contains(&x) => {
                Some(format!("outside {} to {}", text(lo), text(hi)))
            }
            (Some(lo), None) if x < lo => Some(format!("below the least, {}", text(lo))),
            (None, Some(hi)) if x > hi => Some(format!("above the most, {}", text(hi))),
            _ => None,
        }
    }
}

/// What values a house rule takes: declared with `type:` in `variant.yaml`, or the kind of its
/// default.
#[derive(Clone, Debug, PartialEq)]
pub enum HouseRuleType {
    /// `true` or `false`.
    Boolean,
    /// Whole numbers only (2.5 penalty cards mean nothing).
    Integer,
    /// Any number.
    Number,
    /// Any word.
    Text,
    /// One of these words.
    Choice(Vec<String>),
    /// A list (of slots, for example).
    List,
}

impl HouseRuleType {
    /// The names `type:` accepts, in the order the docs give them.
    pub const NAMES: [&'static str; 6] = ["integer", "number", "boolean", "text", "choice", "list"];

    /// The type of a default value, when `type:` is not given (`None` for a value no house rule
    /// can hold).
    pub fn of(value: &Value) -> Option<HouseRuleType> {
        Some(match value {
            Value::Bool(_) => HouseRuleType::Boolean,
            Value::Int(_) => HouseRuleType::Integer,
            Value::Float(_) => HouseRuleType::Number,
            Value::Str(_) => HouseRuleType::Text,
            Value::List(_) => HouseRuleType::List,
            _ => return None,
        })
    }

    /// The name written in `type:`.
    pub fn name(&self) -> &'static str {
        match self {
            HouseRuleType::Boolean => "boolean",
            HouseRuleType::Integer => "integer",
            HouseRuleType::Number => "number",
            HouseRuleType::Text => "text",
            HouseRuleType::Choice(_) => "choice",
            HouseRuleType::List => "list",
        }
    }

    /// What a value must be, for messages: `an integer`, `one of low, high`.
    pub fn expected(&self) -> String {
        match self {
            HouseRuleType::Boolean => "true or false".into(),
            HouseRuleType::Integer => "an integer".into(),
            HouseRuleType::Number => "a number".into(),
            HouseRuleType::Text => "a word".into(),
            HouseRuleType::Choice(choices) => format!("one of {}", choices.join(", ")),
            HouseRuleType::List => "a list".into(),
        }
    }

    /// Whether a value has this type.
    pub fn admits(&self, value: &Value) -> bool {
        match (self, value) {
            (HouseRuleType::Boolean, Value::Bool(_))
            | (HouseRuleType::Integer, Value::Int(_))
            | (HouseRuleType::Number, Value::Int(_) | Value::Float(_))
            | (HouseRuleType::Text, Value::Str(_))
            | (HouseRuleType::List, Value::List(_)) => true,
            (HouseRuleType::Choice(choices), Value::Str(s)) => choices.contains(s),
            _ => false,
        }
    }
}

/// How a hand lies on the table, for a client to draw it (`hand_layout:` in `variant.yaml`):
/// rows of `columns` cards, `rows` of them for a full deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandLayout {
    /// Rows of the dealt hand.
    pub rows: u16,
    /// Cards a row.
    pub columns: u16,
}

/// How many players a variant is for (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerRange {
    /// The fewest players a game may have.
    pub min: usize,
    /// The most players a game may have.
    pub max: usize,
}

impl Default for PlayerRange {
    /// A variant that declares no range: whatever the kernel allows.
    fn default() -> PlayerRange {
        PlayerRange {
            min: 1,
            max: super::limits::MAX_PLAYERS,
        }
    }
}

impl PlayerRange {
    /// Whether a game may have `count` players.
    pub fn contains(&self, count: usize) -> bool {
        (self.min..=self.max).contains(&count)
    }
}

impl PlayerRange {
    /// The bound a count outside the range breaks, in words: `at most 12 players`,
    /// `at least 2 players`.
    pub fn bound_for(&self, count: usize) -> String {
        if count > self.max {
            format!("at most {} players", self.max)
        } else {
            format!("at least {} players", self.min)
        }
    }
}

impl std::fmt::Display for PlayerRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{} to {}", self.min, self.max)
        }
    }
}

/// Why a value cannot be a house rule's.
#[derive(Clone, Debug, PartialEq)]
pub enum HouseRuleProblem {
    /// Not of the rule's type.
    Type {
        /// What the rule takes, in words (`an integer`).
        expected: String,
    },
    /// Outside the rule's range.
    Range {
        /// How, as the end of a sentence (`is 11, outside 0 to 10`).
        reason: String,
    },
}

/// How the deck is made.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeckDecl {
    /// Jokers added to the 52 cards (at most `limits::MAX_JOKERS`).
    pub jokers: usize,
    /// When set, the jokers are in the deck only while this boolean house rule is true.
    pub jokers_rule: Option<usize>,
    /// A reduced deck: exactly these cards, in the standard order, instead of the 52 and the
    /// jokers (`deck::WithDeck`; checked by `deck::reduced_deck`).
    pub cards: Option<Vec<Face>>,
}

/// Everything static about a variant that a game needs.
#[derive(Clone, Debug)]
pub struct Table {
    /// The variant's name (`cambia`, `recall`…); saved games record it.
    pub variant: String,
    /// How the deck is made: 52 cards and maybe jokers.
    pub deck: DeckDecl,
    /// Points per face, by `face_code`.
    pub points: Vec<i64>,
    /// The piles, indexed by [`PileId`].
    pub piles: Vec<PileDecl>,
    /// The pile the deck starts in, shuffled (`role: draw`). Loaded variants always have one;
    /// when `None`, the deck starts in pile 0.
    pub draw_pile: Option<PileId>,
    /// The pile marked `role: discard`, if any.
    pub discard_pile: Option<PileId>,
    /// The pile marked `role: held`, if any: where a player's drawn card waits to be placed. A
    /// client message that names a card its action does not take is checked against it.
    pub held_pile: Option<PileId>,
    /// The phases, indexed by [`PhaseId`]; a game starts in phase 0.
    pub phases: Vec<PhaseDecl>,
    /// Game variables: name and starting value. `GameState::game_vars` is indexed the same way.
    pub game_vars: Vec<(String, Value)>,
    /// Per-player variables: name and starting value. `GameState::player_vars` is indexed the same
    /// way.
    pub player_vars: Vec<(String, Value)>,
    /// By player variable: whether every player may see it (otherwise only its own player).
    pub public_player_vars: Vec<bool>,
    /// The event names the rules may emit.
    pub events: Vec<Arc<str>>,
    /// Timer names the rules may set.
    pub timers: Vec<String>,
    /// House rules: name and default. `Game::new` takes values of the same kind.
    pub house_rules: Vec<(String, Value)>,
    /// By house rule: the values a game may give it (numbers only).
    pub house_rule_ranges: Vec<HouseRuleRange>,
    /// By house rule: its type.
    pub house_rule_types: Vec<HouseRuleType>,
    /// How many players a game may have.
    pub players: PlayerRange,
    /// The declared actions, for `Game::candidates`.
    pub actions: Vec<ActionDecl>,
    /// The most slots a hand may have (at most `limits::MAX_HAND_SLOTS`).
    pub max_hand_slots: usize,
    /// How a hand lies on the table, if the variant says (clients draw it so).
    pub hand_layout: Option<HandLayout>,
    /// Name lookups; rebuild them with [`Table::reindex`] after changing the declarations.
    pub index: TableIndex,
}

/// Name lookups, built once by `Table::reindex`.
#[derive(Clone, Debug, Default)]
pub struct TableIndex {
    piles: HashMap<String, PileId>,
    phases: HashMap<String, PhaseId>,
    game_vars: HashMap<String, usize>,
    player_vars: HashMap<String, usize>,
    events: HashMap<String, usize>,
    house_rules: HashMap<String, usize>,
    actions: HashMap<String, usize>,
}

/// A dense index for a face: rank * 4 + suit, jokers at 0.
pub fn face_code(face: Face) -> usize {
    match face.suit {
        None => 0,
        Some(s) => face.rank.0 as usize * 4 + s as usize,
    }
}

/// The number of distinct `face_code`s.
pub const FACE_CODES: usize = 14 * 4;

impl Default for Table {
    fn default() -> Table {
        Table {
            variant: String::new(),
            deck: DeckDecl::default(),
            points: Vec::new(),
            piles: Vec::new(),
            draw_pile: None,
            discard_pile: None,
            held_pile: None,
            phases: Vec::new(),
            game_vars: Vec::new(),
            player_vars: Vec::new(),
            public_player_vars: Vec::new(),
            events: Vec::new(),
            timers: Vec::new(),
            house_rules: Vec::new(),
            house_rule_ranges: Vec::new(),
            house_rule_types: Vec::new(),
            players: PlayerRange::default(),
            actions: Vec::new(),
            max_hand_slots: super::limits::DEFAULT_MAX_HAND_SLOTS,
            hand_layout: None,
            index: TableIndex::default(),
        }
    }
}

impl Table {
    /// Rebuild the name lookups after the declarations changed.
    pub fn reindex(&mut self) {
        fn index<T>(items: &[T], name: impl Fn(&T) -> &str) -> HashMap<String, usize> {
            items
                .iter()
                .enumerate()
                .map(|(i, it)| (name(it).to_string(), i))
                .collect()
        }
        self.index = TableIndex {
            piles: index(&self.piles, |p| &p.name)
                .into_iter()
                .map(|(k, v)| (k, PileId(v as u16)))
                .collect(),
            phases: index(&self.phases, |p| &p.name)
                .into_iter()
                .map(|(k, v)| (k, PhaseId(v as u16)))
                .collect(),
            game_vars: index(&self.game_vars, |v| &v.0),
            player_vars: index(&self.player_vars, |v| &v.0),
            events: index(&self.events, |e| e),
            house_rules: index(&self.house_rules, |h| &h.0),
            actions: index(&self.actions, |a| &*a.name),
        };
    }

    /// The pile with this name.
    pub fn pile(&self, name: &str) -> Option<PileId> {
        self.index.piles.get(name).copied()
    }

    /// The phase with this name.
    pub fn phase(&self, name: &str) -> Option<PhaseId> {
        self.index.phases.get(name).copied()
    }

    /// A phase's name. Panics for an id the table lacks.
    pub fn phase_name(&self, phase: PhaseId) -> &str {
        &self.phases[phase.0 as usize].name
    }

    /// The index of the game variable with this name (into `GameState::game_vars`).
    pub fn game_var(&self, name: &str) -> Option<usize> {
        self.index.game_vars.get(name).copied()
    }

    /// The index of the player variable with this name (into each of `GameState::player_vars`).
    pub fn player_var(&self, name: &str) -> Option<usize> {
        self.index.player_vars.get(name).copied()
    }

    /// Whether `viewer` may see player variable `var` of `owner`: their own always, another
    /// player's only if it is declared public.
    pub fn player_var_visible(&self, var: usize, owner: usize, viewer: usize) -> bool {
        owner == viewer || self.public_player_vars.get(var).copied().unwrap_or(false)
    }

    /// The declared event name equal to `name`, shared so that emitting it does not allocate.
    pub fn event(&self, name: &str) -> Option<&Arc<str>> {
        self.index.events.get(name).map(|&i| &self.events[i])
    }

    /// The index of the declared event with this name (into `events`).
    pub fn event_index(&self, name: &str) -> Option<usize> {
        self.index.events.get(name).copied()
    }

    /// The index of the house rule with this name (into `house_rules` and `GameState::house`).
    pub fn house_rule(&self, name: &str) -> Option<usize> {
        self.index.house_rules.get(name).copied()
    }

    /// Why `value` cannot be house rule `index` (its type, then its range), if it cannot.
    pub fn check_house_rule(&self, index: usize, value: &Value) -> Result<(), HouseRuleProblem> {
        let inferred = || HouseRuleType::of(&self.house_rules.get(index)?.1);
        let kind = self.house_rule_types.get(index).cloned().or_else(inferred);
        if let Some(kind) = kind
            && !kind.admits(value)
        {
            return Err(HouseRuleProblem::Type {
                expected: kind.expected(),
            });
        }
        match self.house_rule_ranges.get(index).map(|r| r.check(value)) {
            Some(Err(reason)) => Err(HouseRuleProblem::Range { reason }),
            _ => Ok(()),
        }
    }

    /// The declared action with this name.
    pub fn action(&self, name: &str) -> Option<&ActionDecl> {
        self.index.actions.get(name).map(|&i| &self.actions[i])
    }

    /// The index (into `actions`) of the declared action with this name. A name that is the
    /// declaration's own (as `Game::candidates` builds actions) is found by its address, with
    /// no hashing: names are distinct, so the same text is the same action.
    pub fn action_index(&self, name: &Arc<str>) -> Option<usize> {
        self.actions
            .iter()
            .position(|a| Arc::ptr_eq(&a.name, name))
            .or_else(|| self.index.actions.get(&**name).copied())
    }

    /// The points a face is worth in this variant (0 if the variant gives it none).
    pub fn points_of(&self, face: Face) -> i64 {
        self.points.get(face_code(face)).copied().unwrap_or(0)
    }

    /// The deck for a game with these house-rule values (indexed like `house_rules`).
    pub fn deck_for(&self, house: &[Value]) -> Vec<Face> {
        if let Some(cards) = &self.deck.cards {
            return cards.clone();
        }
        let jokers = match self.deck.jokers_rule {
            Some(rule) if house.get(rule) != Some(&Value::Bool(true)) => 0,
            _ => self.deck.jokers,
        };
        standard_deck(jokers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_is_found_by_its_own_name_or_by_the_same_text() {
        let decl = |name: &str| ActionDecl {
            name: name.into(),
            actor: Actor::Current,
            phases: None,
            guards: Vec::new(),
            forms: Vec::new(),
        };
        let mut table = Table {
            actions: vec![decl("draw"), decl("snap"), decl("pass")],
            ..Table::default()
        };
        table.reindex();
        let own = table.actions[1].name.clone();
        assert_eq!(table.action_index(&own), Some(1));
        // Another copy of the text (as a player sends it), and names the table lacks.
        assert_eq!(table.action_index(&Arc::from("pass")), Some(2));
        assert_eq!(table.action_index(&Arc::from("sna")), None);
        assert_eq!(table.action_index(&Arc::from("")), None);
        // A name of another table's declaration, with text this table lacks.
        let other = decl("swap").name;
        assert_eq!(table.action_index(&other), None);
    }

    #[test]
    fn a_range_bounds_a_number_or_each_entry_of_a_list() {
        let range = HouseRuleRange {
            min: Some(0.0),
            max: Some(3.0),
        };
        assert_eq!(range.check(&Value::Int(2)), Ok(()));
        assert_eq!(
            range.check(&Value::Int(4)),
            Err("is 4, outside 0 to 3".into())
        );
        let list = |items: Vec<Value>| Value::List(items);
        assert_eq!(
            range.check(&list(vec![Value::Int(0), Value::Int(3)])),
            Ok(())
        );
        assert_eq!(range.check(&list(vec![])), Ok(()));
        assert_eq!(
            range.check(&list(vec![Value::Int(1), Value::Int(9)])),
            Err("has 9 as entry 2, outside 0 to 3".into())
        );
        assert_eq!(
            range.check(&list(vec![Value::Float(1.5)])),
            Err("has 1.5 as entry 1, not a whole number".into())
        );
        let least = HouseRuleRange {
            min: Some(0.0),
            max: None,
        };
        assert_eq!(
            least.check(&list(vec![Value::Int(-1)])),
            Err("has -1 as entry 1, below the least, 0".into())
        );
        // Unbounded: any list.
        let none = HouseRuleRange {
            min: None,
            max: None,
        };
        assert_eq!(none.check(&list(vec![Value::Str("x".into())])), Ok(()));
    }
}
