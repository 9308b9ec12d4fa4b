//! The results page's typed contract between what the renderers write and what the page
//! reads: every `data-action` of `/results` is a [`ResultsAction`], written with
//! [`ResultsAction::name`] and read back with [`ResultsAction::parse`] (the experiment
//! page's are `experiment::LabAction`). The page matches variants, never strings.

/// What a click or a change on `/results` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsAction {
    /// Analyse the chosen sources again (the *Update* button).
    Analyze,
    /// A row of the groups table: list its trials.
    Drill,
    /// A cause of the audit: list its trials.
    AuditCause,
    /// The download button after a chart: the chart as SVG.
    ChartSvg,
    /// The download button after a table: the table as CSV.
    TableCsv,
    /// Download the report file.
    Report,
    /// A source ticked or not.
    Toggle,
    /// Score the chosen experiments the original way too.
    AuditOwn,
    /// Import a results file or folder.
    Import,
    /// A side of the comparison chosen.
    Compare,
    /// An entry of the contents list.
    Contents,
    /// Count (or leave out) people's recognitions given with the shape shown.
    IncludeShown,
}

impl ResultsAction {
    /// Every action.
    pub const ALL: [ResultsAction; 12] = [
        ResultsAction::Analyze,
        ResultsAction::Drill,
        ResultsAction::AuditCause,
        ResultsAction::ChartSvg,
        ResultsAction::TableCsv,
        ResultsAction::Report,
        ResultsAction::Toggle,
        ResultsAction::AuditOwn,
        ResultsAction::Import,
        ResultsAction::Compare,
        ResultsAction::Contents,
        ResultsAction::IncludeShown,
    ];

    /// The `data-action` value.
    pub fn name(self) -> &'static str {
        match self {
            ResultsAction::Analyze => "analyze",
            ResultsAction::Drill => "drill",
            ResultsAction::AuditCause => "audit-cause",
            ResultsAction::ChartSvg => "chart-svg",
            ResultsAction::TableCsv => "table-csv",
            ResultsAction::Report => "report",
            ResultsAction::Toggle => "toggle",
            ResultsAction::AuditOwn => "audit-own",
            ResultsAction::Import => "import",
            ResultsAction::Compare => "compare",
            ResultsAction::Contents => "contents",
            ResultsAction::IncludeShown => "include-shown",
        }
    }

    /// The action a `data-action` value names.
    pub fn parse(name: &str) -> Option<ResultsAction> {
        ResultsAction::ALL.into_iter().find(|a| a.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::LabAction;

    #[test]
    fn every_action_reads_back_and_no_name_is_taken_twice() {
        for a in ResultsAction::ALL {
            assert_eq!(ResultsAction::parse(a.name()), Some(a));
        }
        assert_eq!(ResultsAction::parse("nothing"), None);
        let mut names: Vec<&str> = ResultsAction::ALL.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ResultsAction::ALL.len());
        // The results page also carries the trials table's replay button (LabAction).
        assert!(ResultsAction::parse(LabAction::OpenTrial.name()).is_none());
    }

    #[test]
    fn the_renderers_write_only_actions_the_page_reads() {
        use shapemaze_core::analysis::analyze::{analyze, AnalysisOptions};
        let a = analyze(
            &crate::chart::tests::sample_observations("e", "m"),
            &AnalysisOptions::default(),
        );
        let html = crate::report::report_body(&a);
        let mut seen = 0;
        for part in html.split("data-action=\"").skip(1) {
            let name = &part[..part.find('"').expect("a closed attribute")];
            assert!(ResultsAction::parse(name).is_some(), "{name}");
            seen += 1;
        }
        assert!(seen > 0, "the groups' rows carry their action");
    }
}
