//! A race: two recorded trials of one maze replayed side by side, stepping together
//! (`/demo?race=A,B`), a person's and a model's or two models'. Both sides step on one
//! playhead; a side that has finished keeps showing its last frame while the other goes
//! on. Each side's counters are its frames' own (moves; seconds for a person; tokens for a
//! model), so the race shows exactly what each record holds.

use crate::maze::grid::Maze;
use crate::results::record::{RecordError, TrialRecord};
use crate::results::replay::{frames, Frame};
use std::fmt;

/// Where one side of a race comes from, as the `race` parameter names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceSide {
    /// A trial the site ships (`public/trials/NAME.json`): letters, digits, `-`, `_`, `.`.
    Bundled(String),
    /// A trial stored in this browser's results (`stored:` and its key), which a link
    /// opens only in the browser that holds it.
    Stored(String),
}

impl RaceSide {
    /// The side as the `race` parameter writes it.
    pub fn param(&self) -> String {
        match self {
            RaceSide::Bundled(name) => name.clone(),
            RaceSide::Stored(key) => format!("{STORED}{key}"),
        }
    }

    /// Reads one side of the parameter.
    pub fn parse(text: &str) -> Result<RaceSide, RaceError> {
        let text = text.trim();
        if let Some(key) = text.strip_prefix(STORED) {
            if key.is_empty() {
                return Err(RaceError::BadSide(text.to_string()));
            }
            return Ok(RaceSide::Stored(key.to_string()));
        }
        let ok = !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if ok {
            Ok(RaceSide::Bundled(text.to_string()))
        } else {
            Err(RaceError::BadSide(text.to_string()))
        }
    }
}

/// The prefix of a stored trial's key in the `race` parameter.
const STORED: &str = "stored:";

/// Reads `race=A,B`: two sides, told apart by the first comma (a stored key may hold more).
pub fn parse_race(param: &str) -> Result<(RaceSide, RaceSide), RaceError> {
    let (a, b) = param
        .split_once(',')
        .ok_or_else(|| RaceError::NotTwo(param.to_string()))?;
    Ok((RaceSide::parse(a)?, RaceSide::parse(b)?))
}

/// The `race` parameter of two sides.
pub fn race_param(a: &RaceSide, b: &RaceSide) -> String {
    format!("{},{}", a.param(), b.param())
}

/// Why two trials cannot race.
#[derive(Clone, Debug, PartialEq)]
pub enum RaceError {
    /// The parameter does not name two sides.
    NotTwo(String),
    /// A side is neither a bundled trial's name nor a stored trial's key.
    BadSide(String),
    /// The two trials were not played on the same maze.
    NotSameMaze {
        /// The first trial's maze, for people.
        a: String,
        /// The second's.
        b: String,
    },
    /// A record's maze or messages cannot be replayed.
    Record(RecordError),
}

impl fmt::Display for RaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceError::NotTwo(p) => write!(
                f,
                "race={p} does not name two trials: write race=A,B (two bundled trials' names, or stored:KEY for a trial stored in this browser)"
            ),
            RaceError::BadSide(s) => write!(
                f,
                "'{s}' is neither a bundled trial's name (letters, digits, - and _) nor stored:KEY"
            ),
            RaceError::NotSameMaze { a, b } => write!(
                f,
                "the two trials were not played on the same maze ({a}; {b}): a race compares two plays of one maze"
            ),
            RaceError::Record(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RaceError {}

/// Two trials of one maze, ready to step together.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// The first side's frames.
    pub a: Vec<Frame>,
    /// The second side's frames.
    pub b: Vec<Frame>,
}

/// One side's frame at a step of the race, and whether that side had finished by then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideAt<'a> {
    /// The frame shown.
    pub frame: &'a Frame,
    /// Whether the side's last frame was reached at or before this step.
    pub finished: bool,
}

impl Race {
    /// The race of `a` and `b`, refused unless both were played on the same maze (the
    /// same grid, player and goal as first shown).
    pub fn of(a: &TrialRecord, b: &TrialRecord) -> Result<Race, RaceError> {
        let (ma, mb) = (
            a.first_maze().map_err(RaceError::Record)?,
            b.first_maze().map_err(RaceError::Record)?,
        );
        if ma != mb {
            return Err(RaceError::NotSameMaze {
                a: describe(a, &ma),
                b: describe(b, &mb),
            });
        }
        Ok(Race {
            a: frames(a).map_err(RaceError::Record)?,
            b: frames(b).map_err(RaceError::Record)?,
        })
    }

    /// Steps in the race: the longer side's frames.
    pub fn len(&self) -> usize {
        self.a.len().max(self.b.len())
    }

    /// Whether the race has no step (never, for a race made by [`Race::of`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Both sides at `step`: a side with fewer frames stays on its last.
    pub fn at(&self, step: usize) -> (SideAt<'_>, SideAt<'_>) {
        (side_at(&self.a, step), side_at(&self.b, step))
    }
}

