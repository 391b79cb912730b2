//! Breadth-first exploration of the states a deal can reach: every accepted action of every
//! seat, and the clock running to the next timer, from each state once (by fingerprint). Each
//! state keeps the move that first reached it, so the shortest path to it can be played again,
//! and the states it leads to, so whether it can still end is known (`ends.rs`).

use super::measure::{Bounds, Growth};
use super::space::{Move, Path, Seen, Space};
use super::{Finding, Property};
use crate::kernel::{Candidates, Game, GameState, RuleError};
use std::collections::VecDeque;

/// How a state was first reached: from which state, by which of its moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// `ROOT` for the deal.
    pub(super) parent: u32,
    /// The candidate's number among the parent's (`Candidates::get`), or `WAIT`.
    pub(super) via: u32,
    pub(super) depth: u32,
    /// Whether the game is over in this state.
    pub(super) over: bool,
}

pub(super) const ROOT: u32 = u32::MAX;
pub(super) const WAIT: u32 = u32::MAX;

/// The states found and the moves between them.
pub(super) struct Graph {
    /// By id; ids are given in breadth-first order.
    pub(super) nodes: Vec<Node>,
    /// The successors of state `i < expanded`: `succ[offsets[i]..offsets[i + 1]]`.
    pub(super) offsets: Vec<u32>,
    pub(super) succ: Vec<u32>,
    /// How many states (the first ones) had their moves tried: the others were found but not
    /// explored, past a limit.
    pub(super) expanded: usize,
    /// Moves accepted (transitions, a state reached again included).
    pub(super) transitions: u64,
    /// The cards of the deal, and the classes the fingerprint puts them in.
    pub(super) cards: usize,
    pub(super) card_classes: usize,
    /// The states where a phase was first entered or an event first sent (in this deal).
    pub(super) novel: Vec<u32>,
}

impl Graph {
    /// Whether every state found was explored.
    pub(super) fn complete(&self) -> bool {
        self.expanded == self.nodes.len()
    }

    pub(super) fn depth(&self) -> u32 {
        self.nodes.last().map_or(0, |n| n.depth)
    }

