//! The results' contents: every part the results page and the report file can show, in
//! the order they show them, each with its address (`/results#generation`, `#generation`
//! in the report file) and its title. [`Part`] is the one list; a part is present when
//! something was written into it, so the contents list ([`Parts::nav`]) never links to
//! a part that is not there. A part added later is one variant, one line of
//! [`Part::info`] and one entry of [`Part::ALL`]; whoever writes its HTML adds it to the
//! [`Parts`] under it.

use super::html::escape;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One part of the results, in the order the page and the report file show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// The counts, the verdicts as chips and every model's three phase rates.
    Overview,
    /// H1-H4 with their tests.
    Hypotheses,
    /// The pooled rates, the encodings compared, phase correlations, empty answers, repeats.
    Rates,
    /// The answer modes side by side, paired by maze (only when a trial answered in a
    /// mode other than free text).
    Modes,
    /// Moves, failure types, how solves went wrong, retried calls.
    Solving,
    /// The shape confusion matrix.
    Recognition,
    /// The four generation checks.
    Generation,
    /// Success by shape, shape effects and the difficulty ranking.
    Shapes,
    /// The difficulty curves over grid sizes (only with several sizes).
    BySize,
    /// Tokens and dollars (only when an endpoint reported usage).
    Tokens,
    /// Staircase walks (only when a walk was played).
    Staircase,
    /// People beside the models on the same mazes (only when there are people's trials to
    /// set beside the models').
    PeopleModels,
    /// The audit of recorded runs, scored three ways.
    Audit,
    /// Two experiments or models side by side (the page's own).
    Compare,
    /// The model x encoding x shape table whose rows list their trials, and the data.
    Trials,
    /// The design and settings (the report file's own).
    Settings,
    /// The readings to review by hand (the page's own; its queue is drawn below the parts).
    Review,
}

impl Part {
    /// Every part, in the order they are shown.
    pub const ALL: [Part; 17] = [
        Part::Overview,
        Part::Hypotheses,
        Part::Rates,
        Part::Modes,
        Part::Solving,
        Part::Recognition,
        Part::Generation,
        Part::Shapes,
        Part::BySize,
        Part::Tokens,
        Part::Staircase,
        Part::PeopleModels,
        Part::Audit,
        Part::Compare,
        Part::Trials,
        Part::Settings,
        Part::Review,
    ];

    /// The part's element id (its address's fragment) and its title.
    pub fn info(self) -> (&'static str, &'static str) {
        match self {
            Part::Overview => ("overview", "Overview"),
            Part::Hypotheses => ("hypotheses", "Hypotheses"),
            Part::Rates => ("rates", "Rates by model, encoding and shape"),
            Part::Modes => ("modes", "Answer modes"),
            Part::Solving => ("solving", "Solving"),
            Part::Recognition => ("recognition", "Recognition and the confusion matrix"),
            Part::Generation => ("generation", "Generation"),
            Part::Shapes => ("shapes", "Shapes"),
            Part::BySize => ("by-size", "By grid size"),
            Part::Tokens => ("tokens", "Tokens and cost"),
            Part::Staircase => ("staircase", "Staircase"),
            Part::PeopleModels => ("people-models", "People and models"),
            Part::Audit => ("audit", "Audit of recorded runs"),
            Part::Compare => ("compare", "Compare side by side"),
            Part::Trials => ("trials", "Trials"),
            Part::Settings => ("settings", "Design and settings"),
            Part::Review => ("review", "Review readings"),
        }
    }

    /// The element id: `generation` in `/results#generation`.
    pub fn id(self) -> &'static str {
        self.info().0
    }

    /// The heading and the contents list's entry.
    pub fn title(self) -> &'static str {
        self.info().1
    }

    /// The part whose id is `id`.
    pub fn from_id(id: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The results as parts: each part's HTML, written in [`Part::ALL`]'s order whatever
/// order they were added in. A part is present once something is added to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    html: BTreeMap<Part, String>,
}

impl Parts {
    /// No part yet.
    pub fn new() -> Self {
        Parts::default()
    }

    /// Appends `html` to `part` (nothing when `html` is empty: an empty part is absent).
    pub fn add(&mut self, part: Part, html: &str) {
        if !html.is_empty() {
            self.html.entry(part).or_default().push_str(html);
        }
    }

