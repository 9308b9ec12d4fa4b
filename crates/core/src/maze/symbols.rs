//! The four symbols a matrix is written in: the design's `1 0 P G`, or another set a design
//! chooses (`@ * S E`, as the design's original code tried), stated in the prompt's legend
//! and read back in the same set: a generated maze written in other symbols is not
//! properly encoded.
//!
//! A set is written as its four symbols in the order wall, empty, player, goal, with or
//! without spaces (`@*SE`, `@ * S E`). Each is one printable ASCII character other than a
//! space and the characters a matrix row may be decorated with (`[ ] , | `` " '`); the four
//! differ.

use crate::maze::grid::Tile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The symbols of wall, empty corridor, player and goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Symbols([u8; 4]);

impl Default for Symbols {
    fn default() -> Self {
        Symbols::STANDARD
    }
}

/// Why a text is not a symbol set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolsError(pub String);

impl fmt::Display for SymbolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the matrix symbols '{}' are not four different characters for wall, empty, player and goal (such as 1 0 P G or @ * S E): ",
            self.0
        )?;
        f.write_str(
            match self.0.chars().filter(|c| !c.is_whitespace()).count() {
                4 => "use printable characters other than [ ] , | ` \" ', each once",
                _ => "give exactly four",
            },
        )
    }
}

impl std::error::Error for SymbolsError {}

impl Symbols {
    /// The design's symbols: `1` wall, `0` empty, `P` player, `G` goal.
    pub const STANDARD: Symbols = Symbols(*b"10PG");

    /// The symbols the design's original vision prompt asked a generated matrix in: `1`
    /// wall, `0` empty, `S` player, `G` goal.
    pub const ORIGINAL_VISION: Symbols = Symbols(*b"10SG");

    /// Reads a set (see the module documentation).
    pub fn parse(text: &str) -> Result<Symbols, SymbolsError> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let bad = || SymbolsError(text.trim().to_string());
        let [w, e, p, g] = <[char; 4]>::try_from(chars).map_err(|_| bad())?;
        let mut bytes = [0u8; 4];
        for (i, c) in [w, e, p, g].into_iter().enumerate() {
            if !c.is_ascii_graphic() || matches!(c, '[' | ']' | ',' | '|' | '`' | '"' | '\'') {
                return Err(bad());
            }
            if bytes[..i].contains(&(c as u8)) {
                return Err(bad());
            }
            bytes[i] = c as u8;
        }
        Ok(Symbols(bytes))
    }

    /// The symbol of `tile`.
    pub fn of(self, tile: Tile) -> char {
        char::from(self.0[Symbols::index(tile)])
    }

    /// The tile `c` stands for in this set.
    pub fn tile(self, c: char) -> Option<Tile> {
        Tile::ALL.into_iter().find(|&t| self.of(t) == c)
    }

    /// Whether `c` is one of the four.
    pub fn contains(self, c: char) -> bool {
        self.tile(c).is_some()
    }

    /// Whether these are the design's `1 0 P G`.
    pub fn is_standard(&self) -> bool {
        *self == Symbols::STANDARD
    }

    fn index(tile: Tile) -> usize {
        match tile {
            Tile::Wall => 0,
            Tile::Empty => 1,
            Tile::Player => 2,
            Tile::Goal => 3,
        }
    }

    /// `text` with this set's player and goal symbols, where they stand alone (`S moves to
    /// (1, 2)`, `E is at (3, 3)`), written as `P` and `G`: the names the move and path
    /// readers know. Byte offsets are kept (each symbol is one ASCII byte). The design's
    /// set leaves the text as it is.
    pub fn with_standard_names(self, text: &str) -> std::borrow::Cow<'_, str> {
        let (p, g) = (self.of(Tile::Player), self.of(Tile::Goal));
        if self.is_standard() || !text.contains([p, g]) {
            return text.into();
        }
        // Any non-ASCII character counts as a letter: no Unicode tables in the browser.
        let alone =
            |c: Option<char>| !c.is_some_and(|c| c.is_ascii_alphanumeric() || !c.is_ascii());
        let mut out = String::with_capacity(text.len());
        let mut prev = None;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let isolated = alone(prev) && alone(chars.peek().copied());
            out.push(match c {
                _ if c == p && isolated => 'P',
                _ if c == g && isolated => 'G',
                _ => c,
            });
            prev = Some(c);
        }
        out.into()
    }

    /// For people: `@ wall, * empty, S player, E goal`.
    pub fn describe(self) -> String {
        format!(
            "{} wall, {} empty, {} player, {} goal",
            self.of(Tile::Wall),
            self.of(Tile::Empty),
            self.of(Tile::Player),
            self.of(Tile::Goal)
        )
    }
}

/// The four symbols separated by spaces: `@ * S E`.
impl fmt::Display for Symbols {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [w, e, p, g] = self.0.map(char::from);
        write!(f, "{w} {e} {p} {g}")
    }
}

impl TryFrom<String> for Symbols {
    type Error = SymbolsError;
    fn try_from(s: String) -> Result<Symbols, SymbolsError> {
        Symbols::parse(&s)
    }
}

impl From<Symbols> for String {
    fn from(s: Symbols) -> String {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_reads_with_or_without_spaces_and_names_each_tile() {
        let s = Symbols::parse("@*SE").expect("a set");
        assert_eq!(Symbols::parse(" @ * S E "), Ok(s));
        assert_eq!(
            (
                s.of(Tile::Wall),
                s.of(Tile::Empty),
                s.of(Tile::Player),
                s.of(Tile::Goal)
            ),
            ('@', '*', 'S', 'E')
        );
        assert_eq!((s.tile('S'), s.tile('P')), (Some(Tile::Player), None));
        assert_eq!(s.to_string(), "@ * S E");
        assert_eq!(s.describe(), "@ wall, * empty, S player, E goal");
        assert_eq!(serde_json::to_string(&s).expect("json"), "\"@ * S E\"");
        assert_eq!(
            serde_json::from_str::<Symbols>("\"@*SE\"").expect("reads"),
            s
        );
        assert!(Symbols::parse("1 0 P G")
            .expect("the design's")
            .is_standard());
        assert_eq!(Symbols::default(), Symbols::STANDARD);
    }

    #[test]
    fn the_set_s_player_and_goal_alone_read_as_p_and_g() {
        let s = Symbols::parse("@*SE").expect("a set");
        assert_eq!(
            s.with_standard_names("S moves to (1, 2); E is at (3, 3). Say: SE? *S*"),
            "P moves to (1, 2); G is at (3, 3). Say: SE? *P*"
        );
        let text = "S moves to (1, 2)";
        assert_eq!(Symbols::STANDARD.with_standard_names(text), text);
    }

    #[test]
    fn too_few_repeated_or_decorating_symbols_are_refused_with_what_to_do() {
        for (text, says) in [
            ("@*S", "give exactly four"),
            ("@*SEX", "give exactly four"),
            ("@*S@", "each once"),
            ("@,SE", "other than"),
            ("[*SE", "other than"),
            ("@*Sé", "other than"),
        ] {
            let e = Symbols::parse(text).expect_err(text).to_string();
            assert!(e.contains(says) && e.contains(text.trim()), "{text}: {e}");
        }
        let e = serde_json::from_str::<Symbols>("\"@@SE\"").expect_err("refused");
        assert!(e.to_string().contains("four different characters"), "{e}");
    }
}
