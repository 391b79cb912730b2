//! `deckspec._native`: the library's games for agents (`deckspec::agents`) as Python classes;
//! the Python modules beside it (`deckspec/`) build the PettingZoo and OpenSpiel APIs on them.

use deckspec::agents::{Config, Env, EnvError, Reward};
use deckspec::kernel::{Seat, Value};
use deckspec::script::Variant;
use numpy::{IntoPyArray, PyArray1};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use std::path::Path;
use std::sync::Arc;

// The module's own allocations (rule scripts make many small values) through mimalloc, as the
// `deckspec` program's are: Python's objects keep Python's allocator, and every Rust value
// (arrays handed to numpy included) is freed by the allocator that made it.
#[global_allocator]
static ALLOCATOR: deckspec::allocator::Allocator = deckspec::allocator::Allocator;

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

create_exception!(
    _native,
    IllegalAction,
    PyValueError,
    "An action number the seat asked may not take now; nothing changed."
);
create_exception!(
    _native,
    RulesError,
    PyRuntimeError,
    "A rule or bot script failed, or a rules folder did not load."
);

/// The largest saved game `restore` reads.
const MAX_SAVED_BYTES: usize = 64 << 20;

/// The longest house-rule list a caller may give (each value is checked by the variant).
const MAX_HOUSE_RULE_ITEMS: usize = 1024;

fn env_error(e: EnvError) -> PyErr {
    match e {
        EnvError::Illegal { .. } => IllegalAction::new_err(e.to_string()),
        EnvError::NewGame(_) | EnvError::Setting(_) | EnvError::NoBot(_) => {
            PyValueError::new_err(e.to_string())
        }
        // A script's fault names where it happened, as `deckspec test` prints it.
        EnvError::Rules(deckspec::kernel::RuleError::Fault {
            message,
            pos: Some(pos),
        }) => RulesError::new_err(format!(
            "{}:{}:{}: {message}",
            pos.file, pos.line, pos.column
        )),
        EnvError::Rules(_) | EnvError::Over => RulesError::new_err(e.to_string()),
    }
}

fn seat(index: usize, players: usize) -> PyResult<Seat> {
    if index >= players {
        return Err(PyValueError::new_err(format!(
            "there is no seat {index}: the seats are 0 to {}",
            players.saturating_sub(1)
        )));
    }
    // `players` is at most the kernel's MAX_PLAYERS (32).
    Ok(Seat(u8::try_from(index).unwrap_or(u8::MAX)))
}

/// A Python value as a house rule's value: a bool, an int, a float, a str or a list of them.
fn value_of(item: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > 4 {
        return Err(PyValueError::new_err(
            "a house rule's value nests at most 4 lists deep",
        ));
    }
    if item.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(item.extract()?));
    }
    if item.is_instance_of::<PyInt>() {
        return Ok(Value::Int(item.extract().map_err(|_| {
            PyValueError::new_err("a house rule's number must fit in 64 bits")
        })?));
    }
    if item.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(item.extract()?));
    }
    if item.is_instance_of::<PyString>() {
        return Ok(Value::Str(item.extract()?));
    }
    if let Ok(list) = item.cast::<PyList>() {
        if list.len() > MAX_HOUSE_RULE_ITEMS {
            return Err(PyValueError::new_err(format!(
                "a house rule's list holds at most {MAX_HOUSE_RULE_ITEMS} items"
            )));
        }
        return list
            .iter()
            .map(|i| value_of(&i, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::List);
    }
    Err(PyValueError::new_err(format!(
        "a house rule's value is a bool, int, float, str or list, not {}",
        item.get_type().name()?
    )))
}

