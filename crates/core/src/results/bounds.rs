//! How far the readings a phase's outcome rests on could move it: the reading bounds of a
//! rate (docs/guides/results-and-audits.md, "Rates with their reading bounds").
//!
//! A reading is *unsure* when its verdict says `sure: false`; a verdict that does not say
//! (`sure` absent: records from before verifier 5, a person's click, an endpoint failure)
//! counts as sure, so the bounds of old records equal their rates. A phase's outcome rests
//! on the readings of the replies it judged: every move of the solve phase up to the one
//! that ended it (a single-shot trial's one path), the recognition reply, the generation
//! reply (a combined reply's recognition and generation readings each count for its own
//! phase).
//!
//! - **If every unsure reading were wrong**: a phase whose outcome rests on an unsure
//!   reading fails. A success read through an unsure reading may be a misreading of a reply
//!   that did not pass; a failure stays a failure.
//! - **If every unsure reading were right**: such a phase passes where a right answer in
//!   place of the unsure reading could have passed. For a shape or a maze it always could
//!   (the right shape named, a valid new maze). For the solve phase, the first unsure
//!   reading is where the trial as recorded stops telling what the model did: every later
//!   prompt showed the maze as that reading left it. The phase could have passed when the
//!   goal can still be reached from the cell the player stood on then within the moves left
//!   (that move included); a success could always. So a trial that failed on an unsure
//!   reading of its first move passes this bound when the maze's shortest path fits the
//!   move limit, and one that failed on an unsure reading of its sixteenth move only when
//!   the goal was one move away.
//!
//! A failure read through sure readings alone stays a failure in both bounds, and a success
//! a success.

use crate::maze::grid::{Maze, Movement};
use crate::play::prompt::{read_heading, Heading};
use crate::play::transcript::Role;
use crate::play::trial::Trial;
use crate::results::record::TrialRecord;
use crate::verify::{Extracted, Outcome, Verdict};

/// How the readings of one phase bear on its outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseDoubt {
    /// Whether the outcome rests on an unsure reading.
    pub unsure: bool,
    /// Whether a right answer in place of the unsure readings could have passed the phase
    /// (meaningful only when `unsure`).
    pub could_pass: bool,
}

impl PhaseDoubt {
    /// A phase read through sure readings alone.
    pub const SURE: PhaseDoubt = PhaseDoubt {
        unsure: false,
        could_pass: false,
    };

    /// The phase's success (`scored`: `Some(true)` a success, `Some(false)` a failure,
    /// `None` not scored) if every unsure reading were a wrong answer, and if every one were
    /// a right answer; `None` when the phase is not scored.
    pub fn bounds(self, scored: Option<bool>) -> Option<[bool; 2]> {
        scored.map(|ok| {
            if self.unsure {
                [false, ok || self.could_pass]
            } else {
                [ok, ok]
            }
        })
    }
}

/// Whether a verdict's reading is unsure (`sure: false`; a verdict that does not say counts
/// as sure).
fn unsure(v: &Verdict) -> bool {
    v.sure == Some(false)
}

/// The doubts of a trial's three phases (solve, recognize, generate) from its conversation
/// in order (each message's role, text and verdict), the maze first shown, its movement
/// and move limit, and the three phase verdicts.
pub fn doubts<'a>(
    conversation: impl IntoIterator<Item = (Role, &'a str, Option<&'a Verdict>)>,
    maze: &Maze,
    movement: Movement,
    move_limit: usize,
    phases: [Option<&Verdict>; 3],
) -> [PhaseDoubt; 3] {
    let reply = |v: Option<&Verdict>| v.map_or(PhaseDoubt::SURE, of_reply);
    [
        solve_doubt(conversation, maze, movement, move_limit),
        reply(phases[1]),
        reply(phases[2]),
    ]
}

/// The doubt of a phase judged on one reply (a shape, a maze): unsure when its reading is,
/// and then a right answer could always have passed.
pub fn of_reply(v: &Verdict) -> PhaseDoubt {
    PhaseDoubt {
        unsure: unsure(v),
        could_pass: unsure(v),
    }
}

/// The solve phase's doubt: its first unsure reading, and whether the goal could still be
/// reached from there within the moves left.
fn solve_doubt<'a>(
    conversation: impl IntoIterator<Item = (Role, &'a str, Option<&'a Verdict>)>,
    maze: &Maze,
    movement: Movement,
    move_limit: usize,
) -> PhaseDoubt {
    let open = maze.open_mask();
    let mut at = maze.player();
    let mut used = 0;
    for (role, text, verdict) in conversation {
        if role == Role::User {
            let later = matches!(
                read_heading(text),
                Some(Heading::Recognize | Heading::Combined | Heading::Generate)
            );
            if later {
                break;
            }
            continue;
        }
        let Some(v) = verdict else { continue };
        if v.outcome == Outcome::Error {
            break;
        }
        if unsure(v) {
            let left = move_limit.saturating_sub(used);
            let reach = open.distance(at, maze.goal(), movement);
            return PhaseDoubt {
                unsure: true,
                could_pass: v.passed() || reach.is_some_and(|d| d <= left),
            };
        }
        used += 1;
        if let (true, Extracted::Cell(to)) = (v.passed(), &v.extracted) {
            at = *to;
        }
    }
    PhaseDoubt::SURE
}

/// The doubts of a record's phases (all sure when its maze cannot be read).
pub fn of_record(r: &TrialRecord) -> [PhaseDoubt; 3] {
    let Ok(maze) = r.first_maze() else {
        return [PhaseDoubt::SURE; 3];
    };
    doubts(
        r.messages
            .iter()
            .map(|m| (m.role, m.content.as_str(), m.verdict.as_ref())),
        &maze,
        r.shape.movement(),
        r.move_limit,
        r.verdicts.all(),
    )
}

