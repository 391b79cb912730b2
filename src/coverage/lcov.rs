//! The lcov tracefile of a coverage run (the format of `geninfo`, read by `genhtml` and the
//! common coverage services): per script `SF`, `FN`/`FNDA`, `DA`, `BRDA` and their totals.

use super::CoverageReport;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The report as an lcov tracefile; `test_name` goes in its `TN:` lines.
pub fn tracefile(report: &CoverageReport, test_name: &str) -> String {
    let mut out = String::new();
    for file in &report.files {
        let _ = writeln!(out, "TN:{test_name}");
        let _ = writeln!(out, "SF:{}", file.path);
        // Rhai functions may share a name (one per arity); lcov's must be unique in a file.
        let mut named: HashMap<&str, usize> = HashMap::new();
        for f in &file.functions {
            *named.entry(f.name.as_str()).or_default() += 1;
        }
        let name = |f: &super::FunctionCoverage| {
            if named.get(f.name.as_str()).copied().unwrap_or(0) > 1 {
                format!("{}:{}", f.name, f.first_line)
            } else {
                f.name.clone()
            }
        };
        for f in &file.functions {
            let _ = writeln!(out, "FN:{},{}", f.first_line, name(f));
        }
        for f in &file.functions {
            let _ = writeln!(out, "FNDA:{},{}", f.calls, name(f));
        }
        let _ = writeln!(out, "FNF:{}", file.function_tally.found);
        let _ = writeln!(out, "FNH:{}", file.function_tally.hit);
        for (block, b) in file.branches.iter().enumerate() {
            for (arm, a) in b.arms.iter().enumerate() {
                let taken = a.taken.map_or("-".to_string(), |n| n.to_string());
                let _ = writeln!(out, "BRDA:{},{block},{arm},{taken}", b.line);
            }
        }
        let _ = writeln!(out, "BRF:{}", file.branch_tally.found);
        let _ = writeln!(out, "BRH:{}", file.branch_tally.hit);
        for l in &file.lines {
            let _ = writeln!(out, "DA:{},{}", l.line, l.hits);
        }
        let _ = writeln!(out, "LF:{}", file.line_tally.found);
        let _ = writeln!(out, "LH:{}", file.line_tally.hit);
        out.push_str("end_of_record\n");
    }
    out
}
