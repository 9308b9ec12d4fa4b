//! Charts and the report file as pure functions from numbers to text: SVG strings for the
//! page, the report file and `shapemaze report --html`, so the three never disagree.
//!
//! The charts are drawn for a projector: 16 px text and larger in a 960-unit wide view
//! box that scales; the Okabe-Ito palette (safe for the common colour-vision
//! deficiencies); and readable without colour, since every series also has its own
//! pattern or marker and dash, and every value is printed. Each chart has a `<title>`, an
//! `aria-label` and a `data-testid` beginning with `chart-`; every text is escaped.
//!
//! ```
//! use shapemaze_view::chart::{bar_chart, Bar, BarSeries};
//!
//! let svg = bar_chart("solve", "Solve success", &["qwen".to_string()], &[BarSeries {
//!     name: "matrix".into(),
//!     values: vec![Some(Bar { value: 0.5, low: 0.3, high: 0.7, n: 20 })],
//! }]);
//! assert!(svg.starts_with("<svg") && svg.contains("50%"));
//! ```

use super::html::escape;
use shapemaze_core::analysis::stats::Proportion;
use shapemaze_core::text::Fixed;
use std::fmt::Write as _;

/// One chart of a report, ready to embed.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Its id (`data-testid="chart-{id}"`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The SVG.
    pub svg: String,
}

/// The Okabe-Ito palette (Okabe & Ito 2008), black left out, in drawing order.
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
];

/// Width of every chart's view box.
const WIDTH: f64 = 960.0;

/// Text size of labels and values.
const FONT: f64 = 16.0;

/// An id made safe for attributes: lower-case letters, digits and `-`.
pub fn slug(s: &str) -> String {
    let out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if out.is_empty() {
        "chart".into()
    } else {
        out
    }
}

/// One bar: a rate with its interval and the count behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// The rate, 0 to 1.
    pub value: f64,
    /// Lower end of its interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Observations behind it.
    pub n: usize,
}

impl From<&Proportion> for Bar {
    fn from(p: &Proportion) -> Bar {
        Bar {
            value: p.rate,
            low: p.ci_low,
            high: p.ci_high,
            n: p.n,
        }
    }
}

/// One series of a grouped bar chart: a value (or nothing) per category.
#[derive(Clone, Debug, PartialEq)]
pub struct BarSeries {
    /// The series' name (legend).
    pub name: String,
    /// One value per category; `None` draws "n/a".
    pub values: Vec<Option<Bar>>,
}

pub(crate) fn open_svg(id: &str, title: &str, height: f64, desc: &str) -> String {
    open_sized(id, title, (WIDTH, height), desc, (FONT, 20.0, 16.0, 28.0))
}

/// An SVG's opening: its view box `width` x `height`, title, description and white
/// ground, with `font` = (text size, title size, title x, title baseline).
fn open_sized(
    id: &str,
    title: &str,
    (width, height): (f64, f64),
    desc: &str,
    font: (f64, f64, f64, f64),
) -> String {
    let id = slug(id);
    let (size, title_size, tx, ty) = font;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:#.1} {height:#.1}\" width=\"100%\" role=\"img\" data-testid=\"chart-{id}\" aria-label=\"{t}\" font-family=\"system-ui, sans-serif\" font-size=\"{size:#.1}\"><title>{t}</title><desc>{d}</desc><rect width=\"{width:#.1}\" height=\"{height:#.1}\" fill=\"#ffffff\"/><text x=\"{tx:#.1}\" y=\"{ty:#.1}\" font-size=\"{title_size:#.1}\" font-weight=\"bold\">{t}</text>",
        t = escape(title),
        d = escape(desc), width = Fixed(width), height = Fixed(height), size = Fixed(size),
        title_size = Fixed(title_size), tx = Fixed(tx), ty = Fixed(ty),
    )
}

/// Pattern definitions: series 0 solid, then diagonal hatching, dots, cross-hatching,
/// horizontal and vertical lines, so the series differ without colour.
fn patterns(prefix: &str, count: usize) -> String {
    let mut s = String::from("<defs>");
    for i in 0..count {
        let colour = PALETTE[i % PALETTE.len()];
        let mark = match i % 6 {
            0 => String::new(),
            1 => "<path d=\"M0 8 L8 0\" stroke=\"#000\" stroke-width=\"1.5\"/>".into(),
            2 => "<circle cx=\"4\" cy=\"4\" r=\"1.6\" fill=\"#000\"/>".into(),
            3 => "<path d=\"M0 8 L8 0 M0 0 L8 8\" stroke=\"#000\" stroke-width=\"1.2\"/>".into(),
            4 => "<path d=\"M0 4 L8 4\" stroke=\"#000\" stroke-width=\"1.5\"/>".into(),
            _ => "<path d=\"M4 0 L4 8\" stroke=\"#000\" stroke-width=\"1.5\"/>".into(),
        };
        let _ = write!(
            s,
            "<pattern id=\"{prefix}-p{i}\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><rect width=\"8\" height=\"8\" fill=\"{colour}\"/>{mark}</pattern>"
        );
    }
    s.push_str("</defs>");
    s
}

