//! Step-by-step replay of a recorded trial: the frames a presenter (or a reviewer on the
//! results page) steps through, each with the maze as it stood, the path walked, the
//! prompt and the reply of that step, and the verdict on it.
//!
//! The frames are rebuilt from the record's own data (its maze as first shown and each
//! reply's recorded verdict), never re-scored, so a replay shows exactly what was judged.

use crate::maze::grid::{Grid, Maze, Pos};
use crate::play::phase::Phase;
use crate::play::transcript::Role;
use crate::play::trial::Protocol;
use crate::results::choice::{move_choice, Choice};
use crate::results::record::{RecordError, TrialRecord};
use crate::verify::{Extracted, Verdict};

/// One step of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The maze to show (player where it stood after this step).
    pub grid: Grid,
    /// The cells walked so far, start first.
    pub path: Vec<Pos>,
    /// The phase this step belongs to.
    pub phase: Phase,
    /// The prompt that asked for this step's reply (or the first prompt, at the start).
    pub prompt: String,
    /// The reply of this step (`None` for the opening frame).
    pub reply: Option<String>,
    /// The model's reasoning for this reply, if recorded.
    pub reasoning: Option<String>,
    /// The verdict on this reply, if recorded.
    pub verdict: Option<Verdict>,
    /// Moves made so far.
    pub moves: usize,
    /// Seconds the replies so far took (each reply's recorded latency: a model's call, or
    /// a person's time from the prompt to the answer); 0 when none was recorded.
    pub seconds: f64,
    /// Completion tokens of the replies so far, when any reply reported its usage (a
    /// model's; people and built-in players have none).
    pub tokens: Option<u64>,
    /// For a move of a stepwise solve whose reply kept its token log probabilities: where
    /// the move's probability went.
    pub choice: Option<Choice>,
}

/// The phase a prompt opens, from its heading (updates and unknown text keep the phase):
/// where a record's reply belongs, walking its messages in order.
pub fn phase_of(prompt: &str, current: Phase) -> Phase {
    use crate::play::prompt::{read_heading, Heading};
    match read_heading(prompt) {
        Some(Heading::Solve | Heading::SolvePath) => Phase::Solve,
        Some(Heading::Recognize | Heading::Combined) => Phase::Recognize,
        Some(Heading::Generate) => Phase::Generate,
        Some(Heading::Update) | None => current,
    }
}

