//! The item matrix: one row per maze instance (shape, size, seed, sample, encoding) and
//! model, with its trials and, per phase, the share of them that passed (empty where no
//! trial was scored in that phase; an API error is not scored). A run's folder and export
//! hold it as `items.csv`, made from the records; the report file holds it too, made from
//! the trials it analyses (imported transcripts included).

use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::results::record::TrialRecord;
use crate::text::csv_field;
use crate::verify::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The header of the item matrix's CSV.
pub const ITEMS_HEADER: &str =
    "shape,size,seed,sample,encoding,model,trials,solve,recognize,generate";

/// One trial as the item matrix counts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item<'a> {
    /// The maze's shape.
    pub shape: Shape,
    /// The grid side.
    pub size: usize,
    /// The maze set's seed.
    pub seed: u64,
    /// Which maze of the set.
    pub sample: usize,
    /// How the maze was shown.
    pub encoding: Encoding,
    /// Who played it.
    pub model: &'a str,
    /// Each phase's outcome (none when not reached).
    pub outcomes: [Option<Outcome>; 3],
}

impl<'a> Item<'a> {
    /// The trial a record holds.
    pub fn of_record(r: &'a TrialRecord) -> Item<'a> {
        Item {
            shape: r.shape,
            size: r.size,
            seed: r.seed,
            sample: r.sample,
            encoding: r.encoding,
            model: &r.model,
            outcomes: r.verdicts.all().map(|v| v.map(|v| v.outcome)),
        }
    }
}

/// The item matrix of `items` as CSV ([`ITEMS_HEADER`], then a row per maze instance and
/// model, in their order).
pub fn item_matrix_csv<'a>(items: impl IntoIterator<Item = Item<'a>>) -> String {
    type Key<'a> = (&'static str, usize, u64, usize, &'static str, &'a str);
    let mut cells: BTreeMap<Key<'a>, (usize, [(usize, usize); 3])> = BTreeMap::new();
    for it in items {
        let key = (
            it.shape.name(),
            it.size,
            it.seed,
            it.sample,
            it.encoding.name(),
            it.model,
        );
        let cell = cells.entry(key).or_insert((0, [(0, 0); 3]));
        cell.0 += 1;
        for (i, o) in it.outcomes.into_iter().enumerate() {
            if let Some(o) = o.filter(|o| *o != Outcome::Error) {
                cell.1[i].1 += 1;
                cell.1[i].0 += usize::from(o == Outcome::Success);
            }
        }
    }
    let mut out = format!("{ITEMS_HEADER}\n");
    for ((shape, size, seed, sample, encoding, model), (trials, phases)) in cells {
        let _ = write!(
            out,
            "{},{size},{seed},{sample},{},{},{trials}",
            csv_field(shape),
            csv_field(encoding),
            csv_field(model)
        );
        for (passed, scored) in phases {
            if scored == 0 {
                out.push(',');
            } else {
                let _ = write!(
                    out,
                    ",{:.6}",
                    crate::text::Fixed(passed as f64 / scored as f64)
                );
            }
        }
        out.push('\n');
    }
    out
}
