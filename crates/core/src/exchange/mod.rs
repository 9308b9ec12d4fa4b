//! Shared evaluation formats: a run's trial records written in a layout other projects read,
//! so a Shapemaze run sits beside other benchmarks' results. One format now,
//! [`every_eval_ever`] (the Every Eval Ever schema: one aggregate file per model and one
//! file of instance rows, one per reply). Each format is a pure function from the records
//! and the run's provenance to a list of files ([`crate::batch::export::ExportFile`]); the
//! caller writes them (`shapemaze export`, a page's download). May import
//! [`crate::analysis`] (the rates and their intervals), [`crate::batch`] (the provenance and
//! the export's files) and everything below them.

pub mod every_eval_ever;