/// The frames of `record`: the opening frame, then one per reply.
pub fn frames(record: &TrialRecord) -> Result<Vec<Frame>, RecordError> {
    let first: Maze = record.first_maze()?;
    let mut maze = first.clone();
    let mut path = vec![first.player()];
    let mut phase = Phase::Solve;
    let mut moves = 0;
    let mut prompt = String::new();
    let mut seconds = 0.0;
    let mut tokens: Option<u64> = None;
    let mut out = Vec::new();
    for m in &record.messages {
        match m.role {
            Role::User => {
                phase = phase_of(&m.content, phase);
                prompt = m.content.clone();
                if out.is_empty() {
                    out.push(Frame {
                        grid: maze.display_grid(),
                        path: path.clone(),
                        phase,
                        prompt: prompt.clone(),
                        reply: None,
                        reasoning: None,
                        verdict: None,
                        moves,
                        seconds,
                        tokens,
                        choice: None,
                    });
                }
            }
            Role::Assistant => {
                seconds += m.meta.latency_ms.unwrap_or(0.0).max(0.0) / 1000.0;
                if let Some(n) = m.meta.completion_tokens {
                    tokens = Some(tokens.unwrap_or(0) + n);
                }
                let stepwise = phase == Phase::Solve && record.protocol != Protocol::SingleShot;
                let choice = m
                    .meta
                    .logprobs
                    .as_deref()
                    .filter(|_| stepwise)
                    .map(|tokens| Choice {
                        before: maze.display_grid(),
                        read: move_choice(&m.content, tokens),
                    });
                if phase == Phase::Solve {
                    moves += 1;
                    match m.verdict.as_ref().map(|v| (v.passed(), &v.extracted)) {
                        Some((true, Extracted::Cell(to))) if first.grid().contains(*to) => {
                            maze = maze.with_player_at(*to);
                            path.push(*to);
                        }
                        Some((true, Extracted::Cells(cells))) => {
                            moves = cells.len().saturating_sub(1);
                            if let Some(&end) = cells.last().filter(|p| first.grid().contains(**p))
                            {
                                maze = maze.with_player_at(end);
                            }
                            path = cells.clone();
                        }
                        _ => {}
                    }
                }
                // From recognition on, the original is shown again (as on the page).
                let shown = if phase == Phase::Solve { &maze } else { &first };
                out.push(Frame {
                    grid: shown.display_grid(),
                    path: path.clone(),
                    phase,
                    prompt: prompt.clone(),
                    reply: Some(m.content.clone()),
                    reasoning: m.meta.reasoning.clone(),
                    verdict: m.verdict.clone(),
                    moves,
                    seconds,
                    tokens,
                    choice,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(RecordError::NoMessages);
    }
    Ok(out)
}

/// Replay position and speed, advanced by the page's timer and keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playhead {
    /// The frame shown.
    pub at: usize,
    /// How many frames there are.
    pub len: usize,
    /// Whether it advances by itself.
    pub playing: bool,
    /// Frames per second.
    pub speed: f64,
}

/// The speeds offered: frames per second and its label (labels are written out so the
/// browser build needs no float formatting).
pub const SPEEDS: [(f64, &str); 5] = [
    (0.25, "0.25×"),
    (0.5, "0.5×"),
    (1.0, "1×"),
    (2.0, "2×"),
    (4.0, "4×"),
];

impl Playhead {
    /// At the first of `len` frames, paused, one frame a second.
    pub fn new(len: usize) -> Playhead {
        Playhead {
            at: 0,
            len,
            playing: false,
            speed: 1.0,
        }
    }

    /// One frame on (stops playing at the end).
    pub fn step(&mut self) {
        if self.at + 1 < self.len {
            self.at += 1;
        }
        if self.at + 1 >= self.len {
            self.playing = false;
        }
    }

    /// One frame back.
    pub fn back(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    /// Starts or stops playing; playing from the last frame starts over.
    pub fn toggle(&mut self) {
        if !self.playing && self.at + 1 >= self.len {
            self.at = 0;
        }
        self.playing = !self.playing && self.len > 1;
    }

    /// The milliseconds between frames at this speed.
    pub fn interval_ms(&self) -> u32 {
        (1000.0 / self.speed.max(0.01)).round() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;
    use crate::maze::generate::generate_one;
    use crate::maze::grid::Tile;
    use crate::maze::shape::Shape;
    use crate::maze::templates::TemplateLibrary;
    use crate::model::reply::TokenLogprob;
    use crate::play::player::PlayerKind;
    use crate::play::player::{play_ready, Oracle, RandomWalker};
    use crate::play::trial::{Protocol, Trial, TrialSetup};
    use crate::results::record::{Placement, PlayerInfo};

    fn record(shape: Shape, protocol: Protocol, random: Option<u64>) -> TrialRecord {
        let lib = TemplateLibrary::for_shape(5, shape);
        let maze = generate_one(shape, 2, 9, &lib).expect("maze");
        let mut t = Trial::start(TrialSetup {
            protocol,
            ..TrialSetup::new(shape, Encoding::Matrix, maze)
        });
        match random {
            Some(seed) => play_ready(&mut t, &mut RandomWalker::new(seed)),
            None => play_ready(&mut t, &mut Oracle),
        }
        TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Oracle),
            Placement::default(),
            None,
            None,
        )
    }

    #[test]
    fn an_oracle_replay_walks_the_player_to_the_goal_then_shows_the_original() {
        for shape in Shape::ALL {
            let r = record(shape, Protocol::Stepwise, None);
            let f = frames(&r).expect("frames");
            let replies = r
                .messages
                .iter()
                .filter(|m| m.role == Role::Assistant)
                .count();
            assert_eq!(f.len(), replies + 1, "an opening frame and one per reply");
            let last_solve = f
                .iter()
                .rev()
                .find(|x| x.phase == Phase::Solve)
                .expect("solve");
            let goal = r.first_maze().expect("maze").goal();
            assert_eq!(
                last_solve.path.last(),
                Some(&goal),
                "{shape}: the walk ends on G"
            );
            assert_eq!(last_solve.moves, r.moves);
            let end = f.last().expect("frames");
            assert_eq!(end.phase, Phase::Generate);
            assert_eq!(end.grid, r.first_maze().expect("maze").display_grid());
            assert!(end.verdict.as_ref().is_some_and(Verdict::passed));
        }
    }

    #[test]
    fn a_single_shot_replay_shows_the_whole_path_in_one_step() {
        let r = record(Shape::Spiral, Protocol::SingleShot, None);
        let f = frames(&r).expect("frames");
        assert_eq!(f[1].path.len(), r.moves + 1, "the whole path at once");
        assert_eq!(f[1].phase, Phase::Solve);
    }

    #[test]
    fn invalid_moves_leave_the_player_where_it_stood() {
        for seed in 0..30 {
            let r = record(Shape::Square, Protocol::Stepwise, Some(seed));
            let f = frames(&r).expect("frames");
            for w in f.windows(2) {
                let failed = w[1].verdict.as_ref().is_some_and(|v| !v.passed());
                if failed && w[1].phase == Phase::Solve {
                    assert_eq!(
                        w[1].path, w[0].path,
                        "seed {seed}: no step on a failed move"
                    );
                }
            }
        }
    }

    /// One token per character, each digit with an alternative digit.
    fn char_tokens(text: &str) -> Vec<TokenLogprob> {
        text.chars()
            .map(|c| {
                let token = c.to_string();
                let top = match c.to_digit(10) {
                    Some(d) => vec![
                        TokenLogprob {
                            token: token.clone(),
                            logprob: 0.75f64.ln(),
                            top_logprobs: Vec::new(),
                        },
                        TokenLogprob {
                            token: ((d + 1) % 10).to_string(),
                            logprob: 0.25f64.ln(),
                            top_logprobs: Vec::new(),
                        },
                    ],
                    None => Vec::new(),
                };
                TokenLogprob {
                    token,
                    logprob: if top.is_empty() { 0.0 } else { 0.75f64.ln() },
                    top_logprobs: top,
                }
            })
            .collect()
    }

    #[test]
    fn a_move_with_log_probabilities_shows_its_choice_on_the_maze_before_it() {
        let mut r = record(Shape::Cross, Protocol::Stepwise, None);
        let plain = frames(&r).expect("frames");
        assert!(
            plain.iter().all(|f| f.choice.is_none()),
            "no log probabilities, no choice"
        );
        for m in &mut r.messages {
            if m.role == Role::Assistant {
                m.meta.logprobs = Some(char_tokens(&m.content));
            }
        }
        let f = frames(&r).expect("frames");
        let solve = f
            .iter()
            .filter(|x| x.phase == Phase::Solve && x.reply.is_some());
        assert_eq!(solve.clone().count(), r.moves);
        for (i, x) in solve.enumerate() {
            let c = x.choice.as_ref().expect("a solve reply's choice");
            // Chosen on the maze as it stood: the player where the frame before left it.
            let before = f[i].path.last().copied().expect("a path");
            assert_eq!(c.before.get(before), Some(Tile::Player), "move {i}");
            let m = c.read.as_ref().expect("read");
            assert_eq!(Some(&m.cell), x.path.last(), "move {i}: the cell moved to");
            assert!((m.row.of(m.cell.row) - 0.75).abs() < 1e-12);
            assert!((m.row.of((m.cell.row + 1) % 10) - 0.25).abs() < 1e-12);
        }
        assert!(
            f.iter()
                .filter(|x| x.phase != Phase::Solve)
                .all(|x| x.choice.is_none()),
            "recognition and generation have no move"
        );
        let mut single = record(Shape::Cross, Protocol::SingleShot, None);
        for m in &mut single.messages {
            m.meta.logprobs = Some(char_tokens(&m.content));
        }
        assert!(
            frames(&single)
                .expect("frames")
                .iter()
                .all(|x| x.choice.is_none()),
            "a whole path is not one move"
        );
    }

    #[test]
    fn the_playhead_steps_back_and_forth_and_stops_at_the_end() {
        let mut p = Playhead::new(3);
        p.toggle();
        assert!(p.playing);
        p.step();
        p.step();
        assert_eq!((p.at, p.playing), (2, false), "stops on the last frame");
        p.step();
        assert_eq!(p.at, 2);
        p.toggle();
        assert_eq!(
            (p.at, p.playing),
            (0, true),
            "playing from the end starts over"
        );
        p.back();
        assert_eq!(p.at, 0);
        p.speed = 4.0;
        assert_eq!(p.interval_ms(), 250);
        let mut one = Playhead::new(1);
        one.toggle();
        assert!(!one.playing, "nothing to play");
    }
}
