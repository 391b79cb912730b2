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

#[cfg(test)]
mod tests {
    use super::super::explore::{Graph, Node, ROOT, WAIT};
    use super::first_trap;

    /// A graph of `edges` (each state's successors); `over` states end the game; states from
    /// `expanded` on were not explored.
    fn graph(edges: &[&[u32]], over: &[usize], expanded: usize) -> Graph {
        let mut offsets = vec![0];
        let mut succ = Vec::new();
        for e in &edges[..expanded] {
            succ.extend_from_slice(e);
            offsets.push(succ.len() as u32);
        }
        Graph {
            nodes: (0..edges.len())
                .map(|i| Node {
                    parent: if i == 0 { ROOT } else { 0 },
                    via: WAIT,
                    depth: u32::from(i > 0),
                    over: over.contains(&i),
                })
                .collect(),
            offsets,
            succ,
            expanded,
            transitions: 0,
            cards: 0,
            card_classes: 0,
            novel: Vec::new(),
        }
    }

    #[test]
    fn a_closed_loop_with_no_end_is_a_trap_and_a_loop_with_an_exit_is_not() {
        // 0 → 1 ⇄ 2 (no way out), 0 → 3 (over).
        let trapped = graph(&[&[1, 3], &[2], &[1], &[]], &[3], 4);
        assert_eq!(first_trap(&trapped), Some((1, 2)));
        // 0 → 1 ⇄ 2, 2 → 3 (over): every state can end.
        let open = graph(&[&[1], &[2], &[1, 3], &[]], &[3], 4);
        assert_eq!(first_trap(&open), None);
    }

    #[test]
    fn a_state_left_unexplored_may_still_end() {
        // 0 → 1 ⇄ 2, 2 → 3, where 3 was found but not explored: not a trap.
        let partial = graph(&[&[1], &[2], &[1, 3], &[]], &[], 3);
        assert_eq!(first_trap(&partial), None);
    }
}
