//! The item matrix: one row per maze instance (shape, size, seed, sample, encoding) and
//! model, with its trials and, per phase, the share of them that passed (empty where no
//! trial was scored in that phase; an API error is not scored). People's trials have a row
//! per condition they were shown the maze in (`condition`: `grid`, whose `encoding` is
//! `none`, for they saw no text; `text`, in the encoding they read; empty for people's data
//! from before the condition was kept, and for models). A run's folder and export
//! hold it as `items.csv`, made from the records; the report file holds it too, made from
//! the trials it analyses (imported transcripts included).

use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::condition::Condition;
use crate::results::record::TrialRecord;
use crate::text::csv_field;
use crate::verify::Outcome;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The header of the item matrix's CSV.
pub const ITEMS_HEADER: &str =
    "shape,size,seed,sample,encoding,model,trials,solve,recognize,generate,condition";

/// The `encoding` of a maze a person was shown on the grid: no encoding.
pub const NO_ENCODING: &str = "none";

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
    /// How a person was shown the maze (none for models, and for people's data from before
    /// it was kept).
    pub condition: Option<Condition>,
}

impl Item<'_> {
    /// The encoding the player was shown: [`NO_ENCODING`] for a person on the grid.
    pub fn shown(&self) -> &'static str {
        match self.condition {
            Some(Condition::Grid) => NO_ENCODING,
            _ => self.encoding.name(),
        }
    }
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
            condition: r.condition,
        }
    }
}

/// The item matrix of `items` as CSV ([`ITEMS_HEADER`], then a row per maze instance and
/// model, in their order).
pub fn item_matrix_csv<'a>(items: impl IntoIterator<Item = Item<'a>>) -> String {
    type Key<'a> = (
        &'static str,
        usize,
        u64,
        usize,
        &'static str,
        &'a str,
        &'static str,
    );
    let mut cells: BTreeMap<Key<'a>, (usize, [(usize, usize); 3])> = BTreeMap::new();
    for it in items {
        let key = (
            it.shape.name(),
            it.size,
            it.seed,
            it.sample,
            it.shown(),
            it.model,
            it.condition.map_or("", Condition::name),
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
    for ((shape, size, seed, sample, encoding, model, condition), (trials, phases)) in cells {
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
        let _ = writeln!(out, ",{condition}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(model: &str, encoding: Encoding, condition: Option<Condition>, ok: bool) -> Item<'_> {
        let o = Some(if ok { Outcome::Success } else { Outcome::Fail });
        Item {
            shape: Shape::Spiral,
            size: 5,
            seed: 1,
            sample: 2,
            encoding,
            model,
            outcomes: [o, o, None],
            condition,
        }
    }

    #[test]
    fn people_have_a_row_per_condition_grid_people_with_no_encoding() {
        let (m, c) = (Encoding::Matrix, Encoding::CoordList);
        let csv = item_matrix_csv([
            item("oracle", m, None, true),
            // Grid people whose study trial named the matrix, and one whose named the
            // coordinate list: both saw the grid alone, so one row.
            item("human", m, Some(Condition::Grid), true),
            item("human", c, Some(Condition::Grid), false),
            item("human", c, Some(Condition::Text), true),
            item("human", m, None, false),
        ]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], ITEMS_HEADER);
        assert_eq!(
            lines[1..],
            [
                "spiral,5,1,2,coord_list,human,1,1.000000,1.000000,,text",
                "spiral,5,1,2,matrix,human,1,0.000000,0.000000,,",
                "spiral,5,1,2,matrix,oracle,1,1.000000,1.000000,,",
                "spiral,5,1,2,none,human,2,0.500000,0.500000,,grid",
            ],
            "{csv}"
        );
    }
}