/// The doubts of a trial's phases as played so far.
pub fn of_trial(t: &Trial) -> [PhaseDoubt; 3] {
    let s = t.setup();
    doubts(
        t.turns().iter().map(|turn| {
            (
                turn.message.role,
                turn.message.content.as_str(),
                turn.verdict.as_ref(),
            )
        }),
        &s.maze,
        s.shape.movement(),
        s.move_limit,
        t.verdicts(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::grid::Pos;
    use crate::verify::{Reason, Rule};

    /// A move's verdict: to `to`, valid or not, sure or not.
    fn step(to: Pos, ok: bool, sure: bool) -> Verdict {
        let rule = if sure {
            Rule::AnswerLabel
        } else {
            Rule::LastCoordinate
        };
        Verdict {
            sure: Some(sure),
            ..Verdict::new(
                ok,
                if ok { Reason::ValidMove } else { Reason::Wall },
                Extracted::Cell(to),
                String::new(),
            )
            .read_by(rule)
        }
    }

    /// A 5x5 square ring with P at (3, 2) and G at (1, 2): the corridor goes round the
    /// middle wall, four moves from P to G either way.
    fn maze() -> Maze {
        let text = "1 1 1 1 1\n1 0 G 0 1\n1 0 1 0 1\n1 0 P 0 1\n1 1 1 1 1";
        let grid = crate::maze::encoding::Encoding::Matrix
            .parse_grid(text, 5, 5)
            .expect("reads");
        Maze::from_grid(grid).expect("plays")
    }

    /// The first step on one way round.
    const FIRST: Pos = Pos { row: 3, col: 1 };

    fn square() -> Movement {
        crate::maze::shape::Shape::Square.movement()
    }

    fn solve(moves: &[Verdict], limit: usize) -> PhaseDoubt {
        let m = maze();
        let conversation = std::iter::once((Role::User, crate::play::prompt::SOLVE_HEADING, None))
            .chain(moves.iter().map(|v| (Role::Assistant, "reply", Some(v))));
        solve_doubt(conversation, &m, square(), limit)
    }

    #[test]
    fn a_phase_read_through_sure_readings_keeps_its_outcome_in_both_bounds() {
        assert_eq!(PhaseDoubt::SURE.bounds(Some(true)), Some([true, true]));
        assert_eq!(PhaseDoubt::SURE.bounds(Some(false)), Some([false, false]));
        assert_eq!(PhaseDoubt::SURE.bounds(None), None, "not scored");
        let m = maze();
        let first = FIRST;
        assert_eq!(solve(&[step(first, true, true)], 16), PhaseDoubt::SURE);
        assert_eq!(
            Verdict::new(true, Reason::ValidMove, Extracted::Nothing, String::new()).sure,
            None,
            "a verdict that does not say"
        );
        assert_eq!(m.player(), Pos::new(3, 2), "the maze the tests assume");
    }

    #[test]
    fn an_unsure_success_fails_if_unsure_readings_were_wrong_and_stays_a_success_if_right() {
        let d = PhaseDoubt {
            unsure: true,
            could_pass: true,
        };
        assert_eq!(d.bounds(Some(true)), Some([false, true]));
        let first = FIRST;
        let d = solve(&[step(first, true, false)], 16);
        assert!(d.unsure && d.could_pass, "{d:?}");
    }

    #[test]
    fn an_unsure_failure_passes_the_upper_bound_only_where_the_goal_was_still_within_reach() {
        let m = maze();
        let first = FIRST;
        let wall = Pos::new(2, 2);
        // Failed on an unsure reading of the first move: four moves reach G, sixteen left.
        let d = solve(&[step(wall, false, false)], 16);
        assert_eq!(d.bounds(Some(false)), Some([false, true]), "{d:?}");
        // With a limit of three moves, no right answer could have reached G.
        let d = solve(&[step(wall, false, false)], 3);
        assert_eq!(d.bounds(Some(false)), Some([false, false]), "{d:?}");
        // One sure move, then an unsure failure with three moves left of four: G is three
        // moves from the first step, so it could have passed; with a limit of three it could not.
        let moves = [step(first, true, true), step(wall, false, false)];
        assert_eq!(m.open_mask().distance(first, m.goal(), square()), Some(3));
        assert!(solve(&moves, 4).could_pass);
        assert!(!solve(&moves, 3).could_pass);
        // A sure failure after it is no doubt; an unsure reading after the phase's end is
        // not the solve phase's.
        assert_eq!(solve(&[step(wall, false, true)], 16), PhaseDoubt::SURE);
    }

    #[test]
    fn a_shape_or_a_maze_read_unsure_could_always_have_passed() {
        let m = maze();
        let unsure_shape = Verdict {
            sure: Some(false),
            ..Verdict::new(false, Reason::WrongShape, Extracted::Nothing, String::new())
        };
        let sure_maze = Verdict {
            sure: Some(true),
            ..Verdict::new(
                false,
                Reason::NoMazeFound,
                Extracted::Nothing,
                String::new(),
            )
        };
        let d = doubts(
            [
                (Role::User, crate::play::prompt::SOLVE_HEADING, None),
                (Role::User, crate::play::prompt::RECOGNIZE_HEADING, None),
                (Role::Assistant, "a shape", Some(&unsure_shape)),
            ],
            &m,
            square(),
            16,
            [None, Some(&unsure_shape), Some(&sure_maze)],
        );
        assert_eq!(d[0], PhaseDoubt::SURE);
        assert_eq!(d[1].bounds(Some(false)), Some([false, true]));
        assert_eq!(d[2].bounds(Some(false)), Some([false, false]));
    }
}
