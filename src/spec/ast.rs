//! The scenario AST: what a `.feature` file says, with byte spans into the file for diagnostics.
//!
//! The parser (`parse/`) builds it from pest pairs; the runner (`runner/`) executes it.
//! Spans are byte offsets into the whole file, so a diagnostic can underline the exact text.

use crate::kernel::Face;

/// A byte range in the source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The byte offset of the first byte.
    pub start: usize,
    /// The byte offset just past the last byte (`start` for an empty span).
    pub end: usize,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// How many bytes the span covers. `start` must not be past `end`.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no byte (a position, such as the end of a line).
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        (span.start, span.len()).into()
    }
}

/// A value together with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where the value was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `node`, written at `span`.
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// One `.feature` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// The tags above `Feature:`; every scenario of the file inherits them.
    pub tags: Vec<Tag>,
    /// The text after `Feature:`.
    pub name: String,
    /// The `Feature:` line.
    pub span: Span,
    /// The free text between the `Feature:` line and the first block.
    pub description: String,
    /// The `Background:` whose steps run before each scenario of the feature.
    pub background: Option<Background>,
    /// Scenarios written directly under the feature.
    pub scenarios: Vec<Scenario>,
    /// The `Rule:` blocks, in file order.
    pub rules: Vec<RuleBlock>,
}

/// A Gherkin `Rule:` block.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleBlock {
    /// The tags above `Rule:`; the rule's scenarios inherit them.
    pub tags: Vec<Tag>,
    /// The text after `Rule:`.
    pub name: String,
    /// The `Rule:` line.
    pub span: Span,
    /// The free text between the `Rule:` line and the first block.
    pub description: String,
    /// The rule's own `Background:`, run after the feature's, before each of its scenarios.
    pub background: Option<Background>,
    /// The scenarios of the rule.
    pub scenarios: Vec<Scenario>,
}

/// A `Background:` block: steps that run before each scenario it covers.
#[derive(Clone, Debug, PartialEq)]
pub struct Background {
    /// The `Background:` line.
    pub span: Span,
    /// Its steps.
    pub steps: Vec<Step>,
}

/// A tag such as `@rule:CAM-SNAP-3`; `name` has no `@`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// The tag without its `@`.
    pub name: String,
    /// The tag as written, `@` included.
    pub span: Span,
}

/// A `Scenario:` (or `Example:`), or a `Scenario Outline:` with its `Examples:`.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The scenario's own tags (not those it inherits from its feature or rule).
    pub tags: Vec<Tag>,
    /// The text after the keyword.
    pub name: String,
    /// The `Scenario:` line.
    pub span: Span,
    /// The steps as written; in an outline, templates that may hold `<placeholders>`.
    pub steps: Vec<Step>,
    /// Empty for a plain scenario; the `Examples:` tables of a `Scenario Outline:`.
    pub examples: Vec<Examples>,
    /// Whether it was written as a `Scenario Outline:` (or `Scenario Template:`).
    pub is_outline: bool,
}

/// An `Examples:` block of an outline: each row after the header is one run of the outline.
#[derive(Clone, Debug, PartialEq)]
pub struct Examples {
    /// The tags above `Examples:`; the rows' runs inherit them.
    pub tags: Vec<Tag>,
    /// The text after `Examples:`.
    pub name: String,
    /// The `Examples:` line.
    pub span: Span,
    /// The header row (placeholder names) and the rows of values.
    pub table: Table,
}

/// A `|`-table: the first row of an `Examples:` table is its header.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// From the start of the first row to the end of the last.
    pub span: Span,
    /// The rows, in file order.
    pub rows: Vec<Row>,
}

/// One `| a | b |` row of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row's line, without its indentation.
    pub span: Span,
    /// The cells, trimmed and unescaped, each with the span of its trimmed text.
    pub cells: Vec<Spanned<String>>,
}

/// A `"""` doc string attached to a step.
#[derive(Clone, Debug, PartialEq)]
pub struct DocString {
    /// From the opening `"""` to the closing one.
    pub span: Span,
    /// The content with the common indentation of the opening `"""` removed.
    pub content: String,
}

/// The keyword a step was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKeyword {
    /// `Given`
    Given,
    /// `When`
    When,
    /// `Then`
    Then,
    /// `And`: the kind of the step before it.
    And,
    /// `But`: the kind of the step before it.
    But,
}

/// What a step does, once `And`/`But` are resolved to the keyword before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Sets up the game.
    Given,
    /// Acts on the game.
    When,
    /// Checks the game.
    Then,
}

