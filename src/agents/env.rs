//! A game offered to one seat at a time, for agents: the round that offers every seat a say in
//! turn (out-of-turn windows included), `pass`, time passing when every seat passes, masks of
//! legal actions, rewards at the end, the variant's bots as policies, and replay.

use super::actions::{ActionSpace, PASS};
use super::observe::Layout;
use crate::kernel::{
    Action, Candidates, Game, NewGameError, RuleError, Rules, SavedGame, Seat, Value,
};
use crate::script::Variant;
use crate::script::bots::Bot;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Steps after which a game is cut short (`truncated`) unless the caller says otherwise.
pub const DEFAULT_MAX_STEPS: usize = 20_000;
/// Slots of each hand the actions and observations name, unless the caller says otherwise (or
/// the variant's own `max_hand_slots` is smaller).
pub const DEFAULT_SLOTS: usize = 12;
/// The most slots a caller may ask for: the action space grows with their square.
pub const MAX_SLOTS: usize = 64;
/// Timers that may run out in a row with no seat able to act before the game is called stuck.
const MAX_IDLE_TIMERS: usize = 10_000;

/// How the end of a game is rewarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reward {
    /// +1 to each winner, -1 to every other seat; 0 to all in a draw.
    Outcome,
    /// The mean of the other seats' final points minus the seat's own (every bundled variant's
    /// lowest hand wins): the rewards sum to zero.
    Score,
}

/// What a game for agents is made with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The players' names, in seat order.
    pub players: Vec<String>,
    /// The deal's seed.
    pub seed: u64,
    /// House rules, and each as a scenario writes its value (for recordings).
    pub house_rules: Vec<(String, Value)>,
    /// Slots of each hand named by actions and observations.
    pub slots: usize,
    /// Steps after which the game is cut short.
    pub max_steps: usize,
    /// How the end is rewarded.
    pub reward: Reward,
}

impl Config {
    /// `players` seats named `p0`, `p1`, …, with the defaults.
    pub fn seats(players: usize, seed: u64) -> Config {
        Config {
            players: (0..players).map(|i| format!("p{i}")).collect(),
            seed,
            house_rules: Vec::new(),
            slots: DEFAULT_SLOTS,
            max_steps: DEFAULT_MAX_STEPS,
            reward: Reward::Outcome,
        }
    }
}

/// What went wrong making or stepping a game for agents. The game is unchanged after each.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// The game could not be made (players, house rules).
    #[error("{0}")]
    NewGame(#[from] NewGameError),
    /// A rule script failed, or the rules refused the deal.
    #[error("{0}")]
    Rules(RuleError),
    /// The action number is not one the offered seat may take now.
    #[error("action {index} ({described}) is not legal now: the legal ones are {legal:?}")]
    Illegal {
        /// The number given.
        index: usize,
        /// What it means, or `out of range`.
        described: String,
        /// The legal numbers.
        legal: Vec<usize>,
    },
    /// Nobody is asked: the game is over or cut short.
    #[error("the game is over: no seat is asked to act")]
    Over,
    /// A setting out of its range.
    #[error("{0}")]
    Setting(String),
    /// No bot of that level, or the variant has none.
    #[error("{0}")]
    NoBot(String),
}

impl From<RuleError> for EnvError {
    fn from(e: RuleError) -> EnvError {
        EnvError::Rules(e)
    }
}

/// One thing that changed the game: what replaying it needs (`pass`es change no game).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Move {
    /// An action the rules accepted.
    Act(Action),
    /// Every seat passed (or none could act) while a timer ran: it ran out.
    Time,
}

/// A move as the game keeps it: an action by its number (every action a game for agents takes
/// is one of its numbers), so that copying a game copies plain numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Mark {
    Act { seat: Seat, index: usize },
    Time,
}

