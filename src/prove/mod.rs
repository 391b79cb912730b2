//! `deckspec prove`: whole-game properties of a variant, checked on the states its rules can
//! reach. Each deal (a seed) is explored breadth first within limits (`explore.rs`: every
//! accepted action of every seat, and the clock running to the next timer, from each state once)
//! and walked at random to the end (`walk.rs`: the kernel's invariants checked at every step).
//! A violation comes with the shortest path found to it, written as a scenario that replays it.
//!
//! The properties: every explored state can still end; no state is stuck (not over, no action
//! accepted, no timer); no variable, hand or timer list grows past its bound; no step breaks the
//! kernel's invariants or faults; every seat wins some game; every action, phase and event is
//! used. What was not explored is not proved: the report says how much was, and whether each
//! deal's states were explored whole.

mod corpus;
mod ends;
mod explore;
mod fingerprint;
mod hostile;
mod measure;
mod space;
mod walk;

pub use explore::Reach;
pub use fingerprint::Chance;
pub use space::{Move, Path, Setup};
pub use walk::Walks;

use crate::script::Variant;
use space::{Seen, Space};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A property `prove` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Property {
    /// From every explored state, some moves end the game.
    CanEnd,
    /// Every explored state that is not over has an accepted action or a running timer.
    NoDeadlock,
    /// No variable, hand or list of timers grows past its bound.
    Bounded,
    /// The kernel's invariants hold at every step, and the rules never fault.
    Invariants,
    /// Every seat wins some game.
    SeatsWin,
    /// Every declared action is accepted somewhere, every phase entered, every event sent.
    Used,
    /// Every reachable state of each deal is explored (judged on `exhaustive` configurations).
    Complete,
}

impl Property {
    /// Every property, in the order reports list them.
    pub const ALL: [Property; 7] = [
        Property::CanEnd,
        Property::NoDeadlock,
        Property::Bounded,
        Property::Invariants,
        Property::SeatsWin,
        Property::Used,
        Property::Complete,
    ];

    /// Its name in reports (`can-end`).
    pub fn id(self) -> &'static str {
        match self {
            Property::CanEnd => "can-end",
            Property::NoDeadlock => "no-deadlock",
            Property::Bounded => "bounded",
            Property::Invariants => "invariants",
            Property::SeatsWin => "seats-win",
            Property::Used => "used",
            Property::Complete => "complete",
        }
    }

    /// What it says, in a sentence.
    pub fn claim(self) -> &'static str {
        match self {
            Property::CanEnd => "from every state, some moves end the game",
            Property::NoDeadlock => "every state not over has an action or a running timer",
            Property::Bounded => "no variable, hand or timer list grows without bound",
            Property::Invariants => "every step keeps the kernel's invariants, without a fault",
            Property::SeatsWin => "every seat can win",
            Property::Used => "every action, phase, event and rulebook rule is used",
            Property::Complete => "every reachable state of every deal is explored",
        }
    }
}

/// A violation, with the way to it when there is one.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The property it violates.
    pub property: Property,
    /// What is wrong, for the designer.
    pub message: String,
    /// The deal the violation was found in.
    pub seed: u64,
    /// The moves from the deal to the state that violates the property (the shortest found).
    pub path: Option<Path>,
    /// The move that faults from there, for a fault.
    pub last: Option<Move>,
}

impl Finding {
    /// A violation that no path shows (a property of the whole exploration).
    fn new(property: Property, message: String, seed: u64) -> Finding {
        Finding {
            property,
            message,
            seed,
            path: None,
            last: None,
        }
    }

    /// A violation at the end of `path` (or, when the path could not be played again, with why).
    fn at(
        property: Property,
        message: String,
        path: Result<Path, String>,
        last: Option<Move>,
    ) -> Finding {
        match path {
            Ok(path) => Finding {
                property,
                message,
                seed: path.seed,
                path: Some(path),
                last,
            },
            Err(why) => Finding {
                property,
                message: format!("{message} ({why})"),
                seed: 0,
                path: None,
                last,
            },
        }
    }
}