pub(crate) fn percent(x: f64) -> String {
    format!("{:.0}%", Fixed(100.0 * x))
}

/// The y axis of a 0-100% chart: grid lines every 25%.
fn y_axis(s: &mut String, left: f64, right: f64, top: f64, bottom: f64) {
    for k in 0..=4 {
        let v = k as f64 / 4.0;
        let y = bottom - v * (bottom - top);
        let _ = write!(
            s,
            "<line x1=\"{left:#.1}\" x2=\"{right:#.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#bbbbbb\" stroke-width=\"1\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            Fixed(left - 8.0),
            Fixed(y + 5.0),
            percent(v), y = Fixed(y), left = Fixed(left), right = Fixed(right)
        );
    }
}

/// A legend of swatches (patterns) or markers at the top right.
fn legend(s: &mut String, prefix: &str, names: &[String], swatch: bool) {
    let mut x = 16.0;
    let y = 52.0;
    for (i, name) in names.iter().enumerate() {
        if swatch {
            let _ = write!(
                s,
                "<rect x=\"{x:#.1}\" y=\"{:.1}\" width=\"22\" height=\"16\" fill=\"url(#{prefix}-p{i})\" stroke=\"#000\"/>",
                Fixed(y - 13.0), x = Fixed(x)
            );
        } else {
            marker(s, i, x + 11.0, y - 5.0);
        }
        let label = escape(name);
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{y:#.1}\">{label}</text>",
            Fixed(x + 28.0),
            y = Fixed(y)
        );
        x += 44.0 + 9.0 * name.chars().count() as f64;
    }
}

/// A horizontal stacked bar chart of counts: one row per category, one segment per
/// series (the patterns of [`bar_chart`]), each row's total printed at its end.
/// `counts[c][i]` is category `c`'s count in series `i`. `id` becomes
/// `data-testid="chart-{id}"`.
pub fn count_chart(
    id: &str,
    title: &str,
    categories: &[String],
    series: &[String],
    counts: &[Vec<usize>],
) -> String {
    let prefix = format!("c-{}", slug(id));
    let row = 30.0;
    let (top, label_w) = (80.0, 340.0);
    let height = top + row * categories.len().max(1) as f64 + 40.0;
    let (left, right) = (16.0 + label_w, WIDTH - 70.0);
    let desc = format!(
        "Counts of {} by {}.",
        categories.join(", "),
        series.join(", ")
    );
    let mut s = open_svg(id, title, height, &desc);
    s.push_str(&patterns(&prefix, series.len()));
    let max = counts
        .iter()
        .map(|c| c.iter().sum::<usize>())
        .max()
        .unwrap_or(0);
    if categories.is_empty() || max == 0 {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">None</text></svg>",
            Fixed(WIDTH / 2.0),
            Fixed(height / 2.0)
        );
        return s;
    }
    legend(&mut s, &prefix, series, true);
    let scale = (right - left) / max as f64;
    for (c, cat) in categories.iter().enumerate() {
        let y = top + row * c as f64;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            Fixed(left - 8.0),
            Fixed(y + row * 0.65),
            escape(cat)
        );
        let mut x = left;
        let row_counts = counts.get(c).map_or(&[][..], Vec::as_slice);
        for (i, &n) in row_counts.iter().enumerate().filter(|(_, n)| **n > 0) {
            let w = n as f64 * scale;
            let name = series.get(i).map_or("", String::as_str);
            let _ = write!(
                s,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"url(#{prefix}-p{i})\" stroke=\"#000\"><title>{}, {}: {n}</title></rect>",
                Fixed(y + 4.0),
                Fixed(row - 8.0),
                escape(cat),
                escape(name), x = Fixed(x), w = Fixed(w)
            );
            x += w;
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-weight=\"bold\">{}</text>",
            Fixed(x + 6.0),
            Fixed(y + row * 0.65),
            row_counts.iter().sum::<usize>()
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{left:#.1}\" x2=\"{left:#.1}\" y1=\"{top:#.1}\" y2=\"{:.1}\" stroke=\"#000\" stroke-width=\"1.5\"/></svg>",
        Fixed(top + row * categories.len() as f64), left = Fixed(left), top = Fixed(top)
    );
    s
}

