//! The report model: what a report says, built once from an analysis or an audit, and
//! written by three writers: [`text`] for a terminal, [`html`] for the results page and
//! the report file, [`csv`] for a spreadsheet. A section holds paragraphs, tables, the
//! hypothesis verdicts and charts; a table's cells keep their values typed (a rate is a
//! [`Proportion`], not its text), so each writer spells them its own way and the CSV keeps
//! every number.

pub mod csv;
pub mod html;
pub mod text;

use super::chart::Chart;
use super::contents::Part;
use shapemaze_core::analysis::groups::ReadingBounds;
use shapemaze_core::analysis::stats::Proportion;
use shapemaze_core::text::Fixed;

/// A whole report: its sections in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    /// The sections.
    pub sections: Vec<Section>,
}

impl Document {
    /// The table named `id`, wherever it stands.
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.sections
            .iter()
            .flat_map(|s| &s.blocks)
            .find_map(|b| match b {
                Block::Table(t) if t.id == id => Some(t),
                _ => None,
            })
    }
}

/// One section: a heading and what stands under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// The heading (none for an opening section).
    pub title: String,
    /// What the section says, in order.
    pub blocks: Vec<Block>,
    /// The part of the results it stands in (the contents list's entry), if the document
    /// is divided into parts; a section without one stays in the part before it.
    pub part: Option<Part>,
}

impl Section {
    /// A section headed `title` with nothing in it yet.
    pub fn new(title: String) -> Self {
        Section {
            title,
            blocks: Vec::new(),
            part: None,
        }
    }

    /// The section, standing in `part`.
    pub fn in_part(mut self, part: Part) -> Self {
        self.part = Some(part);
        self
    }

    /// Adds a block.
    pub fn block(mut self, block: Block) -> Self {
        self.blocks.push(block);
        self
    }

    /// Adds a paragraph.
    pub fn paragraph(mut self, text: impl Into<String>) -> Self {
        self.blocks.push(Block::Paragraph(text.into()));
        self
    }

    /// Adds a table.
    pub fn table(mut self, table: Table) -> Self {
        self.blocks.push(Block::Table(table));
        self
    }
}

/// A part of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A paragraph of plain text.
    Paragraph(String),
    /// A table.
    Table(Table),
    /// The hypotheses and their verdicts.
    Verdicts(Vec<Verdict>),
    /// Charts (drawn in HTML; a text writer leaves them out).
    Charts(Vec<Chart>),
    /// The overview's chart beside the verdicts as chips, each linking to its hypothesis
    /// (a text writer gives the chips as one line).
    Overview(Chart, Vec<Chip>),
}

/// A hypothesis's verdict in a word, linking to the hypothesis.
#[derive(Clone, Debug, PartialEq)]
pub struct Chip {
    /// `H1`..`H4`.
    pub key: String,
    /// What it is about, in a few words.
    pub label: String,
    /// The verdict's name: `supported`, `not_supported`, `insufficient`.
    pub verdict: String,
    /// The element id it links to.
    pub target: String,
    /// The whole statement (the chip's tooltip).
    pub statement: String,
}

/// One hypothesis and its verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// `H1`..`H4`.
    pub key: String,
    /// What the hypothesis states.
    pub statement: String,
    /// The verdict's name: `supported`, `not_supported`, `insufficient`.
    pub verdict: String,
    /// The test, its statistic, p and n, in one line.
    pub test: String,
    /// What the numbers say.
    pub note: String,
    /// A caution on the test, if any.
    pub warning: Option<String>,
}

/// A table: columns, rows and what to say when there are none.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Its name: the HTML's `data-testid="table-{id}"`.
    pub id: String,
    /// What the table shows, in one line.
    pub caption: String,
    /// The columns.
    pub columns: Vec<Column>,
    /// Headings over runs of columns (`solve` over three scorers' columns): each with how
    /// many columns it spans, from the first; empty when there are none.
    pub spans: Vec<(String, usize)>,
    /// The rows.
    pub rows: Vec<Row>,
    /// What stands in place of the rows when there are none.
    pub empty: Option<String>,
    /// A dense table: a text writer shows its rates as successes/n only, so many rate
    /// columns fit a terminal (the audit's nine), and no writer repeats the mazes count in
    /// each rate: the table has a column of them per row instead.
    pub dense: bool,
}