    /// The parts present, in order.
    pub fn present(&self) -> impl Iterator<Item = Part> + '_ {
        self.html.keys().copied()
    }

    /// Whether `part` has anything in it.
    pub fn has(&self, part: Part) -> bool {
        self.html.contains_key(&part)
    }

    /// The contents list (`data-testid="results-nav"`): a link to each part present,
    /// `{page}#{id}` (`page` is the page's own address, or empty in the report file),
    /// inside a `<details>` that is a menu on narrow screens and (with [`PARTS_CSS`]) a
    /// sidebar on wide ones; `open` unfolds it.
    pub fn nav(&self, page: &str, open: bool) -> String {
        let mut s = format!(
            "<nav class=\"contents\" data-testid=\"results-nav\" aria-label=\"Contents\"><details class=\"contents-menu\"{}><summary>Contents</summary><ol>",
            if open { " open=\"open\"" } else { "" }
        );
        for part in self.present() {
            let (id, title) = part.info();
            let _ = write!(
                s,
                "<li><a href=\"{}#{id}\" data-action=\"{}\" data-part=\"{id}\">{}</a></li>",
                escape(page),
                crate::actions::ResultsAction::Contents.name(),
                escape(title)
            );
        }
        s.push_str("</ol></details></nav>");
        s
    }

    /// Every part present, in order, each a `<section id="{id}">` headed by its title and
    /// carrying `data-testid="results-{id}"`.
    pub fn body(&self) -> String {
        self.sections().map(|(_, section)| section).collect()
    }

    /// Each part present, in order, with its section as [`Parts::body`] writes it: a page
    /// that keeps what it drew redraws only the sections whose HTML changed.
    pub fn sections(&self) -> impl Iterator<Item = (Part, String)> + '_ {
        self.html.iter().map(|(part, html)| {
            let (id, title) = part.info();
            let mut s = String::with_capacity(html.len() + 160);
            let _ = write!(
                s,
                "<section id=\"{id}\" class=\"part\" data-testid=\"results-{id}\"><h2 class=\"part-title\">{}</h2>{html}</section>",
                escape(title)
            );
            (*part, s)
        })
    }
}

