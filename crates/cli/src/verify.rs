//! `shapemaze verify`: one reply checked against one maze, printed as the JSON verdict.

use crate::io::{read_file, CliError, Io};
use crate::values::{shapes_with, COMMAND_HELP};
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::grid::{check_size, Maze, MAX_SIZE};
use shapemaze_core::maze::npy::{self, NpyError};
use shapemaze_core::maze::shape::{Shape, ShapeSet};
use shapemaze_core::maze::symbols::Symbols;
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::results::rescore::{detect_encoding, fits, read_shown_maze};
use shapemaze_core::text::UnknownName;
use shapemaze_core::verify::{
    outline, verify_generation_in, verify_move, verify_path, verify_recognition, Part, Verdict,
};

/// `shapemaze verify`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze verify",
    override_usage = "shapemaze verify --phase move|path|recognize|generate --shape S [--encoding E]
                        [--maze FILE] [--with SHAPES] [--symbols SET] [--roles] --response FILE",
    after_help = "Output: {\"outcome\":\"success\"|\"fail\",\"reason\":...,\"extracted\":...,\"explanation\":...}
and for generate also \"checks\"; with --roles also \"roles\", the reply's lines:
[{\"role\":\"answer\",\"span\":[start,end]}, ...] (byte offsets in the reply). Exit status 0 whatever the outcome; with one line on
stderr, 2 for bad arguments and 4 for unreadable or foreign files.

Examples:
  echo 'Move: (0, 1)' | shapemaze verify --phase move --shape square --maze maze.txt --response -
  shapemaze verify --phase generate --shape C --encoding coord_list --maze 5x5_C_0.npy --response reply.txt"
)]
pub struct VerifyArgs {
    /// move       is the reply's next move a valid move from the player's cell?
    /// path       does the reply's coordinate sequence, traced back from its last
    ///            mention of the goal, reach the player through valid moves?
    /// recognize  does the reply name the right shape?
    /// generate   is the reply a valid new maze of the same shape and size?
    #[arg(long, value_name = "P", verbatim_doc_comment)]
    pub phase: String,
    /// square, cross, spiral, triangle, C, Z (any case); it sets the movement
    /// rule. May be left out when --maze is given: the corridor then says.
    #[arg(long, value_name = "S", verbatim_doc_comment)]
    pub shape: Option<String>,
    /// matrix or coord_list: how a generated maze is written
    #[arg(long, value_name = "E", default_value = "matrix")]
    pub encoding: String,
    /// shapes in play beside it, comma-separated (U: a C judged as a design
    /// with U judges it, where "U" names the U and a C opens only sideways)
    #[arg(long = "with", value_name = "SHAPES", verbatim_doc_comment)]
    pub with: Option<String>,
    /// the symbols a generated matrix is read in: wall, empty, player, goal
    /// (@*SE, as a design's symbols); 1 0 P G by default
    #[arg(long, value_name = "SET", verbatim_doc_comment)]
    pub symbols: Option<String>,
    /// the maze (the player's current cell for move and path, the original for
    /// generate): a .npy maze file or a text file in the matrix encoding (a
    /// coordinate list is read too). Required for move, path and generate.
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub maze: Option<String>,
    /// the reply text; - reads it from stdin
    #[arg(long, value_name = "FILE")]
    pub response: String,
    /// also print the reply's outline: each line with its role (answer,
    /// options, chosen, question, correction, grid, data, json, conclusion,
    /// prose, reasoning) and where it stands, as "roles"
    #[arg(long, verbatim_doc_comment)]
    pub roles: bool,
}

/// What `verify --phase` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyPhase {
    /// One next move.
    Move,
    /// A whole path in one reply.
    Path,
    /// The shape's name.
    Recognize,
    /// A new maze.
    Generate,
}

impl VerifyPhase {
    /// Every phase `verify` knows.
    pub const ALL: [VerifyPhase; 4] = [Self::Move, Self::Path, Self::Recognize, Self::Generate];

    /// The name given to `--phase`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Move => "move",
            Self::Path => "path",
            Self::Recognize => "recognize",
            Self::Generate => "generate",
        }
    }

    fn parse(s: &str) -> Result<Self, UnknownName> {
        Self::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownName::new("phase", s, "move, path, recognize or generate"))
    }

    fn needs_maze(self) -> bool {
        self != Self::Recognize
    }
}

