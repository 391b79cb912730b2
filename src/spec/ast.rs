//! The scenario AST: what a `.feature` file says, with byte spans into the file for diagnostics.
//!
//! The parser (`parse/`) builds it from pest pairs; the runner (`runner/`) executes it.
//! Spans are byte offsets into the whole file, so a diagnostic can underline the exact text.

use crate::kernel::Face;

/// A byte range in the source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

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
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// One `.feature` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    pub tags: Vec<Tag>,
    pub name: String,
    /// The `Feature:` line.
    pub span: Span,
    pub description: String,
    pub background: Option<Background>,
    /// Scenarios written directly under the feature.
    pub scenarios: Vec<Scenario>,
    pub rules: Vec<RuleBlock>,
}

/// A Gherkin `Rule:` block.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleBlock {
    pub tags: Vec<Tag>,
    pub name: String,
    pub span: Span,
    pub description: String,
    pub background: Option<Background>,
    pub scenarios: Vec<Scenario>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Background {
    pub span: Span,
    pub steps: Vec<Step>,
}

/// A tag such as `@rule:CAM-SNAP-3`; `name` has no `@`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub tags: Vec<Tag>,
    pub name: String,
    /// The `Scenario:` line.
    pub span: Span,
    pub steps: Vec<Step>,
    /// Empty for a plain scenario; the `Examples:` tables of a `Scenario Outline:`.
    pub examples: Vec<Examples>,
    pub is_outline: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Examples {
    pub tags: Vec<Tag>,
    pub name: String,
    pub span: Span,
    pub table: Table,
}

/// A `|`-table: the first row of an `Examples:` table is its header.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub span: Span,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub span: Span,
    pub cells: Vec<Spanned<String>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DocString {
    pub span: Span,
    /// The content with the common indentation of the opening `"""` removed.
    pub content: String,
}

/// The keyword a step was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKeyword {
    Given,
    When,
    Then,
    And,
    But,
}

/// What a step does, once `And`/`But` are resolved to the keyword before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Given,
    When,
    Then,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub keyword: StepKeyword,
    pub kind: StepKind,
    /// The whole step line, keyword included.
    pub span: Span,
    /// The text after the keyword (before placeholder substitution).
    pub text: String,
    pub text_span: Span,
    /// `None` in a `Scenario Outline` template whose text holds `<placeholders>`:
    /// the body is parsed per `Examples` row after substitution.
    pub body: Option<StepBody>,
    pub table: Option<Table>,
    pub doc: Option<DocString>,
}

/// A player reference as written (`ann`).
pub type Name = Spanned<String>;

/// One slot of a hand pattern: `7S`, `_` (empty), or `?` (any card; only in `Then`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotPattern {
    Card(Face),
    Empty,
    Any,
}

/// A house-rule or property value as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    /// Kept as text so `2.5` and `-1` round-trip exactly; `as_f64` parses it.
    Number(String),
    Card(Face),
    Word(String),
    /// A quoted string, without the quotes.
    Text(String),
    List(Vec<Literal>),
}

impl Literal {
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
    Word(String),
    Number(String),
    Card(Face),
    /// `slot 2` (owner `None`: the acting player's) or `bob's slot 1`.
    Slot {
        owner: Option<Name>,
        slot: u32,
    },
    /// The card the acting player has drawn.
    Drawn,
}

/// `<action> [args]` in `When ann does …` and `Given ann did …`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionCall {
    pub name: Spanned<String>,
    pub args: Vec<Spanned<ArgExpr>>,
}

/// What `Then ann knows …` points at.
#[derive(Clone, Debug, PartialEq)]
pub enum KnowTarget {
    Card(Face),
    Slot { owner: Name, slot: u32 },
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
}

/// One `<field> <value>` pair after `with`; `path` is dotted (`card.rank`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldMatch {
    pub path: Spanned<String>,
    pub value: Spanned<Literal>,
}

/// The typed meaning of a step. The same body serves `Given` and `Then` where the
/// wording is the same (`ann holds …`, `it is ann's turn`); the runner reads it by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum StepBody {
    /// `a cambia game with players ann, bob`
    NewGame {
        variant: Spanned<String>,
        players: Vec<Name>,
    },
    /// `the seed is 42`
    Seed(u64),
    /// `the house rule <name> is <value>`
    HouseRule {
        name: Spanned<String>,
        value: Spanned<Literal>,
    },
    /// `the house rules:` followed by a `| name | value |` table.
    HouseRules(Vec<(Spanned<String>, Spanned<Literal>)>),
    /// `ann holds 7S, KH, _, 3D`
    Holds {
        player: Name,
        cards: Vec<Spanned<SlotPattern>>,
    },
    /// `ann holds 5 cards`
    HoldsCount { player: Name, count: u32 },
    /// `ann's slot 2 is KH` / `ann's slot 2 is empty`
    SlotIs {
        player: Name,
        slot: u32,
        card: Option<Face>,
    },
    /// `the draw pile is 5C, 9H` (top first)
    DrawPileIs(Vec<Spanned<Face>>),
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
    Knows { player: Name, target: KnowTarget },
    /// `ann does not know bob's slot 1`
    DoesNotKnow { player: Name, target: KnowTarget },
    /// `ann did <action> [args]`
    Did { player: Name, action: ActionCall },
    /// `ann does <action> [args]`
    Does { player: Name, action: ActionCall },
    /// `bob is a hard bot`: a computer player of that level plays bob's seat.
    BotSeat {
        player: Name,
        level: Spanned<String>,
    },
    /// `bob's bot acts`: bob's computer player decides and its action is applied.
    BotActs { player: Name },
    /// `bob's bot chose <action> [args]` (`Some`) / `bob's bot waited` (`None`).
    BotChose {
        player: Name,
        action: Option<ActionCall>,
    },
    /// `5 seconds pass` (milliseconds, so `2.5 seconds` is exact)
    TimePasses { millis: u64 },
    /// `time runs out`
    TimeRunsOut,
    /// `the phase is same_rank_window`
    PhaseIs(Spanned<String>),
    /// `the action is rejected [with "…"]`
    Rejected { reason: Option<Spanned<String>> },
    /// `ann's score is 12`
    ScoreIs {
        player: Name,
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
        player: Option<Name>,
        name: Spanned<String>,
        value: Spanned<Literal>,
    },
    /// `everyone sees <event> [with …] [N times]` and the other audiences.
    Sees {
        audience: Audience,
        event: Spanned<String>,
        fields: Vec<FieldMatch>,
        times: Option<u32>,
    },
    /// `ann receives:` followed by a doc string holding a JSON object.
    Receives { player: Name },
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
    pub fn spans_mut(&mut self) -> Vec<&mut Span> {
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
            StepBody::DrawPileIs(faces) | StepBody::DiscardPileIs(faces) => {
                out.extend(faces.iter_mut().map(|f| &mut f.span));
            }
            StepBody::Knows { player, target } | StepBody::DoesNotKnow { player, target } => {
                out.push(&mut player.span);
                target.spans_mut(&mut out);
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
                    Audience::Everyone => {}
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
