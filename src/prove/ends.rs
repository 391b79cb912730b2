//! Whether every explored state can still end: the states from which some moves reach a game
//! that is over, found backwards from the ends. A state left unexplored (past a limit) counts as
//! one that may end, so only a trap closed within what was explored is reported.

use super::explore::Graph;

/// The first explored state (so the nearest the deal) from which no sequence of moves ends the
/// game, and how many explored states are so trapped; `None` when there is none.
pub(super) fn first_trap(graph: &Graph) -> Option<(usize, usize)> {
    let n = graph.nodes.len();
    // Predecessors, as offsets into one list (the successor lists turned around).
    let mut count = vec![0u32; n + 1];
    for id in 0..graph.expanded {
        for &s in graph.successors(id) {
            count[s as usize + 1] += 1;
        }
    }
    for i in 0..n {
        count[i + 1] += count[i];
    }
    let mut fill = count.clone();
    let mut preds = vec![0u32; graph.succ.len()];
    for id in 0..graph.expanded {
        for &s in graph.successors(id) {
            preds[fill[s as usize] as usize] = id as u32;
            fill[s as usize] += 1;
        }
    }
    let mut can_end = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    for (id, node) in graph.nodes.iter().enumerate() {
        if node.over || id >= graph.expanded {
            can_end[id] = true;
            stack.push(id as u32);
        }
    }
    while let Some(id) = stack.pop() {
        let id = id as usize;
        for &p in &preds[count[id] as usize..count[id + 1] as usize] {
            if !can_end[p as usize] {
                can_end[p as usize] = true;
                stack.push(p);
            }
        }
    }
    let trapped = can_end.iter().filter(|&&b| !b).count();
    can_end
        .iter()
        .position(|&b| !b)
        .map(|first| (first, trapped))
}
