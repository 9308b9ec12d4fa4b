//! Play settings as they arrive from a URL or a form, checked with messages a person can
//! act on, and the keyboard scheme of the play page.

use crate::maze::encoding::Encoding;
use crate::maze::grid::{check_size, Grid, Movement, Pos, SizeError, Tile};
use crate::maze::image::Vision;
use crate::maze::shape::Shape;
use crate::maze::symbols::{Symbols, SymbolsError};
use crate::play::trial::Protocol;
use crate::text::UnknownName;

/// What one trial on the play page is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaySettings {
    /// The maze's shape.
    pub shape: Shape,
    /// Whether the visitor chose the shape (`shape=` in the address): `/play` then names
    /// it; without one it plays a shape drawn at random and keeps it from the player until
    /// the recognition answer is in, and the address leaves it out.
    pub shape_chosen: bool,
    /// The grid side.
    pub size: usize,
    /// The encoding shown.
    pub encoding: Encoding,
    /// The maze set's seed.
    pub seed: u64,
    /// Which maze of the set (0-based).
    pub sample: usize,
    /// How the questions are asked (the model page's setting; the play page is stepwise).
    pub protocol: Protocol,
    /// The lenient protocol's allowance of invalid moves tried again (0: strict).
    pub lenient: usize,
    /// The matrix's symbols (the design's `1 0 P G` by default).
    pub symbols: Symbols,
    /// How the maze is shown to a model (`/model`; `/play` shows the image under "What a
    /// model sees").
    pub vision: Vision,
}

/// Largest sample index accepted from a URL (the set is generated up to it).
pub const MAX_SAMPLE: usize = 999;

/// Most invalid moves the lenient protocol may forgive (the design's move limit).
pub const MAX_LENIENT: usize = 16;

impl Default for PlaySettings {
    fn default() -> Self {
        Self {
            shape: Shape::Square,
            shape_chosen: false,
            size: 5,
            encoding: Encoding::Matrix,
            seed: 0,
            sample: 0,
            protocol: Protocol::Stepwise,
            lenient: 0,
            symbols: Symbols::STANDARD,
            vision: Vision::Text,
        }
    }
}

/// Why a URL parameter's value was not used.
#[derive(Debug)]
enum ParamError {
    /// A name that is none of the choices (shape, encoding, protocol, vision).
    Unknown(UnknownName),
    /// A size that is not one of the grid sizes.
    Size(SizeError),
    /// Not a set of matrix symbols.
    Symbols(SymbolsError),
    /// The value is not what it should be (the value, what it should be: `a number`).
    Not(String, String),
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(e) => e.fmt(f),
            ParamError::Size(e) => e.fmt(f),
            ParamError::Symbols(e) => e.fmt(f),
            ParamError::Not(given, what) => write!(f, "'{given}' is not {what}"),
        }
    }
}

