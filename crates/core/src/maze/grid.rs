//! Grids, cells, movement rules and mazes.
//!
//! A [`Grid`] is a rectangle of [`Tile`]s addressed by [`Pos`] `(row, col)`, zero-based,
//! row 0 at the top. A [`Maze`] is a grid that is known to hold exactly one player and one
//! goal; it is what generators produce and what trials are played on. A grid read from a
//! reply may be anything, so parsers produce a [`Grid`] and [`Maze::from_grid`] checks it.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// Smallest grid side Shapemaze supports.
pub const MIN_SIZE: usize = 5;
/// Largest grid side Shapemaze supports (a corridor mask must fit in 128 bits).
pub const MAX_SIZE: usize = 11;
/// Grid sides offered to users: the odd sizes from [`MIN_SIZE`] to [`MAX_SIZE`].
pub const SIZES: [usize; 4] = [5, 7, 9, 11];

/// Checks that `size` is one of [`SIZES`].
pub fn check_size(size: usize) -> Result<usize, SizeError> {
    if SIZES.contains(&size) {
        Ok(size)
    } else {
        Err(SizeError(size))
    }
}

/// A grid side that is not one of [`SIZES`]; its message says which to choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError(pub usize);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "size {} is not supported: choose an odd size from {MIN_SIZE} to {MAX_SIZE} (5, 7, 9 or 11)",
            self.0
        )
    }
}

impl std::error::Error for SizeError {}

/// A cell position `(row, col)`, zero-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Row, counted from the top.
    pub row: usize,
    /// Column, counted from the left.
    pub col: usize,
}

impl Pos {
    /// A position.
    pub const fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }

    /// The position moved by `(dr, dc)`, if it stays in the non-negative quadrant.
    pub fn offset(self, dr: isize, dc: isize) -> Option<Pos> {
        Some(Pos {
            row: self.row.checked_add_signed(dr)?,
            col: self.col.checked_add_signed(dc)?,
        })
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tile {
    /// A wall: cannot be entered.
    Wall,
    /// An open corridor cell.
    Empty,
    /// The player (an open cell).
    Player,
    /// The goal (an open cell).
    Goal,
}

impl Tile {
    /// Every tile, in the order tools list them.
    pub const ALL: [Tile; 4] = [Tile::Wall, Tile::Empty, Tile::Player, Tile::Goal];

    /// Whether the cell is part of the corridor (anything but a wall).
    pub fn is_open(self) -> bool {
        self != Tile::Wall
    }

    /// The name used in `data-cell` attributes and JSON: `wall`, `empty`, `player`, `goal`.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Wall => "wall",
            Tile::Empty => "empty",
            Tile::Player => "player",
            Tile::Goal => "goal",
        }
    }
}

/// How a player may step: to the 4 orthogonal neighbours, or to all 8 neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Movement {
    /// Up, down, left, right.
    Four,
    /// The four orthogonal steps and the four diagonals.
    Eight,
}

impl Movement {
    /// Both movement rules.
    pub const ALL: [Movement; 2] = [Movement::Four, Movement::Eight];

    /// The number of directions: 4 or 8 (the `data-movement` value).
    pub fn directions(self) -> u8 {
        match self {
            Movement::Four => 4,
            Movement::Eight => 8,
        }
    }

    /// The step offsets `(dr, dc)` this rule allows.
    pub fn steps(self) -> &'static [(isize, isize)] {
        const FOUR: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        const EIGHT: [(isize, isize); 8] = [
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
        ];
        match self {
            Movement::Four => &FOUR,
            Movement::Eight => &EIGHT,
        }
    }

    /// Whether one step under this rule goes from `a` to `b` (ignoring walls and bounds).
    pub fn is_step(self, a: Pos, b: Pos) -> bool {
        let dr = a.row.abs_diff(b.row);
        let dc = a.col.abs_diff(b.col);
        match self {
            Movement::Four => dr + dc == 1,
            Movement::Eight => dr <= 1 && dc <= 1 && dr + dc > 0,
        }
    }
}

/// A rectangle of tiles. May hold any number of players and goals: see [`Maze`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grid {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
}

