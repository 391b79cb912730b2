//! `variant.yaml`: the deck, points, piles, phases, variables, events, timers, house rules and
//! declared actions of a variant, read with serde_yaml and turned into the kernel's `Table`.

use super::super::host::error::{ConfigProblem, locate};
pub(crate) use super::super::sources::yaml_value;
use crate::kernel::{
    ActionDecl, Actor, ArgDomain, DeckDecl, Face, FormDecl, Guard, HouseRuleRange, HouseRuleType,
    PhaseDecl, PileDecl, PileId, PlayerRange, Rank, Table, Value, table::FACE_CODES,
    table::face_code,
};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `variant.yaml` as written (after merging what it `extends:`); [`load`] checks it and builds
/// the kernel's `Table` from it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// The variant's name.
    pub name: String,
    /// What the variant is, in a few words.
    #[serde(default)]
    pub description: String,
    /// The entry script, relative to the variant's folder.
    pub script: String,
    /// Another variant's `variant.yaml` this one builds on (merged by `merge`; already applied
    /// when this struct is read).
    #[serde(default)]
    pub extends: Option<String>,
    /// Rhai modules to register by name, as paths relative to the variant's folder: the entry
    /// script calls their functions as `name::function(…)`.
    #[serde(default)]
    pub modules: BTreeMap<String, String>,
    /// How many players a game may have: `{ min: 2, max: 8 }`.
    #[serde(default)]
    pub players: Option<PlayersFile>,
    /// The deck: the 52 cards, and jokers if this says so.
    #[serde(default)]
    pub deck: DeckFile,
    /// The most slots a hand may have (default 64, at most 1024).
    #[serde(default)]
    pub max_hand_slots: Option<usize>,
    /// How a hand lies on the table: `{ rows: 2, columns: 2 }` (for clients to draw it).
    #[serde(default)]
    pub hand_layout: Option<HandLayoutFile>,
    /// Points by rank (`A`, `2`..`10`, `J`, `Q`, `K`, `JK`) or by face (`KH`), the face winning.
    pub points: BTreeMap<String, i64>,
    /// The piles by name.
    pub piles: BTreeMap<String, PileFile>,
    /// The phases in order; a game starts in the first.
    pub phases: Vec<PhaseFile>,
    /// The house rules by name: what a game may set at its start.
    #[serde(default)]
    pub house_rules: BTreeMap<String, HouseRuleFile>,
    /// The variables the scripts keep, with their starting values.
    #[serde(default)]
    pub vars: VarsFile,
    /// The names of the timers the scripts may set.
    #[serde(default)]
    pub timers: Vec<String>,
    /// The names of the events the scripts may emit.
    pub events: Vec<String>,
    /// The actions players may take, by name; each has an `on_<name>` hook in the script.
    pub actions: BTreeMap<String, ActionFile>,
    /// What `deckspec prove` explores: configurations, each a player count and house rules.
    #[serde(default)]
    pub prove: Vec<ProveFile>,
    /// Rulebook rules `deckspec prove` cannot play, each with why: their scenarios set up a
    /// position no game reaches (`the discard pile is empty` where play always leaves a card).
    #[serde(default)]
    pub prove_unplayed: BTreeMap<String, String>,
}

/// One configuration under `prove:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProveFile {
    /// Players per game.
    pub players: usize,
    /// House rules that differ from their defaults.
    #[serde(default)]
    pub house_rules: BTreeMap<String, serde_yaml::Value>,
    /// A reduced deck: the only cards the games are dealt from (`[AS, AH, 7S, …]`).
    #[serde(default)]
    pub deck: Option<Vec<String>>,
    /// Whether every reachable state of each deal must be explored: `prove` fails when a limit
    /// stops it first.
    #[serde(default)]
    pub exhaustive: bool,
    /// States found per deal, at most, breadth first (instead of the command line's).
    #[serde(default)]
    pub max_states: Option<u64>,
}