impl PlaySettings {
    /// Reads settings from query parameters (`shape`, `size`, `encoding`, `seed`,
    /// `sample`, `protocol`; every one optional). A bad value keeps the default and adds a warning
    /// saying what was wrong and what was used instead.
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> (PlaySettings, Vec<String>) {
        let mut s = PlaySettings::default();
        let mut warnings = Vec::new();
        let mut read = |key: &str, apply: &mut dyn FnMut(&str) -> Result<(), ParamError>| {
            if let Some(v) = get(key) {
                if let Err(e) = apply(&v) {
                    warnings.push(format!(
                        "URL parameter {key}: {e}; using the default instead."
                    ));
                }
            }
        };
        read("shape", &mut |v| {
            Shape::parse(v)
                .map(|x| {
                    s.shape = x;
                    s.shape_chosen = true;
                })
                .map_err(ParamError::Unknown)
        });
        read("size", &mut |v| {
            let n: usize = v
                .trim()
                .parse()
                .map_err(|_| ParamError::Not(v.into(), "a number".into()))?;
            check_size(n).map(|n| s.size = n).map_err(ParamError::Size)
        });
        read("encoding", &mut |v| {
            Encoding::parse(v)
                .map(|e| s.encoding = e)
                .map_err(ParamError::Unknown)
        });
        read("seed", &mut |v| {
            v.trim().parse::<u64>().map(|n| s.seed = n).map_err(|_| {
                ParamError::Not(v.into(), format!("a whole number from 0 to {}", u64::MAX))
            })
        });
        read("sample", &mut |v| match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_SAMPLE => {
                s.sample = n;
                Ok(())
            }
            _ => Err(ParamError::Not(
                v.into(),
                format!("a sample number from 0 to {MAX_SAMPLE}"),
            )),
        });
        read("protocol", &mut |v| {
            Protocol::parse(v)
                .map(|p| s.protocol = p)
                .map_err(ParamError::Unknown)
        });
        read("lenient", &mut |v| match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_LENIENT => {
                s.lenient = n;
                Ok(())
            }
            _ => Err(ParamError::Not(
                v.into(),
                format!("a number of invalid moves to forgive from 0 to {MAX_LENIENT}"),
            )),
        });
        read("symbols", &mut |v| {
            Symbols::parse(v)
                .map(|x| s.symbols = x)
                .map_err(ParamError::Symbols)
        });
        read("vision", &mut |v| {
            Vision::parse(v)
                .map(|x| s.vision = x)
                .map_err(ParamError::Unknown)
        });
        if s.vision.shows_image() && !s.symbols.is_standard() {
            warnings.push(format!(
                "URL parameter symbols: the image marks the player P and the goal G, so vision {} uses 1 0 P G instead.",
                s.vision.name()
            ));
            s.symbols = Symbols::STANDARD;
        }
        if s.lenient > 0 && s.protocol == Protocol::SingleShot {
            warnings.push(
                "URL parameter lenient: the single-shot protocol has no moves to forgive; using 0 instead."
                    .into(),
            );
            s.lenient = 0;
        }
        (s, warnings)
    }

    /// The query string that reproduces these settings (`shape=…&size=…&…`; the shape
    /// only when it was chosen, the protocol only when it is not the default).
    pub fn to_query(&self) -> String {
        let mut protocol = match self.protocol {
            Protocol::Stepwise => String::new(),
            p => format!("&protocol={}", p.name()),
        };
        if self.lenient > 0 {
            protocol += &format!("&lenient={}", self.lenient);
        }
        if !self.symbols.is_standard() {
            // Percent-encoded: a set may hold `#`, `&` or `+`.
            protocol += "&symbols=";
            for c in self.symbols.to_string().chars().filter(|c| *c != ' ') {
                match c {
                    'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '_' | '.' | '~' => protocol.push(c),
                    _ => protocol += &format!("%{:02X}", c as u32),
                }
            }
        }
        if self.vision.shows_image() {
            protocol += &format!("&vision={}", self.vision.name().replace('+', "%2B"));
        }
        let shape = if self.shape_chosen {
            format!("shape={}&", self.shape.name())
        } else {
            String::new()
        };
        format!(
            "{shape}size={}&encoding={}&seed={}&sample={}{protocol}",
            self.size,
            self.encoding.name(),
            self.seed,
            self.sample
        )
    }
}

/// The step a key press asks for on a maze with `movement`, or `None` when the key does
/// nothing. Arrows and W A S D step orthogonally; on 8-direction mazes Q E Z C (and the
/// numeric keypad's 7 9 1 3, or Home PageUp End PageDown) step diagonally. On 4-direction
/// mazes the diagonal keys do nothing.
pub fn key_step(key: &str, movement: Movement) -> Option<(isize, isize)> {
    let k = key.to_ascii_lowercase();
    let orth = match k.as_str() {
        "arrowup" | "w" | "8" => Some((-1, 0)),
        "arrowdown" | "s" | "2" => Some((1, 0)),
        "arrowleft" | "a" | "4" => Some((0, -1)),
        "arrowright" | "d" | "6" => Some((0, 1)),
        _ => None,
    };
    if orth.is_some() {
        return orth;
    }
    let diag = match k.as_str() {
        "q" | "7" | "home" => Some((-1, -1)),
        "e" | "9" | "pageup" => Some((-1, 1)),
        "z" | "1" | "end" => Some((1, -1)),
        "c" | "3" | "pagedown" => Some((1, 1)),
        _ => None,
    };
    diag.filter(|_| movement == Movement::Eight)
}

