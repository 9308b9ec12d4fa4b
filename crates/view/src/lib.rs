//! String renderers: the HTML the pages and the report file show (charts, the experiment
//! page's form and panels, the audit, transcripts), rendered to strings so they test
//! natively. The view imports the core; the core never imports the view.

pub mod actions;
pub mod audit;
pub mod chart;
pub mod choice;
pub mod contents;
pub mod document;
pub mod experiment;
pub mod html;
pub mod report;
pub mod report_charts;
pub mod report_modes;
pub mod report_people;
mod report_sections;
pub mod study;
pub mod text_table;