impl Grid {
    /// A grid of `rows` x `cols` walls.
    pub fn walls(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            tiles: vec![Tile::Wall; rows * cols],
        }
    }

    /// A grid from rows of tiles; `None` when the rows are not all the same length or empty.
    pub fn from_rows(rows: &[Vec<Tile>]) -> Option<Self> {
        let cols = rows.first()?.len();
        if cols == 0 || rows.iter().any(|r| r.len() != cols) {
            return None;
        }
        Some(Self {
            rows: rows.len(),
            cols,
            tiles: rows.iter().flatten().copied().collect(),
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether `p` lies inside the grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols
    }

    /// The tile at `p`, or `None` outside the grid.
    pub fn get(&self, p: Pos) -> Option<Tile> {
        self.contains(p)
            .then(|| self.tiles[p.row * self.cols + p.col])
    }

    /// Sets the tile at `p`; positions outside the grid are ignored.
    pub fn set(&mut self, p: Pos, tile: Tile) {
        if self.contains(p) {
            self.tiles[p.row * self.cols + p.col] = tile;
        }
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Pos::new(r, c)))
    }

    /// Positions holding `tile`, row by row.
    pub fn find(&self, tile: Tile) -> Vec<Pos> {
        self.positions()
            .filter(|&p| self.get(p) == Some(tile))
            .collect()
    }

    /// The corridor: every open cell, as a mask.
    pub fn open_mask(&self) -> Mask {
        let mut m = Mask::empty(self.rows, self.cols);
        for p in self.positions() {
            if self.get(p).is_some_and(Tile::is_open) {
                m.insert(p);
            }
        }
        m
    }
}

/// A set of cells of a grid of at most 11x11, stored as a 128-bit mask.
///
/// Masks are how corridor patterns (templates) are stored and compared: two mazes have the
/// same corridor exactly when their open masks are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mask {
    rows: u8,
    cols: u8,
    bits: u128,
}

impl Mask {
    /// The empty set on a `rows` x `cols` grid (each at most [`MAX_SIZE`]).
    pub fn empty(rows: usize, cols: usize) -> Self {
        debug_assert!(rows * cols <= 128, "a mask holds at most 128 cells");
        Self {
            rows: rows as u8,
            cols: cols as u8,
            bits: 0,
        }
    }

    /// Number of rows of the grid the mask belongs to.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns of the grid the mask belongs to.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    fn bit(&self, p: Pos) -> Option<u128> {
        (p.row < self.rows() && p.col < self.cols()).then(|| 1u128 << (p.row * self.cols() + p.col))
    }

    /// Adds `p` (ignored outside the grid).
    pub fn insert(&mut self, p: Pos) {
        if let Some(b) = self.bit(p) {
            self.bits |= b;
        }
    }

    /// Whether `p` is in the set.
    pub fn contains(&self, p: Pos) -> bool {
        self.bit(p).is_some_and(|b| self.bits & b != 0)
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// The cells of the set, row by row.
    pub fn cells(&self) -> Vec<Pos> {
        let cols = self.cols();
        (0..self.rows() * cols)
            .filter(|i| self.bits & (1u128 << i) != 0)
            .map(|i| Pos::new(i / cols, i % cols))
            .collect()
    }

    /// Breadth-first distances inside the set from `start` under `movement`
    /// (`None` for cells not reachable or not in the set), indexed row by row.
    pub fn distances(&self, start: Pos, movement: Movement) -> Vec<Option<usize>> {
        let cols = self.cols();
        let mut dist = vec![None; self.rows() * cols];
        if !self.contains(start) {
            return dist;
        }
        dist[start.row * cols + start.col] = Some(0);
        let mut queue = VecDeque::from([start]);
        while let Some(p) = queue.pop_front() {
            let d = dist[p.row * cols + p.col].unwrap_or(0);
            for &(dr, dc) in movement.steps() {
                if let Some(q) = p.offset(dr, dc) {
                    if self.contains(q) && dist[q.row * cols + q.col].is_none() {
                        dist[q.row * cols + q.col] = Some(d + 1);
                        queue.push_back(q);
                    }
                }
            }
        }
        dist
    }

    /// Whether every cell of the (non-empty) set reaches every other under `movement`.
    pub fn is_connected(&self, movement: Movement) -> bool {
        let cells = self.cells();
        let Some(&first) = cells.first() else {
            return false;
        };
        let dist = self.distances(first, movement);
        cells
            .iter()
            .all(|p| dist[p.row * self.cols() + p.col].is_some())
    }

    /// The shortest path length (in moves) from `a` to `b` inside the set, if any.
    pub fn distance(&self, a: Pos, b: Pos, movement: Movement) -> Option<usize> {
        if !self.contains(b) {
            return None;
        }
        self.distances(a, movement)[b.row * self.cols() + b.col]
    }

    /// One shortest path from `a` to `b` inside the set, both ends included.
    pub fn shortest_path(&self, a: Pos, b: Pos, movement: Movement) -> Option<Vec<Pos>> {
        let cols = self.cols();
        let dist = self.distances(b, movement);
        let mut d = dist.get(a.row * cols + a.col).copied().flatten()?;
        let mut path = vec![a];
        let mut cur = a;
        while d > 0 {
            cur = movement.steps().iter().find_map(|&(dr, dc)| {
                let q = cur.offset(dr, dc)?;
                (self.contains(q) && dist[q.row * cols + q.col] == Some(d - 1)).then_some(q)
            })?;
            path.push(cur);
            d -= 1;
        }
        Some(path)
    }
}