/// A value as a scenario writes it (`the house rule n is 3`, `[0, 1]`).
fn written(value: &Value) -> String {
    match value {
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(written).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

/// An observation and its mask, as `observe_masked` returns them.
type Masked<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// A variant loaded and compiled: the maker of its games.
#[pyclass(module = "deckspec._native", frozen)]
struct LoadedVariant {
    variant: Arc<Variant>,
}

#[pymethods]
impl LoadedVariant {
    /// Load variant `name` from the rules folder `rules`.
    #[new]
    fn new(py: Python<'_>, rules: &str, name: &str) -> PyResult<LoadedVariant> {
        let variant = py
            .detach(|| Variant::load_named(Path::new(rules), name))
            .map_err(|e| RulesError::new_err(e.short()))?;
        Ok(LoadedVariant {
            variant: Arc::new(variant),
        })
    }

    /// The variant's name.
    #[getter]
    fn name(&self) -> String {
        self.variant.name.clone()
    }

    /// The fewest and most players.
    #[getter]
    fn players(&self) -> (usize, usize) {
        let range = self.variant.table().players;
        (range.min, range.max)
    }

    /// The house rules and their defaults, as scenarios write them.
    #[getter]
    fn house_rules(&self) -> Vec<(String, String)> {
        self.variant
            .table()
            .house_rules
            .iter()
            .map(|(n, v)| (n.clone(), written(v)))
            .collect()
    }

    /// The declared actions' names.
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.variant
            .table()
            .actions
            .iter()
            .map(|a| a.name.to_string())
            .collect()
    }

    /// The bots' levels (none when the variant has no bots.yaml).
    #[getter]
    fn bot_levels(&self) -> Vec<String> {
        self.variant
            .bots
            .as_ref()
            .map(|b| b.levels().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// A game saved by `Game.save()` made again (checked against this variant).
    fn restore(&self, saved: &str) -> PyResult<Game> {
        if saved.len() > MAX_SAVED_BYTES {
            return Err(PyValueError::new_err(format!(
                "a saved game is at most {MAX_SAVED_BYTES} bytes, not {}",
                saved.len()
            )));
        }
        let saved: deckspec::agents::SavedEnv = serde_json::from_str(saved)
            .map_err(|e| PyValueError::new_err(format!("not a saved deckspec game: {e}")))?;
        let env = Env::restore(self.variant.clone(), saved).map_err(env_error)?;
        Ok(Game { env })
    }

    /// A new game, dealt.
    #[pyo3(signature = (players, seed, house_rules=None, slots=None, max_steps=None, reward="outcome"))]
    fn game(
        &self,
        players: Vec<String>,
        seed: u64,
        house_rules: Option<&Bound<'_, PyDict>>,
        slots: Option<usize>,
        max_steps: Option<usize>,
        reward: &str,
    ) -> PyResult<Game> {
        let mut config = Config::seats(players.len(), seed);
        config.players = players;
        if let Some(rules) = house_rules {
            if rules.len() > MAX_HOUSE_RULE_ITEMS {
                return Err(PyValueError::new_err("too many house rules"));
            }
            for (name, value) in rules.iter() {
                let name: String = name.extract()?;
                let value = value_of(&value, 0)
                    .map_err(|e| PyValueError::new_err(format!("house rule {name}: {e}")))?;
                config.house_rules.push((name, value));
            }
        }
        if let Some(slots) = slots {
            config.slots = slots;
        }
        if let Some(max_steps) = max_steps {
            config.max_steps = max_steps;
        }
        config.reward = match reward {
            "outcome" => Reward::Outcome,
            "score" => Reward::Score,
            other => {
                return Err(PyValueError::new_err(format!(
                    "reward is \"outcome\" or \"score\", not {other:?}"
                )));
            }
        };
        let env = Env::new(self.variant.clone(), config).map_err(env_error)?;
        Ok(Game { env })
    }
}

/// One game for agents: the seat asked, legal actions, observations, steps, rewards.
#[pyclass(module = "deckspec._native")]
#[derive(Clone)]
struct Game {
    env: Env,
}

#[pymethods]
impl Game {
    /// The seat asked now, or None once the game is over or cut short.
    #[getter]
    fn agent(&self) -> Option<usize> {
        self.env.agent().map(Seat::index)
    }

    /// The number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.env.config().players.len()
    }

    /// The players' names.
    #[getter]
    fn players(&self) -> Vec<String> {
        self.env.config().players.clone()
    }

    /// The deal's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.env.config().seed
    }

    /// Over by the rules.
    #[getter]
    fn is_over(&self) -> bool {
        self.env.is_over()
    }

    /// Why the game was cut short, if it was.
    #[getter]
    fn truncated(&self) -> Option<String> {
        self.env.truncated().map(str::to_string)
    }

    /// Over or cut short.
    #[getter]
    fn done(&self) -> bool {
        self.env.done()
    }

    /// How many action numbers there are (`pass` is 0).
    #[getter]
    fn action_count(&self) -> usize {
        self.env.space().len()
    }

    /// How many numbers an observation holds.
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.layout().len()
    }

    /// The observation's parts in order: each one's key, width and what it holds.
    fn observation_parts(&self) -> Vec<(&'static str, usize, String)> {
        self.env.layout().parts()
    }

    /// Slots of each hand that actions and observations name.
    #[getter]
    fn slots(&self) -> usize {
        self.env.space().slots()
    }

    /// The steps taken, by action number.
    #[getter]
    fn steps(&self) -> Vec<usize> {
        self.env.steps().to_vec()
    }

    /// The game clock, in milliseconds.
    #[getter]
    fn clock_ms(&self) -> u64 {
        self.env.game().state.clock
    }

    /// Whether a timer runs.
    #[getter]
    fn timer_running(&self) -> bool {
        !self.env.game().state.timers.is_empty()
    }

    /// The seats that passed in this round.
    fn passed(&self) -> Vec<usize> {
        let bits = self.env.passed();
        (0..self.num_players())
            .filter(|s| bits & (1 << s) != 0)
            .collect()
    }

    /// The legal action numbers of the seat asked now, in increasing order.
    fn legal(&self) -> Vec<usize> {
        self.env.legal()
    }

    /// `seat`'s legal actions as 0/1 int8s (all 0 unless the seat is asked now).
    fn mask<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let seat = self::seat(seat, self.num_players())?;
        let mut mask = vec![0u8; self.env.space().len()];
        self.env.write_mask(seat, &mut mask);
        let mask: Vec<i8> = mask.into_iter().map(|b| b as i8).collect();
        Ok(mask.into_pyarray(py))
    }

    /// `seat`'s observation (float32s; python/README.md documents the layout).
    fn observe<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self::seat(seat, self.num_players())?;
        let mut out = vec![0f32; self.env.layout().len()];
        self.env.observe(seat, &mut out);
        Ok(out.into_pyarray(py))
    }

    /// Take action `index` for the seat asked now (IllegalAction, with nothing changed, unless
    /// it is legal); the seat asked next, or None once the game is done.
    fn step(&mut self, py: Python<'_>, index: usize) -> PyResult<Option<usize>> {
        let env = &mut self.env;
        py.detach(|| env.step(index)).map_err(env_error)?;
        Ok(self.env.agent().map(Seat::index))
    }

    /// `seat`'s observation and its legal actions' mask together (one call for PettingZoo).
    fn observe_masked<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Masked<'py>> {
        Ok((self.observe(py, seat)?, self.mask(py, seat)?))
    }

    /// The rewards by seat (0s until the game is over).
    fn rewards(&self) -> PyResult<Vec<f64>> {
        self.env.rewards().map_err(env_error)
    }

    /// Every seat's points by the variant's score hook.
    fn scores(&self) -> PyResult<Vec<i64>> {
        self.env.scores().map_err(env_error)
    }

    /// The winners' seats and the reason, once the game is over.
    fn outcome(&self) -> Option<(Vec<usize>, String)> {
        self.env.game().state.outcome.as_ref().map(|o| {
            (
                o.winners.iter().map(|s| s.index()).collect(),
                o.reason.clone(),
            )
        })
    }

    /// What action number `index` means (`pass`, `swap own 0 next+1 2`).
    fn describe(&self, index: usize) -> PyResult<String> {
        self.env.space().describe(index).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no action {index}: the numbers are 0 to {}",
                self.env.space().len() - 1
            ))
        })
    }

    /// The bot of `level`'s choice for the seat asked now, as an action number.
    fn bot_action(&mut self, py: Python<'_>, seat: usize, level: &str) -> PyResult<usize> {
        let seat = self::seat(seat, self.num_players())?;
        let env = &mut self.env;
        py.detach(|| env.bot_action(seat, level)).map_err(env_error)
    }

    /// The action number of `command` as a scenario writes it after `<player> does`.
    fn command(&self, seat: usize, command: &str) -> PyResult<usize> {
        let seat = self::seat(seat, self.num_players())?;
        self.env
            .command_index(seat, command)
            .map_err(PyValueError::new_err)
    }

    /// The table as `seat` may see it, as `deckspec play` shows it.
    fn render(&self, seat: usize) -> PyResult<String> {
        let seat = self::seat(seat, self.num_players())?;
        Ok(self.env.render(seat))
    }

    /// `seat`'s view as the kernel gives it to a client (JSON text).
    fn view_json(&self, seat: usize) -> PyResult<String> {
        let seat = self::seat(seat, self.num_players())?;
        Ok(self.env.game().view(seat).to_json().to_string())
    }

    /// The game so far as a scenario `deckspec test` replays.
    fn scenario(&self, title: &str) -> PyResult<String> {
        let written: Vec<(String, String)> = self
            .env
            .config()
            .house_rules
            .iter()
            .map(|(n, v)| (n.clone(), written(v)))
            .collect();
        self.env.scenario(title, &written).map_err(env_error)
    }

    /// The whole game as JSON text (the deal, where the round stands, the steps, the bots'
    /// memories): `variant.restore(text)` makes it again.
    fn save(&self) -> PyResult<String> {
        serde_json::to_string(&self.env.save())
            .map_err(|e| RulesError::new_err(format!("the game does not save: {e}")))
    }

    /// A copy that goes on independently.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }
}

/// The bundled rules: each file's path under `rules/` and its bytes.
#[pyfunction]
fn bundled_files() -> Vec<(&'static str, &'static [u8])> {
    BUNDLED.to_vec()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<LoadedVariant>()?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(bundled_files, m)?)?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("PASS", deckspec::agents::PASS)?;
    Ok(())
}