/// What to explore.
#[derive(Clone, Debug)]
pub struct Prove {
    /// The configurations: each is explored on its own; `Used` is judged over them all.
    pub setups: Vec<Setup>,
    /// The deals of each configuration, one exploration each.
    pub seeds: Vec<u64>,
    /// How far breadth-first exploration goes.
    pub reach: Reach,
    /// How many random walks, how long.
    pub walks: Walks,
    /// Values a variable may hold before it counts as growing (default: four per card).
    pub bound: Option<usize>,
    /// Threads (each explores whole deals).
    pub jobs: usize,
    /// Whether cards the rules cannot tell apart count as one class (`fingerprint.rs`).
    pub symmetry: bool,
    /// How chance counts in a state.
    pub chance: Chance,
    /// The rulebook's rules with the lines their scenarios play, and the variant loaded with a
    /// coverage probe: some walks run on it, and each rule's lines must run (`used`).
    pub rule_lines: Option<RuleLines>,
}

/// What `used` asks of the rulebook: each rule's played lines (from its scenarios), and a probed
/// copy of the variant that some walks run on to tell which lines exploration runs.
#[derive(Clone)]
pub struct RuleLines {
    /// The variant, loaded with a coverage probe (`Variant::load_named_probed`).
    pub probed: std::sync::Arc<Variant>,
    /// Its rulebook's rules, each with the lines its scenarios run after their Givens.
    pub rules: Vec<crate::coverage::RuleTrace>,
}

impl std::fmt::Debug for RuleLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleLines")
            .field("rules", &self.rules.len())
            .finish_non_exhaustive()
    }
}

/// One property's result.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The property.
    pub property: Property,
    /// `None` when it held on everything explored.
    pub finding: Option<Finding>,
}

/// What exploring one configuration found.
#[derive(Clone, Debug)]
pub struct SetupReport {
    /// The configuration.
    pub setup: Setup,
    /// Deals explored (one per seed).
    pub deals: usize,
    /// States found, over every deal.
    pub states: u64,
    /// States whose moves were all tried.
    pub explored: u64,
    /// Moves accepted during breadth-first exploration.
    pub transitions: u64,
    /// The most moves from a deal to a state found breadth first.
    pub depth: u32,
    /// Whether every deal's reachable states were all explored.
    pub complete: bool,
    /// Time breadth-first exploration took, added over the threads, in seconds.
    pub bfs_seconds: f64,
    /// The classes the deck's cards fall into, for the fingerprint (as many as cards without
    /// symmetry).
    pub card_classes: usize,
    /// The cards of a deal.
    pub cards: usize,
    /// Random walks made.
    pub walks: u64,
    /// Moves the walks made.
    pub walk_steps: u64,
    /// Walks that reached their step limit with the game going on.
    pub unended_walks: u64,
    /// The most moves one walk made.
    pub longest_walk: u64,
    /// Moves no declared form offered that the walks tried (another player's, out of phase,
    /// with wrong arguments).
    pub hostile: u64,
    /// Of those, the moves the rules accepted.
    pub hostile_accepted: u64,
    /// Games that ended (explored end states and walks).
    pub ends: u64,
    /// Each property's result but `Used`'s, in `Property::ALL`'s order (`Complete` only for an
    /// exhaustive configuration).
    pub verdicts: Vec<Verdict>,
}

/// What exploring a variant found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The variant's name.
    pub variant: String,
    /// Each configuration's results.
    pub setups: Vec<SetupReport>,
    /// Whether every action, phase and event was used in some configuration.
    pub used: Verdict,
    /// How chance counted in states.
    pub chance: Chance,
    /// Whether each rulebook rule's lines ran, when the rulebook was judged.
    pub rulebook: Option<RulebookUse>,
}

