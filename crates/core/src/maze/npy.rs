//! NumPy `.npy` maze files: one 2-D integer array with the cell codes 0 wall, 1 path,
//! 2 player, 3 goal (the reverse of the text encoding's 1 = wall).
//!
//! Written as NPY 1.0, C order, dtype `<i8`, byte for byte what `numpy.save` writes for an
//! int64 array. Read: versions 1.0, 2.0 and 3.0; any integer dtype of either byte order;
//! floats that hold whole numbers; Fortran order, other dimensions and other codes are
//! refused with a clear [`NpyError`].

use crate::maze::grid::{Grid, Pos, Tile};
use std::fmt;

const MAGIC: &[u8] = b"\x93NUMPY";

/// Cell code for a wall.
pub const CODE_WALL: i64 = 0;
/// Cell code for a corridor cell.
pub const CODE_PATH: i64 = 1;
/// Cell code for the player.
pub const CODE_PLAYER: i64 = 2;
/// Cell code for the goal.
pub const CODE_GOAL: i64 = 3;

/// Why bytes are not a maze file we can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NpyError {
    /// Not an NPY file at all.
    NotNpy,
    /// An NPY version we do not know.
    Version(u8, u8),
    /// The header is cut short or unreadable.
    Header(String),
    /// A dtype that does not hold maze codes.
    Dtype(String),
    /// Stored in Fortran (column-major) order.
    FortranOrder,
    /// Not a 2-D array.
    Shape(String),
    /// Fewer data bytes than the header promises.
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        found: usize,
    },
    /// A value that is not one of the four cell codes.
    Code {
        /// The cell.
        cell: Pos,
        /// Its value, as text.
        value: String,
    },
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NpyError::NotNpy => write!(f, "not a NumPy .npy file (the magic bytes are missing)"),
            NpyError::Version(a, b) => write!(
                f,
                "NPY format version {a}.{b} is not supported (1.0, 2.0 and 3.0 are)"
            ),
            NpyError::Header(h) => write!(f, "the NPY header is unreadable: {h}"),
            NpyError::Dtype(d) => write!(
                f,
                "dtype {d} cannot hold maze codes: use an integer dtype such as <i8"
            ),
            NpyError::FortranOrder => write!(
                f,
                "the array is stored in Fortran order: save it with numpy.ascontiguousarray first"
            ),
            NpyError::Shape(s) => write!(
                f,
                "the array has shape {s}: a maze is a 2-D array (rows, cols)"
            ),
            NpyError::Truncated { needed, found } => write!(
                f,
                "the file is cut short: {needed} data bytes expected, {found} present"
            ),
            NpyError::Code { cell, value } => write!(
                f,
                "cell {cell} holds {value}: maze codes are 0 wall, 1 path, 2 player, 3 goal"
            ),
        }
    }
}

fn code(tile: Tile) -> i64 {
    match tile {
        Tile::Wall => CODE_WALL,
        Tile::Empty => CODE_PATH,
        Tile::Player => CODE_PLAYER,
        Tile::Goal => CODE_GOAL,
    }
}

fn tile(code: i64) -> Option<Tile> {
    Tile::ALL.into_iter().find(|&t| self::code(t) == code)
}

/// The `.npy` bytes of `grid` (NPY 1.0, `<i8`, C order), as `numpy.save` writes them.
pub fn write(grid: &Grid) -> Vec<u8> {
    let dict = format!(
        "{{'descr': '<i8', 'fortran_order': False, 'shape': ({}, {}), }}",
        grid.rows(),
        grid.cols()
    );
    // magic(6) + version(2) + len(2) + dict + padding + '\n' is a multiple of 64.
    let unpadded = MAGIC.len() + 4 + dict.len() + 1;
    let pad = (64 - unpadded % 64) % 64;
    let header_len = dict.len() + pad + 1;
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header_len + grid.rows() * grid.cols() * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header_len as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    for p in grid.positions() {
        out.extend_from_slice(&code(grid.get(p).unwrap_or(Tile::Wall)).to_le_bytes());
    }
    out
}

