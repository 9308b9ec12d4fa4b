//! Text tables for the terminal: each column as wide as its widest cell, so `score` and
//! `report` line up whatever the numbers.

use std::fmt::Write as _;

/// Which side of its column a cell keeps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Left, padded after.
    Left,
    /// Right, padded before.
    Right,
}

/// A column of a [`TextTable`]: at least `min` characters wide, and wider when a cell needs
/// it (its widest cell and `gap` spaces: two after a left-set cell, one before a
/// right-set one by default). `before` is written ahead of it on every row.
#[derive(Clone, Copy, Debug)]
pub struct TextColumn {
    align: Align,
    min: usize,
    gap: usize,
    before: &'static str,
}

impl TextColumn {
    /// Cells set left, two spaces at least after them.
    pub const fn left(min: usize) -> Self {
        Self {
            align: Align::Left,
            min,
            gap: 2,
            before: "",
        }
    }

    /// Cells set right, one space at least before them.
    pub const fn right(min: usize) -> Self {
        Self {
            align: Align::Right,
            min,
            gap: 1,
            before: "",
        }
    }

    /// The least spacing the column keeps beside its widest cell.
    pub const fn gap(self, gap: usize) -> Self {
        Self { gap, ..self }
    }

    /// Text written ahead of the column on every row (a separator such as `" / "`).
    pub const fn before(self, before: &'static str) -> Self {
        Self { before, ..self }
    }
}

/// A text table laid out from its cells: each column as wide as its widest cell (header
/// rows included) needs, so no cell runs into the next; lines of free text may stand
/// between the rows. Lines end without trailing spaces.
#[derive(Clone, Debug)]
pub struct TextTable {
    columns: Vec<TextColumn>,
    rows: Vec<TextRow>,
}

/// A row of a [`TextTable`].
#[derive(Clone, Debug)]
enum TextRow {
    /// One cell per column.
    Cells(Vec<String>),
    /// A line written as it is, outside the columns.
    Line(String),
}

impl TextTable {
    /// A table with these columns and no rows.
    pub fn new(columns: &[TextColumn]) -> Self {
        Self {
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Adds a row of cells, one per column (missing ones are empty).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Self {
        self.rows
            .push(TextRow::Cells(cells.into_iter().map(Into::into).collect()));
        self
    }

    /// Adds a line of free text (a title, or an empty line between groups of rows).
    pub fn line(&mut self, text: impl Into<String>) -> &mut Self {
        self.rows.push(TextRow::Line(text.into()));
        self
    }

    /// The table, one line per row.
    pub fn render(&self) -> String {
        let len = |s: &str| s.chars().count();
        let widths: Vec<usize> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let widest = self
                    .rows
                    .iter()
                    .filter_map(|r| match r {
                        TextRow::Cells(cells) => cells.get(i),
                        TextRow::Line(_) => None,
                    })
                    .map(|s| len(s))
                    .max()
                    .unwrap_or(0);
                c.min.max(widest + c.gap)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let cells = match row {
                TextRow::Cells(cells) => cells,
                TextRow::Line(text) => {
                    let _ = writeln!(out, "{}", text.trim_end());
                    continue;
                }
            };
            let mut line = String::new();
            for (i, (c, &width)) in self.columns.iter().zip(&widths).enumerate() {
                let cell = cells.get(i).map_or("", String::as_str);
                line.push_str(c.before);
                let _ = match c.align {
                    Align::Left => write!(line, "{cell:<width$}"),
                    Align::Right => write!(line, "{cell:>width$}"),
                };
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

/// Where each cell of a rendered table line starts, in characters (the tests of every
/// table the command line prints read them back with this): cells are set apart by two
/// spaces or more (a cell may hold single spaces).
pub fn column_starts(line: &str) -> Vec<usize> {
    let chars: Vec<char> = line.chars().collect();
    (0..chars.len())
        .filter(|&i| {
            chars[i] != ' ' && (i == 0 || (i >= 2 && chars[i - 1] == ' ' && chars[i - 2] == ' '))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_table_widens_each_column_to_its_widest_cell() {
        let mut table = TextTable::new(&[
            TextColumn::left(6),
            TextColumn::right(4),
            TextColumn::left(5).before(" | "),
            TextColumn::left(0),
        ]);
        table
            .row(["name", "n", "rate", "note"])
            .line("")
            .row(["a", "1", "5704/10653 ~2526193", "x"])
            .row(["a much longer name", "123456", "1/2", "y"]);
        let text = table.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[1], "", "a free line stands as it is");
        let rows = [lines[0], lines[2], lines[3]];
        // Left-set cells start, and right-set ones end, at the same place on every row.
        let at = |cells: [&str; 3]| -> Vec<usize> {
            rows.iter()
                .zip(cells)
                .map(|(l, c)| l.find(c).expect("the cell is there"))
                .collect()
        };
        for cells in [
            [" | ", " | ", " | "],
            ["rate", "5704/", "1/2"],
            ["note", "x", "y"],
        ] {
            let at = at(cells);
            assert!(
                at.iter().all(|&a| a == at[0]),
                "{cells:?} at {at:?}\n{text}"
            );
        }
        assert_eq!(
            lines[0],
            format!("{:<20}{:>7} | {:<21}note", "name", "n", "rate"),
            "the widest cells and the gaps set the widths"
        );
        assert!(
            text.lines().all(|l| l == l.trim_end()),
            "no trailing spaces"
        );
        let narrow = TextTable::new(&[TextColumn::left(6), TextColumn::left(0)])
            .row(["a", "b"])
            .render();
        assert_eq!(
            narrow, "a     b\n",
            "the least width holds when cells are narrow"
        );
    }
}