/// Runs `verify`.
pub fn run(args: &VerifyArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let phase = VerifyPhase::parse(&args.phase)?;
    let encoding = Encoding::parse(&args.encoding)?;
    let maze = match args.maze.as_deref() {
        Some(path) => Some(read_maze(path)?),
        None if phase.needs_maze() => {
            return Err(CliError::usage(format!(
                "`shapemaze verify --phase {}` needs --maze FILE (see `shapemaze verify --help`)",
                phase.name()
            )))
        }
        None => None,
    };
    if let (VerifyPhase::Generate, Some(m)) = (phase, &maze) {
        // Templates exist for the square sizes the app offers; any other original could
        // never be matched, so say so instead of failing every reply as `wrong_shape`.
        if m.rows() != m.cols() || check_size(m.rows()).is_err() {
            return Err(CliError::usage(format!(
                "--maze is {}x{}: generation is checked against square mazes of side 5, 7, 9 or 11",
                m.rows(),
                m.cols()
            )));
        }
    }
    // Without --shape the maze's own corridor names it, the design's six in play (a C
    // opening up is a C then; --shape U puts the U in play).
    let shape = match (args.shape.as_deref(), &maze) {
        (Some(s), _) => Shape::parse(s)?,
        (None, Some(m)) => TemplateLibrary::new(m.rows())
            .classify(&m.open_mask())
            .or_else(|| TemplateLibrary::of_set(m.rows(), ShapeSet::ALL).classify(&m.open_mask()))
            .ok_or_else(|| {
                CliError::usage("--shape is needed: the maze's corridor is none of our shapes")
            })?,
        (None, None) => {
            return Err(CliError::usage(
                "`shapemaze verify` needs --shape (see `shapemaze verify --help`)",
            ))
        }
    };
    let symbols = match args.symbols.as_deref() {
        Some(s) => Symbols::parse(s).map_err(|e| CliError::usage(e.to_string()))?,
        None => Symbols::STANDARD,
    };
    let mut named = shapes_with(args.with.as_deref())?;
    named.push(shape);
    let in_play = ShapeSet::with(&named);
    let known = maze.map(|m| {
        let library = TemplateLibrary::of_set(m.rows(), in_play);
        (m, library)
    });
    let response_path = args.response.as_str();
    let response = if response_path == "-" {
        let mut bytes = Vec::new();
        io.stdin
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::input(format!("cannot read the response from stdin: {e}")))?;
        bytes
    } else {
        read_file(response_path)?
    };
    let reply = String::from_utf8(response).map_err(|_| {
        CliError::input(format!("{response_path} is not UTF-8 text, so not a reply"))
    })?;
    let verdict = match (phase, &known) {
        (VerifyPhase::Recognize, _) => verify_recognition(shape, &reply, in_play),
        (VerifyPhase::Move, Some((m, _))) => verify_move(m, shape.movement(), &reply),
        (VerifyPhase::Path, Some((m, _))) => verify_path(m, shape.movement(), &reply),
        (VerifyPhase::Generate, Some((m, lib))) => {
            verify_generation_in(m, shape, encoding, symbols, lib, &reply)
        }
        (_, None) => return Err(CliError::usage("--maze is needed for this phase")),
    };
    if !args.roles {
        return io.json_line(&verdict);
    }
    io.json_line(&WithRoles {
        verdict: &verdict,
        roles: outline(&reply),
    })
}

/// A verdict and the reply's outline (`--roles`), printed as one object.
#[derive(serde::Serialize)]
struct WithRoles<'a> {
    #[serde(flatten)]
    verdict: &'a Verdict,
    roles: Vec<Part>,
}

/// Reads a maze file: `.npy` when it starts with NumPy's magic bytes, else text in the
/// matrix encoding (or a coordinate list). The file must hold exactly one P and one G and
/// be at most 11x11.
pub fn read_maze(path: &str) -> Result<Maze, CliError> {
    let bytes = read_file(path)?;
    let grid = match npy::read(&bytes) {
        Err(NpyError::NotNpy) => {
            let text = std::str::from_utf8(&bytes).map_err(|_| {
                CliError::input(format!("{path} is neither a .npy maze file nor text"))
            })?;
            let encoding = detect_encoding(text);
            let parsed = match encoding {
                Encoding::Matrix => Encoding::Matrix.parse_grid(text, 0, 0),
                Encoding::CoordList => read_shown_maze(text, encoding),
            };
            parsed.map_err(|e| {
                CliError::input(format!(
                    "{path} is not a maze in the {encoding} encoding: {e}"
                ))
            })?
        }
        Err(e) => return Err(CliError::input(format!("{path}: {e}"))),
        Ok(g) => g,
    };
    if !fits(&grid) {
        return Err(CliError::input(format!(
            "{path} holds a {}x{} maze; the largest supported is {MAX_SIZE}x{MAX_SIZE}",
            grid.rows(),
            grid.cols()
        )));
    }
    Maze::from_grid(grid).map_err(|e| CliError::input(format!("{path}: {e}")))
}
