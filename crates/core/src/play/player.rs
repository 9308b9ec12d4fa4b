//! The player seam: one interface through which a trial is played by anyone.
//!
//! [`play`] hands a [`Trial`]'s pending prompt to a [`Player`] and its reply back to the
//! trial, until the trial is done; it cannot tell the players apart. The built-in players
//! live here: the [`Oracle`] (a perfect player), the [`RandomWalker`] (a documented, seeded
//! policy that sometimes errs in every phase) and the [`Scripted`] player (replies from a
//! list or a function, for tests). The endpoint player (a chat model) is
//! [`crate::model`]'s client behind the same trait. A person on the play page is the
//! same engine driven by clicks: the page hands each click or answer to
//! [`Trial::submit`] exactly as [`play`] hands a reply.
//!
//! ```
//! use shapemaze_core::play::player::{play_ready, Oracle};
//! use shapemaze_core::play::trial::{Trial, TrialSetup};
//! use shapemaze_core::maze::{encoding::Encoding, generate::generate_one, shape::Shape};
//! use shapemaze_core::maze::templates::TemplateLibrary;
//!
//! let lib = TemplateLibrary::new(5);
//! let maze = generate_one(Shape::Spiral, 0, 0, &lib).unwrap();
//! let mut trial = Trial::start(TrialSetup::new(Shape::Spiral, Encoding::Matrix, maze));
//! play_ready(&mut trial, &mut Oracle);
//! assert!(trial.outcomes().iter().all(|o| o.is_some_and(|o| o.name() == "success")));
//! ```

use crate::maze::encoding::Encoding;
use crate::maze::grid::{Grid, Maze, Pos, Tile};
use crate::maze::shape::Shape;
use crate::model::reply::ReplyMeta;
use crate::play::phase::Phase;
use crate::play::trial::{ApiFailure, Protocol, Trial};
use crate::text::UnknownName;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::future::Future;
use std::ops::ControlFlow;

/// Who played a trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    /// A person at the page.
    Human,
    /// The built-in perfect player.
    Oracle,
    /// The built-in seeded random walker.
    Random,
    /// A scripted player (tests).
    Scripted,
    /// A chat model behind an OpenAI-compatible endpoint.
    Endpoint,
}

impl PlayerKind {
    /// Every kind.
    pub const ALL: [PlayerKind; 5] = [
        PlayerKind::Human,
        PlayerKind::Oracle,
        PlayerKind::Random,
        PlayerKind::Scripted,
        PlayerKind::Endpoint,
    ];

    /// The snake_case name (`human`, `oracle`, `random`, `scripted`, `endpoint`).
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Oracle => "oracle",
            PlayerKind::Random => "random",
            PlayerKind::Scripted => "scripted",
            PlayerKind::Endpoint => "endpoint",
        }
    }

    /// Reads a kind's name (any case).
    pub fn parse(s: &str) -> Result<PlayerKind, UnknownName> {
        let k = s.trim().to_ascii_lowercase();
        PlayerKind::ALL
            .into_iter()
            .find(|p| p.name() == k)
            .ok_or_else(|| {
                UnknownName::new("player", s, "human, oracle, random, scripted or endpoint")
            })
    }
}

/// A player's answer to one prompt.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// The reply's text, exactly as the trial is to read it.
    pub text: String,
    /// What is known about it (latency, tokens, reasoning), if anything.
    pub meta: Option<ReplyMeta>,
    /// Under an answer mode other than `free`, the reply's form (what the endpoint held,
    /// the call it made, or its transcription): the trial reads it first
    /// ([`Trial::respond_form`]).
    pub form: Option<crate::play::answer::FormAnswer>,
}

impl Reply {
    /// A reply with text alone.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            meta: None,
            form: None,
        }
    }
}

/// Why a player gave no reply.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerError {
    /// The endpoint failed (after its retries): the trial ends as an API error.
    Api(ApiFailure),
    /// The person running the trial stopped it.
    Stopped,
}