/// Which rulebook rules exploration played: a rule is played when every line its scenarios run
/// after their Givens also runs in some explored game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RulebookUse {
    /// The rulebook's rules.
    pub rules: usize,
    /// Those with scenarios, whose lines are known.
    pub judged: usize,
    /// The rules some of whose lines never ran, each with those lines (`cambia.rhai:181`); not
    /// those the variant declares unplayable (`prove_unplayed:`).
    pub unplayed: Vec<(String, Vec<String>)>,
    /// The rules the variant declares unplayable that did not play, each with why.
    pub declared: Vec<(String, String)>,
    /// The rules the variant declares unplayable that played after all: the declaration is stale.
    pub stale: Vec<String>,
    /// Lines of the rule scripts the probed walks ran.
    pub lines_ran: usize,
}

impl Report {
    /// Whether every property held.
    pub fn holds(&self) -> bool {
        self.used.finding.is_none()
            && self
                .setups
                .iter()
                .all(|s| s.verdicts.iter().all(|v| v.finding.is_none()))
    }
}

/// Why `prove` could not run.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// A player count outside the variant's range.
    #[error("{0} players: the variant plays with {1} to {2}")]
    Players(usize, usize, usize),
    /// A configuration's deck is not a deck.
    #[error("deck: {0}")]
    Deck(#[from] crate::kernel::DeckProblem),
    /// A thread could not be started.
    #[error("threads: {0}")]
    Threads(String),
}

/// One deal's results.
struct DealResult {
    seen: Seen,
    findings: Vec<Finding>,
    states: u64,
    explored: u64,
    transitions: u64,
    depth: u32,
    complete: bool,
    /// Time the breadth-first exploration took on its thread, in seconds.
    bfs_seconds: f64,
    card_classes: usize,
    cards: usize,
    covered: walk::Covered,
}

/// Explore `variant` as `config` says: every configuration's deals, on `config.jobs` threads.
pub fn prove(variant: &Variant, config: &Prove) -> Result<Report, ProveError> {
    let table = variant.table();
    for setup in &config.setups {
        if !table.players.contains(setup.players) {
            return Err(ProveError::Players(
                setup.players,
                table.players.min,
                table.players.max,
            ));
        }
        if let Some(deck) = &setup.deck {
            crate::kernel::reduced_deck(deck.clone())?;
        }
    }
    let tasks: Vec<(usize, u64)> = (0..config.setups.len())
        .flat_map(|s| config.seeds.iter().map(move |&seed| (s, seed)))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, DealResult)>> = Mutex::new(Vec::new());
    let jobs = config.jobs.clamp(1, tasks.len().max(1));
    std::thread::scope(|scope| -> Result<(), ProveError> {
        let mut handles = Vec::new();
        for _ in 0..jobs {
            let handle = std::thread::Builder::new()
                .name("deckspec-prove".into())
                .stack_size(crate::script::SCRIPT_STACK_BYTES)
                .spawn_scoped(scope, || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(setup, seed)) = tasks.get(i) else {
                            break;
                        };
                        let result = deal(variant, &config.setups[setup], config, seed);
                        results
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((i, result));
                    }
                })
                .map_err(|e| ProveError::Threads(e.to_string()))?;
            handles.push(handle);
        }
        for h in handles {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Ok(())
    })?;
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut by_setup: Vec<Vec<DealResult>> = config.setups.iter().map(|_| Vec::new()).collect();
    for (i, result) in results {
        by_setup[tasks[i].0].push(result);
    }
    let mut seen = Seen::new(variant);
    let setups = config
        .setups
        .iter()
        .zip(by_setup)
        .map(|(setup, results)| summarize(variant, setup, config, results, &mut seen))
        .collect();
    let rulebook = config.rule_lines.as_ref().map(rulebook_use);
    Ok(Report {
        variant: variant.name.clone(),
        setups,
        used: Verdict {
            property: Property::Used,
            finding: unused(variant, &seen, config, rulebook.as_ref()),
        },
        chance: config.chance,
        rulebook,
    })
}

