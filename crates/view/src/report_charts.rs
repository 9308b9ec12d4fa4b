//! The report's standard charts (every model's phase rates, phases by shape, the
//! progression, the confusion matrices) and its table of group rows, shared by the report
//! file, its sections and the results page.

use super::chart::*;
use super::document::{Cell, Table};
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::groups::GroupRow;
use shapemaze_core::analysis::observation::{ALL, PHASE_NAMES};
use shapemaze_core::play::phase::Phase;

fn phase_series(rows: &[&GroupRow]) -> Vec<BarSeries> {
    Phase::PLAYED
        .into_iter()
        .map(|phase| BarSeries {
            name: phase.name().to_string(),
            values: rows
                .iter()
                .map(|r| Some(Bar::from(r.phases()[phase.index()])))
                .collect(),
        })
        .collect()
}

/// The pooled rows of one model each (all encodings and shapes).
pub(crate) fn by_model(a: &Analysis) -> Vec<&GroupRow> {
    a.pooled
        .iter()
        .filter(|r| r.model != ALL && r.encoding == ALL && r.shape == ALL)
        .collect()
}

/// A model's name on a chart: with its experiment when there are several.
pub(crate) fn model_name(a: &Analysis, r: &GroupRow) -> String {
    if a.experiments.len() > 1 {
        format!("{}: {}", r.experiment, r.model)
    } else {
        r.model.clone()
    }
}

/// The overview's chart (`chart-overview`): every model's three phase rates with their
/// 95% intervals, a row per model, compact enough for the first screen and a phone.
pub fn overview_chart(a: &Analysis) -> Chart {
    let title = "Success with 95% intervals";
    let columns: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
    let rows: Vec<(String, Vec<Option<Bar>>)> = by_model(a)
        .into_iter()
        .map(|r| {
            let bars = r.phases().iter().map(|p| Some(Bar::from(*p))).collect();
            (model_name(a, r), bars)
        })
        .collect();
    Chart {
        id: "overview".into(),
        title: title.into(),
        svg: phase_grid("overview", title, &columns, &rows),
    }
}

/// The phases by encoding (`phases-by-encoding`) or by shape (`phases-by-shape`): bars
/// with whiskers, from the pooled rows.
pub fn phase_bars(a: &Analysis, by_shape: bool) -> Chart {
    let (id, title) = match by_shape {
        true => ("phases-by-shape", "Success by shape and phase"),
        false => ("phases-by-encoding", "Success by encoding and phase"),
    };
    // The pooled rows of one shape each (all encodings), or of one encoding each.
    let category = |r: &GroupRow| match by_shape {
        true => (r.encoding == ALL).then(|| r.shape.clone()),
        false => (r.shape == ALL).then(|| r.encoding.clone()),
    };
    let (rows, cats): (Vec<&GroupRow>, Vec<String>) = a
        .pooled
        .iter()
        .filter(|r| r.model == ALL)
        .filter_map(|r| Some((r, category(r).filter(|c| c != ALL)?)))
        .unzip();
    Chart {
        id: id.into(),
        title: title.into(),
        svg: bar_chart(id, title, &cats, &phase_series(&rows)),
    }
}

/// The phase progression per model (`progression`): a line per model across the phases.
pub fn progression_chart(a: &Analysis) -> Chart {
    let x: Vec<String> = PHASE_NAMES.iter().map(|s| s.to_string()).collect();
    let lines: Vec<LineSeries> = a
        .phase_progression
        .iter()
        .map(|r| LineSeries {
            name: model_name(a, r),
            points: r.phases().iter().map(|p| Some(Bar::from(*p))).collect(),
        })
        .collect();
    let title = "Phase progression per model";
    Chart {
        id: "progression".into(),
        title: title.into(),
        svg: line_chart("progression", title, &x, &lines),
    }
}

/// The shape confusion matrix of all trials as a heatmap (`confusion`).
pub fn confusion_chart(a: &Analysis) -> Chart {
    let title = "Shape confusion matrix: true shape x shape named";
    let (rows, cols, counts) = a
        .confusion
        .first()
        .map(|c| (c.rows.clone(), c.cols.clone(), c.counts.clone()))
        .unwrap_or_default();
    Chart {
        id: "confusion".into(),
        title: title.into(),
        svg: heatmap(
            "confusion",
            title,
            "true shape",
            "shape named",
            &rows,
            &cols,
            &counts,
        ),
    }
}

/// The standard charts of an analysis, in the order the report shows them: the
/// overview, the phases by encoding, the phase progression per model, the phases by
/// shape and the confusion matrix. The page, the report file and the command line all
/// draw these.
pub fn standard_charts(a: &Analysis) -> Vec<Chart> {
    vec![
        overview_chart(a),
        phase_bars(a, false),
        progression_chart(a),
        phase_bars(a, true),
        confusion_chart(a),
    ]
}

/// The group rows as a table: the experiment (when `with_experiment`), model, encoding,
/// shape, trials, API errors and the three phases' rates. Its CSV is `report --format
/// csv`'s (docs/CONTRACT.md).
pub fn groups_table(id: &str, caption: &str, rows: &[GroupRow], with_experiment: bool) -> Table {
    let mut columns = vec![
        ("model", "model"),
        ("encoding", "encoding"),
        ("shape", "shape"),
        ("trials", "trials"),
        ("api_errors", "API errors"),
        ("solve", "solve"),
        ("recognize", "recognize"),
        ("generate", "generate"),
    ];
    if with_experiment {
        columns.insert(0, ("experiment", "experiment"));
    }
    let mut t =
        Table::new(id, caption.to_string(), &columns).bounded(&["solve", "recognize", "generate"]);
    for (i, r) in rows.iter().enumerate() {
        let mut cells = Vec::with_capacity(9);
        if with_experiment {
            cells.push(Cell::text(&r.experiment));
        }
        cells.extend([
            Cell::text(&r.model),
            Cell::text(&r.encoding),
            Cell::text(&r.shape),
            Cell::Count(r.trials),
            Cell::Count(r.api_errors),
            Cell::Bounded(r.solve, r.bounds.0[0]),
            Cell::Bounded(r.recognize, r.bounds.0[1]),
            Cell::Bounded(r.generate, r.bounds.0[2]),
        ]);
        t.row(cells);
        if id == "groups" {
            if let Some(last) = t.rows.last_mut() {
                last.group = Some(i);
            }
        }
    }
    t
}

pub(crate) fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}
