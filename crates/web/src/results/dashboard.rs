//! The state of `/results` while it is open: the sources of trials (stored experiments,
//! studies' people, imported files), what is chosen and drawn, and the signals the page's
//! parts draw from. The page ([`super`]) and its parts (import, export, people) share it.

use super::parts::DrawnParts;
use crate::demo::Loaded;
use crate::race::Racing;
use leptos::prelude::*;
use shapemaze_core::analysis::analyze::Analysis;
use shapemaze_core::analysis::observation::Observation;
use shapemaze_core::batch::provenance::Provenance;
use shapemaze_core::original::audit::AuditSummary;
use shapemaze_core::results::filter::TrialFilter;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_view::actions::ResultsAction;
use shapemaze_view::html::escape;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write;
use std::rc::Rc;

/// One source of trials: a stored experiment or an imported file.
#[derive(Clone)]
pub(super) struct Source {
    /// Its label in the analysis.
    pub(super) label: String,
    /// A stored experiment's id (`None` for an imported file).
    pub(super) id: Option<String>,
    /// The records of an imported file (stored ones are read when chosen).
    pub(super) records: Vec<TrialRecord>,
    /// For a study's trials: each record's participant and solve time (ms), in the
    /// records' order; empty for models.
    pub(super) people: Vec<(String, Option<f64>)>,
    /// The trials of an imported results folder of transcripts (no records).
    pub(super) transcripts: Vec<Observation>,
    /// The audit of an imported folder of the design's original runs (three scorings).
    pub(super) audit: Option<Rc<AuditSummary>>,
    /// An imported export's `provenance.json`, when it has one.
    pub(super) provenance: Option<Rc<Provenance>>,
    pub(super) chosen: bool,
}

/// A stored experiment's trials as read from this browser's storage, kept while the page is
/// open (ticking a source, or changing the filter, reads nothing again; *Update* does).
pub(super) struct StoredTrials {
    pub(super) records: Vec<Rc<TrialRecord>>,
    /// The stored trials that could not be read.
    pub(super) unreadable: usize,
}

pub(super) struct Dashboard {
    pub(super) sources: RefCell<Vec<Source>>,
    /// The stored experiments read so far, by id.
    pub(super) stored: RefCell<HashMap<String, Rc<StoredTrials>>>,
    /// The records (when the trial has one) and observations chosen, index-aligned.
    pub(super) records: RefCell<Vec<Option<Rc<TrialRecord>>>>,
    pub(super) observations: RefCell<Vec<Observation>>,
    /// The last filter that could be read, and the trials it matches (indices of the
    /// above), which the analysis counts.
    pub(super) filter: RefCell<TrialFilter>,
    pub(super) shown: RefCell<Vec<usize>>,
    /// `N of M trials match`, or why the filter typed cannot be read (`true`).
    pub(super) filter_line: RwSignal<(bool, String)>,
    /// Bumped by every keystroke in the filter: a draw still waiting gives way.
    pub(super) typed: std::cell::Cell<u32>,
    /// The audit sections drawn below the analysis (the filter leaves them as they are).
    pub(super) audits: RefCell<String>,
    pub(super) analysis: RefCell<Option<Analysis>>,
    /// The report's element and the sections drawn in it.
    pub(super) report: NodeRef<leptos::html::Div>,
    pub(super) parts: DrawnParts,
    /// The audits drawn (folders of the original runs, and ours when asked), by section.
    pub(super) audit_summaries: RefCell<Vec<Rc<AuditSummary>>>,
    pub(super) list: RwSignal<String>,
    /// The contents list of the parts drawn.
    pub(super) nav: RwSignal<String>,
    /// The part (or element) the address named, to open once it is drawn.
    pub(super) pending: RefCell<Option<String>>,
    pub(super) drill: RwSignal<String>,
    pub(super) replay: RwSignal<Option<Loaded>>,
    /// The other trials of the replayed trial's maze whose records are at hand (their index
    /// in the page's list, and a label), each a race away.
    pub(super) rivals: RwSignal<Vec<(usize, String)>>,
    /// The replayed trial's index, and the race opened from it.
    pub(super) replayed: std::cell::Cell<Option<usize>>,
    pub(super) racing: RwSignal<Option<Racing>>,
    pub(super) message: RwSignal<Option<(bool, String)>>,
    pub(super) order: RwSignal<String>,
    /// Whether Shapemaze's own trials are also scored the original way (audited).
    pub(super) audit_own: RwSignal<bool>,
    /// Whether people's recognition verdicts given with the shape shown are counted.
    pub(super) include_shown: RwSignal<bool>,
    /// Bumped by every analysis: an older one still reading gives way.
    pub(super) generation: std::cell::Cell<u32>,
    /// The two sides chosen for the side-by-side comparison (empty: the default pair).
    pub(super) compare: RefCell<(String, String)>,
    /// Which trials the filter shows that have records, for the review part (which reads
    /// the records only when opened).
    pub(super) review_shown: RwSignal<Vec<usize>>,
}