/// Explore and walk one deal.
fn deal(variant: &Variant, setup: &Setup, config: &Prove, seed: u64) -> DealResult {
    // Checked by `prove` before any deal.
    let reduced = setup
        .deck
        .as_ref()
        .and_then(|deck| crate::kernel::WithDeck::new(variant, deck.clone()).ok());
    let space = Space {
        variant,
        rules: match &reduced {
            Some(r) => r,
            None => variant,
        },
        setup,
        seed,
        symmetry: config.symmetry,
        chance: config.chance,
    };
    let reach = Reach {
        max_states: setup.max_states.unwrap_or(config.reach.max_states),
        ..config.reach
    };
    let mut result = DealResult {
        seen: Seen::new(variant),
        findings: Vec::new(),
        states: 0,
        explored: 0,
        transitions: 0,
        depth: 0,
        complete: false,
        bfs_seconds: 0.0,
        card_classes: 0,
        cards: 0,
        covered: walk::Covered::default(),
    };
    let started = std::time::Instant::now();
    let explored = explore::explore(
        &space,
        reach,
        config.rule_lines.is_some(),
        config.bound,
        &mut result.seen,
        &mut result.findings,
    );
    result.bfs_seconds = started.elapsed().as_secs_f64();
    // The ways to the states that first showed something new: played again on the probed
    // variant, below.
    let mut novel: Vec<Vec<Move>> = Vec::new();
    match explored {
        Ok(graph) => {
            if let Some((trap, trapped)) = ends::first_trap(&graph) {
                result.findings.push(Finding::at(
                    Property::CanEnd,
                    format!(
                        "from this state no moves end the game: it and {} other explored states lead only to each other",
                        trapped - 1
                    ),
                    explore::path_to(&space, &graph, trap),
                    None,
                ));
            }
            // The first ones (the nearest the deal), enough to show each new thing once.
            for &id in graph.novel.iter().take(MAX_NOVEL_REPLAYS) {
                if let Ok(path) = explore::path_to(&space, &graph, id as usize) {
                    novel.push(path.moves);
                }
            }
            result.states = graph.nodes.len() as u64;
            result.explored = graph.expanded as u64;
            result.transitions = graph.transitions;
            result.depth = graph.depth();
            result.complete = graph.complete();
            result.card_classes = graph.card_classes;
            result.cards = graph.cards;
        }
        Err(e) => result.findings.push(Finding::new(
            Property::Invariants,
            format!("the deal fails: {e}"),
            seed,
        )),
    }
    // With a probed variant, the last walks (a quarter, at most `MAX_PROBED_WALKS`) run on it,
    // to tell the lines they run: a probed engine is some fifty times slower.
    let probed_walks = match &config.rule_lines {
        Some(_) => config.walks.count.div_ceil(4).min(MAX_PROBED_WALKS),
        None => 0,
    };
    let mut corpus = corpus::Corpus::default();
    result.covered = walk::walk(
        &space,
        config.walks.numbered(0, config.walks.count - probed_walks),
        config.bound,
        &mut corpus,
        &mut result.seen,
        &mut result.findings,
    );
    if let Some(lines) = &config.rule_lines {
        let probed: &Variant = &lines.probed;
        let reduced = setup
            .deck
            .as_ref()
            .and_then(|deck| crate::kernel::WithDeck::new(probed, deck.clone()).ok());
        let probed_space = Space {
            rules: match &reduced {
                Some(r) => r,
                None => probed,
            },
            ..space
        };
        // What breadth-first search and the walks first found, played again (for its lines),
        // then walks that start from it.
        for path in novel.iter().chain(corpus.paths()) {
            replay(&probed_space, path);
        }
        let covered = walk::walk(
            &probed_space,
            config
                .walks
                .numbered(config.walks.count - probed_walks, probed_walks)
                .always_hostile(),
            config.bound,
            &mut corpus,
            &mut result.seen,
            &mut result.findings,
        );
        result.covered.add(&covered);
    }
    result
}

/// The most states breadth-first search first found something new in whose ways are played
/// again on the probed variant, a deal.
const MAX_NOVEL_REPLAYS: usize = 128;