impl Table {
    /// A table named `id` with `caption` and these columns (each `(key, label)`).
    pub fn new(id: &str, caption: String, columns: &[(&str, &str)]) -> Self {
        Table {
            id: id.to_string(),
            caption,
            columns: columns
                .iter()
                .map(|(key, label)| Column {
                    key: key.to_string(),
                    label: label.to_string(),
                    rate: false,
                    interval: false,
                    test: false,
                    bounds: false,
                    csv_only: false,
                })
                .collect(),
            spans: Vec::new(),
            rows: Vec::new(),
            empty: None,
            dense: false,
        }
    }

    /// Declares the columns named by `keys` as columns of rates.
    pub fn rates(mut self, keys: &[&str]) -> Self {
        for c in &mut self.columns {
            c.rate |= keys.contains(&c.key.as_str());
        }
        self
    }

    /// Declares the columns named by `keys` as columns of estimates with their intervals
    /// ([`Cell::Interval`]): the CSV gives each three columns even without rows.
    pub fn intervals(mut self, keys: &[&str]) -> Self {
        for c in &mut self.columns {
            c.interval |= keys.contains(&c.key.as_str());
        }
        self
    }

    /// Declares the columns named by `keys` as columns of tests ([`Cell::Test`]): the CSV
    /// gives each three columns even without rows.
    pub fn tests(mut self, keys: &[&str]) -> Self {
        for c in &mut self.columns {
            c.test |= keys.contains(&c.key.as_str());
        }
        self
    }

    /// Declares the columns named by `keys` as columns of rates with their reading bounds
    /// ([`Cell::Bounded`]): the CSV gives each nine columns, the rate's six and `_unsure`,
    /// `_if_unsure_wrong`, `_if_unsure_right`.
    pub fn bounded(mut self, keys: &[&str]) -> Self {
        for c in &mut self.columns {
            if keys.contains(&c.key.as_str()) {
                c.rate = true;
                c.bounds = true;
            }
        }
        self
    }

    /// Declares the columns named by `keys` as the CSV's alone: a table for people (HTML,
    /// text) leaves them out, as another column already says what they hold (a row's name
    /// "oracle, matrix vs people, grid" over its model, encoding and people's condition).
    pub fn csv_only(mut self, keys: &[&str]) -> Self {
        for c in &mut self.columns {
            c.csv_only |= keys.contains(&c.key.as_str());
        }
        self
    }

    /// Adds a row of `cells`.
    pub fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(Row { cells, group: None });
    }

    /// The table as people read it: without its CSV-only columns ([`Table::csv_only`]).
    pub fn for_people(&self) -> std::borrow::Cow<'_, Table> {
        if !self.columns.iter().any(|c| c.csv_only) {
            return std::borrow::Cow::Borrowed(self);
        }
        let keep: Vec<bool> = self.columns.iter().map(|c| !c.csv_only).collect();
        let kept = |cells: &[Cell]| -> Vec<Cell> {
            cells
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| c.clone())
                .collect()
        };
        std::borrow::Cow::Owned(Table {
            columns: self
                .columns
                .iter()
                .filter(|c| !c.csv_only)
                .cloned()
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|r| Row {
                    cells: kept(&r.cells),
                    group: r.group,
                })
                .collect(),
            ..self.clone()
        })
    }
}

/// A column: a name for machines (the CSV header) and one for people.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The CSV header's name (`solve`, `api_errors`); a rate's column becomes six
    /// (`solve_successes`, `solve_n`, `solve_rate`, `solve_ci_low`, `solve_ci_high`,
    /// `solve_mazes`).
    pub key: String,
    /// The heading people read.
    pub label: String,
    /// Whether it holds rates ([`Cell::Rate`]): the CSV gives it six columns even when
    /// the table has no rows, so the header never depends on the data.
    pub rate: bool,
    /// Whether it holds estimates with intervals ([`Cell::Interval`]), likewise three.
    pub interval: bool,
    /// Whether it holds tests ([`Cell::Test`]), likewise three.
    pub test: bool,
    /// Whether its rates carry their reading bounds ([`Cell::Bounded`]; [`Table::bounded`]).
    pub bounds: bool,
    /// Whether only the CSV has it ([`Table::csv_only`]).
    pub csv_only: bool,
}