/// One step line, with the table or doc string attached to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The keyword as written.
    pub keyword: StepKeyword,
    /// What the step does (`And`/`But` resolved).
    pub kind: StepKind,
    /// The whole step line, keyword included.
    pub span: Span,
    /// The text after the keyword (before placeholder substitution).
    pub text: String,
    /// Where `text` is in the file.
    pub text_span: Span,
    /// `None` in a `Scenario Outline` template whose text holds `<placeholders>`:
    /// the body is parsed per `Examples` row after substitution.
    pub body: Option<StepBody>,
    /// The `|`-table under the step, if any.
    pub table: Option<Table>,
    /// The doc string under the step, if any.
    pub doc: Option<DocString>,
}

/// A player reference as written (`ann`).
pub type Name = Spanned<String>;

/// One slot of a hand pattern: `7S`, `_` (empty), or `?` (any card; only in `Then`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotPattern {
    /// Exactly this card (`7S`).
    Card(Face),
    /// An empty slot (`_`).
    Empty,
    /// Any card (`?`); a slot that holds no card does not match.
    Any,
}

/// A house-rule or property value as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `true` or `false`.
    Bool(bool),
    /// Kept as text so `2.5` and `-1` round-trip exactly; `as_f64` parses it.
    Number(String),
    /// A card face (`KH`).
    Card(Face),
    /// A bare word (`left`).
    Word(String),
    /// A quoted string, without the quotes.
    Text(String),
    /// `[a, b, …]`.
    List(Vec<Literal>),
}

impl Literal {
    /// The value of a `Number`; `None` for anything else.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Literal::Number(n) => n.parse().ok(),
            _ => None,
        }
    }
}

/// A card reference in an action's arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgExpr {
    /// A bare word, such as a player's name.
    Word(String),
    /// A number, as written.
    Number(String),
    /// A card by face (`7S`).
    Card(Face),
    /// `slot 2` (owner `None`: the acting player's) or `bob's slot 1`.
    Slot {
        /// The player whose hand it is; `None` for the acting player's.
        owner: Option<Name>,
        /// The slot number as written (0 is the first slot).
        slot: u32,
    },
    /// The card the acting player has drawn.
    Drawn,
}

/// `<action> [args]` in `When ann does …` and `Given ann did …`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionCall {
    /// The action's name, as the variant declares it.
    pub name: Spanned<String>,
    /// Its arguments, in order.
    pub args: Vec<Spanned<ArgExpr>>,
}

/// What `Then ann knows …` points at.
#[derive(Clone, Debug, PartialEq)]
pub enum KnowTarget {
    /// The card of that face, wherever it is.
    Card(Face),
    /// A slot of a player's hand (0 is the first slot).
    Slot {
        /// Whose hand.
        owner: Name,
        /// The slot number as written.
        slot: u32,
    },
}

/// Who a `sees` step is about.
#[derive(Clone, Debug, PartialEq)]
pub enum Audience {
    /// `everyone sees`
    Everyone,
    /// `only ann sees`
    Only(Name),
    /// `ann sees`
    Player(Name),
    /// `ann does not see`
    NotPlayer(Name),
    /// `nobody sees`
    Nobody,
}

/// One `<field> <value>` pair after `with`; `path` is dotted (`card.rank`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldMatch {
    /// The field, dotted for a nested one (`card.rank`).
    pub path: Spanned<String>,
    /// The value it must have.
    pub value: Spanned<Literal>,
}