/// The most walks a deal makes on the probed variant.
const MAX_PROBED_WALKS: u32 = 100;

/// Play `moves` from the deal of `space`, as far as they go (for what a probe counts).
fn replay(space: &Space<'_>, moves: &[Move]) {
    let Ok(mut game) = space.deal_with(space.rules) else {
        return;
    };
    game.set_keep_events(false);
    for mv in moves {
        if !matches!(space.play(&mut game, space.rules, mv), Ok(true)) {
            break;
        }
    }
}

/// One configuration's deals as one report: each property's shortest violation. What the deals
/// saw is added to `all`.
fn summarize(
    variant: &Variant,
    setup: &Setup,
    config: &Prove,
    results: Vec<DealResult>,
    all: &mut Seen,
) -> SetupReport {
    let mut report = SetupReport {
        setup: setup.clone(),
        deals: results.len(),
        states: 0,
        explored: 0,
        transitions: 0,
        depth: 0,
        complete: true,
        bfs_seconds: 0.0,
        card_classes: 0,
        cards: 0,
        walks: 0,
        walk_steps: 0,
        unended_walks: 0,
        longest_walk: 0,
        hostile: 0,
        hostile_accepted: 0,
        ends: 0,
        verdicts: Vec::new(),
    };
    let mut seen = Seen::new(variant);
    let mut findings: Vec<Finding> = Vec::new();
    for r in results {
        seen.merge(&r.seen);
        report.states += r.states;
        report.explored += r.explored;
        report.transitions += r.transitions;
        report.depth = report.depth.max(r.depth);
        report.complete &= r.complete;
        report.bfs_seconds += r.bfs_seconds;
        report.card_classes = report.card_classes.max(r.card_classes);
        report.cards = report.cards.max(r.cards);
        report.walks += r.covered.walks;
        report.walk_steps += r.covered.steps;
        report.unended_walks += r.covered.unended;
        report.longest_walk = report.longest_walk.max(r.covered.longest);
        report.hostile += r.covered.hostile;
        report.hostile_accepted += r.covered.hostile_accepted;
        for f in r.findings {
            match findings.iter_mut().find(|g| g.property == f.property) {
                Some(g) if length(g) > length(&f) => *g = f,
                Some(_) => {}
                None => findings.push(f),
            }
        }
    }
    all.merge(&seen);
    report.ends = seen.ends;
    let names = space::names(setup.players);
    let never_won: Vec<&str> = (0..setup.players)
        .filter(|s| seen.wins & (1 << s) == 0)
        .map(|s| names[s].as_str())
        .collect();
    if !never_won.is_empty() {
        findings.push(Finding::new(
            Property::SeatsWin,
            format!(
                "{} never won, in {} games that ended ({})",
                never_won.join(", "),
                seen.ends,
                scope(report.complete, report.states, report.walks)
            ),
            config.seeds.first().copied().unwrap_or(0),
        ));
    }
    if setup.exhaustive && !report.complete {
        findings.push(Finding::new(
            Property::Complete,
            format!(
                "the configuration is declared exhaustive, but a limit stopped the exploration at {} states, depth {} (raise max_states, or make the configuration smaller)",
                report.states, report.depth
            ),
            config.seeds.first().copied().unwrap_or(0),
        ));
    }
    report.verdicts = Property::ALL
        .iter()
        .filter(|&&p| p != Property::Used && (p != Property::Complete || setup.exhaustive))
        .map(|&property| Verdict {
            property,
            finding: findings.iter().find(|f| f.property == property).cloned(),
        })
        .collect();
    report
}

/// How much was explored, for a property judged on what was seen.
fn scope(complete: bool, states: u64, walks: u64) -> String {
    match complete {
        true => "every reachable state of every deal explored".into(),
        false => format!("{states} states and {walks} walks explored, not every reachable state"),
    }
}