/// What happens while a player is answering, for a page to show.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerEvent {
    /// Text arrived (streaming): new answer text and new reasoning text.
    Delta {
        /// New answer text.
        content: String,
        /// New reasoning text.
        reasoning: String,
    },
    /// A call failed and is being retried; the text says why and when the next try comes.
    Retrying(String),
    /// A new request was sent (attempt number, from 1).
    Attempt(u32),
}

/// Anyone who can play a trial.
pub trait Player {
    /// What kind of player this is.
    fn kind(&self) -> PlayerKind;

    /// The name the records and exports use (the model's name for an endpoint).
    fn name(&self) -> String;

    /// Answers the trial's pending prompt (the trial's last message). `on_event` hears of
    /// progress while the answer is being made.
    fn respond(
        &mut self,
        trial: &Trial,
        on_event: &mut dyn FnMut(PlayerEvent),
    ) -> impl Future<Output = Result<Reply, PlayerError>>;
}

/// Plays `trial` to its end with `player`: each pending prompt goes to the player and each
/// reply to the trial. An API error ends the trial as such; a stop leaves it stopped.
pub async fn play<P: Player>(
    trial: &mut Trial,
    player: &mut P,
    on_event: &mut dyn FnMut(PlayerEvent),
) {
    play_watched(trial, player, on_event, &mut |_| ControlFlow::Continue(())).await;
}

/// [`play`], with `before_step` called with the trial before each prompt goes to the
/// player (a page shows the trial so far): `ControlFlow::Break` stops the trial there, as a
/// person's stop does.
pub async fn play_watched<P: Player>(
    trial: &mut Trial,
    player: &mut P,
    on_event: &mut dyn FnMut(PlayerEvent),
    before_step: &mut dyn FnMut(&Trial) -> ControlFlow<()>,
) {
    while trial.pending_prompt().is_some() {
        if before_step(trial).is_break() {
            trial.stop();
            break;
        }
        match player.respond(trial, on_event).await {
            Ok(Reply {
                text,
                meta,
                form: Some(form),
            }) if crate::play::answer::PLAYS_FORMS => {
                trial.respond_form(&text, meta, form);
            }
            Ok(reply) => {
                trial.respond(&reply.text, reply.meta);
            }
            Err(PlayerError::Api(failure)) => trial.fail_api(failure),
            Err(PlayerError::Stopped) => trial.stop(),
        }
    }
}

use crate::model::transport::block_on;

/// Plays `trial` to its end with a player whose replies are ready at once (built-in and
/// scripted players).
pub fn play_ready<P: Player>(trial: &mut Trial, player: &mut P) {
    block_on(play(trial, player, &mut |_| {}));
}

/// The maze with P and G swapped: the same corridor (so the same shape), a path between
/// them (the corridor is connected), and new (P and G are different cells).
fn swapped(maze: &Maze) -> Grid {
    let mut g = maze.grid().clone();
    g.set(maze.player(), Tile::Goal);
    g.set(maze.goal(), Tile::Player);
    g
}

fn render(trial: &Trial, grid: &Grid) -> String {
    let s = trial.setup();
    s.encoding.render_in(grid, s.style, s.symbols)
}

fn path_text(cells: &[Pos]) -> String {
    let list: Vec<String> = cells.iter().map(Pos::to_string).collect();
    format!("Path: {}", list.join(", "))
}

/// The perfect player: it moves along a shortest path, names the shape it was given, and
/// draws the original with P and G swapped (a valid new maze of the same shape). It knows
/// the answers, so it measures the pipeline, not reasoning: every trial it plays must
/// succeed in every phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Oracle;

impl Oracle {
    /// The oracle's reply to the trial's pending prompt (`None` when nothing is pending).
    pub fn answer(trial: &Trial) -> Option<String> {
        trial.pending_prompt()?;
        let s = trial.setup();
        let movement = s.shape.movement();
        let shape_line = format!("Shape: {}", s.shape.name());
        Some(match trial.phase() {
            Phase::Solve if s.protocol == Protocol::SingleShot => {
                path_text(&s.maze.shortest_path(movement).unwrap_or_default())
            }
            Phase::Solve => {
                let path = trial.current().shortest_path(movement).unwrap_or_default();
                match path.get(1) {
                    Some(next) => format!("Move: {next}"),
                    None => "I cannot find a way to the goal.".to_string(),
                }
            }
            Phase::Recognize if trial.combined_pending() => {
                format!("{shape_line}\n\n{}", render(trial, &swapped(&s.maze)))
            }
            Phase::Recognize => shape_line,
            Phase::Generate => render(trial, &swapped(&s.maze)),
            Phase::Done => return None,
        })
    }
}