/// A grid with one player and one goal.
///
/// As made by [`Maze::from_grid`] and [`Maze::from_mask`], the grid marks each on its own
/// cell. Once the player stands on the goal ([`Maze::with_player_at`]), the grid keeps that
/// cell marked `G`, as the text encodings show it, and [`Maze::player`] equals
/// [`Maze::goal`]; [`Maze::display_grid`] draws the player there instead. So the grid
/// always holds exactly one goal, and one player unless the player is on the goal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Maze {
    grid: Grid,
    player: Pos,
    goal: Pos,
}

/// Why a grid is not a maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MazeError {
    /// The grid has no player or more than one.
    PlayerCount(usize),
    /// The grid has no goal or more than one.
    GoalCount(usize),
}

impl fmt::Display for MazeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MazeError::PlayerCount(n) => {
                write!(f, "the maze must have exactly one player P, it has {n}")
            }
            MazeError::GoalCount(n) => {
                write!(f, "the maze must have exactly one goal G, it has {n}")
            }
        }
    }
}

impl Maze {
    /// Checks that `grid` has exactly one player and one goal.
    pub fn from_grid(grid: Grid) -> Result<Self, MazeError> {
        let players = grid.find(Tile::Player);
        let goals = grid.find(Tile::Goal);
        match (players.as_slice(), goals.as_slice()) {
            ([p], [g]) => Ok(Self {
                player: *p,
                goal: *g,
                grid,
            }),
            ([_], _) => Err(MazeError::GoalCount(goals.len())),
            _ => Err(MazeError::PlayerCount(players.len())),
        }
    }

    /// A maze from a corridor mask and the player and goal cells (both must be in the mask
    /// and distinct; the generator guarantees it).
    pub fn from_mask(mask: &Mask, player: Pos, goal: Pos) -> Self {
        let mut grid = Grid::walls(mask.rows(), mask.cols());
        for p in mask.cells() {
            grid.set(p, Tile::Empty);
        }
        grid.set(player, Tile::Player);
        grid.set(goal, Tile::Goal);
        Self { grid, player, goal }
    }