/// Which rules' played lines the probed walks ran.
fn rulebook_use(lines: &RuleLines) -> RulebookUse {
    let ran = crate::coverage::lines_ran(&lines.probed, &lines.probed.take_hits());
    let declared_why = |id: &str| {
        lines
            .probed
            .prove_unplayed
            .iter()
            .find(|(d, _)| d == id)
            .map(|(_, why)| why.clone())
    };
    let mut judged = 0;
    let mut unplayed = Vec::new();
    let mut declared = Vec::new();
    let mut stale = Vec::new();
    for rule in &lines.rules {
        if rule.scenarios.is_empty() {
            continue;
        }
        judged += 1;
        let missed: Vec<String> = rule
            .played_lines
            .iter()
            .filter(|l| !ran.contains(*l))
            .map(|l| format!("{}:{}", crate::coverage::short_path(&l.file), l.line))
            .collect();
        match (declared_why(&rule.id), missed.is_empty()) {
            (Some(why), false) => declared.push((rule.id.clone(), why)),
            (Some(_), true) => stale.push(rule.id.clone()),
            (None, false) => unplayed.push((rule.id.clone(), missed)),
            (None, true) => {}
        }
    }
    RulebookUse {
        rules: lines.rules.len(),
        judged,
        unplayed,
        declared,
        stale,
        lines_ran: ran.len(),
    }
}

/// The actions, phases and events no configuration used, and the rules whose lines exploration
/// never ran, as a violation.
fn unused(
    variant: &Variant,
    seen: &Seen,
    config: &Prove,
    rulebook: Option<&RulebookUse>,
) -> Option<Finding> {
    let table = variant.table();
    let mut unused = Vec::new();
    for (decl, used) in table.actions.iter().zip(&seen.actions) {
        if !used {
            unused.push(format!("action {}", decl.name));
        }
    }
    for (phase, used) in table.phases.iter().zip(&seen.phases) {
        if !used {
            unused.push(format!("phase {}", phase.name));
        }
    }
    for (event, used) in table.events.iter().zip(&seen.events) {
        if !used {
            unused.push(format!("event {event}"));
        }
    }
    for (rule, lines) in rulebook.map_or(&[][..], |r| &r.unplayed[..]) {
        unused.push(format!(
            "rule {rule} (lines {} never ran)",
            lines.join(", ")
        ));
    }
    for rule in rulebook.map_or(&[][..], |r| &r.stale[..]) {
        unused.push(format!(
            "rule {rule} is declared unplayable (prove_unplayed in variant.yaml) but was played: remove it from the list"
        ));
    }
    (!unused.is_empty()).then(|| {
        Finding::new(
            Property::Used,
            format!(
                "never used in {} configuration{}: {}",
                config.setups.len(),
                if config.setups.len() == 1 { "" } else { "s" },
                unused.join(", ")
            ),
            config.seeds.first().copied().unwrap_or(0),
        )
    })
}

/// A finding's path length (one without a path counts as the longest).
fn length(f: &Finding) -> usize {
    f.path.as_ref().map_or(usize::MAX, |p| p.moves.len())
}

/// A finding's path played again and written as a scenario that replays it, with `title`.
pub fn scenario(
    variant: &Variant,
    setup: &Setup,
    finding: &Finding,
    title: &str,
) -> Option<String> {
    let path = finding.path.as_ref()?;
    let reduced = match &setup.deck {
        Some(deck) => Some(crate::kernel::WithDeck::new(variant, deck.clone()).ok()?),
        None => None,
    };
    let space = Space {
        variant,
        rules: match &reduced {
            Some(r) => r,
            None => variant,
        },
        setup,
        seed: path.seed,
        symmetry: true,
        chance: Chance::PerState,
    };
    let header = format!(
        "deckspec prove: {} does not hold ({}).\n{}",
        finding.property.id(),
        finding.property.claim(),
        finding.message
    );
    let mut moves = path.moves.clone();
    if let Some(last) = &finding.last {
        moves.push(last.clone());
    }
    Some(space.scenario(&moves, title, &header))
}