impl Player for Oracle {
    fn kind(&self) -> PlayerKind {
        PlayerKind::Oracle
    }

    fn name(&self) -> String {
        "oracle".into()
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        _on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        Ok(Reply::text(Oracle::answer(trial).unwrap_or_default()))
    }
}

/// A seeded random player that errs in every phase now and then. Its policy, fixed so its
/// scores mean the same in every run:
/// - **Solve** (stepwise): with probability 1/10 it steps to a uniformly chosen cell among
///   all the grid cells next to it under the shape's movement (walls included, so it may
///   hit a wall); otherwise to a uniformly chosen open neighbour (a random walk, which may
///   run out of moves). Single shot: a random walk of up to the move limit, sent whole.
/// - **Recognize**: a uniformly chosen shape among all of them (right one time in six).
/// - **Generate**: uniformly one of three: the original with P and G swapped (valid and
///   new), the original copied (not new), or the original without its goal (not properly
///   encoded).
#[derive(Clone, Debug)]
pub struct RandomWalker {
    rng: ChaCha8Rng,
    seed: u64,
}

impl RandomWalker {
    /// A walker whose choices follow from `seed` (the same seed replays the same choices on
    /// the same trial).
    pub fn new(seed: u64) -> RandomWalker {
        RandomWalker {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_F7A1),
            seed,
        }
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn step(&mut self, maze: &Maze, shape: Shape) -> Option<Pos> {
        let p = maze.player();
        let around: Vec<Pos> = shape
            .movement()
            .steps()
            .iter()
            .filter_map(|&(dr, dc)| p.offset(dr, dc))
            .filter(|&q| maze.grid().contains(q))
            .collect();
        let open: Vec<Pos> = around
            .iter()
            .copied()
            .filter(|&q| maze.grid().get(q).is_some_and(Tile::is_open))
            .collect();
        let pool = if open.is_empty() || self.rng.random_range(0..10) == 0 {
            &around
        } else {
            &open
        };
        (!pool.is_empty()).then(|| pool[self.rng.random_range(0..pool.len())])
    }

    fn new_maze(&mut self, trial: &Trial) -> String {
        let maze = &trial.setup().maze;
        let grid = match self.rng.random_range(0..3) {
            0 => swapped(maze),
            1 => maze.grid().clone(),
            _ => {
                let mut g = maze.grid().clone();
                g.set(maze.goal(), Tile::Empty);
                g
            }
        };
        render(trial, &grid)
    }

    /// The walker's reply to the trial's pending prompt (`None` when nothing is pending).
    pub fn answer(&mut self, trial: &Trial) -> Option<String> {
        trial.pending_prompt()?;
        let s = trial.setup();
        Some(match trial.phase() {
            Phase::Solve if s.protocol == Protocol::SingleShot => {
                let mut maze = s.maze.clone();
                let mut cells = vec![maze.player()];
                while cells.len() <= s.move_limit && maze.player() != s.maze.goal() {
                    let Some(next) = self.step(&maze, s.shape) else {
                        break;
                    };
                    cells.push(next);
                    if !maze.grid().get(next).is_some_and(Tile::is_open) {
                        break;
                    }
                    maze = maze.with_player_at(next);
                }
                path_text(&cells)
            }
            Phase::Solve => match self.step(trial.current(), s.shape) {
                Some(next) => format!("Move: {next}"),
                None => "I do not know where to go.".to_string(),
            },
            Phase::Recognize => {
                let in_play = trial.library().shapes().shapes();
                let named = in_play[self.rng.random_range(0..in_play.len())];
                let line = format!("Shape: {}", named.name());
                if trial.combined_pending() {
                    format!("{line}\n\n{}", self.new_maze(trial))
                } else {
                    line
                }
            }
            Phase::Generate => self.new_maze(trial),
            Phase::Done => return None,
        })
    }
}