/// Reads a maze grid from `.npy` bytes.
pub fn read(bytes: &[u8]) -> Result<Grid, NpyError> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(NpyError::NotNpy);
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (header_len, start): (usize, usize) = match major {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 => {
            let b = bytes
                .get(8..12)
                .ok_or(NpyError::Header("cut short".into()))?;
            (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize, 12)
        }
        _ => return Err(NpyError::Version(major, minor)),
    };
    let header = bytes
        .get(start..start.saturating_add(header_len))
        .ok_or(NpyError::Header("cut short".into()))?;
    let header = std::str::from_utf8(header).map_err(|_| NpyError::Header("not text".into()))?;
    let descr = dict_value(header, "descr").ok_or(NpyError::Header("no 'descr'".into()))?;
    let fortran =
        dict_value(header, "fortran_order").ok_or(NpyError::Header("no 'fortran_order'".into()))?;
    let shape = dict_value(header, "shape").ok_or(NpyError::Header("no 'shape'".into()))?;
    if fortran.trim() == "True" {
        return Err(NpyError::FortranOrder);
    }
    let descr = descr.trim().trim_matches(['\'', '"']).to_string();
    let dtype = Dtype::parse(&descr).ok_or(NpyError::Dtype(descr.clone()))?;
    let dims: Vec<usize> = shape
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| NpyError::Shape(shape.trim().to_string()))?;
    let [rows, cols] = dims[..] else {
        return Err(NpyError::Shape(shape.trim().to_string()));
    };
    if rows == 0 || cols == 0 || rows > 1000 || cols > 1000 {
        return Err(NpyError::Shape(shape.trim().to_string()));
    }
    let data = &bytes[start + header_len..];
    let needed = rows * cols * dtype.size;
    if data.len() < needed {
        return Err(NpyError::Truncated {
            needed,
            found: data.len(),
        });
    }
    let mut grid = Grid::walls(rows, cols);
    for (i, chunk) in data[..needed].chunks_exact(dtype.size).enumerate() {
        let cell = Pos::new(i / cols, i % cols);
        let value = dtype.value(chunk);
        let t = value.code().and_then(tile).ok_or(NpyError::Code {
            cell,
            value: value.to_string(),
        })?;
        grid.set(cell, t);
    }
    Ok(grid)
}

/// The text after `'key':` in a header dict, up to the next top-level comma.
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = &header[at + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?;
    let mut depth = 0i32;
    for (i, ch) in rest.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' | '}' if depth == 0 => return Some(&rest[..i]),
            _ => {}
        }
    }
    None
}

#[derive(Clone, Copy)]
enum Kind {
    Signed,
    Unsigned,
    Float,
}

struct Dtype {
    kind: Kind,
    size: usize,
    big: bool,
}

enum Value {
    Int(i128),
    Float(f64),
}

impl Value {
    fn code(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => i64::try_from(v).ok(),
            Value::Float(f) if f.fract() == 0.0 && (-1e9..1e9).contains(&f) => Some(f as i64),
            Value::Float(_) => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            // Up to 17 places, without trailing zeros (`0.5`, `1.0000001`): a value close
            // to a code is not printed as the code.
            Value::Float(v) => write!(f, "{:#.17}", crate::text::Fixed(*v)),
        }
    }
}

impl Dtype {
    fn parse(descr: &str) -> Option<Dtype> {
        let mut chars = descr.chars();
        let (order, rest) = match descr.chars().next()? {
            c @ ('<' | '>' | '|' | '=') => {
                chars.next();
                (c, chars.as_str())
            }
            _ => ('=', descr),
        };
        let kind = match rest.chars().next()? {
            'i' => Kind::Signed,
            'u' => Kind::Unsigned,
            'f' => Kind::Float,
            'b' if rest == "b1" => Kind::Unsigned,
            _ => return None,
        };
        let size: usize = rest[1..].parse().ok()?;
        let ok = match kind {
            Kind::Float => size == 4 || size == 8,
            _ => matches!(size, 1 | 2 | 4 | 8),
        };
        let big = order == '>' || (order == '=' && cfg!(target_endian = "big"));
        ok.then_some(Dtype { kind, size, big })
    }