/// The round in progress: the seats in the order they are asked, where it stands, and each
/// seat's legal actions in the game as it stands (worked out when first needed).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Round {
    order: Vec<Seat>,
    /// The position in `order` of the seat asked now.
    at: usize,
    /// By position in `order`: the legal action numbers (`pass` not among them), worked out
    /// for the seat asked.
    legal: Vec<Option<Vec<usize>>>,
    /// By position in `order`: whether the seat has a legal action (found by trying its
    /// candidates until one is accepted).
    can_act: Vec<Option<bool>>,
    /// By position in `order`: where among the seat's candidates `can_act` found its first
    /// legal action (those before it are not legal), so that `legal` need not try them again.
    #[serde(skip)]
    first_legal: Vec<Option<usize>>,
    /// Seats that passed, as bits by seat.
    passed: u32,
    /// Whether the seat asked may pass (worked out when it is asked).
    may_pass: bool,
}

/// A game for agents as data (`Env::save`, `Env::restore`): the game itself, the round where
/// it stands, the steps so far and the bots' memories.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedEnv {
    config: Config,
    game: SavedGame,
    /// The round: its order, position and passes (its legal actions are worked out again).
    order: Vec<Seat>,
    at: usize,
    passed: u32,
    steps: Vec<usize>,
    moves: Vec<Mark>,
    truncated: Option<String>,
    bots: Vec<Option<Bot>>,
    rng: ChaCha8Rng,
}

/// A game for agents (see the module's documentation and python/README.md, "The model").
#[derive(Clone)]
pub struct Env {
    variant: Arc<Variant>,
    config: Config,
    space: Arc<ActionSpace>,
    layout: Arc<Layout>,
    game: Game,
    round: Round,
    /// Every step's action number, in order: the game replays from the config and these.
    steps: Vec<usize>,
    /// What changed the game, in order.
    moves: Vec<Mark>,
    /// The game is cut short: too many steps, or stuck (no seat can act and no timer runs).
    truncated: Option<String>,
    /// The variant's bots by seat, made when first asked.
    bots: Vec<Option<Bot>>,
    /// Bots' fallbacks' randomness.
    rng: ChaCha8Rng,
    candidates: Candidates,
    /// Action numbers already tried while working out a seat's legal actions.
    seen: Vec<bool>,
}

impl Env {
    /// A new game of `variant`, dealt, with the first seat asked.
    pub fn new(variant: Arc<Variant>, config: Config) -> Result<Env, EnvError> {
        check(&config)?;
        let players = config.players.len();
        let table = variant.table().clone();
        let slots = config.slots.min(table.max_hand_slots);
        let mut game = Game::new(
            table.clone(),
            config.players.clone(),
            config.seed,
            &config.house_rules,
        )?;
        game.start(&*variant)?;
        let mut env = Env {
            space: Arc::new(ActionSpace::new(&table, players, slots)),
            layout: Arc::new(Layout::new(&table, players, slots)),
            rng: ChaCha8Rng::seed_from_u64(config.seed ^ 0x5eed_a9e7),
            bots: vec![None; players],
            variant,
            config,
            game,
            round: Round::default(),
            steps: Vec::new(),
            moves: Vec::new(),
            truncated: None,
            candidates: Candidates::default(),
            seen: Vec::new(),
        };
        env.new_round()?;
        env.trim_events();
        Ok(env)
    }

    /// The game as data: `restore` makes it again, exactly (JSON through serde).
    pub fn save(&self) -> SavedEnv {
        SavedEnv {
            config: self.config.clone(),
            game: self.game.save(),
            order: self.round.order.clone(),
            at: self.round.at,
            passed: self.round.passed,
            steps: self.steps.clone(),
            moves: self.moves.clone(),
            truncated: self.truncated.clone(),
            bots: self.bots.clone(),
            rng: self.rng.clone(),
        }
    }