/// A configuration `deckspec prove` explores (`prove:` in `variant.yaml`), checked against the
/// variant's player range and house rules.
#[derive(Clone, Debug, PartialEq)]
pub struct ProveConfig {
    /// Players per game.
    pub players: usize,
    /// House rules, as the kernel takes them.
    pub house: Vec<(String, Value)>,
    /// The same, as written (a scenario's Givens say them so).
    pub house_text: Vec<(String, String)>,
    /// A reduced deck, checked and in the standard order; `None` for the variant's own.
    pub deck: Option<Vec<Face>>,
    /// Whether every reachable state of each deal must be explored.
    pub exhaustive: bool,
    /// States found per deal, at most, when the configuration says.
    pub max_states: Option<usize>,
}

/// The most configurations `prove:` may list.
const MAX_PROVE_CONFIGS: usize = 64;

/// The most states per deal a configuration may ask for (a state waiting to be explored takes
/// about a kilobyte).
pub const MAX_PROVE_STATES: u64 = 5_000_000;

/// `prove:`, checked: each player count in the variant's range, each house rule the variant's
/// and of its type and range.
pub fn prove_configs(
    src: &str,
    file: &VariantFile,
    table: &Table,
) -> Result<Vec<ProveConfig>, ConfigProblem> {
    if file.prove.len() > MAX_PROVE_CONFIGS {
        return Err(problem(
            src,
            &["prove"],
            None,
            format!(
                "prove lists at most {MAX_PROVE_CONFIGS} configurations, not {}",
                file.prove.len()
            ),
        ));
    }
    let mut configs = Vec::with_capacity(file.prove.len());
    for config in &file.prove {
        if !table.players.contains(config.players) {
            return Err(problem(
                src,
                &["prove"],
                Some(&format!("players: {}", config.players)),
                format!(
                    "prove: {} players, but {} plays with {} to {}",
                    config.players, table.variant, table.players.min, table.players.max
                ),
            ));
        }
        let mut house = Vec::new();
        let mut house_text = Vec::new();
        for (name, yaml) in &config.house_rules {
            let at = |message: String| problem(src, &["prove"], Some(name), message);
            let Some(i) = table.house_rule(name) else {
                return Err(at(format!(
                    "prove: `{name}` is not a house rule of this variant{}",
                    super::super::host::error::suggest(
                        name,
                        table.house_rules.iter().map(|h| h.0.as_str())
                    )
                )));
            };
            let Some(value) = yaml_value(yaml) else {
                return Err(at(format!(
                    "prove: house rule `{name}` needs true/false, a number, a word or a list"
                )));
            };
            match table.check_house_rule(i, &value) {
                Ok(()) => {}
                Err(crate::kernel::HouseRuleProblem::Type { expected }) => {
                    return Err(at(format!(
                        "prove: house rule `{name}` takes {expected}, not `{value}`"
                    )));
                }
                Err(crate::kernel::HouseRuleProblem::Range { reason }) => {
                    return Err(at(format!("prove: house rule `{name}` {reason}")));
                }
            }
            let text = serde_yaml::to_string(yaml)
                .map(|t| t.trim().to_string())
                .unwrap_or_default();
            house_text.push((name.clone(), text));
            house.push((name.clone(), value));
        }
        let deck = match &config.deck {
            None => None,
            Some(cards) => Some(prove_deck(src, cards)?),
        };
        let max_states = match config.max_states {
            Some(n) if n == 0 || n > MAX_PROVE_STATES => {
                return Err(problem(
                    src,
                    &["prove"],
                    Some(&format!("max_states: {n}")),
                    format!("prove: max_states is from 1 to {MAX_PROVE_STATES}, not {n}"),
                ));
            }
            n => n.map(|n| n as usize),
        };
        configs.push(ProveConfig {
            players: config.players,
            house,
            house_text,
            deck,
            exhaustive: config.exhaustive,
            max_states,
        });
    }
    Ok(configs)
}