/// A row of cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// One cell per column.
    pub cells: Vec<Cell>,
    /// The row's index among the analysis's groups, when it is one: a page lists its
    /// trials (`data-action="drill"`).
    pub group: Option<usize>,
}

/// A cell's value, kept typed.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text.
    Text(String),
    /// A row's heading (the true shape of a confusion matrix's row).
    Heading(String),
    /// A count.
    Count(usize),
    /// A number shown with two decimals, or `n/a`.
    Number(Option<f64>),
    /// A success rate with its interval.
    Rate(Proportion),
    /// A success rate with its interval and its reading bounds: shown with "N unsure:
    /// L-H%" after it when some of its phases rest on an unsure reading; in CSV the rate's
    /// six numbers and three more (`_unsure`, `_if_unsure_wrong`, `_if_unsure_right`).
    Bounded(Proportion, ReadingBounds),
    /// A cell with a smaller note after it (none when the note is empty).
    Noted(Box<Cell>, String),
    /// An estimate with its 95% interval when there is one: a difference of two rates
    /// (fractions) shown in percentage points (`+25.0 [-7.7, +57.7]`), or a coefficient
    /// shown with two decimals (`0.45 [-0.06, 0.77]`); in CSV three numbers (`KEY`,
    /// `KEY_low`, `KEY_high`).
    Interval {
        /// The estimate.
        value: f64,
        /// The interval's lower end.
        low: Option<f64>,
        /// The interval's upper end.
        high: Option<f64>,
        /// Shown in signed percentage points (a difference of rates), else with two
        /// decimals.
        points: bool,
    },
    /// A statistical test's result: shown as `chi2(5) = 12.30, p = 0.010`; in CSV its name,
    /// statistic and p-value in columns of their own.
    Test(TestResult),
    /// A p-value: shown as `= 0.125` or `< 0.001`; in CSV the number.
    P(f64),
    /// Text a page can follow: a link carrying `data-` attributes (`href` is `#target`).
    Link {
        /// What it says.
        text: String,
        /// Where it goes in the page (an element id).
        target: String,
        /// Its `data-` attributes, without the prefix: `("action", "audit-cause")`.
        data: Vec<(&'static str, String)>,
    },
}

/// A test's name, statistic and p-value ([`Cell::Test`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TestResult {
    /// How the statistic is written before its value (`chi2(5)`, `F(2, 30)`, `k`,
    /// `Wilcoxon W`).
    pub statistic_name: String,
    /// The statistic, if the test has one.
    pub statistic: Option<f64>,
    /// The p-value.
    pub p: f64,
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// `cell` with `note` after it.
    pub fn noted(cell: Cell, note: impl Into<String>) -> Cell {
        Cell::Noted(Box::new(cell), note.into())
    }

    /// Whether the cell is a number, set right in a text table.
    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            Cell::Count(_) | Cell::Number(_) | Cell::Interval { .. } | Cell::Test(_) | Cell::P(_)
        )
    }
}

/// What a table holding rates clustered by maze says of them, once.
pub const CLUSTERED_NOTE: &str = "Rates: successes/trials (distinct mazes), with 95% intervals clustered by maze instance (Wilson's interval on the trials a design effect leaves).";

/// What a dense table holding rates clustered by maze says of them, once.
pub const DENSE_CLUSTERED_NOTE: &str = "Rates: successes/phases scored; the mazes column counts each row's distinct maze instances, and every rate's 95% interval (in the HTML report and the CSV tables) is clustered by them (Wilson's interval on the trials a design effect leaves).";

impl Table {
    /// [`CLUSTERED_NOTE`] ([`DENSE_CLUSTERED_NOTE`] in a dense table) when a rate of the
    /// table is clustered by maze.
    pub fn interval_note(&self) -> Option<&'static str> {
        fn clustered(c: &Cell) -> bool {
            match c {
                Cell::Rate(p) | Cell::Bounded(p, _) => p.mazes.is_some(),
                Cell::Noted(main, _) => clustered(main),
                _ => false,
            }
        }
        let any = self.rows.iter().flat_map(|r| &r.cells).any(clustered);
        let note = if self.dense {
            DENSE_CLUSTERED_NOTE
        } else {
            CLUSTERED_NOTE
        };
        any.then_some(note)
    }
}