    /// A saved game of `variant` made again. Everything is checked against the variant (the
    /// game fits its table, the round names its seats, each bot sits in its own seat), and the
    /// seat asked has its legal actions worked out anew: a saved game cannot make an illegal
    /// action legal.
    pub fn restore(variant: Arc<Variant>, saved: SavedEnv) -> Result<Env, EnvError> {
        check(&saved.config)?;
        let config = saved.config;
        let players = config.players.len();
        let table = variant.table().clone();
        let game = Game::restore(table.clone(), saved.game)?;
        let bad = |what: &str| {
            Err(EnvError::Setting(format!(
                "a saved game that does not fit: {what}"
            )))
        };
        if game.state.player_count() != players || *game.state.players != config.players {
            return bad("its players");
        }
        let mut order = saved.order.clone();
        order.sort_unstable();
        if order != (0..players).map(|s| Seat(s as u8)).collect::<Vec<_>>() || saved.at > players {
            return bad("its round");
        }
        if saved.bots.len() != players
            || saved.bots.iter().enumerate().any(|(i, b)| {
                b.as_ref().is_some_and(|b| {
                    b.seat.index() != i
                        || b.forgotten.len() != game.state.cards.len()
                        || variant
                            .bots
                            .as_ref()
                            .is_none_or(|book| book.levels().all(|l| l != b.level))
                })
            })
        {
            return bad("its bots");
        }
        if saved.passed >> players != 0 {
            return bad("its passes");
        }
        let slots = config.slots.min(table.max_hand_slots);
        let space = ActionSpace::new(&table, players, slots);
        let fits = |m: &Mark| match *m {
            Mark::Act { seat, index } => {
                seat.index() < players && index != PASS && index < space.len()
            }
            Mark::Time => true,
        };
        if !saved.moves.iter().all(fits) || saved.steps.iter().any(|&i| i >= space.len()) {
            return bad("its moves");
        }
        let mut env = Env {
            space: Arc::new(space),
            layout: Arc::new(Layout::new(&table, players, slots)),
            rng: saved.rng,
            bots: saved.bots,
            variant,
            config,
            game,
            round: Round {
                order: saved.order,
                at: saved.at,
                legal: vec![None; players],
                can_act: vec![None; players],
                first_legal: vec![None; players],
                passed: saved.passed,
                may_pass: false,
            },
            steps: saved.steps,
            moves: saved.moves,
            truncated: saved.truncated,
            candidates: Candidates::default(),
            seen: Vec::new(),
        };
        if !env.done() && !env.next_offered()? {
            env.new_round()?;
        }
        Ok(env)
    }

    /// Keep only the events a bot has not observed yet (none when no bot sits): a long game's
    /// memory stays bounded. A bot made later remembers what its seat knows from then on.
    fn trim_events(&mut self) {
        let upto = self
            .bots
            .iter()
            .flatten()
            .map(Bot::seen)
            .min()
            .unwrap_or(usize::MAX)
            .min(self.game.event_count());
        self.game.forget_events_before(upto);
    }
}

/// A config's settings in their ranges.
fn check(config: &Config) -> Result<(), EnvError> {
    {
        let players = config.players.len();
        if !(1..=crate::kernel::limits::MAX_PLAYERS).contains(&players) {
            return Err(EnvError::Setting(format!(
                "{players} players: a game has 1 to {}",
                crate::kernel::limits::MAX_PLAYERS
            )));
        }
        if !(1..=MAX_SLOTS).contains(&config.slots) {
            return Err(EnvError::Setting(format!(
                "slots is from 1 to {MAX_SLOTS}, not {}",
                config.slots
            )));
        }
        if config.max_steps == 0 {
            return Err(EnvError::Setting("max_steps is at least 1".into()));
        }
    }
    Ok(())
}

impl Env {
    /// A game made by `config` and taken through these steps again.
    pub fn replay(variant: Arc<Variant>, config: Config, steps: &[usize]) -> Result<Env, EnvError> {
        let mut env = Env::new(variant, config)?;
        for &s in steps {
            env.step(s)?;
        }
        Ok(env)
    }

    /// The variant played.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// What the game was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The action enumeration.
    pub fn space(&self) -> &Arc<ActionSpace> {
        &self.space
    }