/// A configuration's `deck:`, checked: every item a card, each suited card once.
fn prove_deck(src: &str, cards: &[String]) -> Result<Vec<Face>, ConfigProblem> {
    let mut faces = Vec::with_capacity(cards.len());
    for card in cards {
        let face: Face = card
            .parse()
            .map_err(|e: crate::kernel::card::FaceParseError| {
                problem(src, &["prove"], Some(card), format!("prove: deck: {e}"))
            })?;
        faces.push(face);
    }
    crate::kernel::reduced_deck(faces)
        .map_err(|e| problem(src, &["prove"], Some("deck"), format!("prove: deck: {e}")))
}

/// `hand_layout:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandLayoutFile {
    /// Rows of the dealt hand.
    pub rows: u64,
    /// Cards a row.
    pub columns: u64,
}

/// The most rows or columns a hand layout may have.
const MAX_LAYOUT: u64 = 32;

/// `players:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersFile {
    /// The fewest players a game may have.
    pub min: usize,
    /// The most players a game may have.
    pub max: usize,
}

/// `deck:` in `variant.yaml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckFile {
    /// How many jokers the deck has besides its 52 cards.
    #[serde(default)]
    pub jokers: usize,
    /// A boolean house rule: the jokers are in the deck only when it is true.
    pub jokers_house_rule: Option<String>,
}

/// One pile under `piles:` in `variant.yaml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PileFile {
    /// `draw` or `discard`: which pile the scenario steps `the draw pile` / `the discard pile` mean.
    pub role: Option<String>,
    /// Cards entering a face-up pile become known to every player.
    #[serde(default)]
    pub face_up: bool,
}

/// One phase under `phases:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum PhaseFile {
    /// Just a name: a phase of play.
    Name(String),
    /// `{ name: …, setup: true }`.
    Full {
        /// The phase's name.
        name: String,
        /// A setup phase (such as an initial peek) ends before the first turn.
        #[serde(default)]
        setup: bool,
    },
}

/// One house rule under `house_rules:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HouseRuleFile {
    /// The value a game gets when it does not set the rule.
    pub default: serde_yaml::Value,
    /// `integer`, `number`, `boolean`, `text`, `choice` (with `choices:`) or `list`; by default
    /// the type of `default`.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// For `type: choice`: the words the rule may be.
    #[serde(default)]
    pub choices: Option<Vec<String>>,
    /// What the rule does.
    #[serde(default)]
    pub doc: String,
    /// For a number: the smallest value a game may set.
    #[serde(default)]
    pub min: Option<f64>,
    /// For a number: the largest value a game may set.
    #[serde(default)]
    pub max: Option<f64>,
}

/// `vars:` in `variant.yaml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VarsFile {
    /// The game's variables, by name, with their starting values.
    #[serde(default)]
    pub game: BTreeMap<String, serde_yaml::Value>,
    /// Each player's variables, by name: a starting value, or `{ value: …, public: true }` for
    /// one every player may see.
    #[serde(default)]
    pub player: BTreeMap<String, serde_yaml::Value>,
}

/// One action under `actions:` in `variant.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionFile {
    /// `current` (default), `anyone`, or `var.<game variable holding a player>`.
    #[serde(default)]
    pub actor: Option<String>,
    /// The phases the action may be taken in; none given: every phase.
    pub phases: Option<Vec<String>>,
    /// Conditions checked before the hook runs: `house.<rule>: value`, `var.<game variable>:
    /// value` (or `{ not: value }`), `me.<player variable>: value`, `pile.<pile>: not_empty`.
    #[serde(default)]
    pub when: BTreeMap<String, serde_yaml::Value>,
    /// The argument lists the action takes; none given: no arguments.
    #[serde(default)]
    pub forms: Vec<FormFile>,
    /// `true`: the action turns up a card its actor need not know, by design (a peek, a flip);
    /// every form of it does.
    #[serde(default)]
    pub reveals: bool,
    /// What the action does.
    #[serde(default)]
    pub doc: String,
}