/// The typed meaning of a step. The same body serves `Given` and `Then` where the
/// wording is the same (`ann holds …`, `it is ann's turn`); the runner reads it by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum StepBody {
    /// `a cambia game with players ann, bob`
    NewGame {
        /// The variant's name.
        variant: Spanned<String>,
        /// The players, in seat order.
        players: Vec<Name>,
    },
    /// `the seed is 42`
    Seed(u64),
    /// `the house rule <name> is <value>`
    HouseRule {
        /// The house rule's name.
        name: Spanned<String>,
        /// Its value.
        value: Spanned<Literal>,
    },
    /// `the house rules:` followed by a `| name | value |` table.
    HouseRules(Vec<(Spanned<String>, Spanned<Literal>)>),
    /// `ann holds 7S, KH, _, 3D`
    Holds {
        /// Whose hand.
        player: Name,
        /// Each slot, first slot first.
        cards: Vec<Spanned<SlotPattern>>,
    },
    /// `ann holds 5 cards`
    HoldsCount {
        /// Whose hand.
        player: Name,
        /// How many cards it holds.
        count: u32,
    },
    /// `ann's slot 2 is KH` / `ann's slot 2 is empty`
    SlotIs {
        /// Whose hand.
        player: Name,
        /// The slot number as written (0 is the first slot).
        slot: u32,
        /// The card in it; `None` for an empty slot.
        card: Option<Face>,
    },
    /// `the draw pile is 5C, 9H` (top first)
    DrawPileIs(Vec<Spanned<Face>>),
    /// `the deck is AS, AH, 7S, KD`: the game is dealt from these cards only.
    DeckIs(Vec<Spanned<Face>>),
    /// `the draw pile has 40 cards`
    DrawPileHas(u32),
    /// `the draw pile top is 5C`
    DrawPileTop(Face),
    /// `the discard pile is 4S, 8D` (top first) / `the discard pile is empty` (empty list)
    DiscardPileIs(Vec<Spanned<Face>>),
    /// `the discard pile top is 7S`
    DiscardPileTop(Face),
    /// `it is ann's turn`
    Turn(Name),
    /// `ann knows bob's slot 1` / `ann knows KH`
    Knows {
        /// Who knows.
        player: Name,
        /// What they know.
        target: KnowTarget,
    },
    /// `everyone knows ann's slot 1` / `everyone knows KH`
    EveryoneKnows(KnowTarget),
    /// `the setup is rejected [with "<text>"]`: the Givens describe a game the rules refuse to
    /// set up.
    SetupRejected {
        /// The text the reason must contain (case-insensitive), if given.
        reason: Option<Spanned<String>>,
    },
    /// `the discard pile has 3 cards`
    DiscardPileHas(u32),
    /// `ann sees, in order: player_discard, game_player_turn`
    SeesInOrder {
        /// Who sees them.
        player: Name,
        /// The events, in the order they must have reached the player.
        events: Vec<Name>,
    },
    /// `ann may do snap slot 2` / `ann may not do draw_stockpile`
    MayDo {
        /// Who would act.
        player: Name,
        /// The action and its arguments.
        action: ActionCall,
        /// `true` for `may do`, `false` for `may not do`.
        allowed: bool,
    },
    /// `ann's slot 1 is face up` / `ann's slots 0 and 3 are face down`: as a Given, turns those
    /// cards so; as a Then, checks it.
    FaceState {
        /// Whose hand.
        player: Name,
        /// The slot numbers as written (0 is the first slot), each with its span.
        slots: Vec<Spanned<u32>>,
        /// `true` for face up.
        up: bool,
    },
    /// `ann does not know bob's slot 1`
    DoesNotKnow {
        /// Who does not know.
        player: Name,
        /// What they do not know.
        target: KnowTarget,
    },
    /// `ann did <action> [args]`
    Did {
        /// Who acted.
        player: Name,
        /// The action and its arguments.
        action: ActionCall,
    },
    /// `ann does <action> [args]`
    Does {
        /// Who acts.
        player: Name,
        /// The action and its arguments.
        action: ActionCall,
    },
    /// `bob is a hard bot`: a computer player of that level plays bob's seat.
    BotSeat {
        /// The seat's player.
        player: Name,
        /// The bot's level, as the variant's `bots.yaml` names it.
        level: Spanned<String>,
    },
    /// `bob's bot acts`: bob's computer player decides and its action is applied.
    BotActs {
        /// The seat's player.
        player: Name,
    },
    /// `bob's bot chose <action> [args]` (`Some`) / `bob's bot waited` (`None`).
    BotChose {
        /// The seat's player.
        player: Name,
        /// The action it must have chosen; `None`: it must have waited.
        action: Option<ActionCall>,
    },
    /// `5 seconds pass` (milliseconds, so `2.5 seconds` is exact)
    TimePasses {
        /// How long, in milliseconds.
        millis: u64,
    },
    /// `time runs out`
    TimeRunsOut,
    /// `the phase is same_rank_window`
    PhaseIs(Spanned<String>),
    /// `the action is rejected [with "…"]`
    Rejected {
        /// The refusal's expected reason, without quotes, when the step gives one.
        reason: Option<Spanned<String>>,
    },
    /// `ann's score is 12`
    ScoreIs {
        /// Whose score.
        player: Name,
        /// The score, as written.
        score: Spanned<String>,
    },
    /// `ann wins` / `ann and bob win`
    Win(Vec<Name>),
    /// `the game is a draw`
    Draw,
    /// `the game is over`
    Over,
    /// `the game is not over`
    NotOver,
    /// `ann's <property> is <value>` (player `Some`) / `the <property> is <value>` (player `None`).
    /// A property written with spaces (`discard pile sealed`) is kept as written.
    Property {
        /// Whose property; `None` for the game's.
        player: Option<Name>,
        /// The property, as written.
        name: Spanned<String>,
        /// The value it must have.
        value: Spanned<Literal>,
    },
    /// `everyone sees <event> [with …] [N times]` and the other audiences.
    Sees {
        /// Who sees (or does not see) it.
        audience: Audience,
        /// The event's name.
        event: Spanned<String>,
        /// The fields the event must have, after `with`.
        fields: Vec<FieldMatch>,
        /// `N times`, when written.
        times: Option<u32>,
    },
    /// `ann receives:` followed by a doc string holding a JSON object.
    Receives {
        /// Who receives the event.
        player: Name,
    },
}