    /// The observation layout.
    pub fn layout(&self) -> &Arc<Layout> {
        &self.layout
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The steps taken, by action number.
    pub fn steps(&self) -> &[usize] {
        &self.steps
    }

    /// What changed the game, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter_map(|m| match *m {
                Mark::Act { seat, index } => self.space.action(index, seat).map(Move::Act),
                Mark::Time => Some(Move::Time),
            })
            .collect()
    }

    /// The seat asked now; `None` once the game is over or cut short.
    pub fn agent(&self) -> Option<Seat> {
        if self.done() {
            return None;
        }
        self.round.order.get(self.round.at).copied()
    }

    /// Whether the game ended by its rules.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Why the game was cut short, if it was.
    pub fn truncated(&self) -> Option<&str> {
        self.truncated.as_deref()
    }

    /// Over or cut short: nobody is asked any more.
    pub fn done(&self) -> bool {
        self.game.is_over() || self.truncated.is_some()
    }

    /// The seats that passed in this round, as bits by seat.
    pub fn passed(&self) -> u32 {
        self.round.passed
    }

    /// The legal action numbers of the seat asked now, in increasing order, `pass` first when
    /// it may pass; empty when nobody is asked.
    pub fn legal(&self) -> Vec<usize> {
        if self.agent().is_none() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        if self.may_pass() {
            legal.push(PASS);
        }
        if let Some(Some(own)) = self.round.legal.get(self.round.at) {
            legal.extend_from_slice(own);
        }
        legal
    }

    /// Write the legal actions of the seat asked now as 0s and 1s into `mask` (`space().len()`
    /// of them); all 0 for any other seat.
    pub fn write_mask(&self, seat: Seat, mask: &mut [u8]) {
        mask.fill(0);
        if self.agent() != Some(seat) {
            return;
        }
        if self.may_pass() {
            mask[PASS] = 1;
        }
        if let Some(Some(own)) = self.round.legal.get(self.round.at) {
            for &i in own {
                mask[i] = 1;
            }
        }
    }

    /// Write `seat`'s observation into `out` (`layout().len()` numbers).
    pub fn observe(&self, seat: Seat, out: &mut [f32]) {
        let offered = self.agent() == Some(seat);
        self.layout
            .write(&self.game, seat, offered, self.round.passed, out);
    }

    /// Whether the seat asked now may pass: a timer runs (passing lets time run), or a seat
    /// after it in this round may act. The round's last seat that can act, with no timer
    /// running, must act: every round ends with the game changed.
    fn may_pass(&self) -> bool {
        self.round.may_pass
    }

    /// Take action `index` for the seat asked now. Refused (`Illegal`) with nothing changed
    /// unless it is among `legal()`.
    pub fn step(&mut self, index: usize) -> Result<(), EnvError> {
        let Some(seat) = self.agent() else {
            return Err(EnvError::Over);
        };
        let legal_now = index == PASS && self.may_pass()
            || self.round.legal[self.round.at]
                .as_ref()
                .is_some_and(|l| l.binary_search(&index).is_ok());
        if !legal_now {
            return Err(EnvError::Illegal {
                index,
                described: self
                    .space
                    .describe(index)
                    .unwrap_or_else(|| format!("out of range 0..{}", self.space.len())),
                legal: self.legal(),
            });
        }
        if index != PASS {
            let action = self.space.action(index, seat).ok_or(EnvError::Over)?;
            // Refused or failed, the game is as it was: so is everything here.
            self.game.apply(&*self.variant, &action)?;
            self.steps.push(index);
            self.moves.push(Mark::Act { seat, index });
        } else {
            self.round.passed |= seat.bit();
            self.round.at += 1;
            self.steps.push(index);
        }
        let moved = match index {
            PASS => self.after_pass(),
            _ => self.new_round(),
        };
        if let Err(e) = moved {
            // A rule script failed working out what comes next: the game cannot go on.
            self.truncated = Some(format!("a rule script failed: {e}"));
            return Err(e);
        }
        if !self.done() && self.steps.len() >= self.config.max_steps {
            self.truncated = Some(format!("{} steps", self.config.max_steps));
        }
        self.trim_events();
        Ok(())
    }

    /// After a pass: the next seat that can act, or, when every seat passed, time runs to the
    /// next timer and a new round starts.
    fn after_pass(&mut self) -> Result<(), EnvError> {
        if self.next_offered()? {
            return Ok(());
        }
        self.game.run_out(&*self.variant)?;
        self.moves.push(Mark::Time);
        self.new_round()
    }

    /// Start a round on the game as it stands: the seats after the one whose turn it is, in
    /// turn order, then that seat last (seat 0 first when it is nobody's turn). A round in which
    /// no seat can act lets time run at once, if a timer runs.
    fn new_round(&mut self) -> Result<(), EnvError> {
        let mut idle = 0;
        loop {
            if self.game.is_over() {
                return Ok(());
            }
            let p = self.config.players.len();
            let first = self.game.state.current.map_or(0, |c| c.index() + 1);
            self.round.order.clear();
            self.round
                .order
                .extend((0..p).map(|k| Seat(((first + k) % p) as u8)));
            self.round.legal.clear();
            self.round.legal.resize(p, None);
            self.round.can_act.clear();
            self.round.can_act.resize(p, None);
            self.round.first_legal.clear();
            self.round.first_legal.resize(p, None);
            self.round.at = 0;
            self.round.passed = 0;
            if self.next_offered()? {
                return Ok(());
            }
            if self.game.state.timers.is_empty() {
                self.truncated = Some("stuck: no seat can act and no timer runs".into());
                return Ok(());
            }
            idle += 1;
            if idle > MAX_IDLE_TIMERS {
                self.truncated = Some(format!(
                    "stuck: {MAX_IDLE_TIMERS} timers ran out with no seat able to act"
                ));
                return Ok(());
            }
            self.game.run_out(&*self.variant)?;
            self.moves.push(Mark::Time);
        }
    }

    /// Move the round to the first seat from `at` on that can act, and work out its legal
    /// actions and whether it may pass. `false` when no seat from `at` on can act.
    fn next_offered(&mut self) -> Result<bool, EnvError> {
        while self.round.at < self.round.order.len() {
            if self.can_act_at(self.round.at)? {
                let at = self.round.at;
                self.legal_at(at)?;
                let mut may_pass = !self.game.state.timers.is_empty();
                for later in at + 1..self.round.order.len() {
                    if may_pass {
                        break;
                    }
                    may_pass = self.can_act_at(later)?;
                }
                self.round.may_pass = may_pass;
                return Ok(true);
            }
            self.round.at += 1;
        }
        Ok(false)
    }

    /// Whether the seat at `pos` of the round has a legal action: its candidates tried until
    /// one is accepted.
    fn can_act_at(&mut self, pos: usize) -> Result<bool, EnvError> {
        if let Some(known) = self.round.can_act[pos] {
            return Ok(known);
        }
        let seat = self.round.order[pos];
        self.candidates.refill(&self.game, Some(seat));
        let mut found = None;
        for i in 0..self.candidates.len() {
            let Some(action) = self.candidates.get(i) else {
                continue;
            };
            if self.space.index_of(&action).is_some()
                && self.game.accepts(&*self.variant, &action)?
            {
                found = Some(i);
                break;
            }
        }
        self.round.can_act[pos] = Some(found.is_some());
        self.round.first_legal[pos] = found;
        Ok(found.is_some())
    }

    /// Work out every legal action of the seat at `pos` of the round.
    fn legal_at(&mut self, pos: usize) -> Result<(), EnvError> {
        if self.round.legal[pos].is_some() {
            return Ok(());
        }
        let seat = self.round.order[pos];
        self.candidates.refill(&self.game, Some(seat));
        self.seen.clear();
        self.seen.resize(self.space.len(), false);
        let mut legal = Vec::new();
        // The game is as `can_act` found it (a round's passes change nothing): the candidates
        // before its first legal one are not legal, and that one is.
        let first_legal = self.round.first_legal.get(pos).copied().flatten();
        for i in 0..self.candidates.len() {
            let Some(action) = self.candidates.get(i) else {
                continue;
            };
            let Some(index) = self.space.index_of(&action) else {
                continue;
            };
            if std::mem::replace(&mut self.seen[index], true) {
                continue;
            }
            let accepted = match first_legal {
                Some(first) if i < first => false,
                Some(first) if i == first => true,
                _ => self.game.accepts(&*self.variant, &action)?,
            };
            if accepted {
                legal.push(index);
            }
        }
        legal.sort_unstable();
        self.round.can_act[pos] = Some(!legal.is_empty());
        self.round.legal[pos] = Some(legal);
        Ok(())
    }

    /// The rewards by seat: 0 until the game is over (and in a game cut short).
    pub fn rewards(&self) -> Result<Vec<f64>, EnvError> {
        let p = self.config.players.len();
        let Some(outcome) = &self.game.state.outcome else {
            return Ok(vec![0.0; p]);
        };
        Ok(match self.config.reward {
            Reward::Outcome if outcome.winners.is_empty() => vec![0.0; p],
            Reward::Outcome => (0..p)
                .map(|i| match outcome.winners.contains(&Seat(i as u8)) {
                    true => 1.0,
                    false => -1.0,
                })
                .collect(),
            Reward::Score => {
                let points = self.scores()?;
                let total: f64 = points.iter().map(|&x| x as f64).sum();
                let others = (p.max(2) - 1) as f64;
                points
                    .iter()
                    .map(|&own| (total - own as f64) / others - own as f64)
                    .collect()
            }
        })
    }

    /// Every seat's points now, by the variant's score hook (each on a copy of the game).
    pub fn scores(&self) -> Result<Vec<i64>, EnvError> {
        (0..self.config.players.len())
            .map(|i| {
                let mut copy = self.game.trial();
                let score = self.variant.score(&mut copy, Seat(i as u8));
                copy.recycle();
                score.map_err(EnvError::from)
            })
            .collect()
    }

    /// What the variant's bot of `level` would do in `seat`'s place now, as an action number:
    /// its choice when legal; `pass` when it waits and may; else a random legal action.
    pub fn bot_action(&mut self, seat: Seat, level: &str) -> Result<usize, EnvError> {
        if self.agent() != Some(seat) {
            return Err(EnvError::Over);
        }
        let variant = self.variant.clone();
        let book = variant.bots.as_ref().ok_or_else(|| {
            EnvError::NoBot(format!("{} has no bots (no bots.yaml)", variant.name))
        })?;
        let slot = &mut self.bots[seat.index()];
        if slot.as_ref().is_none_or(|b| b.level != level) {
            let bot = book
                .bot(
                    seat,
                    level,
                    &self.game,
                    self.config.seed.wrapping_add(seat.0 as u64),
                )
                .ok_or_else(|| {
                    EnvError::NoBot(format!(
                        "{} has no bot level `{level}`: its levels are {}",
                        variant.name,
                        book.levels().collect::<Vec<_>>().join(", ")
                    ))
                })?;
            *slot = Some(bot);
        }
        let Some(bot) = slot.as_mut() else {
            return Err(EnvError::Over);
        };
        let chosen = book.decide(bot, &self.game)?;
        let legal = self.legal();
        let index = chosen.and_then(|a| self.space.index_of(&a));
        Ok(match index {
            Some(i) if legal.binary_search(&i).is_ok() => i,
            _ if legal.first() == Some(&PASS) => PASS,
            _ => legal[self.rng.random_range(0..legal.len())],
        })
    }

    /// The action number of `command` (as a scenario writes it after `<player> does`, or as
    /// `deckspec play` takes it) for the seat asked now.
    pub fn command_index(&self, seat: Seat, command: &str) -> Result<usize, String> {
        let action = crate::play::command_action(&self.game, seat, command)?;
        self.space.index_of(&action).ok_or_else(|| {
            format!(
                "`{command}` has no action number (a slot past {} or an argument no form of `{}` takes)",
                self.space.slots(),
                action.name
            )
        })
    }

    /// The table as `seat` may see it, as `deckspec play` shows it.
    pub fn render(&self, seat: Seat) -> String {
        crate::play::screen(&self.game.view(seat), seat)
    }

    /// The game so far as a scenario that `deckspec test` replays: the deal pinned by Givens,
    /// each action and each passing of time, and what holds now. `house_written` are the house
    /// rules as the scenario should write them.
    pub fn scenario(
        &self,
        title: &str,
        house_written: &[(String, String)],
    ) -> Result<String, EnvError> {
        let recorder = crate::record::Recorder::new(&*self.variant, house_written);
        let mut game = Game::new(
            self.variant.table().clone(),
            self.config.players.clone(),
            self.config.seed,
            &self.config.house_rules,
        )?;
        game.start(&recorder)?;
        recorder.start(&game, self.config.seed);
        for m in &self.moves() {
            match m {
                Move::Act(action) => game.apply(&recorder, action)?,
                Move::Time => {
                    game.run_out(&recorder)?;
                }
            }
        }
        let scores = self.scores()?;
        let header = format!(
            "Recorded through deckspec's agent API: {} steps, seed {}.",
            self.steps.len(),
            self.config.seed
        );
        Ok(recorder.finish(&game, title, &header, &scores))
    }
}