impl Player for RandomWalker {
    fn kind(&self) -> PlayerKind {
        PlayerKind::Random
    }

    fn name(&self) -> String {
        "random".into()
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        _on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        Ok(Reply::text(self.answer(trial).unwrap_or_default()))
    }
}

/// The reply source of a [`Scripted`] player.
type Script = Box<dyn FnMut(&Trial) -> Result<Reply, PlayerError>>;

/// A player whose replies are scripted: a fixed list, or a function of the trial. Tests use
/// it to reach every way a phase can end, and to inject API errors.
pub struct Scripted {
    name: String,
    script: Script,
}

impl Scripted {
    /// Replies from `replies` in order; once they run out, an API error ("the script ran
    /// out"), so a too-short script ends the trial instead of looping.
    pub fn replies<I, S>(replies: I) -> Scripted
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut queue: VecDeque<String> = replies.into_iter().map(Into::into).collect();
        Scripted::from_fn(move |_| {
            queue.pop_front().map(Reply::text).ok_or_else(|| {
                PlayerError::Api(ApiFailure {
                    kind: "script_ended".into(),
                    message: "the scripted player ran out of replies".into(),
                    attempts: 1,
                })
            })
        })
    }

    /// Replies computed from the trial by `f`.
    pub fn from_fn(f: impl FnMut(&Trial) -> Result<Reply, PlayerError> + 'static) -> Scripted {
        Scripted {
            name: "scripted".into(),
            script: Box::new(f),
        }
    }

    /// The same player under another name (as the records will show it).
    pub fn named(mut self, name: impl Into<String>) -> Scripted {
        self.name = name.into();
        self
    }
}