pub(super) type Shared = Rc<Dashboard>;

impl Dashboard {
    /// Adds a source, its label made unique (two experiments may share a name, and the
    /// analysis tells experiments apart by their labels).
    pub(super) fn add_source(&self, mut source: Source) {
        let mut sources = self.sources.borrow_mut();
        let base = source.label.clone();
        let mut n = 2;
        while sources.iter().any(|s| s.label == source.label) {
            source.label = format!("{base} ({n})");
            n += 1;
        }
        sources.push(source);
    }
}

impl Dashboard {
    /// Whether the page was left (its signals are gone with it): a task that finishes
    /// later has nothing to draw.
    pub(super) fn gone(&self) -> bool {
        self.order.try_with_untracked(|_| ()).is_none()
    }

    pub(super) fn fail(&self, text: impl std::fmt::Display) {
        self.message.set(Some((true, text.to_string())));
    }

    pub(super) fn draw_sources(&self) {
        let mut h = String::new();
        for (i, s) in self.sources.borrow().iter().enumerate() {
            let _ = write!(
                h,
                "<label class=\"check\"><input type=\"checkbox\" data-action=\"{}\" data-index=\"{i}\" data-testid=\"source\"{}> {}{}</label>",
                ResultsAction::Toggle.name(),
                if s.chosen { " checked" } else { "" },
                escape(&s.label),
                if s.id.is_none() && !s.label.starts_with("people: ") { " (imported)" } else { "" }
            );
            if let Some(p) = &s.provenance {
                let _ = write!(
                    h,
                    "<details class=\"provenance\" data-testid=\"source-provenance\"><summary>Provenance of {}</summary><pre>{}</pre></details>",
                    escape(&s.label),
                    escape(&p.summary())
                );
            }
        }
        if h.is_empty() {
            h.push_str("<p class=\"muted\">No experiments are stored in this browser: run one on the Experiments page, or import an exported ZIP or trials.jsonl.</p>");
        }
        self.list.set(h);
    }
}

impl Dashboard {
    /// A dashboard with nothing chosen yet.
    pub(super) fn new() -> Shared {
        Rc::new(Dashboard {
            sources: RefCell::new(Vec::new()),
            stored: RefCell::new(HashMap::new()),
            records: RefCell::new(Vec::new()),
            observations: RefCell::new(Vec::new()),
            filter: RefCell::new(TrialFilter::default()),
            shown: RefCell::new(Vec::new()),
            filter_line: RwSignal::new((false, String::new())),
            typed: std::cell::Cell::new(0),
            audits: RefCell::new(String::new()),
            analysis: RefCell::new(None),
            report: NodeRef::new(),
            parts: DrawnParts::default(),
            audit_summaries: RefCell::new(Vec::new()),
            list: RwSignal::new(String::new()),
            nav: RwSignal::new(String::new()),
            pending: RefCell::new(location_hash()),
            drill: RwSignal::new(String::new()),
            replay: RwSignal::new(None),
            rivals: RwSignal::new(Vec::new()),
            replayed: std::cell::Cell::new(None),
            racing: RwSignal::new(None),
            message: RwSignal::new(None),
            order: RwSignal::new(String::new()),
            audit_own: RwSignal::new(false),
            include_shown: RwSignal::new(false),
            generation: std::cell::Cell::new(0),
            compare: RefCell::new(Default::default()),
            review_shown: RwSignal::new(Vec::new()),
        })
    }
}

/// The address's fragment (`generation` of `/results#generation`), if any.
pub(super) fn location_hash() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let id = hash.trim_start_matches('#');
    (!id.is_empty()).then(|| js_sys::decode_uri_component(id).map_or(id.to_string(), String::from))
}