    pub(super) fn successors(&self, id: usize) -> &[u32] {
        match (self.offsets.get(id), self.offsets.get(id + 1)) {
            (Some(&a), Some(&b)) => &self.succ[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// How far exploration goes.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// States found, at most (per deal).
    pub max_states: usize,
    /// Moves from the deal, at most.
    pub max_depth: u32,
}

/// The deal's states, explored breadth first within `reach`; what was seen goes to `seen`, what
/// went wrong to `findings` (each property once, at its shortest path). With `novel`, the
/// states that first showed a feature (`corpus::Features`) are listed in the graph.
pub(super) fn explore(
    space: &Space<'_>,
    reach: Reach,
    novel: bool,
    bounds_values: Option<usize>,
    seen: &mut Seen,
    findings: &mut Vec<Finding>,
) -> Result<Graph, String> {
    let rules = space.rules;
    let mut game = space.deal_with(rules)?;
    let prints = space.prints(&game);
    let bounds = Bounds::of(&game, bounds_values);
    seen.state(&mut game);
    // Only which events are sent matters here, not what they hold: they are noted, not kept.
    game.set_keep_events(false);
    game.note_sent_events(true);
    let mut graph = Graph {
        nodes: vec![Node {
            parent: ROOT,
            via: WAIT,
            depth: 0,
            over: game.is_over(),
        }],
        offsets: vec![0],
        succ: Vec::new(),
        expanded: 0,
        transitions: 0,
        cards: game.state.cards.len(),
        card_classes: prints.class_count(),
        novel: Vec::new(),
    };
    let mut index: std::collections::HashMap<u64, u32, ahash::RandomState> =
        std::collections::HashMap::default();
    index.insert(prints.of(&game.state), 0);
    let mut frontier: VecDeque<Box<GameState>> = VecDeque::new();
    frontier.push_back(Box::new(game.state.clone()));
    let mut candidates = Candidates::default();
    let mut found = Found::default();
    let mut features = novel.then(super::corpus::Features::default);
    while let Some(state) = frontier.pop_front() {
        let id = graph.expanded;
        let node = graph.nodes[id];
        if node.depth >= reach.max_depth || graph.nodes.len() >= reach.max_states {
            // The rest stay found but unexplored (ids are handed out in the order they wait).
            break;
        }
        game.state.clone_from(&state);
        if let Some(growth) = bounds.passed(&game) {
            found.growth(&graph, id, growth, findings, space);
        }
        if node.over {
            seen.end(&game);
            graph.expanded += 1;
            graph.offsets.push(graph.succ.len() as u32);
            continue;
        }
        candidates.refill(&game, None);
        let waiting = !game.state.timers.is_empty();
        let moves = candidates.len() + usize::from(waiting);
        let mut accepted = 0usize;
        for i in 0..moves {
            let (mv, via) = match candidates.get(i) {
                Some(action) => (Move::Act(action), i as u32),
                None => (Move::Wait, WAIT),
            };
            match space.play(&mut game, rules, &mv) {
                Ok(false) => continue,
                Ok(true) => {}
                Err(fault) => {
                    found.fault(&graph, id, mv, fault, findings, space);
                    continue;
                }
            }
            accepted += 1;
            graph.transitions += 1;
            if let Move::Act(action) = &mv {
                seen.action(&game, action);
            }
            let sent = seen.state(&mut game);
            let novel = features.as_mut().is_some_and(|f| f.novel(&game, sent));
            let print = prints.of(&game.state);
            let next = graph.nodes.len() as u32;
            let child = *index.entry(print).or_insert(next);
            if novel {
                graph.novel.push(child);
            }
            if child == next {
                graph.nodes.push(Node {
                    parent: id as u32,
                    via,
                    depth: node.depth + 1,
                    over: game.is_over(),
                });
                frontier.push_back(Box::new(game.state.clone()));
            }
            graph.succ.push(child);
            game.state.clone_from(&state);
        }
        if accepted == 0 {
            found.deadlock(&graph, id, &game, findings, space);
        }
        graph.expanded += 1;
        graph.offsets.push(graph.succ.len() as u32);
    }
    Ok(graph)
}

/// The moves from the deal to state `id`, played again to name each action.
pub(super) fn path_to(space: &Space<'_>, graph: &Graph, id: usize) -> Result<Path, String> {
    let mut vias = Vec::new();
    let mut at = id as u32;
    while graph.nodes[at as usize].parent != ROOT {
        let node = graph.nodes[at as usize];
        vias.push(node.via);
        at = node.parent;
    }
    vias.reverse();
    let rules = space.rules;
    let mut game = space.deal_with(rules)?;
    game.set_keep_events(false);
    let mut candidates = Candidates::default();
    let mut moves = Vec::with_capacity(vias.len());
    for via in vias {
        candidates.refill(&game, None);
        let mv = match via {
            WAIT => Move::Wait,
            i => Move::Act(
                candidates
                    .get(i as usize)
                    .ok_or("a state's moves differ on replay")?,
            ),
        };
        match space.play(&mut game, rules, &mv) {
            Ok(true) => moves.push(mv),
            _ => return Err("a path does not replay: the rules are not deterministic".into()),
        }
    }
    Ok(Path {
        seed: space.seed,
        moves,
    })
}

/// The findings of one exploration, each property once: breadth first, the first is the
/// shortest.
#[derive(Default)]
struct Found {
    deadlock: bool,
    growth: bool,
    fault: bool,
}

impl Found {
    fn deadlock(
        &mut self,
        graph: &Graph,
        id: usize,
        game: &Game,
        findings: &mut Vec<Finding>,
        space: &Space<'_>,
    ) {
        if std::mem::replace(&mut self.deadlock, true) {
            return;
        }
        let phase = game.table.phase_name(game.state.phase);
        findings.push(Finding::at(
            Property::NoDeadlock,
            format!(
                "the game is not over, no action of any player is accepted and no timer runs (phase {phase}, after {} moves)",
                graph.nodes[id].depth
            ),
            path_to(space, graph, id),
            None,
        ));
    }

    fn growth(
        &mut self,
        graph: &Graph,
        id: usize,
        growth: Growth,
        findings: &mut Vec<Finding>,
        space: &Space<'_>,
    ) {
        if std::mem::replace(&mut self.growth, true) {
            return;
        }
        let path = path_to(space, graph, id);
        let message = match &path {
            Ok(path) => growth.message(space, path),
            Err(_) => growth.message(
                space,
                &Path {
                    seed: space.seed,
                    moves: Vec::new(),
                },
            ),
        };
        findings.push(Finding::at(Property::Bounded, message, path, None));
    }

    fn fault(
        &mut self,
        graph: &Graph,
        id: usize,
        mv: Move,
        fault: RuleError,
        findings: &mut Vec<Finding>,
        space: &Space<'_>,
    ) {
        if std::mem::replace(&mut self.fault, true) {
            return;
        }
        findings.push(Finding::at(
            Property::Invariants,
            format!("the rules fault: {fault}"),
            path_to(space, graph, id),
            Some(mv),
        ));
    }
}