/// What a table whose rates carry reading bounds says of them, once.
pub const BOUNDS_NOTE: &str = "N unsure: L-H% after a rate: N of its phases rest on an unsure reading; the rate would be L% if every unsure reading were wrong and H% if every one were right.";

impl Table {
    /// [`BOUNDS_NOTE`] when a rate of the table rests on an unsure reading.
    pub fn bounds_note(&self) -> Option<&'static str> {
        let any = self
            .rows
            .iter()
            .flat_map(|r| &r.cells)
            .any(|c| matches!(c, Cell::Bounded(_, b) if b.unsure > 0));
        any.then_some(BOUNDS_NOTE)
    }

    /// The notes on the table's numbers ([`Table::interval_note`], [`Table::bounds_note`]),
    /// in one line; `None` when there are none.
    pub fn notes(&self) -> Option<String> {
        let notes: Vec<&str> = [self.interval_note(), self.bounds_note()]
            .into_iter()
            .flatten()
            .collect();
        (!notes.is_empty()).then(|| notes.join(" "))
    }
}

/// The reading bounds of a rate as people read them: `3 unsure: 40.0-60.0%`; `None` when
/// no phase it counts rests on an unsure reading.
pub(crate) fn bounds_text(b: &ReadingBounds) -> Option<String> {
    (b.unsure > 0).then(|| {
        format!(
            "{} unsure: {:.1}-{:.1}%",
            b.unsure,
            Fixed(100.0 * b.if_unsure_wrong),
            Fixed(100.0 * b.if_unsure_right)
        )
    })
}

/// `k/n r% [low, high]` parts of a rate (`k/n (m mazes)` when it is clustered by maze,
/// unless `dense`: a dense table counts the mazes in a column): `None` when nothing was
/// judged.
pub(crate) fn rate_parts(p: &Proportion, dense: bool) -> Option<(String, String, String)> {
    (p.n > 0).then(|| {
        (
            match p.mazes.filter(|_| !dense) {
                Some(1) => format!("{}/{} (1 maze)", p.successes, p.n),
                Some(m) => format!("{}/{} ({m} mazes)", p.successes, p.n),
                None => format!("{}/{}", p.successes, p.n),
            },
            format!("{:.1}%", Fixed(100.0 * p.rate)),
            format!(
                "[{:.1}, {:.1}]",
                Fixed(100.0 * p.ci_low),
                Fixed(100.0 * p.ci_high)
            ),
        )
    })
}

