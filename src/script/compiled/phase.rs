//! `game.phase == "name"` (and `!=`, either way round) on a local game handle, compiled to a
//! comparison of the game's phase with the literal's place in the table, found at load, and
//! `switch game.phase { … }` to its case found by the phase's index: the commonest tests of a
//! rule script, without making the phase's name as a value and comparing or hashing strings.
//! A bot's view (`view.phase`) is read the same way. Any other receiver (a map with a `phase`
//! entry, a number) goes the general way.

use super::build::Compiler;
use super::{Eval, Frame, R};
use crate::kernel::PhaseId;
use crate::kernel::Table;
use crate::script::host::api::{self, GameHandle};
use crate::script::host::names::{LiteralName, NameKind};
use crate::script::host::view::BotView;
use rhai::{ASTFlags, Dynamic, Expr, FnCallExpr};
use std::sync::Arc;

/// The slot of `x` when `e` is `x.phase` on a local variable `x`.
fn phase_of_local(c: &Compiler<'_>, e: &Expr) -> Option<usize> {
    let Expr::Dot(x, flags, _) = e else {
        return None;
    };
    if flags.contains(ASTFlags::NEGATED) {
        return None;
    }
    let Expr::Property(property, _) = &x.rhs else {
        return None;
    };
    if (property.0).0 != "get$phase" {
        return None;
    }
    c.root_slot(&x.lhs).ok().flatten()
}

/// The phase of the game or bot's view in a local variable, with the game's table, handed to
/// `read`; `None` when the variable holds neither.
#[inline]
fn with_phase<T>(value: &Dynamic, read: impl FnOnce(&Table, PhaseId) -> T) -> Option<T> {
    if let Some(handle) = value.read_lock::<GameHandle>() {
        let game = handle.lock();
        return Some(read(&game.table, game.state.phase));
    }
    let view = value.read_lock::<BotView>()?;
    let game = &view.0.game;
    Some(read(&game.table, game.state.phase))
}

/// A comparison of a local's `phase` property with a literal.
pub(super) struct PhaseTest {
    slot: usize,
    name: LiteralName,
    /// `==` (else `!=`).
    equal: bool,
}

impl PhaseTest {
    /// When `call` is such a comparison.
    pub(super) fn of(c: &Compiler<'_>, call: &FnCallExpr) -> Option<PhaseTest> {
        let equal = match (call.op_token.as_ref(), call.name.as_str()) {
            (Some(_), "==") => true,
            (Some(_), "!=") => false,
            _ => return None,
        };
        let (dot, text) = match &call.args[..] {
            [dot @ Expr::Dot(..), Expr::StringConstant(s, _)]
            | [Expr::StringConstant(s, _), dot @ Expr::Dot(..)] => (dot, s),
            _ => return None,
        };
        let slot = phase_of_local(c, dot)?;
        Some(PhaseTest {
            slot,
            name: LiteralName::new(text.clone(), NameKind::Phase, c.table()),
            equal,
        })
    }

    /// The comparison, `general` for a receiver that is neither a game handle nor a view.
    pub(super) fn into_eval(self, general: Eval) -> Eval {
        Box::new(move |f| -> R<Dynamic> {
            let same = with_phase(f.slot_ref(self.slot), |table, phase| {
                self.name.name(NameKind::Phase).id(table) == Some(usize::from(phase.0))
            });
            match same {
                Some(same) => Ok(Dynamic::from_bool(same == self.equal)),
                None => general(f),
            }
        })
    }
}

/// `switch x.phase` on a local `x`: the case of each of the table's phases, found at load.
pub(super) struct PhaseCases {
    slot: usize,
    table: Arc<Table>,
    /// By phase index: the case's place in the switch's table, `None` for no case.
    cases: Vec<Option<usize>>,
}

impl PhaseCases {
    /// When `subject` is `x.phase` on a local `x` and the program has a table; `case_of` finds
    /// a value's case by its hash, as the switch does.
    pub(super) fn of(
        c: &Compiler<'_>,
        subject: &Expr,
        case_of: impl Fn(&Dynamic) -> Option<usize>,
    ) -> Option<PhaseCases> {
        let slot = phase_of_local(c, subject)?;
        let table = c.table()?.clone();
        let cases = (0..table.phases.len())
            .map(|i| {
                let phase = crate::kernel::PhaseId(u16::try_from(i).ok()?);
                case_of(&Dynamic::from(api::phase_name(&table, phase)))
            })
            .collect();
        Some(PhaseCases { slot, table, cases })
    }

    /// The case of the phase (`Some(None)`: no case), or `None` when the variable is neither
    /// a handle of a game of the table nor a view of one: the switch then evaluates its subject.
    #[inline]
    pub(super) fn case(&self, f: &Frame<'_>) -> Option<Option<usize>> {
        with_phase(f.slot_ref(self.slot), |table, phase| {
            std::ptr::eq(table, &*self.table)
                .then(|| self.cases.get(usize::from(phase.0)).copied().flatten())
        })
        .flatten()
    }
}