    /// The tiles.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.grid.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.grid.cols
    }

    /// The player's cell.
    pub fn player(&self) -> Pos {
        self.player
    }

    /// The goal's cell.
    pub fn goal(&self) -> Pos {
        self.goal
    }

    /// The corridor (all open cells, P and G included).
    pub fn open_mask(&self) -> Mask {
        self.grid.open_mask()
    }

    /// The same maze with the player moved to `to` (the cell it left becomes empty, or `G`
    /// again when it was the goal). `to` must be open; moving onto the goal leaves the goal
    /// marked under the player.
    pub fn with_player_at(&self, to: Pos) -> Maze {
        let mut m = self.clone();
        if self.player != self.goal {
            m.grid.set(self.player, Tile::Empty);
        }
        if to != self.goal {
            m.grid.set(to, Tile::Player);
        }
        m.player = to;
        m
    }

    /// The tiles as a person sees them: like [`Maze::grid`], but with the player drawn on
    /// the goal once it stands there (the text encodings keep showing `G`).
    pub fn display_grid(&self) -> Grid {
        let mut g = self.grid.clone();
        g.set(self.player, Tile::Player);
        g
    }

    /// Length of the shortest path from player to goal under `movement`, if any.
    pub fn shortest_path_len(&self, movement: Movement) -> Option<usize> {
        self.open_mask().distance(self.player, self.goal, movement)
    }

    /// One shortest path from player to goal under `movement`, both ends included.
    pub fn shortest_path(&self, movement: Movement) -> Option<Vec<Pos>> {
        self.open_mask()
            .shortest_path(self.player, self.goal, movement)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring3() -> Mask {
        let mut m = Mask::empty(5, 5);
        for p in [
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 2),
        ] {
            m.insert(Pos::new(p.0, p.1));
        }
        m
    }

    #[test]
    fn four_way_steps_exclude_diagonals_and_eight_way_include_them() {
        let a = Pos::new(2, 2);
        assert!(Movement::Four.is_step(a, Pos::new(1, 2)));
        assert!(
            !Movement::Four.is_step(a, Pos::new(1, 1)),
            "diagonal under 4-way"
        );
        assert!(Movement::Eight.is_step(a, Pos::new(1, 1)));
        assert!(!Movement::Eight.is_step(a, a), "staying put is not a step");
        assert!(!Movement::Eight.is_step(a, Pos::new(0, 2)), "two rows away");
    }

    #[test]
    fn ring_distances_go_around_the_ring() {
        let m = ring3();
        assert_eq!(m.len(), 8);
        assert!(m.is_connected(Movement::Four));
        assert_eq!(
            m.distance(Pos::new(0, 0), Pos::new(2, 2), Movement::Four),
            Some(4)
        );
        assert_eq!(
            m.distance(Pos::new(0, 0), Pos::new(2, 2), Movement::Eight),
            Some(3)
        );
        assert_eq!(
            m.distance(Pos::new(0, 0), Pos::new(1, 1), Movement::Four),
            None
        );
        let path = m
            .shortest_path(Pos::new(0, 0), Pos::new(2, 2), Movement::Four)
            .expect("ring is connected");
        assert_eq!(path.len(), 5);
        assert!(path.windows(2).all(|w| Movement::Four.is_step(w[0], w[1])));
    }

    #[test]
    fn maze_from_grid_requires_one_player_and_one_goal() {
        let mut g = Grid::walls(5, 5);
        assert_eq!(Maze::from_grid(g.clone()), Err(MazeError::PlayerCount(0)));
        g.set(Pos::new(0, 0), Tile::Player);
        assert_eq!(Maze::from_grid(g.clone()), Err(MazeError::GoalCount(0)));
        g.set(Pos::new(0, 1), Tile::Goal);
        g.set(Pos::new(0, 2), Tile::Goal);
        assert_eq!(Maze::from_grid(g.clone()), Err(MazeError::GoalCount(2)));
        g.set(Pos::new(0, 2), Tile::Empty);
        let m = Maze::from_grid(g).expect("one of each");
        assert_eq!((m.player(), m.goal()), (Pos::new(0, 0), Pos::new(0, 1)));
    }

    #[test]
    fn moving_the_player_clears_the_old_cell() {
        let m = Maze::from_mask(&ring3(), Pos::new(0, 0), Pos::new(2, 2));
        let moved = m.with_player_at(Pos::new(0, 1));
        assert_eq!(moved.grid().get(Pos::new(0, 0)), Some(Tile::Empty));
        assert_eq!(moved.grid().get(Pos::new(0, 1)), Some(Tile::Player));
        assert_eq!(
            moved.open_mask(),
            m.open_mask(),
            "the corridor never changes"
        );
        let arrived = m.with_player_at(Pos::new(2, 2));
        assert_eq!(
            arrived.grid().get(Pos::new(2, 2)),
            Some(Tile::Goal),
            "text keeps the goal"
        );
        assert_eq!(
            arrived.display_grid().get(Pos::new(2, 2)),
            Some(Tile::Player),
            "people see the player"
        );
    }

    #[test]
    fn leaving_the_goal_keeps_the_goal_marked() {
        let m = Maze::from_mask(&ring3(), Pos::new(0, 0), Pos::new(2, 2));
        let left = m
            .with_player_at(Pos::new(2, 2))
            .with_player_at(Pos::new(2, 1));
        assert_eq!(
            left.grid().get(Pos::new(2, 2)),
            Some(Tile::Goal),
            "the goal is not wiped by the player leaving it"
        );
        assert_eq!(
            Maze::from_grid(left.grid().clone()),
            Ok(left.clone()),
            "one player and one goal again"
        );
    }

    #[test]
    fn check_size_accepts_only_odd_sizes_five_to_eleven() {
        for s in SIZES {
            assert_eq!(check_size(s), Ok(s));
        }
        for s in [0, 3, 4, 6, 13] {
            assert!(check_size(s).is_err(), "size {s} accepted");
        }
    }
}
