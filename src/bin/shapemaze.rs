//! The `shapemaze` command line (see `shapemaze --help`).
fn main() {}