/// A grouped bar chart of rates (0-100%) with 95% interval whiskers; each bar's value and
/// count printed above it. `id` becomes `data-testid="chart-{id}"`.
pub fn bar_chart(id: &str, title: &str, categories: &[String], series: &[BarSeries]) -> String {
    let prefix = format!("c-{}", slug(id));
    let height = 460.0;
    let (left, right, top, bottom) = (72.0, WIDTH - 16.0, 90.0, height - 70.0);
    let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    let desc = format!(
        "Bars: {} for {}; whiskers are 95% intervals, clustered by maze instance.",
        names.join(", "),
        categories.join(", ")
    );
    let mut s = open_svg(id, title, height, &desc);
    s.push_str(&patterns(&prefix, series.len()));
    if categories.is_empty() || series.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No data</text></svg>",
            Fixed(WIDTH / 2.0),
            Fixed(height / 2.0)
        );
        return s;
    }
    legend(&mut s, &prefix, &names, true);
    y_axis(&mut s, left, right, top, bottom);
    let band = (right - left) / categories.len() as f64;
    let bar_w = (band * 0.8 / series.len() as f64).min(90.0);
    let scale = |v: f64| bottom - v.clamp(0.0, 1.0) * (bottom - top);
    for (c, cat) in categories.iter().enumerate() {
        let x0 = left + band * c as f64 + (band - bar_w * series.len() as f64) / 2.0;
        for (i, ser) in series.iter().enumerate() {
            let x = x0 + bar_w * i as f64;
            let mid = x + bar_w / 2.0;
            let label = format!("{} {}: ", escape(&ser.name), escape(cat));
            match ser.values.get(c).copied().flatten() {
                Some(b) if b.n > 0 => {
                    let y = scale(b.value);
                    let _ = write!(
                        s,
                        "<g><title>{label}{} of {} (95% CI {} to {})</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"url(#{prefix}-p{i})\" stroke=\"#000\" stroke-width=\"1\"/>",
                        percent(b.value),
                        b.n,
                        percent(b.low),
                        percent(b.high),
                        Fixed((bar_w - 4.0).max(1.0)),
                        Fixed((bottom - y).max(0.0)), x = Fixed(x), y = Fixed(y)
                    );
                    let (yl, yh) = (scale(b.low), scale(b.high));
                    let _ = write!(
                        s,
                        "<path d=\"M{mid:.1} {yl:.1} L{mid:.1} {yh:.1} M{:.1} {yl:.1} L{:.1} {yl:.1} M{:.1} {yh:.1} L{:.1} {yh:.1}\" stroke=\"#000\" stroke-width=\"2\" fill=\"none\"/><text x=\"{mid:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text></g>",
                        Fixed(mid - 6.0),
                        Fixed(mid + 6.0),
                        Fixed(mid - 6.0),
                        Fixed(mid + 6.0),
                        Fixed(yh - 6.0),
                        percent(b.value), mid = Fixed(mid), yl = Fixed(yl), yh = Fixed(yh)
                    );
                }
                _ => {
                    let _ = write!(
                        s,
                        "<text x=\"{mid:.1}\" y=\"{:.1}\" text-anchor=\"middle\"><title>{label}no data</title>n/a</text>",
                        Fixed(bottom - 6.0), mid = Fixed(mid)
                    );
                }
            }
        }
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            Fixed(left + band * (c as f64 + 0.5)),
            Fixed(bottom + 24.0),
            escape(cat)
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{left:#.1}\" x2=\"{right:#.1}\" y1=\"{bottom:#.1}\" y2=\"{bottom:#.1}\" stroke=\"#000\" stroke-width=\"1.5\"/></svg>", left = Fixed(left), right = Fixed(right), bottom = Fixed(bottom)
    );
    s
}

/// A compact grid of rates for a first look, narrow enough to read on a phone: one row
/// per category (a model), its name on a line of its own, and under it one 0-100% track
/// per column (a phase) holding the rate as a bar, its 95% whisker and its value. The
/// columns are told apart by their headings, not by colour alone. `rows` holds each
/// category's name and one value per column; `None` (or nothing judged) prints `n/a`.
pub fn phase_grid(
    id: &str,
    title: &str,
    columns: &[String],
    rows: &[(String, Vec<Option<Bar>>)],
) -> String {
    const W: f64 = 400.0;
    const ROW: f64 = 46.0;
    const TOP: f64 = 70.0;
    const TRACK: f64 = 82.0;
    let step = (W - 6.0) / columns.len().max(1) as f64;
    let height = TOP + ROW * rows.len().max(1) as f64 - 14.0;
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let desc = format!(
        "Success rates of {} in {}; whiskers are 95% intervals, clustered by maze instance.",
        names.join(", "),
        columns.join(", ")
    );
    let mut s = open_sized(id, title, (W, height), &desc, (15.0, 16.0, 6.0, 20.0));
    if rows.is_empty() || columns.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No data</text></svg>",
            Fixed(W / 2.0),
            Fixed(TOP)
        );
        return s;
    }
    let x0 = |j: usize| 6.0 + step * j as f64;
    for (j, c) in columns.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"44\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            Fixed(x0(j) + TRACK / 2.0),
            escape(c)
        );
    }
    for (k, (name, values)) in rows.iter().enumerate() {
        let y = TOP + ROW * k as f64;
        let shown: String = match name.chars().count() {
            n if n > 40 => name.chars().take(39).chain(['…']).collect(),
            _ => name.clone(),
        };
        let _ = write!(
            s,
            "<text x=\"6\" y=\"{:.1}\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            Fixed(y),
            escape(&shown)
        );
        for (j, c) in columns.iter().enumerate() {
            let (left, top) = (x0(j), y + 6.0);
            let _ = write!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{TRACK:#.1}\" height=\"14\" fill=\"#eef1f6\" stroke=\"#8a93a6\"/>",
                Fixed(left),
                Fixed(top),
                TRACK = Fixed(TRACK)
            );
            let value = match values.get(j).copied().flatten().filter(|b| b.n > 0) {
                Some(b) => {
                    let at = |v: f64| left + TRACK * v.clamp(0.0, 1.0);
                    let (lo, hi, mid) = (at(b.low), at(b.high), top + 7.0);
                    let _ = write!(
                        s,
                        "<g><title>{} {}: {} of {} (95% CI {} to {})</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"14\" fill=\"{}\"/><path d=\"M{lo:.1} {mid:.1} L{hi:.1} {mid:.1} M{lo:.1} {:.1} L{lo:.1} {:.1} M{hi:.1} {:.1} L{hi:.1} {:.1}\" stroke=\"#000\" stroke-width=\"2\" fill=\"none\"/></g>",
                        escape(name),
                        escape(c),
                        percent(b.value),
                        b.n,
                        percent(b.low),
                        percent(b.high),
                        Fixed(left),
                        Fixed(top),
                        Fixed(at(b.value) - left),
                        PALETTE[j % PALETTE.len()],
                        Fixed(mid - 5.0),
                        Fixed(mid + 5.0),
                        Fixed(mid - 5.0),
                        Fixed(mid + 5.0),
                        lo = Fixed(lo),
                        hi = Fixed(hi),
                        mid = Fixed(mid)
                    );
                    percent(b.value)
                }
                None => "n/a".to_string(),
            };
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-weight=\"bold\">{value}</text>",
                Fixed(left + TRACK + 4.0),
                Fixed(top + 12.0)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// A heatmap of counts (e.g. the confusion matrix: true shape x named shape). Each cell is
/// shaded by its share of its row (darker = more) and prints its count.
pub fn heatmap(
    id: &str,
    title: &str,
    row_title: &str,
    col_title: &str,
    rows: &[String],
    cols: &[String],
    counts: &[Vec<usize>],
) -> String {
    let cell = 64.0;
    let (left, top) = (150.0, 110.0);
    let height = top + cell * rows.len().max(1) as f64 + 40.0;
    let desc = format!("Rows: {row_title}; columns: {col_title}; each cell prints its count.");
    let mut s = open_svg(id, title, height, &desc);
    if rows.is_empty() || cols.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No data</text></svg>",
            Fixed(WIDTH / 2.0),
            Fixed(height / 2.0)
        );
        return s;
    }
    let _ = write!(
        s,
        "<text x=\"{left:#.1}\" y=\"58\" font-style=\"italic\">{} (columns) by {} (rows); shade = share of the row</text>",
        escape(col_title),
        escape(row_title), left = Fixed(left)
    );
    for (j, c) in cols.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            Fixed(left + cell * (j as f64 + 0.5)),
            Fixed(top - 12.0),
            escape(c)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + cell * i as f64;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-weight=\"bold\">{}</text>",
            Fixed(left - 10.0),
            Fixed(y + cell / 2.0 + 6.0),
            escape(r)
        );
        let row = counts.get(i).cloned().unwrap_or_default();
        let total: usize = row.iter().sum();
        for (j, col) in cols.iter().enumerate() {
            let n = row.get(j).copied().unwrap_or(0);
            let share = if total == 0 {
                0.0
            } else {
                n as f64 / total as f64
            };
            // From white to the palette's blue (#0072B2).
            let mix = |to: f64| (255.0 + (to - 255.0) * share).round() as u8;
            let fill = format!("#{:02x}{:02x}{:02x}", mix(0.0), mix(114.0), mix(178.0));
            let ink = if share > 0.5 { "#ffffff" } else { "#000000" };
            let x = left + cell * j as f64;
            let _ = write!(
                s,
                "<g><title>{}, {}: {n} of {total}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{cell:#.1}\" height=\"{cell:#.1}\" fill=\"{fill}\" stroke=\"#666666\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{ink}\" font-weight=\"bold\">{n}</text></g>",
                escape(r),
                escape(col),
                Fixed(x + cell / 2.0),
                Fixed(y + cell / 2.0 + 6.0), x = Fixed(x), y = Fixed(y), cell = Fixed(cell)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// One line of a line chart: a point (or nothing) per x position.
#[derive(Clone, Debug, PartialEq)]
pub struct LineSeries {
    /// The series' name (legend and direct label).
    pub name: String,
    /// One point per x label; `None` leaves a gap.
    pub points: Vec<Option<Bar>>,
}

/// Marker `i`: circle, square, triangle, diamond, cross, then round again.
fn marker(s: &mut String, i: usize, x: f64, y: f64) {
    let colour = PALETTE[i % PALETTE.len()];
    let _ = match i % 5 {
        0 => write!(s, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"7\" fill=\"{colour}\" stroke=\"#000\"/>", x = Fixed(x), y = Fixed(y)),
        1 => write!(s, "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"13\" height=\"13\" fill=\"{colour}\" stroke=\"#000\"/>", Fixed(x - 6.5), Fixed(y - 6.5)),
        2 => write!(s, "<path d=\"M{x:.1} {:.1} L{:.1} {:.1} L{:.1} {:.1} Z\" fill=\"{colour}\" stroke=\"#000\"/>", Fixed(y - 8.0), Fixed(x + 8.0), Fixed(y + 6.0), Fixed(x - 8.0), Fixed(y + 6.0), x = Fixed(x)),
        3 => write!(s, "<path d=\"M{x:.1} {:.1} L{:.1} {y:.1} L{x:.1} {:.1} L{:.1} {y:.1} Z\" fill=\"{colour}\" stroke=\"#000\"/>", Fixed(y - 8.0), Fixed(x + 8.0), Fixed(y + 8.0), Fixed(x - 8.0), x = Fixed(x), y = Fixed(y)),
        _ => write!(s, "<path d=\"M{:.1} {:.1} L{:.1} {:.1} M{:.1} {:.1} L{:.1} {:.1}\" stroke=\"{colour}\" stroke-width=\"4\"/>", Fixed(x - 7.0), Fixed(y - 7.0), Fixed(x + 7.0), Fixed(y + 7.0), Fixed(x - 7.0), Fixed(y + 7.0), Fixed(x + 7.0), Fixed(y - 7.0)),
    };
}

/// Baselines for labels stacked in one column, `gap` apart at least: each label as near
/// its `wanted` baseline as it can be (a run of colliding labels is centred on the mean
/// of what its members want), the order of `wanted` kept (ties in input order), and all
/// within `[low, high]` when they fit there; when they do not, the gap wins and the
/// column starts at `low`. Returns one baseline per input, in input order.
fn spread(wanted: &[f64], gap: f64, low: f64, high: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    shapemaze_core::sort::sort_by(&mut order, |&a, &b| wanted[a].total_cmp(&wanted[b]));
    // Runs of labels packed `gap` apart: (first baseline, members, sum of wanted - k*gap).
    let mut runs: Vec<(f64, usize, f64)> = Vec::new();
    let place = |members: usize, sum: f64| {
        let start = sum / members as f64;
        let last = (high - gap * (members as f64 - 1.0)).max(low);
        // As `clamp` (low <= last), without its panic message's float formatting.
        start.min(last).max(low)
    };
    for &i in &order {
        let mut run = (0.0, 1, wanted[i]);
        run.0 = place(run.1, run.2);
        while let Some(&prev) = runs.last() {
            if prev.0 + gap * prev.1 as f64 <= run.0 {
                break;
            }
            runs.pop();
            let members = prev.1 + run.1;
            // The newer run's members sit `prev.1` places further down.
            let sum = prev.2 + run.2 - gap * prev.1 as f64 * run.1 as f64;
            run = (place(members, sum), members, sum);
        }
        runs.push(run);
    }
    let mut out = vec![0.0; wanted.len()];
    let mut k = 0;
    for (start, members, _) in runs {
        for m in 0..members {
            out[order[k]] = start + gap * m as f64;
            k += 1;
        }
    }
    out
}

/// Estimated width of `text` at `size`: 0.6 em a character (bold: 0.65 em), enough for
/// digits and most Latin text in system-ui.
fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    text.chars().count() as f64 * size * if bold { 0.65 } else { 0.6 }
}

/// A line chart of rates (0-100%) across ordered x positions (e.g. the three phases per
/// model), with 95% whiskers, a distinct marker and dash per series, and each line
/// labelled at its end. Labels never overprint: at each x the values are printed in one
/// column, equal ones once, and stacked apart where they would touch ([`spread`]); the
/// lines' names are stacked likewise in a column of their own, and the chart grows taller
/// when many series need the room.
pub fn line_chart(id: &str, title: &str, x_labels: &[String], series: &[LineSeries]) -> String {
    /// Size of the value labels.
    const VALUE_FONT: f64 = 14.0;
    /// Baseline distance of stacked value labels and of stacked names.
    const VALUE_GAP: f64 = VALUE_FONT + 2.0;
    const NAME_GAP: f64 = FONT + 4.0;
    let span = (NAME_GAP * series.len() as f64).max(300.0);
    let (top, right) = (90.0, WIDTH - 200.0);
    let (left, bottom) = (72.0, top + span);
    let height = bottom + 70.0;
    let names: Vec<String> = series.iter().map(|s| s.name.clone()).collect();
    let desc = format!(
        "Lines: {} across {}; whiskers are 95% intervals, clustered by maze instance.",
        names.join(", "),
        x_labels.join(", ")
    );
    let mut s = open_svg(id, title, height, &desc);
    if x_labels.is_empty() || series.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">No data</text></svg>",
            Fixed(WIDTH / 2.0),
            Fixed(height / 2.0)
        );
        return s;
    }
    legend(&mut s, "", &names, false);
    y_axis(&mut s, left, right, top, bottom);
    let step = (right - left) / x_labels.len() as f64;
    let xpos = |j: usize| left + step * (j as f64 + 0.5);
    let scale = |v: f64| bottom - v.clamp(0.0, 1.0) * (bottom - top);
    for (j, l) in x_labels.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            Fixed(xpos(j)),
            Fixed(bottom + 24.0),
            escape(l)
        );
    }
    const DASHES: [&str; 4] = ["none", "10 5", "3 4", "12 4 3 4"];
    // Offset each series a little so whiskers do not overlap.
    let dx = |i: usize| (i as f64 - (series.len() as f64 - 1.0) / 2.0) * 6.0;
    let label_dx = dx(series.len() - 1) + 10.0;
    // Value labels per x position, and each series' last point: (value, text).
    let mut columns: Vec<Vec<(f64, String)>> = vec![Vec::new(); x_labels.len()];
    let mut ends: Vec<(f64, &str)> = Vec::new();
    for (i, ser) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let pts: Vec<(usize, Bar)> = ser
            .points
            .iter()
            .enumerate()
            .take(x_labels.len())
            .filter_map(|(j, p)| p.filter(|b| b.n > 0).map(|b| (j, b)))
            .collect();
        let d: Vec<String> = pts
            .iter()
            .enumerate()
            .map(|(k, (j, b))| {
                format!(
                    "{}{:.1} {:.1}",
                    if k == 0 { "M" } else { "L" },
                    Fixed(xpos(*j) + dx(i)),
                    Fixed(scale(b.value))
                )
            })
            .collect();
        let _ = write!(
            s,
            "<g><title>{}</title><path d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"{}\"/>",
            escape(&ser.name),
            d.join(" "),
            DASHES[i % DASHES.len()]
        );
        for (j, b) in &pts {
            let (x, yl, yh) = (xpos(*j) + dx(i), scale(b.low), scale(b.high));
            let _ = write!(
                s,
                "<path d=\"M{x:.1} {yl:.1} L{x:.1} {yh:.1}\" stroke=\"#000\" stroke-width=\"1.5\"/>", x = Fixed(x), yl = Fixed(yl), yh = Fixed(yh)
            );
            marker(&mut s, i, x, scale(b.value));
            columns[*j].push((b.value, percent(b.value)));
        }
        if let Some((_, b)) = pts.last() {
            ends.push((b.value, &ser.name));
        }
        s.push_str("</g>");
    }
    for (j, mut labels) in columns.into_iter().enumerate() {
        // Highest value first; equal texts (neighbours, as rounding keeps the order) once.
        shapemaze_core::sort::sort_by(&mut labels, |a, b| b.0.total_cmp(&a.0));
        labels.dedup_by(|a, b| a.1 == b.1);
        let wanted: Vec<f64> = labels.iter().map(|(v, _)| scale(*v) - 8.0).collect();
        let ys = spread(&wanted, VALUE_GAP, top - 14.0, bottom);
        for ((_, text), y) in labels.iter().zip(ys) {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{y:.1}\" font-size=\"{VALUE_FONT:#.1}\">{text}</text>",
                Fixed(xpos(j) + label_dx),
                y = Fixed(y),
                VALUE_FONT = Fixed(VALUE_FONT)
            );
        }
    }
    let wanted: Vec<f64> = ends.iter().map(|(v, _)| scale(*v) + 5.0).collect();
    let ys = spread(&wanted, NAME_GAP, top, bottom + 5.0);
    let name_x = xpos(x_labels.len() - 1) + label_dx + text_width("100%", VALUE_FONT, false) + 12.0;
    for ((_, name), y) in ends.iter().zip(ys) {
        let _ = write!(
            s,
            "<text x=\"{name_x:.1}\" y=\"{y:.1}\" font-weight=\"bold\" fill=\"#000\">{}</text>",
            escape(name),
            name_x = Fixed(name_x),
            y = Fixed(y)
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use shapemaze_core::analysis::analyze::{analyze, Analysis, AnalysisOptions};
    use shapemaze_core::analysis::observation::{Observation, PlayedBy, PHASE_NAMES};
    use shapemaze_core::maze::encoding::Encoding;
    use shapemaze_core::maze::shape::Shape;
    use shapemaze_core::verify::Outcome;

    /// A tiny well-formedness check: tags balance, attributes are quoted, and `&` only
    /// starts an entity. Returns the number of elements.
    pub(crate) fn well_formed(doc: &str) -> Result<usize, String> {
        let body = doc.strip_prefix("<!DOCTYPE html>\n").unwrap_or(doc);
        let mut stack: Vec<String> = Vec::new();
        let mut elements = 0;
        let mut rest = body;
        while let Some(start) = rest.find('<') {
            let text = &rest[..start];
            check_text(text)?;
            let end = rest[start..].find('>').ok_or("unclosed tag")? + start;
            let tag = &rest[start + 1..end];
            if let Some(name) = tag.strip_prefix('/') {
                let open = stack.pop().ok_or(format!("</{name}> closes nothing"))?;
                if open != name {
                    return Err(format!("<{open}> closed by </{name}>"));
                }
            } else {
                let name: String = tag
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '/')
                    .collect();
                if !tag.matches('"').count().is_multiple_of(2) {
                    return Err(format!("unbalanced quotes in <{tag}>"));
                }
                elements += 1;
                if !tag.ends_with('/') {
                    stack.push(name);
                }
            }
            rest = &rest[end + 1..];
        }
        check_text(rest)?;
        if stack.is_empty() {
            Ok(elements)
        } else {
            Err(format!("unclosed: {stack:?}"))
        }
    }

    fn check_text(text: &str) -> Result<(), String> {
        if text.contains('>') {
            return Err(format!("a bare > in text: {text}"));
        }
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                .iter()
                .any(|e| entity.starts_with(e))
            {
                return Err(format!("a bare & in text: {entity}"));
            }
        }
        Ok(())
    }

    pub(crate) fn sample_analysis(model: &str) -> (Analysis, Vec<Observation>) {
        let v = sample_observations("exp <1>", model);
        (analyze(&v, &AnalysisOptions::default()), v)
    }

    pub(crate) fn sample_observations(experiment: &str, model: &str) -> Vec<Observation> {
        let mut v = Vec::new();
        for (k, s) in Shape::ALL.iter().enumerate() {
            for i in 0..8 {
                for e in Encoding::ALL {
                    let ok = [i < 6, i + k < 7, i % 3 == 0];
                    v.push(Observation {
                        experiment: experiment.into(),
                        model: model.into(),
                        answer_mode: shapemaze_core::play::answer::AnswerMode::Free,
                        mode: "free".into(),
                        forms: None,
                        transcription: None,
                        transcription_cost: None,
                        encoding: e,
                        shape: *s,
                        size: 5,
                        seed: 0,
                        sample: i,
                        repeat: 0,
                        outcomes: ok
                            .map(|x| Some(if x { Outcome::Success } else { Outcome::Fail })),
                        reasons: [None; 3],
                        moves: Some(5),
                        valid_moves: Some(5),
                        shortest_path: Some(4),
                        predicted: Some(ok[1].then_some(*s)),
                        checks: None,
                        empty: Vec::new(),
                        trace: None,
                        tokens: None,
                        cost: None,
                        retried: false,
                        retried_moves: 0,
                        staircase: None,
                        who: PlayedBy::Model,
                        condition: None,
                        shape_shown: false,
                        solve_ms: None,
                        solve_tokens: None,
                        doubts: Default::default(),
                    });
                }
            }
        }
        v
    }

    #[test]
    fn bars_print_their_values_and_missing_ones_say_n_a() {
        let svg = bar_chart(
            "b",
            "t",
            &["a".into(), "b".into()],
            &[BarSeries {
                name: "s".into(),
                values: vec![
                    Some(Bar {
                        value: 0.25,
                        low: 0.1,
                        high: 0.4,
                        n: 8,
                    }),
                    None,
                ],
            }],
        );
        assert!(svg.contains(">25%<"), "the value is printed");
        assert!(svg.contains(">n/a<"), "a missing value says n/a");
    }

    #[test]
    fn the_heatmap_prints_every_count() {
        let svg = heatmap(
            "h",
            "t",
            "r",
            "c",
            &["x".into(), "y".into()],
            &["p".into(), "q".into()],
            &[vec![3, 1], vec![0, 7]],
        );
        for n in [">3<", ">1<", ">0<", ">7<"] {
            assert!(svg.contains(n), "count {n} printed");
        }
        well_formed(&svg).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn spread_leaves_labels_that_do_not_touch_where_they_are() {
        assert_eq!(
            spread(&[100.0, 50.0, 200.0], 16.0, 0.0, 300.0),
            vec![100.0, 50.0, 200.0]
        );
        assert_eq!(spread(&[], 16.0, 0.0, 300.0), Vec::<f64>::new());
    }

    #[test]
    fn spread_centres_equal_labels_on_their_place_in_input_order() {
        assert_eq!(spread(&[100.0, 100.0], 16.0, 0.0, 300.0), vec![92.0, 108.0]);
        assert_eq!(
            spread(&[100.0, 100.0, 100.0], 10.0, 0.0, 300.0),
            vec![90.0, 100.0, 110.0]
        );
        // Close but not equal: pushed apart around their mean, order kept.
        assert_eq!(spread(&[104.0, 100.0], 16.0, 0.0, 300.0), vec![110.0, 94.0]);
    }

    #[test]
    fn spread_merges_runs_that_grow_into_each_other() {
        // 0 and 4 part to -3 and 7, which now comes too near 14 (4 did not): the three
        // then sit a gap apart, as near as they can be to where they want to be.
        let ys = spread(&[4.0, 0.0, 14.0, 100.0], 10.0, -100.0, 300.0);
        assert_eq!(ys, vec![6.0, -4.0, 16.0, 100.0]);
    }

    #[test]
    fn spread_keeps_labels_inside_their_bounds_and_the_gap_first() {
        assert_eq!(spread(&[0.0, 0.0], 16.0, 10.0, 300.0), vec![10.0, 26.0]);
        assert_eq!(
            spread(&[300.0, 300.0], 16.0, 0.0, 300.0),
            vec![284.0, 300.0]
        );
        // No room for all: the gap holds and the column starts at the low end.
        assert_eq!(
            spread(&[5.0, 5.0, 5.0], 10.0, 0.0, 15.0),
            vec![0.0, 10.0, 20.0]
        );
    }

    #[test]
    fn spread_never_leaves_two_labels_closer_than_the_gap() {
        let wanted: Vec<f64> = (0..40).map(|k| ((k * 37) % 23) as f64 * 7.0).collect();
        let ys = spread(&wanted, 16.0, 0.0, 700.0);
        let mut sorted = ys.clone();
        sorted.sort_by(f64::total_cmp);
        for w in sorted.windows(2) {
            assert!(w[1] - w[0] >= 16.0 - 1e-9, "{ys:?}");
        }
        assert!(ys.iter().all(|y| (0.0..=700.0).contains(y)), "{ys:?}");
    }

    /// The estimated boxes (left, top, right, bottom) of an SVG's text elements, with
    /// their text: the baseline at `y`, the box one font size high (0.8 above the
    /// baseline), and as wide as [`text_width`] says, placed by `text-anchor`.
    fn text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
        let attr = |tag: &str, name: &str| -> Option<String> {
            let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            let len = tag[start..].find('"')?;
            Some(tag[start..start + len].to_string())
        };
        let mut out = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find("<text ") {
            let tag_end = rest[start..].find('>').expect("a closed tag") + start;
            let tag = &rest[start..tag_end];
            let end = rest[tag_end..].find("</text>").expect("a closed text") + tag_end;
            let text = rest[tag_end + 1..end].to_string();
            let num = |name: &str| attr(tag, name).and_then(|v| v.parse::<f64>().ok());
            let (x, y) = (num("x").expect("x"), num("y").expect("y"));
            let size = num("font-size").unwrap_or(FONT);
            let bold = attr(tag, "font-weight").is_some_and(|w| w == "bold");
            let width = text_width(&text, size, bold);
            let left = match attr(tag, "text-anchor").as_deref() {
                Some("middle") => x - width / 2.0,
                Some("end") => x - width,
                _ => x,
            };
            out.push((text, [left, y - 0.8 * size, left + width, y + 0.2 * size]));
            rest = &rest[end..];
        }
        out
    }

    pub(crate) fn assert_no_text_overlaps(svg: &str) {
        let boxes = text_boxes(svg);
        for (i, (ta, a)) in boxes.iter().enumerate() {
            for (tb, b) in &boxes[i + 1..] {
                let overlap = a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
                assert!(!overlap, "{ta:?} at {a:?} overlaps {tb:?} at {b:?}");
            }
        }
    }

    fn point(value: f64) -> Option<Bar> {
        Some(Bar {
            value,
            low: (value - 0.1).max(0.0),
            high: (value + 0.1).min(1.0),
            n: 8,
        })
    }

    #[test]
    fn the_phase_grid_prints_every_rate_apart_and_says_na_for_nothing_judged() {
        let columns: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
        let long = "a model with a very long name that goes on and on: qwen-plus-latest-2025";
        let rows = vec![
            (
                "oracle".to_string(),
                vec![point(1.0), point(0.0), point(0.5)],
            ),
            (long.to_string(), vec![point(0.25), None, point(0.999)]),
        ];
        let svg = phase_grid("overview", "Success", &columns, &rows);
        well_formed(&svg).unwrap_or_else(|e| panic!("{e}"));
        assert_no_text_overlaps(&svg);
        for text in [
            ">100%</text>",
            ">0%</text>",
            ">50%</text>",
            ">25%</text>",
            ">n/a</text>",
        ] {
            assert!(svg.contains(text), "{text} in {svg}");
        }
        assert!(svg.contains("…</text>"), "a long name is cut short");
        assert!(svg.contains("oracle solve: 100% of 8 (95% CI 90% to 100%)"));
        let empty = phase_grid("overview", "Success", &columns, &[]);
        well_formed(&empty).unwrap_or_else(|e| panic!("{e}"));
        assert!(empty.contains("No data"));
    }

    #[test]
    fn coinciding_lines_print_their_values_once_and_their_names_apart() {
        let x: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
        let line = |name: &str| LineSeries {
            name: name.into(),
            points: vec![point(1.0), point(1.0), point(1.0)],
        };
        let svg = line_chart(
            "progression",
            "t",
            &x,
            &[line("day one: oracle"), line("day two: oracle")],
        );
        well_formed(&svg).unwrap_or_else(|e| panic!("{e}"));
        assert_no_text_overlaps(&svg);
        assert_eq!(
            svg.matches(">100%</text>").count(),
            3 + 1,
            "one value label per phase (and the axis' 100%)"
        );
        for name in ["day one: oracle", "day two: oracle"] {
            assert_eq!(
                svg.matches(&format!(">{name}</text>")).count(),
                2,
                "legend and end name"
            );
        }
    }

    #[test]
    fn close_values_and_many_lines_are_stacked_without_overlap() {
        let x: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
        let series: Vec<LineSeries> = (0..24)
            .map(|i| LineSeries {
                name: format!("m{i}"),
                points: vec![
                    point(0.5 + 0.01 * i as f64),
                    point(0.5),
                    if i % 5 == 0 {
                        None
                    } else {
                        point(0.02 * i as f64)
                    },
                ],
            })
            .collect();
        let svg = line_chart("many", "t", &x, &series);
        well_formed(&svg).unwrap_or_else(|e| panic!("{e}"));
        assert_no_text_overlaps(&svg);
        assert_eq!(
            svg.matches(">50%</text>").count(),
            3,
            "the axis, then equal values once per phase"
        );
    }
}