impl ActionCall {
    fn spans_mut<'a>(&'a mut self, out: &mut Vec<&'a mut Span>) {
        out.push(&mut self.name.span);
        for arg in &mut self.args {
            out.push(&mut arg.span);
            if let ArgExpr::Slot {
                owner: Some(owner), ..
            } = &mut arg.node
            {
                out.push(&mut owner.span);
            }
        }
    }
}

impl KnowTarget {
    fn spans_mut<'a>(&'a mut self, out: &mut Vec<&'a mut Span>) {
        if let KnowTarget::Slot { owner, .. } = self {
            out.push(&mut owner.span);
        }
    }
}

impl StepBody {
    /// Every span in the body, to move them (an outline step's spans are mapped from its filled
    /// text back to the file).
    pub(crate) fn spans_mut(&mut self) -> Vec<&mut Span> {
        let mut out = Vec::new();
        match self {
            StepBody::NewGame { variant, players } => {
                out.push(&mut variant.span);
                out.extend(players.iter_mut().map(|p| &mut p.span));
            }
            StepBody::HouseRule { name, value } => {
                out.push(&mut name.span);
                out.push(&mut value.span);
            }
            StepBody::HouseRules(rows) => {
                for (name, value) in rows {
                    out.push(&mut name.span);
                    out.push(&mut value.span);
                }
            }
            StepBody::Holds { player, cards } => {
                out.push(&mut player.span);
                out.extend(cards.iter_mut().map(|c| &mut c.span));
            }
            StepBody::HoldsCount { player, .. }
            | StepBody::SlotIs { player, .. }
            | StepBody::Turn(player)
            | StepBody::BotActs { player }
            | StepBody::Receives { player } => out.push(&mut player.span),
            StepBody::DrawPileIs(faces)
            | StepBody::DiscardPileIs(faces)
            | StepBody::DeckIs(faces) => {
                out.extend(faces.iter_mut().map(|f| &mut f.span));
            }
            StepBody::Knows { player, target } | StepBody::DoesNotKnow { player, target } => {
                out.push(&mut player.span);
                target.spans_mut(&mut out);
            }
            StepBody::EveryoneKnows(target) => target.spans_mut(&mut out),
            StepBody::SetupRejected { reason } => {
                out.extend(reason.iter_mut().map(|r| &mut r.span))
            }
            StepBody::DiscardPileHas(_) => {}
            StepBody::SeesInOrder { player, events } => {
                out.push(&mut player.span);
                out.extend(events.iter_mut().map(|e| &mut e.span));
            }
            StepBody::MayDo { player, action, .. } => {
                out.push(&mut player.span);
                action.spans_mut(&mut out);
            }
            StepBody::FaceState { player, slots, .. } => {
                out.push(&mut player.span);
                out.extend(slots.iter_mut().map(|s| &mut s.span));
            }
            StepBody::Did { player, action } | StepBody::Does { player, action } => {
                out.push(&mut player.span);
                action.spans_mut(&mut out);
            }
            StepBody::BotSeat { player, level } => {
                out.push(&mut player.span);
                out.push(&mut level.span);
            }
            StepBody::BotChose { player, action } => {
                out.push(&mut player.span);
                if let Some(action) = action {
                    action.spans_mut(&mut out);
                }
            }
            StepBody::PhaseIs(name) => out.push(&mut name.span),
            StepBody::Rejected { reason } => out.extend(reason.iter_mut().map(|r| &mut r.span)),
            StepBody::ScoreIs { player, score } => {
                out.push(&mut player.span);
                out.push(&mut score.span);
            }
            StepBody::Win(players) => out.extend(players.iter_mut().map(|p| &mut p.span)),
            StepBody::Property {
                player,
                name,
                value,
            } => {
                out.extend(player.iter_mut().map(|p| &mut p.span));
                out.push(&mut name.span);
                out.push(&mut value.span);
            }
            StepBody::Sees {
                audience,
                event,
                fields,
                ..
            } => {
                match audience {
                    Audience::Only(p) | Audience::Player(p) | Audience::NotPlayer(p) => {
                        out.push(&mut p.span)
                    }
                    Audience::Everyone | Audience::Nobody => {}
                }
                out.push(&mut event.span);
                for field in fields {
                    out.push(&mut field.path.span);
                    out.push(&mut field.value.span);
                }
            }
            StepBody::Seed(_)
            | StepBody::DrawPileHas(_)
            | StepBody::DrawPileTop(_)
            | StepBody::DiscardPileTop(_)
            | StepBody::TimePasses { .. }
            | StepBody::TimeRunsOut
            | StepBody::Draw
            | StepBody::Over
            | StepBody::NotOver => {}
        }
        out
    }
}