fn side_at(frames: &[Frame], step: usize) -> SideAt<'_> {
    let last = frames.len().saturating_sub(1);
    SideAt {
        frame: &frames[step.min(last)],
        finished: step >= last,
    }
}

/// A trial's maze for people: shape, size, seed and sample.
fn describe(r: &TrialRecord, maze: &Maze) -> String {
    format!(
        "{} played a {} {}x{}, seed {}, sample {}",
        r.model,
        r.shape.name(),
        maze.rows(),
        maze.cols(),
        r.seed,
        r.sample
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;
    use crate::maze::generate::generate_one;
    use crate::maze::shape::Shape;
    use crate::maze::templates::TemplateLibrary;
    use crate::play::player::{play_ready, Oracle, PlayerKind, RandomWalker};
    use crate::play::trial::{Trial, TrialSetup};
    use crate::results::record::{Placement, PlayerInfo};

    fn played(sample: usize, random: Option<u64>) -> TrialRecord {
        let lib = TemplateLibrary::for_shape(5, Shape::Spiral);
        let maze = generate_one(Shape::Spiral, sample, 7, &lib).expect("maze");
        let mut t = Trial::start(TrialSetup::new(Shape::Spiral, Encoding::Matrix, maze));
        let kind = match random {
            Some(seed) => {
                play_ready(&mut t, &mut RandomWalker::new(seed));
                PlayerKind::Random
            }
            None => {
                play_ready(&mut t, &mut Oracle);
                PlayerKind::Oracle
            }
        };
        TrialRecord::of(
            &t,
            PlayerInfo::builtin(kind),
            Placement {
                seed: 7,
                sample,
                repeat: 0,
            },
            None,
            None,
        )
    }

    #[test]
    fn two_plays_of_one_maze_step_together_and_the_shorter_waits_at_its_end() {
        let (a, b) = (played(0, None), played(0, Some(5)));
        let race = Race::of(&a, &b).expect("one maze");
        assert_eq!(race.a, frames(&a).expect("frames"));
        assert_eq!(race.len(), race.a.len().max(race.b.len()));
        // The random walker (side b) walks into a wall early; the oracle plays all three
        // phases.
        assert!(
            race.b.len() < race.a.len(),
            "{} {}",
            race.a.len(),
            race.b.len()
        );
        let last_b = race.b.len() - 1;
        let (x, y) = race.at(last_b);
        assert!(
            y.finished && !x.finished,
            "the walker is done, the oracle goes on"
        );
        assert_eq!(x.frame, &race.a[last_b]);
        let (x, y) = race.at(race.a.len() - 1);
        assert_eq!(
            y.frame,
            race.b.last().expect("a frame"),
            "b waits on its last frame"
        );
        assert!(x.finished && y.finished);
        let (x, y) = race.at(0);
        assert!(
            !x.finished && !y.finished,
            "nobody has finished at the start"
        );
        // Past the end, both stay on their last frames.
        let (x, y) = race.at(race.len() + 5);
        assert_eq!(x.frame, race.a.last().expect("a frame"));
        assert_eq!(y.frame, race.b.last().expect("a frame"));
    }

    #[test]
    fn two_different_mazes_are_refused_with_both_named() {
        let err = Race::of(&played(0, None), &played(1, None)).expect_err("two mazes");
        let text = err.to_string();
        assert!(
            text.contains("sample 0") && text.contains("sample 1"),
            "{text}"
        );
        assert!(text.contains("not played on the same maze"), "{text}");
    }

    #[test]
    fn the_race_parameter_names_two_sides_and_reads_back() {
        let (a, b) = parse_race("oracle-spiral,stored:exp-1/t,2").expect("two sides");
        assert_eq!(a, RaceSide::Bundled("oracle-spiral".into()));
        assert_eq!(b, RaceSide::Stored("exp-1/t,2".into()));
        assert_eq!(race_param(&a, &b), "oracle-spiral,stored:exp-1/t,2");
        for bad in ["oracle-spiral", "", "a b,c", "stored:,x", "../x,y"] {
            let err = parse_race(bad).expect_err(bad);
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn the_counters_add_up_each_side_s_own_seconds_and_tokens() {
        let mut r = played(0, None);
        let mut n = 0u64;
        for m in r
            .messages
            .iter_mut()
            .filter(|m| m.role == crate::play::transcript::Role::Assistant)
        {
            n += 1;
            m.meta.latency_ms = Some(1500.0);
            m.meta.completion_tokens = Some(10 * n);
        }
        let f = frames(&r).expect("frames");
        let last = f.last().expect("a frame");
        assert!((last.seconds - 1.5 * n as f64).abs() < 1e-9);
        assert_eq!(last.tokens, Some(10 * n * (n + 1) / 2));
        assert_eq!(f[0].seconds, 0.0);
        assert_eq!(f[0].tokens, None, "the opening frame has no reply yet");
        let plain = frames(&played(0, None)).expect("frames");
        assert_eq!(
            plain.last().expect("a frame").tokens,
            None,
            "a built-in player reports none"
        );
    }
}