/// One argument list of an action: each argument is `own_slot`, `other_slot`, `any_slot`,
/// `drawn` or a lowercase word.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum FormFile {
    /// The arguments alone.
    Args(Vec<String>),
    /// The arguments, with conditions of their own.
    Guarded {
        /// The arguments.
        args: Vec<String>,
        /// Conditions for this form, written as the action's `when:`.
        #[serde(default)]
        when: BTreeMap<String, serde_yaml::Value>,
        /// `true`: this form turns up a card its actor need not know, by design.
        #[serde(default)]
        reveals: bool,
    },
}

/// A house rule's documentation, for `deckspec rules` and the README.
#[derive(Clone, Debug)]
pub struct HouseRuleDoc {
    /// The rule's name.
    pub name: String,
    /// The value a game gets when it does not set the rule.
    pub default: Value,
    /// What values it takes.
    pub kind: HouseRuleType,
    /// What it does (`doc:`).
    pub doc: String,
    /// For a number: the smallest and largest value a game may set, if bounded; for a list,
    /// each entry's.
    pub range: HouseRuleRange,
}

/// The parsed file, its table and its house rules' documentation.
pub type Loaded = (VariantFile, Table, Vec<HouseRuleDoc>);

/// Deep-merge a variant file over the file it `extends`: mappings merge key by key, a value
/// tagged `!delete` removes the key, a `+key` list is appended to the base's `key` list, a `-key`
/// list's items are removed from it, anything else replaces.
pub(crate) fn merge(base: &mut serde_yaml::Value, child: serde_yaml::Value) {
    use serde_yaml::Value as Y;
    match (base, child) {
        (Y::Mapping(base), Y::Mapping(child)) => {
            for (key, value) in child {
                let appended = key
                    .as_str()
                    .and_then(|k| k.strip_prefix('+'))
                    .map(str::to_string);
                let removed = key
                    .as_str()
                    .and_then(|k| k.strip_prefix('-'))
                    .map(str::to_string);
                if let Some(name) = removed {
                    if let (Some(Y::Sequence(items)), Y::Sequence(gone)) =
                        (base.get_mut(Y::String(name)), value)
                    {
                        items.retain(|item| !gone.contains(item));
                    }
                } else if let Some(name) = appended {
                    let name = Y::String(name);
                    match (base.get_mut(&name), value) {
                        (Some(Y::Sequence(items)), Y::Sequence(more)) => items.extend(more),
                        (_, value) => {
                            base.insert(name, value);
                        }
                    }
                } else if is_delete(&value) {
                    base.remove(&key);
                } else {
                    match base.get_mut(&key) {
                        Some(existing) if existing.is_mapping() && value.is_mapping() => {
                            merge(existing, value)
                        }
                        _ => {
                            base.insert(key, value);
                        }
                    }
                }
            }
        }
        (base, child) => *base = child,
    }
}

fn is_delete(value: &serde_yaml::Value) -> bool {
    matches!(value, serde_yaml::Value::Tagged(t) if t.tag == "delete")
}

/// Parse and check a variant file already merged with what it extends. `src` is the variant's
/// own text, for pointing at lines (merged values carry no positions, so a problem points at
/// the first key its message names).
pub(super) fn load_value(src: &str, value: serde_yaml::Value) -> Result<Loaded, ConfigProblem> {
    let file: VariantFile = serde_yaml::from_value(value).map_err(|e| {
        let text = e.to_string();
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.len() > 2)
            .collect();
        let span = match words.iter().find(|w| src.contains(&format!("{w}:"))) {
            Some(key) => locate(src, &[key], None),
            None => match words.iter().find(|w| src.contains(**w)) {
                Some(word) => locate(src, &[], Some(word)),
                None => (0, 0),
            },
        };
        ConfigProblem {
            message: text.clone(),
            span,
        }
    })?;
    finish(src, file)
}