/// A number with two decimals, or `n/a`.
pub(crate) fn two_decimals(x: Option<f64>) -> String {
    x.map_or("n/a".into(), |x| format!("{x:.2}", x = Fixed(x)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(successes: usize, n: usize) -> Proportion {
        shapemaze_core::analysis::stats::wilson(successes, n)
    }

    /// A small document with every kind of cell, hostile text and an empty table.
    fn sample() -> Document {
        let mut t = Table::new(
            "sample",
            "Cells <of every> kind".into(),
            &[
                ("name", "name"),
                ("count", "count"),
                ("mean", "mean"),
                ("solve", "solve"),
                ("failures", "failures"),
            ],
        );
        t.row(vec![
            Cell::text("=cmd()"),
            Cell::Count(12),
            Cell::Number(Some(1.234)),
            Cell::Rate(rate(3, 4)),
            Cell::noted(Cell::Count(2), "wall 2"),
        ]);
        t.row(vec![
            Cell::Heading("<b>x</b>".into()),
            Cell::Count(7),
            Cell::Number(None),
            Cell::Rate(rate(0, 0)),
            Cell::noted(Cell::text("0"), ""),
        ]);
        t.rows[1].group = Some(4);
        let mut empty = Table::new("none", "".into(), &[("a", "a")]);
        empty.empty = Some("Nothing to show.".into());
        Document {
            sections: vec![
                Section::new("".into()).paragraph("Opening & more."),
                Section {
                    title: "Verdicts".into(),
                    part: None,
                    blocks: vec![Block::Verdicts(vec![Verdict {
                        key: "H1".into(),
                        statement: "A > B".into(),
                        verdict: "not_supported".into(),
                        test: "a test: statistic 1.00, p = 0.5, n = 4".into(),
                        note: "a note".into(),
                        warning: Some("small".into()),
                    }])],
                },
                Section::new("Tables".into()).table(t).table(empty),
            ],
        }
    }

    #[test]
    fn text_sets_numbers_right_and_spells_rates_and_notes() {
        let text = text::write(&sample());
        let expected = "\
Opening & more.

Verdicts
  H1 A > B: not_supported
     a test: statistic 1.00, p = 0.5, n = 4
     a note
     Warning: small

Tables
Cells <of every> kind
name       count   mean  solve                   failures
=cmd()        12   1.23  3/4 75.0% [30.1, 95.4]  2 (wall 2)
<b>x</b>       7    n/a  n/a                     0

  Nothing to show.
";
        assert_eq!(text, expected, "\n{text}");
    }

    #[test]
    fn a_rate_with_reading_bounds_shows_them_when_unsure_and_writes_them_as_numbers() {
        let bounded = |unsure, low, high| ReadingBounds {
            unsure,
            if_unsure_wrong: low,
            if_unsure_right: high,
        };
        let mut t = Table::new("b", "Bounded".into(), &[("m", "model"), ("solve", "solve")])
            .bounded(&["solve"]);
        t.row(vec![
            Cell::text("a"),
            Cell::Bounded(rate(2, 4), bounded(2, 0.25, 0.75)),
        ]);
        t.row(vec![
            Cell::text("b"),
            Cell::Bounded(rate(1, 4), bounded(0, 0.25, 0.25)),
        ]);
        let doc = Document {
            sections: vec![Section::new("".into()).table(t.clone())],
        };
        let text = text::write(&doc);
        assert!(
            text.contains("2/4 50.0% [15.0, 85.0] (2 unsure: 25.0-75.0%)"),
            "{text}"
        );
        assert!(
            text.contains(BOUNDS_NOTE),
            "the note says what the bounds are: {text}"
        );
        assert!(
            !text.contains("0 unsure"),
            "no bounds where nothing is unsure: {text}"
        );
        let html = html::write(&doc);
        assert!(
            html.contains("<small class=\"bounds\">2 unsure: 25.0-75.0%</small>"),
            "{html}"
        );
        let csv = csv::write(&t);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("m,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,solve_mazes,solve_unsure,solve_if_unsure_wrong,solve_if_unsure_right")
        );
        assert_eq!(
            lines
                .next()
                .map(|l| l.split(',').skip(7).collect::<Vec<_>>()),
            Some(vec!["2", "0.250000", "0.750000"])
        );
        // Without rows, the same header.
        let empty =
            Table::new("b", "".into(), &[("m", "model"), ("solve", "solve")]).bounded(&["solve"]);
        assert_eq!(csv::write(&empty).lines().next(), csv.lines().next());
    }

    #[test]
    fn html_escapes_every_text_and_marks_drillable_rows() {
        let html = html::write(&sample());
        assert!(html.contains("<p>Opening &amp; more.</p>"), "{html}");
        assert!(html.contains(
            "<table data-testid=\"table-sample\"><caption>Cells &lt;of every&gt; kind</caption>"
        ));
        assert!(
            html.contains("<th>&lt;b&gt;x&lt;/b&gt;</th>"),
            "a row heading, escaped"
        );
        assert!(html.contains("<td>3/4 <b>75.0%</b> <small>[30.1, 95.4]</small></td>"));
        assert!(html.contains("<td>2 <small>wall 2</small></td><"));
        assert!(html.contains("<tr data-action=\"drill\" data-group=\"4\">"));
        assert!(html.contains("<li id=\"hypothesis-H1\" data-testid=\"hypothesis-H1\" data-verdict=\"not_supported\"><b>H1</b> A &gt; B <span class=\"verdict not_supported\">not supported</span>"));
        assert!(html.contains("<tr><td colspan=\"1\">Nothing to show.</td></tr>"));
        crate::chart::tests::well_formed(&format!("<div>{html}</div>"))
            .unwrap_or_else(|e| panic!("not well-formed: {e}\n{html}"));
    }

    #[test]
    fn a_document_in_parts_is_written_part_by_part_with_its_sections_under_each() {
        use crate::contents::Part;
        let doc = Document {
            sections: vec![
                Section::new("".into())
                    .in_part(Part::Overview)
                    .paragraph("counts"),
                Section::new("Shape effects".into())
                    .in_part(Part::Shapes)
                    .paragraph("a"),
                Section::new("Ranking".into()).paragraph("b"),
                Section::new("Data".into())
                    .in_part(Part::Trials)
                    .paragraph("c"),
            ],
        };
        let parts = html::write_parts(&doc, "");
        let present: Vec<Part> = parts.present().collect();
        assert_eq!(present, [Part::Overview, Part::Shapes, Part::Trials]);
        let body = parts.body();
        assert!(
            body.contains(
                "<h2 class=\"part-title\">Shapes</h2><h3>Shape effects</h3><p>a</p><h3>Ranking</h3><p>b</p></section>"
            ),
            "a section without a part stays in the one before: {body}"
        );
        let text = text::write(&doc);
        assert!(
            text.starts_with(
                "Overview\n========\ncounts\n\nShapes\n======\n\nShape effects\na\n\nRanking\nb\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn estimates_tests_and_p_values_are_numbers_in_csv_and_read_as_before_elsewhere() {
        let mut t = Table::new(
            "t",
            String::new(),
            &[("d", "difference"), ("x", "test"), ("p", "p")],
        );
        let test = TestResult {
            statistic_name: "chi2(5)".into(),
            statistic: Some(12.3),
            p: 0.999_999_999_999_999_1,
        };
        t.row(vec![
            Cell::Interval {
                value: 0.25,
                low: Some(-0.077),
                high: Some(0.577),
                points: true,
            },
            Cell::Test(test.clone()),
            Cell::P(0.000_012),
        ]);
        // A row without them: empty fields, as many as the columns take.
        t.row(vec![
            Cell::Number(None),
            Cell::Number(None),
            Cell::Number(None),
        ]);
        assert_eq!(
            csv::write(&t),
            "d,d_low,d_high,x_test,x_statistic,x_p,p\n\
0.250000,-0.077000,0.577000,chi2(5),12.300000,1.000000,1.2000e-5\n\
,,,,,,\n"
        );
        assert_eq!(
            text::cell(&t.rows[0].cells[0], false),
            "+25.0 [-7.7, +57.7]"
        );
        assert_eq!(
            text::cell(&Cell::Test(test), false),
            "chi2(5) = 12.30, p = 1.000"
        );
        assert_eq!(text::cell(&t.rows[0].cells[2], false), "< 0.001");
        let phi = Cell::Interval {
            value: 0.447,
            low: Some(-0.06),
            high: Some(0.77),
            points: false,
        };
        assert_eq!(text::cell(&phi, false), "0.45 [-0.06, 0.77]");
    }

    #[test]
    fn csv_keeps_every_number_and_defuses_formulas() {
        let Block::Table(t) = &sample().sections[2].blocks[0] else {
            panic!("a table")
        };
        let csv = csv::write(t);
        assert_eq!(
            csv,
            "name,count,mean,solve_successes,solve_n,solve_rate,solve_ci_low,solve_ci_high,solve_mazes,failures\n\
'=cmd(),12,1.234000,3,4,0.750000,0.300642,0.954413,,2\n\
<b>x</b>,7,,0,0,0.000000,0.000000,1.000000,,0\n"
        );
    }

    #[test]
    fn a_csv_only_column_is_in_the_csv_and_not_in_the_tables_people_read() {
        let mut t = Table::new(
            "pairs",
            "Pairs".into(),
            &[("pair", "what it pairs"), ("model", "model"), ("n", "n")],
        )
        .csv_only(&["model"]);
        t.row(vec![
            Cell::text("oracle, matrix vs people, grid"),
            Cell::text("oracle"),
            Cell::Count(3),
        ]);
        let csv = csv::write(&t);
        assert!(csv.starts_with("pair,model,n\n"), "{csv}");
        assert!(
            csv.contains("\"oracle, matrix vs people, grid\",oracle,3"),
            "{csv}"
        );
        let mut h = String::new();
        html::table(&mut h, &t);
        assert!(
            h.contains("<th scope=\"col\">what it pairs</th>") || h.contains(">what it pairs<"),
            "{h}"
        );
        assert!(!h.contains(">model<"), "{h}");
        assert!(!h.contains(">oracle<"), "{h}");
        let text = text::table(&t);
        assert!(
            text.contains("what it pairs") && !text.contains(" model "),
            "{text}"
        );
    }
}