/// The styles of the parts, the contents list, the overview and long tables, shared by
/// the results page and the report file (each adds its colours and type). At 1000 px and
/// wider the contents list is a sidebar that stays in view beside the parts; narrower, it
/// is a menu folded at the top that stays in view as the page scrolls. Printed, the list
/// and the buttons are left out and every row of every table is shown.
pub const PARTS_CSS: &str = "
.results-layout{display:block}
.contents{position:sticky;top:0;z-index:5;background:#fff;border:1px solid #c9d1e0;border-radius:8px;margin:0 0 1rem}
.contents summary{cursor:pointer;font-weight:700;padding:.5rem .8rem}
.contents ol{margin:0;padding:.2rem .8rem .6rem 2rem;max-height:70vh;overflow:auto}
.contents li{margin:.15rem 0}
.contents a{color:#1d4ed8}
.part{scroll-margin-top:3.5rem}
.part .part-title{font-size:1.45rem;margin:2rem 0 .6rem;padding-bottom:.25rem;border-bottom:2px solid #0072B2}
#overview .part-title{margin-top:.4rem}
.part h3{font-size:1.1rem;margin:1.2rem 0 .3rem}
.overview{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:flex-start}
.overview figure{flex:0 1 26rem;min-width:16rem;margin:.25rem 0}
.overview figure button{margin-top:.3rem}
.chips{list-style:none;display:flex;flex-direction:column;align-items:flex-start;gap:.3rem;margin:.25rem 0;padding:0;flex:1 1 15rem}
.chips a{display:inline-block;text-decoration:none;color:#111;border:2px solid #000;border-radius:999px;padding:.05rem .6rem;font-size:.92rem;line-height:1.4}
.chips a:hover,.chips a:focus{outline:3px solid #1d4ed8;outline-offset:1px}
.chips .supported{background:#cfe8dd}.chips .not_supported{background:#f6dccb}.chips .insufficient{background:#eee;border-style:dashed}
.counts{font-weight:600;margin:.3rem 0}
.table-wrap{max-width:100%;overflow-x:auto;container-type:inline-size}
.table-wrap caption{position:sticky;left:0;max-width:100cqi}
.long-table tr.more{display:none}
.long-table:has(.show-all input:checked) tr.more{display:table-row}
.show-all{display:inline-flex;gap:.4rem;align-items:center;margin:.4rem 0 .6rem;font-size:.95rem;cursor:pointer}
.show-all input{width:24px;height:24px;margin:0}
@media (min-width:1000px){
.results-layout{display:grid;grid-template-columns:13rem minmax(0,1fr);gap:1.5rem}
.contents{align-self:start;top:1rem;max-height:calc(100vh - 2rem);overflow:auto;margin:0}
.contents ol{max-height:none}
.part{scroll-margin-top:1rem}
}
@supports selector(::details-content){@media (min-width:1000px){
.contents summary{display:none}
.contents details::details-content{content-visibility:visible;display:block}
.contents ol{padding-top:.6rem}
}}
@media print{
.contents,.show-all,button{display:none!important}
.results-layout{display:block}
.table-wrap{overflow:visible}
.long-table tr.more{display:table-row!important}
.part{break-before:auto}
}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_has_one_unique_address_made_for_a_fragment_and_a_title() {
        let mut seen = std::collections::BTreeSet::new();
        for p in Part::ALL {
            let (id, title) = p.info();
            assert!(seen.insert(id), "{id} is used twice");
            assert!(
                !id.is_empty()
                    && id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id} is a plain fragment"
            );
            assert!(!title.is_empty(), "{id} has a title");
            assert_eq!(Part::from_id(id), Some(p), "{id} reads back");
        }
    }

    #[test]
    fn the_list_is_in_the_order_the_parts_are_shown_and_reserves_people_and_models() {
        let mut sorted = Part::ALL;
        shapemaze_core::sort::sort_by_key(&mut sorted, |p| *p);
        assert_eq!(sorted, Part::ALL, "ALL follows the declaration order");
        let ids: Vec<&str> = Part::ALL.iter().map(|p| p.id()).collect();
        assert_eq!(
            ids,
            [
                "overview",
                "hypotheses",
                "rates",
                "modes",
                "solving",
                "recognition",
                "generation",
                "shapes",
                "by-size",
                "tokens",
                "staircase",
                "people-models",
                "audit",
                "compare",
                "trials",
                "settings",
                "review"
            ]
        );
    }

    #[test]
    fn parts_are_written_in_order_whatever_order_they_were_added_in() {
        let mut parts = Parts::new();
        parts.add(Part::Trials, "<p>t</p>");
        parts.add(Part::Overview, "<p>o</p>");
        parts.add(Part::Generation, "<p>g</p>");
        parts.add(Part::Overview, "<p>more</p>");
        let body = parts.body();
        let at = |id: &str| body.find(&format!("id=\"{id}\"")).expect(id);
        assert!(at("overview") < at("generation") && at("generation") < at("trials"));
        assert!(
            body.contains("<h2 class=\"part-title\">Overview</h2><p>o</p><p>more</p></section>")
        );
        assert!(body.contains("data-testid=\"results-generation\""));
        let sections: Vec<(Part, String)> = parts.sections().collect();
        assert_eq!(
            sections.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
            [Part::Overview, Part::Generation, Part::Trials],
            "one section a part present, in order"
        );
        assert_eq!(
            sections.into_iter().map(|(_, s)| s).collect::<String>(),
            body,
            "the sections are the body, piece by piece"
        );
    }

    #[test]
    fn an_empty_part_is_absent_and_the_nav_lists_exactly_the_parts_present() {
        let mut parts = Parts::new();
        parts.add(Part::Hypotheses, "<ul></ul>");
        parts.add(Part::PeopleModels, "");
        parts.add(Part::Audit, "<section></section>");
        assert!(!parts.has(Part::PeopleModels), "no data, no part");
        let nav = parts.nav("/results", false);
        assert_eq!(nav.matches("<li>").count(), 2, "{nav}");
        assert!(nav.contains("href=\"/results#hypotheses\""), "{nav}");
        assert!(nav.contains("href=\"/results#audit\""), "{nav}");
        assert!(!nav.contains("people-models"));
        assert!(nav.contains("data-testid=\"results-nav\""));
        assert!(!nav.contains("open="), "folded when asked");
        assert!(parts.nav("", true).contains("open=\"open\""));
        assert!(parts.nav("", true).contains("href=\"#hypotheses\""));
    }
}
