//! The WebSocket protocol's two directions agree: every legal action of every variant, written
//! as the message that sends it (`private_actions`, the browser table's buttons), reads back as
//! the same action, at every step of seeded random games.

use deckspec::kernel::playout::{RandomAgent, Step};
use deckspec::kernel::{Game, Seat};
use deckspec::script::Variant;
use deckspec::serve::protocol::{Request, action_message, parse_request};
use std::path::Path;

fn check(variant: &str, seeds: std::ops::Range<u64>, max_steps: usize) -> usize {
    let rules = Variant::load_named(Path::new("rules"), variant).unwrap();
    let mut checked = 0;
    for seed in seeds {
        let players = ["ann", "bob", "cy"].map(String::from).to_vec();
        let mut game = Game::new(rules.table().clone(), players, seed, &[]).unwrap();
        game.start(&rules).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..max_steps {
            for action in game.legal_actions(&rules) {
                let message = action_message(&game, &action);
                let read = parse_request(&game, action.seat, &message.to_string());
                assert_eq!(
                    read,
                    Ok(Request::Action(action.clone())),
                    "{variant} seed {seed}: {message}"
                );
                checked += 1;
            }
            match agent.step(&mut game, &rules).unwrap() {
                Step::Stuck => break,
                Step::Acted(_) | Step::Waited => {}
            }
        }
        // A seat that does not exist in the message's eyes is still the connection's.
        assert!(game.state.player_count() == 3 && Seat(2).index() == 2);
    }
    checked
}

#[test]
fn every_legal_action_reads_back_from_its_message() {
    for variant in &deckspec::script::variant_names(Path::new("rules")) {
        let checked = check(variant, 0..3, 60);
        assert!(checked > 100, "{variant}: only {checked} actions checked");
    }
}

#[test]
fn a_card_named_beyond_what_the_action_takes_must_be_the_card_drawn() {
    use deckspec::kernel::event::public_id_text;
    use deckspec::kernel::{Action, Loc};
    let rules = Variant::load_named(Path::new("rules"), "cambia").unwrap();
    let players = ["ann", "bob"].map(String::from).to_vec();
    let mut game = Game::new(rules.table().clone(), players, 5, &[]).unwrap();
    game.start(&rules).unwrap();
    let seat = game.state.current.expect("someone is on turn");
    let draw = Action {
        seat,
        name: "draw_stockpile".into(),
        args: vec![],
    };
    game.apply(&rules, &draw).unwrap();
    let id_of = |card| public_id_text(game.state.card(card).unwrap().public_id);
    let held = game.table.held_pile.expect("cambia's `held` pile");
    let drawn = id_of(*game.state.pile(held).last().unwrap());
    let in_hand = (0..game.state.cards.len())
        .map(|i| deckspec::kernel::CardIdx(i as u16))
        .find(
            |&c| matches!(game.state.card(c).unwrap().loc, Loc::Hand { seat: s, .. } if s == seat),
        )
        .map(id_of)
        .unwrap();
    let discard = |id: &str| {
        let message = format!("{{\"type\": \"action_discard\", \"card\": {{\"id\": \"{id}\"}}}}");
        parse_request(&game, seat, &message)
    };
    // The document's form: the drawn card's id, which the action does not take.
    assert!(matches!(discard(&drawn), Ok(Request::Action(a)) if a.args.is_empty()));
    // A stale client naming another card learns it is stale.
    assert_eq!(
        discard(&in_hand),
        Err(format!(
            "card `{in_hand}` is not the card you drew: your view is out of date (send `sync`)"
        ))
    );
    assert_eq!(
        discard("nope"),
        Err("no card has the id `nope` now".to_string())
    );
}