    fn value(&self, b: &[u8]) -> Value {
        let mut buf = [0u8; 8];
        if self.big {
            for (i, x) in b.iter().rev().enumerate() {
                buf[i] = *x;
            }
        } else {
            buf[..b.len()].copy_from_slice(b);
        }
        let raw = u64::from_le_bytes(buf);
        match (self.kind, self.size) {
            (Kind::Float, 4) => Value::Float(f64::from(f32::from_bits(raw as u32))),
            (Kind::Float, _) => Value::Float(f64::from_bits(raw)),
            (Kind::Unsigned, _) => Value::Int(i128::from(raw)),
            (Kind::Signed, n) => {
                let shift = 64 - 8 * n as u32;
                Value::Int(i128::from(((raw << shift) as i64) >> shift))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;

    fn grid() -> Grid {
        Encoding::Matrix
            .parse_grid(
                "1 0 0 P 1\n0 1 1 0 1\n0 0 0 0 1\n1 1 0 G 1\n1 1 1 1 1",
                5,
                5,
            )
            .expect("valid")
    }

    #[test]
    fn written_files_have_numpys_exact_header() {
        let bytes = write(&grid());
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let hlen = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        assert_eq!((10 + hlen) % 64, 0, "header aligned to 64 bytes");
        let header = std::str::from_utf8(&bytes[10..10 + hlen]).expect("ascii");
        assert!(header.starts_with("{'descr': '<i8', 'fortran_order': False, 'shape': (5, 5), }"));
        assert!(header.ends_with('\n'));
        assert_eq!(bytes.len(), 128 + 25 * 8);
    }

    #[test]
    fn files_round_trip() {
        assert_eq!(read(&write(&grid())), Ok(grid()));
    }

    fn with_header(version: u8, header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[version, 0]);
        if version == 1 {
            out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn other_dtypes_byte_orders_and_versions_are_read() {
        let codes = [0u8, 1, 2, 3];
        let h =
            |d: &str| format!("{{'descr': '{d}', 'fortran_order': False, 'shape': (2, 2), }}\n");
        let u1 = with_header(1, &h("|u1"), &codes);
        let expect = Encoding::Matrix
            .parse_grid("1 0\nP G", 2, 2)
            .expect("valid");
        assert_eq!(read(&u1), Ok(expect.clone()));
        let be: Vec<u8> = codes
            .iter()
            .flat_map(|&c| i32::from(c).to_be_bytes())
            .collect();
        assert_eq!(read(&with_header(2, &h(">i4"), &be)), Ok(expect.clone()));
        let f8: Vec<u8> = codes
            .iter()
            .flat_map(|&c| f64::from(c).to_le_bytes())
            .collect();
        assert_eq!(read(&with_header(3, &h("<f8"), &f8)), Ok(expect));
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert_eq!(read(b"hello"), Err(NpyError::NotNpy));
        let f = "{'descr': '<i8', 'fortran_order': True, 'shape': (2, 2), }\n";
        assert_eq!(
            read(&with_header(1, f, &[0; 32])),
            Err(NpyError::FortranOrder)
        );
        let three = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2, 2), }\n";
        assert!(matches!(
            read(&with_header(1, three, &[0; 64])),
            Err(NpyError::Shape(_))
        ));
        let short = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }\n";
        assert!(matches!(
            read(&with_header(1, short, &[0; 8])),
            Err(NpyError::Truncated { .. })
        ));
        let bad = "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 2), }\n";
        assert!(matches!(
            read(&with_header(1, bad, &[0, 7])),
            Err(NpyError::Code { .. })
        ));
        let half: Vec<u8> = [0.5f64, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
        let fl = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }\n";
        assert!(matches!(
            read(&with_header(1, fl, &half)),
            Err(NpyError::Code { .. })
        ));
        let s = "{'descr': '<U1', 'fortran_order': False, 'shape': (1, 2), }\n";
        assert!(matches!(
            read(&with_header(1, s, &[0; 8])),
            Err(NpyError::Dtype(_))
        ));
        assert!(matches!(
            read(b"\x93NUMPY\x09\x00\x00\x00"),
            Err(NpyError::Version(9, 0))
        ));
    }
}