impl Player for Scripted {
    fn kind(&self) -> PlayerKind {
        PlayerKind::Scripted
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    async fn respond(
        &mut self,
        trial: &Trial,
        _on_event: &mut dyn FnMut(PlayerEvent),
    ) -> Result<Reply, PlayerError> {
        (self.script)(trial)
    }
}

/// How many scripted behaviours [`Scripted::variant`] has.
pub const VARIANTS: usize = 6;

/// A neighbour of the player's cell holding `tile` (under the shape's movement), if any.
fn neighbour(maze: &Maze, shape: Shape, tile: Tile) -> Option<Pos> {
    let p = maze.player();
    shape
        .movement()
        .steps()
        .iter()
        .filter_map(|&(dr, dc)| p.offset(dr, dc))
        .find(|&q| maze.grid().get(q) == Some(tile))
}

/// The shape after `shape` among the design's six (the square after U and N), for wrong
/// answers.
fn other_shape(shape: Shape) -> Shape {
    let i = Shape::STANDARD
        .iter()
        .position(|&s| s == shape)
        .unwrap_or(Shape::STANDARD.len() - 1);
    Shape::STANDARD[(i + 1) % Shape::STANDARD.len()]
}

impl Scripted {
    /// One of [`VARIANTS`] fixed behaviours (`variant` is taken modulo that), so a set of
    /// trials reaches every way a phase can end; `other` is a different maze of the same
    /// shape and size, offered where the script generates a valid new maze.
    ///
    /// | variant | solve | recognize | generate |
    /// | --- | --- | --- | --- |
    /// | 0 | shortest path, `Move: (r, c)` | `Shape: NAME` | `other`, same encoding |
    /// | 1 | shortest path in prose, with distracting coordinates | a negated wrong shape, then the right synonym | `other` in a code fence with prose |
    /// | 2 | into a wall (`invalid_move`) | a wrong shape | the original copied |
    /// | 3 | no coordinate (`unparseable_reply`) | no shape | no maze |
    /// | 4 | shortest path | `Shape: NAME` | `other` in the other encoding |
    /// | 5 | back and forth until the move limit | `Shape: NAME` | `other` |
    pub fn variant(variant: usize, other: Maze) -> Scripted {
        let variant = variant % VARIANTS;
        Scripted::from_fn(move |trial| {
            let s = trial.setup();
            let (shape, maze, encoding) = (s.shape, &s.maze, s.encoding);
            let text = match trial.phase() {
                Phase::Solve => match variant {
                    2 => {
                        let bump = neighbour(maze, shape, Tile::Wall).unwrap_or(Pos::new(99, 99));
                        format!("Going right into {bump}. Move: {bump}")
                    }
                    3 => "I am not sure which way leads to the goal.".to_string(),
                    5 => {
                        let start = maze.player();
                        let away = neighbour(maze, shape, Tile::Empty).unwrap_or(start);
                        let to = if trial.moves() % 2 == 0 { away } else { start };
                        format!("Move: {to}")
                    }
                    _ => {
                        let path = maze.shortest_path(shape.movement()).unwrap_or_default();
                        let at = trial.moves();
                        let (from, to) = match (path.get(at), path.get(at + 1)) {
                            (Some(&a), Some(&b)) => (a, b),
                            _ => (maze.player(), maze.player()),
                        };
                        if variant == 1 {
                            format!(
                                "I am at {from}. The goal G is at {}. Options include (0, 0), but I will move to {to} now.",
                                maze.goal()
                            )
                        } else {
                            format!("Move: {to}")
                        }
                    }
                },
                Phase::Recognize => match variant {
                    1 => format!(
                        "It is not a {}. Final answer: {}",
                        other_shape(shape),
                        shape.synonyms().last().unwrap_or(&"")
                    ),
                    2 => format!("Shape: {}", other_shape(shape)),
                    3 => "I cannot tell.".to_string(),
                    _ => format!("Shape: {shape}"),
                },
                Phase::Generate => match variant {
                    0 | 5 => encoding.render(other.grid()),
                    1 => format!(
                        "Here is a new maze:\n\n```\n{}\n```\nIt keeps the shape.",
                        encoding.render(other.grid())
                    ),
                    2 => encoding.render(maze.grid()),
                    3 => "Sorry, I cannot draw mazes.".to_string(),
                    _ => Encoding::ALL
                        .into_iter()
                        .find(|&e| e != encoding)
                        .unwrap_or(encoding)
                        .render(other.grid()),
                },
                Phase::Done => String::new(),
            };
            Ok(Reply::text(text))
        })
        .named(format!("scripted-{variant}"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::maze::generate::generate_set;
    use crate::maze::templates::TemplateLibrary;
    use crate::play::trial::{FailureKind, TrialSetup};
    use crate::verify::{Outcome, Reason};
    use std::sync::Arc;

    /// Trials of every shape and encoding (four mazes each) under `protocol`.
    pub(crate) fn trials(protocol: Protocol) -> Vec<Trial> {
        let mut out = Vec::new();
        for shape in Shape::ALL {
            let lib = Arc::new(TemplateLibrary::for_shape(5, shape));
            for maze in generate_set(shape, 4, 7, &lib).expect("mazes") {
                for encoding in Encoding::ALL {
                    let setup = TrialSetup {
                        protocol,
                        ..TrialSetup::new(shape, encoding, maze.clone())
                    };
                    out.push(Trial::new(setup, lib.clone()));
                }
            }
        }
        out
    }

    #[test]
    fn the_oracle_succeeds_in_every_phase_of_every_shape_encoding_and_protocol() {
        for protocol in Protocol::ALL {
            for mut t in trials(protocol) {
                play_ready(&mut t, &mut Oracle);
                let s = t.setup();
                assert_eq!(t.phase(), Phase::Done);
                assert_eq!(
                    t.outcomes(),
                    [Some(Outcome::Success); 3],
                    "{} {} {}: {:?}",
                    s.shape,
                    s.encoding,
                    protocol.name(),
                    t.verdicts()
                );
                let shortest = s.maze.shortest_path_len(s.shape.movement());
                assert_eq!(
                    Some(t.moves()),
                    shortest,
                    "the oracle takes a shortest path"
                );
            }
        }
    }

    #[test]
    fn a_watched_trial_shows_each_step_and_stops_when_told() {
        let t0 = trials(Protocol::Stepwise).swap_remove(0);
        // Watched to the end: the same trial as unwatched, seen once before each prompt.
        let (mut watched, mut plain) = (t0.clone(), t0.clone());
        let mut seen = Vec::new();
        block_on(play_watched(
            &mut watched,
            &mut Oracle,
            &mut |_| {},
            &mut |t| {
                seen.push(t.messages().len());
                ControlFlow::Continue(())
            },
        ));
        play_ready(&mut plain, &mut Oracle);
        assert_eq!(watched.messages(), plain.messages());
        assert_eq!(seen.len(), plain.messages().len() / 2, "once per prompt");
        assert!(
            seen.windows(2).all(|w| w[0] < w[1]),
            "each time further on: {seen:?}"
        );
        // Told to stop before the third prompt: two replies, and the trial stopped.
        let mut stopped = t0;
        let mut steps = 0;
        block_on(play_watched(
            &mut stopped,
            &mut Oracle,
            &mut |_| {},
            &mut |_| {
                steps += 1;
                if steps > 2 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        ));
        assert!(stopped.stopped());
        assert_eq!(stopped.moves(), 2);
    }

    #[test]
    fn the_combined_protocol_asks_one_question_after_solving() {
        for t0 in trials(Protocol::Combined).into_iter().take(4) {
            let mut stepwise = Trial::new(
                TrialSetup {
                    protocol: Protocol::Stepwise,
                    ..t0.setup().clone()
                },
                t0.library().clone(),
            );
            let mut combined = t0;
            play_ready(&mut combined, &mut Oracle);
            play_ready(&mut stepwise, &mut Oracle);
            assert_eq!(
                combined.messages().len() + 2,
                stepwise.messages().len(),
                "one prompt and one reply fewer"
            );
        }
    }

    #[test]
    fn the_random_walker_errs_in_every_phase_and_replays_from_its_seed() {
        let mut reasons = [Vec::new(), Vec::new(), Vec::new()];
        let mut first_run = Vec::new();
        for (i, mut t) in trials(Protocol::Stepwise).into_iter().enumerate() {
            let replay = t.clone();
            play_ready(&mut t, &mut RandomWalker::new(i as u64));
            assert_eq!(t.phase(), Phase::Done, "the walker finishes every trial");
            for (k, v) in t.verdicts().into_iter().enumerate() {
                reasons[k].push(v.expect("every phase judged").reason);
            }
            let mut again = replay;
            play_ready(&mut again, &mut RandomWalker::new(i as u64));
            assert_eq!(
                again.messages(),
                t.messages(),
                "the same seed plays the same"
            );
            first_run.push(t);
        }
        let has = |k: usize, r: Reason| reasons[k].contains(&r);
        assert!(
            has(0, Reason::ReachedGoal) && has(0, Reason::Wall),
            "solve: {:?}",
            reasons[0]
        );
        assert!(
            has(0, Reason::MoveLimit),
            "solve also runs out of moves: {:?}",
            reasons[0]
        );
        assert!(has(1, Reason::CorrectShape) && has(1, Reason::WrongShape));
        assert!(has(2, Reason::ValidNewMaze) && has(2, Reason::IdenticalToOriginal));
        assert!(has(2, Reason::GoalCount), "generation: {:?}", reasons[2]);
    }

    #[test]
    fn a_scripted_player_that_runs_out_ends_the_trial_as_an_api_error_not_a_failure() {
        let mut t = trials(Protocol::Stepwise).remove(0);
        let first = Oracle::answer(&t).expect("pending");
        play_ready(&mut t, &mut Scripted::replies([first]));
        assert!(t.api_error().is_some());
        assert_eq!(t.failure(), Some(FailureKind::ApiError));
        assert!(!FailureKind::ApiError.is_model_failure());
        for v in t.verdicts() {
            let v = v.expect("every phase has a verdict");
            assert_eq!((v.outcome, v.reason), (Outcome::Error, Reason::ApiError));
        }
        let text = t.transcript().expect("a transcript");
        assert!(
            text.ends_with("SOLVE: ERROR\nRECOGNIZE: ERROR\nGENERATE: ERROR\n"),
            "{text}"
        );
    }

    #[test]
    fn a_stopped_trial_keeps_what_it_had_and_has_no_transcript() {
        let mut t = trials(Protocol::Stepwise).remove(0);
        let mut n = 0;
        play_ready(
            &mut t,
            &mut Scripted::from_fn(move |tr| {
                n += 1;
                if n > 1 {
                    Err(PlayerError::Stopped)
                } else {
                    Ok(Reply::text(Oracle::answer(tr).unwrap_or_default()))
                }
            }),
        );
        assert!(t.stopped());
        assert_eq!(t.moves(), 1, "the first move stays");
        assert_eq!(t.solve_verdict(), None, "a stopped phase is never judged");
        assert_eq!(t.transcript(), None);
    }

    /// The first shape's name or synonym `text` holds as a word (any case); a lone letter
    /// shape (C, Z, U, N, X) counts as one standing alone outside a run of lone capitals.
    fn names_a_shape(text: &str) -> Option<String> {
        let lower = text.to_lowercase();
        for shape in Shape::ALL {
            for word in shape.synonyms().iter().filter(|w| w.chars().count() > 1) {
                let w = word.to_lowercase();
                for (i, _) in lower.match_indices(&w) {
                    let before = lower[..i].chars().next_back();
                    let after = lower[i + w.len()..].chars().next();
                    if !before.is_some_and(char::is_alphanumeric)
                        && !after.is_some_and(char::is_alphanumeric)
                    {
                        return Some(word.to_string());
                    }
                }
            }
        }
        let tokens: Vec<&str> = text
            .split_whitespace()
            .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let lone = |j: Option<usize>| {
            j.and_then(|j| tokens.get(j))
                .is_some_and(|t| t.len() == 1 && t.chars().all(|c| c.is_ascii_uppercase()))
        };
        tokens.iter().enumerate().find_map(|(i, t)| {
            (["C", "Z", "U", "N", "X"].contains(t) && !lone(i.checked_sub(1)) && !lone(Some(i + 1)))
                .then(|| t.to_string())
        })
    }

    #[test]
    fn the_shape_finder_finds_names_and_letters_but_not_keys() {
        assert_eq!(names_a_shape("spiral · 5x5"), Some("spiral".into()));
        assert_eq!(names_a_shape("Shape: Z"), Some("Z".into()));
        assert_eq!(names_a_shape("a Zig-Zag"), Some("zig-zag".into()));
        assert_eq!(names_a_shape("keys Q E Z C and W A S D; P to G; 5x5"), None);
    }

    #[test]
    fn nothing_a_player_is_sent_before_its_recognition_answer_names_the_shape() {
        use crate::maze::image::{draw, png, Vision};
        use crate::play::prompt::{read_heading, Heading};
        use crate::play::transcript::Role;
        for protocol in Protocol::ALL {
            for vision in [Vision::Text, Vision::Image] {
                for mut t in trials(protocol).into_iter().step_by(3) {
                    t = Trial::new(
                        TrialSetup {
                            vision,
                            ..t.setup().clone()
                        },
                        t.library().clone(),
                    );
                    play_ready(&mut t, &mut Oracle);
                    let s = t.setup();
                    let what = format!(
                        "{} {} {} {}",
                        s.shape,
                        s.encoding,
                        protocol.name(),
                        vision.name()
                    );
                    // Every prompt up to the one asking for the shape, and the system prompt.
                    let mut asked = false;
                    for m in t.messages() {
                        if m.role != Role::User || asked {
                            continue;
                        }
                        asked = matches!(
                            read_heading(&m.content),
                            Some(Heading::Recognize | Heading::Combined)
                        );
                        assert_eq!(names_a_shape(&m.content), None, "{what}: {}", m.content);
                    }
                    assert!(asked, "{what}: the shape was asked for");
                    // The image sent is drawn from the grid alone.
                    let image = png(&draw(s.maze.grid()));
                    for shape in Shape::ALL {
                        let name = shape.name().as_bytes();
                        assert!(
                            name.len() == 1 || !image.windows(name.len()).any(|w| w == name),
                            "{what}: the image holds {}",
                            shape.name()
                        );
                    }
                }
            }
        }
    }
}
