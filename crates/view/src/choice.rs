//! The replay's picture of where a move's probability went ([`shapemaze_core::results::choice`]):
//! the maze as it stood when the model chose, each cell of the row it wrote shaded and
//! labelled with the probability of naming it, each row's own probability beside it, and a
//! caption that says the same in words (so nothing depends on colour).

use shapemaze_core::maze::grid::{Pos, Tile};
use shapemaze_core::results::choice::{Choice, Spread};
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

/// Side of one cell in the view box.
const CELL: usize = 60;
/// Room left of the maze for the rows' probabilities.
const LEFT: usize = 72;

/// A probability as a whole percentage, as HTML; below one half of a percent but above
/// nothing, `<1%`.
fn percent(p: f64) -> String {
    if p > 0.0 && p < 0.005 {
        "&lt;1%".into()
    } else {
        format!("{:.0}%", Fixed(100.0 * p))
    }
}

/// Writes `Row 1: 70% (others 0: 20%, 2: 5%)`: the number written first, then the others.
fn said(out: &mut String, label: std::fmt::Arguments, s: &Spread, written: usize) {
    let _ = write!(out, "{label}: {}", percent(s.of(written)));
    let mut others = s.values.iter().filter(|(n, _)| *n != written).peekable();
    if others.peek().is_some() {
        out.push_str(" (others ");
        for (i, (n, p)) in others.enumerate() {
            let _ = write!(
                out,
                "{}{n}: {}",
                if i == 0 { "" } else { ", " },
                percent(*p)
            );
        }
        out.push(')');
    }
    out.push_str(". ");
}

/// The heading over the figure.
const HEADING: &str = "<h2>Where the move's probability went</h2>";

/// The figure for one solve reply's choice under its heading, or the sentence saying why
/// there is none.
pub fn choice_figure(c: &Choice) -> String {
    let m = match &c.read {
        Ok(m) => m,
        Err(why) => {
            return format!(
                "{HEADING}<p class=\"help\" data-testid=\"choice-none\">{}</p>",
                why.explain()
            )
        }
    };
    let (rows, cols) = (c.before.rows(), c.before.cols());
    let (w, h) = (LEFT + cols * CELL, rows * CELL);
    let label = format!(
        "The probability of naming each cell of row {} and of each row",
        m.cell.row
    );
    let mut s = format!(
        "{HEADING}<figure class=\"choice\" data-testid=\"choice\"><svg viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{label}\"><title>{label}</title>"
    );
    for r in 0..rows {
        let y = r * CELL;
        let row_p = m.row.of(r);
        if row_p > 0.0 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                LEFT - 10,
                y + CELL / 2 + 6,
                percent(row_p)
            );
        }
        for col in 0..cols {
            let p = Pos::new(r, col);
            let x = LEFT + col * CELL;
            let tile = c.before.get(p).unwrap_or(Tile::Wall);
            let _ = write!(
                s,
                "<rect class=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/>",
                tile.name()
            );
            if let Some(q) = m.cell_probability(p).filter(|q| *q > 0.0) {
                let _ = write!(
                    s,
                    "<rect class=\"p\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill-opacity=\"{:.2}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    Fixed(0.15 + 0.7 * q),
                    x + CELL / 2,
                    y + CELL / 2 + 6,
                    percent(q)
                );
            }
        }
    }
    let _ = write!(
        s,
        "<rect class=\"named\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\"/></svg><figcaption data-testid=\"choice-caption\">",
        LEFT + m.cell.col * CELL,
        m.cell.row * CELL
    );
    let _ = write!(s, "Named ({}, {}). ", m.cell.row, m.cell.col);
    said(
        &mut s,
        format_args!("Row {}", m.cell.row),
        &m.row,
        m.cell.row,
    );
    said(
        &mut s,
        format_args!("Column {}, given row {}", m.cell.col, m.cell.row),
        &m.col,
        m.cell.col,
    );
    let _ = write!(
        s,
        "At the row's token {} went to other text and {} to tokens not returned; at the column's, {} and {}.</figcaption></figure>",
        percent(m.row.other),
        percent(m.row.unseen()),
        percent(m.col.other),
        percent(m.col.unseen())
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use shapemaze_core::maze::grid::Grid;
    use shapemaze_core::results::choice::{MoveChoice, NoChoice};

    fn grid() -> Grid {
        Grid::from_rows(&[
            vec![Tile::Player, Tile::Empty, Tile::Empty],
            vec![Tile::Empty, Tile::Wall, Tile::Empty],
            vec![Tile::Empty, Tile::Empty, Tile::Goal],
        ])
        .expect("a grid")
    }

    #[test]
    fn the_row_written_is_shaded_each_row_labelled_and_the_caption_says_it_all() {
        let c = Choice {
            before: grid(),
            read: Ok(MoveChoice {
                cell: Pos::new(0, 1),
                row: Spread {
                    values: vec![(0, 0.8), (1, 0.15), (7, 0.001)],
                    other: 0.02,
                },
                col: Spread {
                    values: vec![(1, 0.9), (0, 0.096), (2, 0.004)],
                    other: 0.0,
                },
            }),
        };
        let h = choice_figure(&c);
        assert!(
            h.starts_with("<h2>Where the move's probability went</h2><figure class=\"choice\" data-testid=\"choice\"><svg"),
            "{h}"
        );
        // Row 0's cells: 0.8 × 0.9, 0.8 × 0.096 and 0.8 × 0.004.
        assert!(h.contains(">72%</text>") && h.contains(">8%</text>"), "{h}");
        assert_eq!(h.matches("class=\"p\"").count(), 3, "{h}");
        // Below half a percent, escaped in the SVG as in the caption.
        assert!(h.contains(">&lt;1%</text>"), "{h}");
        // Each row's own probability, left of the maze.
        assert!(
            h.contains("text-anchor=\"end\">80%</text>")
                && h.contains("text-anchor=\"end\">15%</text>"),
            "{h}"
        );
        assert_eq!(h.matches("class=\"wall\"").count(), 1);
        assert!(h.contains("class=\"player\"") && h.contains("class=\"goal\""));
        // The named cell is outlined at column 1 of row 0.
        assert!(h.contains("<rect class=\"named\" x=\"132\" y=\"0\""), "{h}");
        assert!(
            h.contains("Named (0, 1). Row 0: 80% (others 1: 15%, 7: &lt;1%). Column 1, given row 0: 90% (others 0: 10%, 2: &lt;1%). At the row's token 2% went to other text and 3% to tokens not returned; at the column's, 0% and 0%."),
            "{h}"
        );
    }

    #[test]
    fn without_a_reading_the_reason_is_shown() {
        let c = Choice {
            before: grid(),
            read: Err(NoChoice::NoAlternatives),
        };
        assert_eq!(
            choice_figure(&c),
            format!(
                "<h2>Where the move's probability went</h2><p class=\"help\" data-testid=\"choice-none\">{}</p>",
                NoChoice::NoAlternatives.explain()
            )
        );
    }
}
