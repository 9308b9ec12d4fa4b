//! The totals of a scored folder as a text table: a row per group value, a column per
//! phase (`shapemaze score`, and the as-read and as-reviewed tables of `--reviews`).

use shapemaze_core::results::tally::{Counts, Group, Total};
use shapemaze_view::text_table::{TextColumn, TextTable};

/// A group's counts as the text report shows them: `successes/scored percent`, then `?N`
/// for phases that could not be scored and `!N` for API errors.
pub(crate) fn cell(c: &Counts) -> String {
    c.to_string()
}

/// The totals as a text table: a row per group value, a column per phase.
pub(crate) fn totals_table(totals: &[Total]) -> String {
    let label = |t: &Total| {
        if t.group == Group::All {
            t.value.clone()
        } else {
            format!("{} {}", t.group.name(), t.value)
        }
    };
    let mut table = TextTable::new(&[TextColumn::left(24); 4]);
    table.row(["", "solve", "recognize", "generate"]);
    let mut group = None;
    for t in totals {
        if group.is_some_and(|g| g != t.group) {
            table.line("");
        }
        group = Some(t.group);
        table.row([
            label(t),
            cell(&t.solve),
            cell(&t.recognize),
            cell(&t.generate),
        ]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_show_successes_over_scored_trials_and_flag_unscored_ones() {
        let c = Counts {
            success: 1,
            fail: 2,
            unscored: 1,
            api_error: 0,
        };
        assert_eq!(cell(&c), "1/3 33.3% ?1");
        let with_errors = Counts { api_error: 2, ..c };
        assert_eq!(cell(&with_errors), "1/3 33.3% ?1 !2", "API errors apart");
        assert_eq!(
            cell(&Counts::default()),
            "0/0 0.0%",
            "an empty group divides by nothing"
        );
    }
}
