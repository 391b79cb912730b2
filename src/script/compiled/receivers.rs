//! Whether the native function a method call resolves to takes its receiver by reference, as
//! Rhai judges it: after such a call at the end of a chain, Rhai writes a value it read through
//! a property getter back through the setter (`x.tag.to_string()` calls `set$tag`), which
//! counts operations and is refused on a constant.

use super::FastMap;
use rhai::{Dynamic, Engine, FnNamespace};
use std::any::TypeId;

/// One native function: its parameters' types and whether Rhai calls it a method (its first
/// parameter taken by reference, `RhaiFunc::is_method`).
struct Entry {
    params: Vec<TypeId>,
    by_ref: bool,
}

/// Every native function a script can call unqualified, by name and arity, in the order Rhai
/// looks for them (the engine's own, then its packages').
pub(super) struct Receivers {
    by_name: FastMap<(String, usize), Vec<Entry>>,
}

/// Rhai's limit on the arguments it tries as `Dynamic` when no exact signature matches.
const MAX_DYNAMIC_PARAMETERS: usize = 16;

/// What Rhai decides before it looks for a function (`exec_syntactic_fn_call`): never a method.
const SYNTACTIC: [&str; 7] = [
    "type_of",
    "is_shared",
    "is_def_fn",
    "is_def_var",
    "Fn",
    "eval",
    "curry",
];

impl Receivers {
    pub(crate) fn new(engine: &Engine) -> Receivers {
        let entries = engine.collect_fn_metadata(
            None,
            |info| {
                let m = info.metadata;
                // A sub-module's function is called by its path, unless it is global.
                if !info.namespace.is_empty() && m.namespace != FnNamespace::Global {
                    return None;
                }
                // A function registered raw (`register_raw_fn`, the kernel's entries) has no
                // parameter names and is a method; the others say `&mut` of a first parameter
                // taken by reference (`register_fn` and the packages' plugin functions alike).
                let by_ref = m.params_info.first().is_none_or(|p| p.contains("&mut"));
                Some((
                    (m.name.to_string(), m.num_params),
                    Entry {
                        params: m.param_types.to_vec(),
                        by_ref,
                    },
                ))
            },
            true,
        );
        let mut by_name: FastMap<(String, usize), Vec<Entry>> = FastMap::default();
        for (key, entry) in entries {
            by_name.entry(key).or_default().push(entry);
        }
        Receivers { by_name }
    }

    /// Whether `name` called as a method on `args` (the receiver first) takes its receiver by
    /// reference: the entry Rhai's dispatch picks, first by the arguments' own types, then with
    /// `Dynamic` standing for some of them, from the last argument backwards.
    pub(super) fn by_ref(&self, name: &str, args: &[&mut Dynamic]) -> bool {
        if SYNTACTIC.contains(&name) {
            return false;
        }
        let Some(entries) = self.by_name.get(&(name.to_string(), args.len())) else {
            return false;
        };
        let n = args.len();
        let dynamic = n.min(MAX_DYNAMIC_PARAMETERS);
        let types: Vec<TypeId> = args.iter().map(|a| a.type_id()).collect();
        let fits = |entry: &Entry, mask: usize| {
            entry.params.len() == n
                && entry
                    .params
                    .iter()
                    .zip(&types)
                    .enumerate()
                    .all(|(i, (p, t))| {
                        if i < dynamic && mask & (1 << (dynamic - 1 - i)) != 0 {
                            *p == TypeId::of::<Dynamic>()
                        } else {
                            p == t
                        }
                    })
        };
        let masks = 1usize << dynamic;
        (0..masks)
            .find_map(|mask| entries.iter().find(|e| fits(e, mask)))
            .is_some_and(|e| e.by_ref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::host::files::RulesRoot;
    use crate::script::host::natives::NATIVES;
    use rhai::Array;

    fn engine() -> Engine {
        let root = RulesRoot::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))).expect("root");
        crate::script::host::sandboxed_engine(&root)
    }

    #[test]
    fn the_receiver_is_by_reference_as_rhai_registers_the_function() {
        let receivers = Receivers::new(&engine());
        let by_ref = |name: &str, mut args: Vec<Dynamic>| {
            receivers.by_ref(name, &args.iter_mut().collect::<Vec<_>>())
        };
        let array = || Dynamic::from(Array::new());
        // `&mut Array`, pure or not, is by reference; `&str` and a number by value.
        assert!(by_ref("len", vec![array()]));
        assert!(by_ref("push", vec![array(), Dynamic::from(1_i64)]));
        assert!(!by_ref("len", vec![Dynamic::from("ab")]));
        assert!(!by_ref("abs", vec![Dynamic::from(1_i64)]));
        // A number has no `to_string` of its own: the `&mut Dynamic` one is picked.
        assert!(by_ref("to_string", vec![Dynamic::from(1_i64)]));
        assert!(!by_ref("to_string", vec![Dynamic::from(true)]));
        // The kernel's entries are registered raw.
        let raw = receivers
            .by_name
            .get(&("get$phase".to_string(), 1))
            .expect("the kernel's getter");
        assert!(raw.iter().all(|e| e.by_ref));
        // Decided before any function is looked for, or no function at all.
        assert!(!by_ref("type_of", vec![array()]));
        assert!(!by_ref("no_such_function", vec![array()]));
    }

    #[test]
    fn no_value_a_script_sees_has_an_index_setter_for_write_back_to_find() {
        // `write_back` counts the indexer setter's try and writes nothing: true while no
        // function of that name exists, in the standard library or the kernel's
        // tables (the bot view's: `host/view.rs`, `host/bot_natives.rs`).
        let names = engine().collect_fn_metadata(None, |i| Some(i.metadata.name.to_string()), true);
        assert!(
            names.iter().any(|name| name == "set$tag"),
            "the list is complete"
        );
        assert!(!names.iter().any(|name| name == "index$set$"));
        assert!(!NATIVES.iter().any(|n| n.name == "index$set$"));
    }
}