/// Parse and check `variant.yaml`. `src` is its text, for pointing at lines.
pub fn load(src: &str) -> Result<Loaded, ConfigProblem> {
    let file: VariantFile =
        serde_yaml::from_str(src).map_err(|e| ConfigProblem::from_yaml(src, &e))?;
    finish(src, file)
}

fn finish(src: &str, file: VariantFile) -> Result<Loaded, ConfigProblem> {
    let table = build_table(src, &file)?;
    let docs = file
        .house_rules
        .iter()
        .zip(&table.house_rule_types)
        .map(|((name, h), kind)| HouseRuleDoc {
            name: name.clone(),
            default: yaml_value(&h.default).unwrap_or_default(),
            kind: kind.clone(),
            doc: h.doc.clone(),
            range: HouseRuleRange {
                min: h.min,
                max: h.max,
            },
        })
        .collect();
    Ok((file, table, docs))
}

fn problem(src: &str, path: &[&str], needle: Option<&str>, message: String) -> ConfigProblem {
    ConfigProblem {
        message,
        span: locate(src, path, needle),
    }
}

/// A player variable's starting value and whether other players may see it: a plain value
/// (private to its player), or `{ value: …, public: true|false }`.
fn player_var(v: &serde_yaml::Value) -> Option<(Value, bool)> {
    match v {
        serde_yaml::Value::Mapping(m) => {
            let value = yaml_value(m.get("value")?)?;
            let public = match m.get("public") {
                None => false,
                Some(p) => p.as_bool()?,
            };
            m.keys()
                .all(|k| matches!(k.as_str(), Some("value" | "public")))
                .then_some((value, public))
        }
        plain => Some((yaml_value(plain)?, false)),
    }
}