/// The cell a key press targets from `from` on `grid`, or `None` when the key does nothing:
/// not a movement key, or a step that would leave the grid (there is no cell to move to,
/// as a click beside the board moves nothing).
pub fn key_target(key: &str, movement: Movement, from: Pos, grid: &Grid) -> Option<Pos> {
    let (dr, dc) = key_step(key, movement)?;
    from.offset(dr, dc).filter(|&p| grid.contains(p))
}

/// Paints `tile` at `p` on a drawing: placing a player or goal moves it there (a maze has
/// one of each), painting over the player or goal removes it.
pub fn paint(grid: &mut Grid, p: Pos, tile: Tile) {
    if matches!(tile, Tile::Player | Tile::Goal) {
        for old in grid.find(tile) {
            grid.set(old, Tile::Empty);
        }
    }
    grid.set(p, tile);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn query(pairs: &[(&str, &str)]) -> (PlaySettings, Vec<String>) {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        PlaySettings::from_query(|k| map.get(k).cloned())
    }

    #[test]
    fn no_parameters_give_the_defaults() {
        assert_eq!(query(&[]), (PlaySettings::default(), vec![]));
    }

    #[test]
    fn parameters_are_read_in_any_case() {
        let (s, w) = query(&[
            ("shape", "SPIRAL"),
            ("size", "7"),
            ("encoding", "Coord_List"),
            ("seed", "42"),
            ("sample", "3"),
        ]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            s,
            PlaySettings {
                shape: Shape::Spiral,
                shape_chosen: true,
                size: 7,
                encoding: Encoding::CoordList,
                seed: 42,
                sample: 3,
                protocol: Protocol::Stepwise,
                lenient: 0,
                symbols: Symbols::STANDARD,
                vision: Vision::Text,
            }
        );
    }

    #[test]
    fn bad_parameters_fall_back_with_a_warning_each() {
        let (s, w) = query(&[
            ("shape", "hexagon"),
            ("size", "6"),
            ("encoding", "json"),
            ("seed", "-1"),
            ("sample", "x"),
            ("lenient", "17"),
        ]);
        assert_eq!(s, PlaySettings::default());
        assert_eq!(w.len(), 6, "{w:?}");
        assert!(w[5].contains("from 0 to 16"), "{}", w[5]);
        assert!(w[0].contains("unknown shape 'hexagon'"), "{}", w[0]);
        assert!(w[1].contains("size 6 is not supported"), "{}", w[1]);
        let (s, w) = query(&[("protocol", "single_shot"), ("lenient", "2")]);
        assert_eq!((s.protocol, s.lenient), (Protocol::SingleShot, 0));
        assert!(w[0].contains("no moves to forgive"), "{w:?}");
    }

    #[test]
    fn settings_survive_a_trip_through_the_query_string() {
        let s = PlaySettings {
            shape: Shape::Z,
            shape_chosen: true,
            size: 9,
            encoding: Encoding::CoordList,
            seed: 7,
            sample: 12,
            protocol: Protocol::Combined,
            lenient: 3,
            symbols: Symbols::parse("#&SE").expect("a set"),
            vision: Vision::Text,
        };
        let q = s.to_query();
        assert!(q.ends_with("&lenient=3&symbols=%23%26SE"), "{q}");
        // As the page's router decodes a value (decodeURIComponent).
        let decode = |v: &str| {
            let mut out = String::new();
            let mut rest = v;
            while let Some(i) = rest.find('%') {
                out.push_str(&rest[..i]);
                let code = u8::from_str_radix(&rest[i + 1..i + 3], 16).expect("hex");
                out.push(char::from(code));
                rest = &rest[i + 3..];
            }
            out + rest
        };
        let map: BTreeMap<&str, &str> = q.split('&').filter_map(|kv| kv.split_once('=')).collect();
        let (back, w) = PlaySettings::from_query(|k| map.get(k).map(|v| decode(v)));
        assert_eq!((back, w.len()), (s, 0));
        // The vision condition too (its `+` percent-encoded); with symbols it is refused.
        let v = PlaySettings {
            vision: Vision::ImageAndText,
            symbols: Symbols::STANDARD,
            ..s
        };
        let q = v.to_query();
        assert!(q.ends_with("&vision=image%2Btext"), "{q}");
        let map: BTreeMap<&str, &str> = q.split('&').filter_map(|kv| kv.split_once('=')).collect();
        let (back, w) = PlaySettings::from_query(|k| map.get(k).map(|v| decode(v)));
        assert_eq!((back, w.len()), (v, 0));
        let (mixed, w) = query(&[("vision", "image"), ("symbols", "@*SE")]);
        assert_eq!(
            (mixed.vision, mixed.symbols),
            (Vision::Image, Symbols::STANDARD)
        );
        assert!(w[0].contains("marks the player P"), "{w:?}");
        let (_, w) = query(&[("vision", "photo")]);
        assert!(w[0].contains("text, image or image+text"), "{w:?}");
    }

    #[test]
    fn a_shape_not_chosen_stays_out_of_the_address() {
        let (s, _) = query(&[("size", "7"), ("sample", "2")]);
        assert!(!s.shape_chosen, "no shape= is no choice");
        assert_eq!(s.to_query(), "size=7&encoding=matrix&seed=0&sample=2");
        let (s, w) = query(&[("shape", "hexagon")]);
        assert!(
            !s.shape_chosen && w.len() == 1,
            "an unknown shape is no choice: {w:?}"
        );
        let (s, _) = query(&[("shape", "C")]);
        assert!(s.shape_chosen);
        assert!(
            s.to_query().starts_with("shape=C&size=5&"),
            "{}",
            s.to_query()
        );
    }

    #[test]
    fn diagonal_keys_work_only_on_eight_direction_mazes() {
        assert_eq!(key_step("ArrowUp", Movement::Four), Some((-1, 0)));
        assert_eq!(key_step("d", Movement::Four), Some((0, 1)));
        assert_eq!(key_step("q", Movement::Four), None);
        assert_eq!(key_step("Q", Movement::Eight), Some((-1, -1)));
        assert_eq!(key_step("PageDown", Movement::Eight), Some((1, 1)));
        assert_eq!(key_step("Enter", Movement::Eight), None);
        let g = Grid::walls(5, 5);
        assert_eq!(
            key_target("ArrowUp", Movement::Four, Pos::new(0, 0), &g),
            None,
            "off the top"
        );
        assert_eq!(
            key_target("ArrowDown", Movement::Four, Pos::new(4, 0), &g),
            None,
            "off the bottom"
        );
        assert_eq!(
            key_target("ArrowDown", Movement::Four, Pos::new(0, 0), &g),
            Some(Pos::new(1, 0))
        );
    }

    #[test]
    fn painting_a_player_or_goal_moves_it() {
        let mut g = Grid::walls(3, 3);
        paint(&mut g, Pos::new(0, 0), Tile::Player);
        paint(&mut g, Pos::new(1, 1), Tile::Player);
        assert_eq!(g.find(Tile::Player), vec![Pos::new(1, 1)]);
        assert_eq!(
            g.get(Pos::new(0, 0)),
            Some(Tile::Empty),
            "the old player cell stays open"
        );
        paint(&mut g, Pos::new(1, 1), Tile::Wall);
        assert!(g.find(Tile::Player).is_empty());
    }
}
