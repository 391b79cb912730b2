//! `game.phase == "name"` (and `!=`, either way round) on a local game handle, compiled to a
//! comparison of the game's phase with the literal's place in the table, found at load: the
//! commonest test of a rule script, without making the phase's name as a value and comparing
//! strings. Any other receiver (a map with a `phase` entry, a bot's view) goes the general way.

use super::build::Compiler;
use super::{Eval, R};
use crate::script::api::GameHandle;
use crate::script::names::{LiteralName, NameKind};
use rhai::{ASTFlags, Dynamic, Expr, FnCallExpr};

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
        let Expr::Dot(x, flags, _) = dot else {
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
        let slot = c.root_slot(&x.lhs).ok().flatten()?;
        Some(PhaseTest {
            slot,
            name: LiteralName::new(text.clone(), NameKind::Phase, c.table()),
            equal,
        })
    }

    /// The comparison, `general` for a receiver that is not a game handle.
    pub(super) fn into_eval(self, general: Eval) -> Eval {
        Box::new(move |f| -> R<Dynamic> {
            if let Some(handle) = f.slot_ref(self.slot).read_lock::<GameHandle>() {
                let game = handle.lock();
                let id = self.name.name(NameKind::Phase).id(&game.table);
                let same = id == Some(usize::from(game.state.phase.0));
                return Ok(Dynamic::from_bool(same == self.equal));
            }
            general(f)
        })
    }
}