fn build_table(src: &str, file: &VariantFile) -> Result<Table, ConfigProblem> {
    let mut table = Table {
        variant: file.name.clone(),
        ..Table::default()
    };

    // House rules first: the deck and guards refer to them.
    for (name, rule) in &file.house_rules {
        let value = yaml_value(&rule.default).ok_or_else(|| {
            problem(
                src,
                &["house_rules", name, "default"],
                None,
                format!("house rule `{name}` needs a default that is true/false, a number, a word or a list"),
            )
        })?;
        let kind = house_rule_type(src, name, rule, &value)?;
        let range = HouseRuleRange {
            min: rule.min,
            max: rule.max,
        };
        if !range.is_unbounded() {
            let at = |message: String| problem(src, &["house_rules", name], None, message);
            // A list's min/max bound each entry (`initial_peek_slots: { type: list, min: 0 }`).
            if value.as_f64().is_none() && kind != HouseRuleType::List {
                return Err(at(format!(
                    "house rule `{name}` has min/max, but its default is {}, not a number",
                    value.type_name()
                )));
            }
            if !matches!(
                kind,
                HouseRuleType::Integer | HouseRuleType::Number | HouseRuleType::List
            ) {
                return Err(at(format!(
                    "house rule `{name}` has min/max, but its type is {}, not integer, number or list",
                    kind.name()
                )));
            }
            if let Err(e) = range.check(&value) {
                return Err(at(format!("house rule `{name}`: the default {e}")));
            }
        }
        table.house_rules.push((name.clone(), value));
        table.house_rule_ranges.push(range);
        table.house_rule_types.push(kind);
    }
    table.reindex();

    if let Some(players) = &file.players {
        use crate::kernel::limits::MAX_PLAYERS;
        if !(1 <= players.min && players.min <= players.max && players.max <= MAX_PLAYERS) {
            return Err(problem(
                src,
                &["players"],
                None,
                format!(
                    "players is {{ min: {}, max: {} }}: a game has 1 to {MAX_PLAYERS} players, and min is at most max",
                    players.min, players.max
                ),
            ));
        }
        table.players = PlayerRange {
            min: players.min,
            max: players.max,
        };
    }

    let jokers_rule = match &file.deck.jokers_house_rule {
        None => None,
        Some(name) => Some(table.house_rule(name).ok_or_else(|| {
            problem(
                src,
                &["deck", "jokers_house_rule"],
                Some(name),
                format!("`{name}` is not a house rule of this variant"),
            )
        })?),
    };
    use crate::kernel::limits::{MAX_CARD_POINTS, MAX_HAND_SLOTS, MAX_JOKERS};
    if file.deck.jokers > MAX_JOKERS {
        return Err(problem(
            src,
            &["deck", "jokers"],
            None,
            format!(
                "a deck has at most {MAX_JOKERS} jokers, not {}",
                file.deck.jokers
            ),
        ));
    }
    table.deck = DeckDecl {
        jokers: file.deck.jokers,
        jokers_rule,
        cards: None,
    };
    if let Some(layout) = &file.hand_layout {
        for (what, n) in [("rows", layout.rows), ("columns", layout.columns)] {
            if n == 0 || n > MAX_LAYOUT {
                return Err(problem(
                    src,
                    &["hand_layout", what],
                    Some(&n.to_string()),
                    format!("hand_layout {what} is from 1 to {MAX_LAYOUT}, not {n}"),
                ));
            }
        }
        table.hand_layout = Some(crate::kernel::HandLayout {
            rows: u16::try_from(layout.rows).unwrap_or(u16::MAX),
            columns: u16::try_from(layout.columns).unwrap_or(u16::MAX),
        });
    }
    if let Some(slots) = file.max_hand_slots {
        if !(1..=MAX_HAND_SLOTS).contains(&slots) {
            return Err(problem(
                src,
                &["max_hand_slots"],
                None,
                format!("max_hand_slots is from 1 to {MAX_HAND_SLOTS}, not {slots}"),
            ));
        }
        table.max_hand_slots = slots;
    }

    table.points = vec![0; FACE_CODES];
    let mut by_face = Vec::new();
    for (key, &points) in &file.points {
        if !(-MAX_CARD_POINTS..=MAX_CARD_POINTS).contains(&points) {
            return Err(problem(
                src,
                &["points"],
                Some(key),
                format!(
                    "`{key}` is worth {points}: points are from -{MAX_CARD_POINTS} to {MAX_CARD_POINTS}"
                ),
            ));
        }
        if let Some(rank) = Rank::from_short(key) {
            if rank == Rank::JOKER {
                table.points[0] = points;
            } else {
                for suit in crate::kernel::Suit::ALL {
                    table.points[face_code(Face::new(rank, suit))] = points;
                }
            }
        } else if let Ok(face) = key.parse::<Face>() {
            by_face.push((face, points));
        } else {
            return Err(problem(
                src,
                &["points"],
                Some(key),
                format!("`{key}` is neither a rank (A, 2-10, J, Q, K, JK) nor a card (KH)"),
            ));
        }
    }
    for (face, points) in by_face {
        table.points[face_code(face)] = points;
    }

    for (name, pile) in &file.piles {
        let id = PileId(table.piles.len() as u16);
        match pile.role.as_deref() {
            None => {}
            Some("draw") => table.draw_pile = Some(id),
            Some("discard") => table.discard_pile = Some(id),
            Some("held") => table.held_pile = Some(id),
            Some(other) => {
                return Err(problem(
                    src,
                    &["piles", name, "role"],
                    Some(other),
                    format!("pile role `{other}` is unknown: use `draw`, `discard` or `held`"),
                ));
            }
        }
        table.piles.push(PileDecl {
            name: name.clone(),
            face_up: pile.face_up,
        });
    }
    if table.draw_pile.is_none() {
        return Err(problem(
            src,
            &["piles"],
            None,
            "one pile needs `role: draw` (the pile the deck starts in)".into(),
        ));
    }

    for phase in &file.phases {
        table.phases.push(match phase {
            PhaseFile::Name(name) => PhaseDecl {
                name: name.clone(),
                setup: false,
            },
            PhaseFile::Full { name, setup } => PhaseDecl {
                name: name.clone(),
                setup: *setup,
            },
        });
    }
    if table.phases.is_empty() {
        return Err(problem(
            src,
            &["phases"],
            None,
            "a variant needs at least one phase".into(),
        ));
    }

    for (name, v) in &file.vars.game {
        let value = yaml_value(v).ok_or_else(|| {
            problem(
                src,
                &["vars", "game", name],
                None,
                format!("variable `{name}` needs a plain starting value"),
            )
        })?;
        table.game_vars.push((name.clone(), value));
    }
    for (name, v) in &file.vars.player {
        let (value, public) = player_var(v).ok_or_else(|| {
            problem(
                src,
                &["vars", "player", name],
                None,
                format!(
                    "player variable `{name}` needs a plain starting value, or `{{ value: <starting value>, public: true }}` for one every player may see"
                ),
            )
        })?;
        table.player_vars.push((name.clone(), value));
        table.public_player_vars.push(public);
    }
    table.events = file.events.iter().map(|e| Arc::from(e.as_str())).collect();
    table.timers = file.timers.clone();
    table.reindex();

    for (name, action) in &file.actions {
        let at = |field: &'static str| vec!["actions", name.as_str(), field];
        let actor = match action.actor.as_deref().unwrap_or("current") {
            "current" => Actor::Current,
            "anyone" => Actor::Anyone,
            other => match other.strip_prefix("var.").and_then(|v| table.game_var(v)) {
                Some(i) => Actor::Var(i),
                None => {
                    return Err(problem(
                        src,
                        &at("actor"),
                        Some(other),
                        format!(
                            "actor `{other}` is unknown: use `current`, `anyone` or `var.<game variable>`"
                        ),
                    ));
                }
            },
        };
        let phases = match &action.phases {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|p| {
                        table.phase(p).ok_or_else(|| {
                            let help = super::super::host::error::suggest(
                                p,
                                table.phases.iter().map(|x| x.name.as_str()),
                            );
                            problem(
                                src,
                                &at("phases"),
                                Some(p),
                                format!("`{p}` is not a phase of this variant{help}"),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let guards = guards(src, &table, &at("when"), &action.when)?;
        let mut forms = Vec::new();
        for form in &action.forms {
            let (args, when, form_reveals) = match form {
                FormFile::Args(args) => (args, None, false),
                FormFile::Guarded {
                    args,
                    when,
                    reveals,
                } => (args, Some(when), *reveals),
            };
            let args = args
                .iter()
                .map(|a| {
                    Ok(match a.as_str() {
                        "own_slot" => ArgDomain::OwnSlot,
                        "other_slot" => ArgDomain::OtherSlot,
                        "any_slot" => ArgDomain::AnySlot,
                        "drawn" => ArgDomain::Drawn,
                        word if word.chars().all(|c| c.is_ascii_lowercase() || c == '_') => {
                            ArgDomain::Word(word.to_string())
                        }
                        other => {
                            return Err(problem(
                                src,
                                &at("forms"),
                                Some(other),
                                format!("`{other}` is not an argument kind: use own_slot, other_slot, any_slot, drawn or a lowercase word"),
                            ));
                        }
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let guards = match when {
                Some(when) => self::guards(src, &table, &at("forms"), when)?,
                None => Vec::new(),
            };
            forms.push(FormDecl {
                args,
                guards,
                reveals: action.reveals || form_reveals,
            });
        }
        if forms.is_empty() {
            forms.push(FormDecl {
                args: Vec::new(),
                guards: Vec::new(),
                reveals: action.reveals,
            });
        }
        table.actions.push(ActionDecl {
            name: name.as_str().into(),
            actor,
            phases,
            guards,
            forms,
        });
    }
    table.reindex();
    Ok(table)
}

/// A house rule's type: its `type:` (with `choices:` for a choice), checked against its default,
/// or the type of its default.
fn house_rule_type(
    src: &str,
    name: &str,
    rule: &HouseRuleFile,
    default: &Value,
) -> Result<HouseRuleType, ConfigProblem> {
    let at = |key: &str, message: String| problem(src, &["house_rules", name, key], None, message);
    let written = match (&rule.kind, &rule.choices) {
        (None, None) => None,
        (None, Some(_)) => Some("choice"),
        (Some(kind), _) => Some(kind.as_str()),
    };
    let kind = match written {
        None => {
            return HouseRuleType::of(default).ok_or_else(|| {
                at(
                    "default",
                    format!(
                        "house rule `{name}` needs a default that is true/false, a number, a word or a list"
                    ),
                )
            });
        }
        Some("choice") => {
            let choices = rule.choices.clone().unwrap_or_default();
            if choices.is_empty() {
                return Err(at(
                    "type",
                    format!(
                        "house rule `{name}` is a choice: list the words it may be under `choices:`"
                    ),
                ));
            }
            HouseRuleType::Choice(choices)
        }
        Some(_) if rule.choices.is_some() => {
            return Err(at(
                "choices",
                format!("house rule `{name}` has choices, so its type is `choice`"),
            ));
        }
        Some("integer") => HouseRuleType::Integer,
        Some("number") => HouseRuleType::Number,
        Some("boolean") => HouseRuleType::Boolean,
        Some("text") => HouseRuleType::Text,
        Some("list") => HouseRuleType::List,
        Some(other) => {
            let help = super::super::host::error::suggest(other, HouseRuleType::NAMES);
            return Err(at(
                "type",
                format!(
                    "`{other}` is not a house rule type: use integer, number, boolean, text, choice or list{help}"
                ),
            ));
        }
    };
    if !kind.admits(default) {
        return Err(at(
            "default",
            format!(
                "house rule `{name}` is declared `type: {}`, so its default must be {}, not `{default}`",
                kind.name(),
                kind.expected()
            ),
        ));
    }
    Ok(kind)
}

/// `when:` maps: `house.<rule>: value`, `var.<game var>: value` (or `{not: value}`),
/// `me.<player var>: value`, `pile.<pile>: not_empty`.
fn guards(
    src: &str,
    table: &Table,
    path: &[&str],
    when: &BTreeMap<String, serde_yaml::Value>,
) -> Result<Vec<Guard>, ConfigProblem> {
    let mut out = Vec::new();
    for (key, v) in when {
        let bad = |msg: String| problem(src, path, Some(key), msg);
        let (negate, v) = match v {
            serde_yaml::Value::Mapping(m) if m.len() == 1 && m.contains_key("not") => {
                (true, &m["not"])
            }
            _ => (false, v),
        };
        let value = yaml_value(v).ok_or_else(|| bad(format!("`{key}` needs a plain value")))?;
        let (kind, name) = key.split_once('.').ok_or_else(|| {
            bad(format!(
                "`{key}` should be house.<rule>, var.<name>, me.<name> or pile.<name>"
            ))
        })?;
        out.push(match kind {
            "house" => Guard::HouseIs(
                table
                    .house_rule(name)
                    .ok_or_else(|| bad(format!("`{name}` is not a house rule")))?,
                value,
            ),
            "var" => {
                let i = table
                    .game_var(name)
                    .ok_or_else(|| bad(format!("`{name}` is not a game variable")))?;
                if negate {
                    Guard::VarIsNot(i, value)
                } else {
                    Guard::VarIs(i, value)
                }
            }
            "me" => Guard::ActorVarIs(
                table
                    .player_var(name)
                    .ok_or_else(|| bad(format!("`{name}` is not a player variable")))?,
                value,
            ),
            "pile" => Guard::PileNotEmpty(
                table
                    .pile(name)
                    .ok_or_else(|| bad(format!("`{name}` is not a pile")))?,
            ),
            _ => {
                return Err(bad(format!(
                    "`{kind}` guards are unknown: use house, var, me or pile"
                )));
            }
        });
    }
    Ok(out)
}
