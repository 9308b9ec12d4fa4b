//! The `shapemaze` command line (native only): `generate`, `verify`, `score`, `report`,
//! `serve`, `run`, `merge` and `export`, each a thin
//! layer over [`shapemaze_core`] so a terminal applies exactly the rules the app does.
//!
//! [`run`] takes the arguments and the three standard streams and returns the exit status,
//! so it can be driven in-process as well as by the binary. Exit status 0 means the
//! command ran (whatever the verdicts); 2 means bad arguments or an unreadable or foreign
//! file, with one line on stderr saying which; 3 means `shapemaze run` finished with
//! trials that ended as API errors (its stderr says why, by cause).

#![cfg(not(target_arch = "wasm32"))]
// Native only: the command line may read the clock and use threads (clippy.toml bans them
// in the code the browser shares).
#![allow(clippy::disallowed_methods)]

pub mod args;
pub mod audit;
pub mod export;
pub mod files;
pub mod generate;
pub mod io;
pub mod report;
pub mod reviews;
pub mod run;
pub mod score;
pub mod second_reader;
pub mod serve;
pub mod totals;
pub mod transport;
pub mod values;
pub mod verify;

pub use io::{
    read_file, write_file, CliError, Io, EXIT_API_ERRORS, EXIT_DATA, EXIT_INPUT, EXIT_OK,
    EXIT_OUTPUT, EXIT_USAGE,
};

use args::{Command, Parsed};
use std::io::{BufWriter, Write};

/// Runs the command line on `args` (without the program name); returns the exit status.
pub fn run(args: &[String], io: &mut Io<'_>) -> i32 {
    let result = dispatch(args, io)
        .and_then(|status| io.stdout.flush().map(|()| status).map_err(CliError::Output));
    match result {
        Ok(status) => status,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            let one_line = e.message().replace(['\n', '\r'], " ");
            // Nothing more can be done when stderr itself is gone.
            let _ = writeln!(io.stderr, "shapemaze: error: {one_line}");
            e.status()
        }
    }
}

/// Runs the command `args` names; its exit status when it ran.
fn dispatch(args: &[String], io: &mut Io<'_>) -> Result<i32, CliError> {
    let command = match args::parse(args)? {
        Parsed::Print(text) => return io.out(&text).map(|()| EXIT_OK),
        Parsed::Run(command) => command,
    };
    let ran = match command {
        Command::Generate(a) => generate::run(&a, io),
        Command::Verify(a) => verify::run(&a, io),
        Command::Score(a) => score::run(&a, io),
        Command::Serve(a) => serve::command(&a, io),
        Command::Report(a) => report::run(&a, io),
        // run has an exit status of its own (API errors).
        Command::Run(a) => return run::run(&a, io),
        Command::Merge(a) => run::merge_command(&a, io),
        Command::Export(a) => export::run(&a, io),
        // Read by args::parse, which answers it with the help text.
        Command::Help { command } => io.out(&args::help(command.as_deref())?),
    };
    ran.map(|()| EXIT_OK)
}

/// The process's entry point: reads the real arguments and streams, returns the exit
/// status for `std::process::exit`.
pub fn main() -> i32 {
    let mut args = Vec::new();
    for (i, a) in std::env::args_os().skip(1).enumerate() {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(_) => {
                let _ = writeln!(
                    std::io::stderr(),
                    "shapemaze: error: argument {} is not valid UTF-8",
                    i + 1
                );
                return EXIT_USAGE;
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut err = std::io::stderr();
    let mut input = std::io::stdin();
    let mut io = Io {
        stdin: &mut input,
        stdout: &mut out,
        stderr: &mut err,
    };
    run(&args, &mut io)
}
