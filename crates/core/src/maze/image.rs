//! The vision condition's drawing rule: a maze drawn as an image, encoded as a PNG and as a
//! `data:` URL. The page and the command line both call [`draw`], [`png`] and [`data_url`],
//! so a model is sent byte-for-byte the same image from either.
//!
//! # The drawing rule
//!
//! A grid of `rows` x `cols` cells (any sizes from 1) becomes an image of
//! `cols * 33 + 1` x `rows * 33 + 1` pixels (5x5: 166 x 166; 11x11: 364 x 364):
//!
//! - Grid lines 1 pixel wide, colour `#9ca3af`, run around the border and between cells:
//!   every pixel whose `x` or `y` is a multiple of [`PITCH`] (33) is a grid line.
//! - Cell `(row, col)` fills the [`CELL`] x [`CELL`] (32 x 32) square whose top-left pixel is
//!   `x = 1 + 33 * col`, `y = 1 + 33 * row`, in its tile's colour: wall `#1f2933`, empty
//!   `#ffffff`, player `#2563eb`, goal `#16a34a`.
//! - The player's cell carries a white (`#ffffff`) capital `P`, the goal's a white `G`, so
//!   colour is never the only cue. Each letter is a 5 x 7 bitmap glyph (below) scaled by
//!   4 to 20 x 28 pixels, placed 6 pixels from the cell square's left and 2 from its top
//!   (centred): glyph bit `(gx, gy)` covers the cell pixels `6 + 4 * gx ..= 9 + 4 * gx`,
//!   `2 + 4 * gy ..= 5 + 4 * gy`.
//!
//! ```text
//!   P        G
//! ####.    .###.
//! #...#    #...#
//! #...#    #....
//! ####.    #.###
//! #....    #...#
//! #....    #...#
//! #....    .####
//! ```
//!
//! Pass [`Maze::grid`](super::grid::Maze::grid) to draw a trial's maze as the text
//! encodings show it. [`read_cells`] reads an image back into tiles, by each cell's colour.
//!
//! # The PNG
//!
//! Indexed colour (type 3, bit depth 8, [`PALETTE`] as the `PLTE` chunk), no interlace,
//! every scanline filtered with Up (type 2; on the first row Up equals None). The `IDAT` is
//! one zlib stream (header `78 01`, Adler-32 trailer) holding one deflate block with the
//! fixed Huffman codes (RFC 1951, BTYPE 01) and greedy LZ77 matches at distance 1 (runs of
//! a byte) and at the scanline length (a row like the one above). The Up filter turns a row
//! equal to the row above into zeros, and most rows are. The file is about 2 to 3 times
//! what zlib's best level makes of the same rows (5x5: about 650 bytes against 370; 11x11:
//! 2.2 KB against 770), which is still small for a request.
//!
//! Why by hand: a deflate crate (and its dynamic Huffman code) would grow the browser
//! build, which is size-constrained, for an image of a few flat colours; and a hand-written
//! encoder gives the same bytes on every platform and version, wasm32 included, so the
//! image a record refers to can be made again exactly. The chunks' CRC-32 is crc32fast's
//! and the `data:` URL's base64 the base64 crate's (the crates the export ZIP and the study
//! link use too).

use super::grid::{Grid, Pos, Tile};
use crate::text::UnknownName;
use serde::{Deserialize, Serialize};

/// How a trial shows its maze: as text (the design's condition), as an image only, or as
/// an image beside its text (SpatialEval's vision-only and vision-text conditions). The
/// replies are text in every condition, read by the same verifiers; a new maze is written
/// in the trial's text encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Vision {
    /// The maze as text only.
    #[default]
    #[serde(rename = "text")]
    Text,
    /// The maze as an image only: the prompt says where the text maze would stand that
    /// the maze is in the attached image.
    #[serde(rename = "image")]
    Image,
    /// The image attached and the text as usual.
    #[serde(rename = "image+text")]
    ImageAndText,
}

impl Vision {
    /// The three conditions.
    pub const ALL: [Vision; 3] = [Vision::Text, Vision::Image, Vision::ImageAndText];

    /// The name in designs, records, the CSV and URLs: `text`, `image`, `image+text`.
    pub fn name(self) -> &'static str {
        match self {
            Vision::Text => "text",
            Vision::Image => "image",
            Vision::ImageAndText => "image+text",
        }
    }

    /// Reads a name in any case (`image_text` and `image-text` too).
    pub fn parse(s: &str) -> Result<Vision, UnknownName> {
        let t = s.trim().to_ascii_lowercase().replace(['_', '-', ' '], "+");
        Vision::ALL
            .into_iter()
            .find(|v| v.name() == t)
            .ok_or_else(|| UnknownName::new("vision condition", s, "text, image or image+text"))
    }

    /// Whether the maze is sent as an image.
    pub fn shows_image(self) -> bool {
        self != Vision::Text
    }

    /// Whether the condition is the design's text-only one (left out of records).
    pub fn is_text(&self) -> bool {
        *self == Vision::Text
    }
}

/// The `data:` URL of `grid` drawn by the rule above: what a trial in an image condition
/// attaches to each message that shows the maze.
pub fn grid_data_url(grid: &Grid) -> String {
    data_url(&png(&draw(grid)))
}

/// The side of a cell's coloured square, in pixels (grid lines not included).
pub const CELL: u32 = 32;
/// The distance from one cell to the next, in pixels: the square and one grid line.
pub const PITCH: u32 = CELL + 1;
/// How many times a glyph is scaled: a 5 x 7 glyph becomes 20 x 28 pixels.
const SCALE: u32 = 4;
/// Where a letter starts inside its cell's square: `(CELL - 5 * SCALE) / 2` across and
/// `(CELL - 7 * SCALE) / 2` down.
const LETTER_AT: (u32, u32) = ((CELL - 5 * SCALE) / 2, (CELL - 7 * SCALE) / 2);

/// A colour: red, green, blue.
pub type Rgb = [u8; 3];

/// The colours, in palette order: grid line, wall, white (empty cells and the letters),
/// player, goal. A pixel of an [`Image`] is an index into this table.
pub const PALETTE: [Rgb; 5] = [
    [0x9c, 0xa3, 0xaf],
    [0x1f, 0x29, 0x33],
    [0xff, 0xff, 0xff],
    [0x25, 0x63, 0xeb],
    [0x16, 0xa3, 0x4a],
];
const LINE: u8 = 0;
const WALL: u8 = 1;
const WHITE: u8 = 2;
const PLAYER: u8 = 3;
const GOAL: u8 = 4;

/// The 5 x 7 glyphs, one byte a row from the top, bit 4 the leftmost pixel.
const GLYPH_P: [u8; 7] = [
    0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000,
];
const GLYPH_G: [u8; 7] = [
    0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111,
];

/// A drawn maze: `width` x `height` pixels, each an index into [`PALETTE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices, row by row from the top left.
    pixels: Vec<u8>,
}

impl Image {
    /// The colour of pixel `(x, y)` (`x` from the left, `y` from the top), or `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        (x < self.width && y < self.height)
            .then(|| PALETTE[usize::from(self.pixels[(y * self.width + x) as usize])])
    }
}

/// How `tile` is drawn: the palette index its square is filled with, and its letter.
fn look(tile: Tile) -> (u8, Option<[u8; 7]>) {
    match tile {
        Tile::Wall => (WALL, None),
        Tile::Empty => (WHITE, None),
        Tile::Player => (PLAYER, Some(GLYPH_P)),
        Tile::Goal => (GOAL, Some(GLYPH_G)),
    }
}

/// The palette index of pixel `(x, y)` of `grid`'s drawing (the rule in the module docs).
fn index_at(grid: &Grid, x: u32, y: u32) -> u8 {
    if x.is_multiple_of(PITCH) || y.is_multiple_of(PITCH) {
        return LINE;
    }
    let cell = Pos::new((y / PITCH) as usize, (x / PITCH) as usize);
    let (background, glyph) = look(grid.get(cell).unwrap_or(Tile::Wall));
    // The glyph bit under the pixel; wrapping_sub puts pixels before the letter out of range.
    let gx = (x % PITCH - 1).wrapping_sub(LETTER_AT.0) / SCALE;
    let gy = (y % PITCH - 1).wrapping_sub(LETTER_AT.1) / SCALE;
    match glyph {
        Some(g) if gx < 5 && gy < 7 && g[gy as usize] >> (4 - gx) & 1 == 1 => WHITE,
        _ => background,
    }
}

/// `grid` drawn by the rule in the module docs. Tiles are read with [`Grid::get`].
pub fn draw(grid: &Grid) -> Image {
    let width = grid.cols() as u32 * PITCH + 1;
    let height = grid.rows() as u32 * PITCH + 1;
    let pixels = (0..height)
        .flat_map(|y| (0..width).map(move |x| index_at(grid, x, y)))
        .collect();
    Image {
        width,
        height,
        pixels,
    }
}

/// The tiles of a drawn maze, row by row, read from the colour of each cell square's
/// top-left pixel (letters never reach it): blue is the player, green the goal, white
/// empty, anything else a wall. `read_cells(&draw(g))` gives `g`'s tiles back.
pub fn read_cells(image: &Image) -> Vec<Vec<Tile>> {
    let cells = |side: u32| 0..side.saturating_sub(1) / PITCH;
    let tile = |r: u32, c: u32| {
        let p = image.pixel(1 + c * PITCH, 1 + r * PITCH);
        let drawn_as = |t: &Tile| p == Some(PALETTE[usize::from(look(*t).0)]);
        Tile::ALL.into_iter().find(drawn_as).unwrap_or(Tile::Wall)
    };
    cells(image.height)
        .map(|r| cells(image.width).map(|c| tile(r, c)).collect())
        .collect()
}

/// The Adler-32 checksum (zlib's trailer) of `data`.
fn adler32(data: &[u8]) -> u32 {
    let (a, b) = data.iter().fold((1u32, 0u32), |(a, b), &x| {
        let a = (a + u32::from(x)) % 65521;
        (a, (b + a) % 65521)
    });
    b << 16 | a
}

/// Deflate's bit stream: values go in least significant bit first.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    /// Appends the low `n` bits of `v` (`n` at most 16).
    fn put(&mut self, v: u32, n: u32) {
        self.acc |= v << self.n;
        self.n += n;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// Appends a Huffman code of `n` bits, which deflate stores most significant bit first.
    fn code(&mut self, code: u32, n: u32) {
        self.put(code.reverse_bits() >> (32 - n), n);
    }

    /// Appends a literal/length symbol (0..=285) in the fixed code (RFC 1951, 3.2.6).
    fn symbol(&mut self, s: u32) {
        match s {
            0..=143 => self.code(0x30 + s, 8),
            144..=255 => self.code(0x190 + s - 144, 9),
            256..=279 => self.code(s - 256, 7),
            _ => self.code(0xC0 + s - 280, 8),
        }
    }
}

/// The first length of each length symbol 257..=285, and its extra bits.
#[rustfmt::skip]
const LEN_BASE: [usize; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
#[rustfmt::skip]
const LEN_EXTRA: [u32; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// The first distance of each distance symbol 0..=29, and its extra bits.
#[rustfmt::skip]
const DIST_BASE: [usize; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
#[rustfmt::skip]
const DIST_EXTRA: [u32; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
    9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/// The symbol whose range holds `v`: the last of `bases` at most `v`.
fn bucket(bases: &[usize], v: usize) -> usize {
    bases.iter().rposition(|&b| b <= v).unwrap_or(0)
}

/// The longest match and the farthest distance deflate allows.
const MAX_MATCH: usize = 258;
const MAX_DIST: usize = 32768;

/// `data` as one final fixed-Huffman deflate block, with greedy matches at distance 1 and
/// at distance `stride` (a scanline's length; ignored when above 32768).
fn deflate(data: &[u8], stride: usize) -> Vec<u8> {
    let mut bits = Bits::default();
    bits.put(1, 1); // BFINAL
    bits.put(1, 2); // BTYPE 01: fixed Huffman codes
    let mut i = 0;
    while i < data.len() {
        let (len, dist) = [1, stride]
            .into_iter()
            .filter(|&d| d >= 1 && d <= i && d <= MAX_DIST)
            .map(|d| {
                let len = (0..MAX_MATCH.min(data.len() - i))
                    .take_while(|&k| data[i + k] == data[i + k - d])
                    .count();
                (len, d)
            })
            .fold((0, 0), |best, m| if m.0 > best.0 { m } else { best });
        if len < 3 {
            bits.symbol(u32::from(data[i]));
            i += 1;
            continue;
        }
        let l = bucket(&LEN_BASE, len);
        bits.symbol(257 + l as u32);
        bits.put((len - LEN_BASE[l]) as u32, LEN_EXTRA[l]);
        let d = bucket(&DIST_BASE, dist);
        bits.code(d as u32, 5); // distance codes are all 5 bits long
        bits.put((dist - DIST_BASE[d]) as u32, DIST_EXTRA[d]);
        i += len;
    }
    bits.symbol(256); // end of block
    bits.put(0, 7); // pad the last byte
    bits.out
}

/// `data` as a zlib stream: header `78 01`, [`deflate`], Adler-32 (big-endian).
fn zlib(data: &[u8], stride: usize) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    out.extend(deflate(data, stride));
    out.extend(adler32(data).to_be_bytes());
    out
}

/// Appends a PNG chunk: length, type, data, CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend((data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend(kind);
    out.extend(data);
    out.extend(crc32fast::hash(&out[start..]).to_be_bytes());
}

/// `image` as a PNG file (the format in the module docs).
pub fn png(image: &Image) -> Vec<u8> {
    let w = image.width as usize;
    let mut ihdr = [image.width.to_be_bytes(), image.height.to_be_bytes()].concat();
    ihdr.extend([8, 3, 0, 0, 0]); // bit depth 8, indexed, deflate, adaptive filters, no interlace
    let mut raw = Vec::with_capacity((w + 1) * image.height as usize);
    for (i, &b) in image.pixels.iter().enumerate() {
        if i.is_multiple_of(w) {
            raw.push(2); // Up: each byte minus the one above it (zero above the first row)
        }
        raw.push(b.wrapping_sub(i.checked_sub(w).map_or(0, |a| image.pixels[a])));
    }
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", PALETTE.as_flattened());
    chunk(&mut out, b"IDAT", &zlib(&raw, w + 1));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A PNG file as a `data:image/png;base64,...` URL, for an `<img>` or a model request.
pub fn data_url(png: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

/// Native only: the PNG is read back with miniz_oxide (a native dev-dependency).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;
    use crate::maze::generate::generate_one;
    use crate::maze::shape::Shape;
    use crate::maze::templates::TemplateLibrary;

    fn be32(b: &[u8]) -> u32 {
        u32::from_be_bytes(b[..4].try_into().expect("four bytes"))
    }

    /// A small PNG reader for what [`png`] writes: checks the signature, every chunk's CRC,
    /// the chunk order, IHDR's fields and the palette, inflates the IDATs and undoes None
    /// and Up filters. Gives the width, the height and the palette indices.
    fn decode(file: &[u8]) -> (u32, u32, Vec<u8>) {
        assert_eq!(file[..8], *b"\x89PNG\r\n\x1a\n", "signature");
        let (mut at, mut kinds) = (8, Vec::new());
        let (mut ihdr, mut idat) = (Vec::new(), Vec::new());
        while at < file.len() {
            let len = be32(&file[at..]) as usize;
            let (kind, data) = (&file[at + 4..at + 8], &file[at + 8..at + 8 + len]);
            let crc = be32(&file[at + 8 + len..]);
            assert_eq!(
                crc32fast::hash(&file[at + 4..at + 8 + len]),
                crc,
                "CRC of {kind:?}"
            );
            match kind {
                b"IHDR" => ihdr = data.to_vec(),
                b"PLTE" => assert_eq!(data, PALETTE.as_flattened(), "PLTE"),
                b"IDAT" => idat.extend(data),
                _ => {}
            }
            kinds.push(String::from_utf8(kind.to_vec()).expect("ASCII"));
            at += 12 + len;
        }
        assert_eq!(at, file.len(), "the last chunk ends the file");
        assert_eq!(kinds, ["IHDR", "PLTE", "IDAT", "IEND"], "chunk order");
        assert_eq!(ihdr.len(), 13);
        assert_eq!(ihdr[8..], [8, 3, 0, 0, 0], "depth 8, indexed, no interlace");
        let (width, height) = (be32(&ihdr), be32(&ihdr[4..]));
        assert_eq!(idat[..2], [0x78, 0x01], "zlib header");
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("inflates");
        let w = width as usize;
        assert_eq!(raw.len(), (w + 1) * height as usize, "a filter byte a row");
        let mut pixels: Vec<u8> = Vec::with_capacity(w * height as usize);
        for (y, line) in raw.chunks(w + 1).enumerate() {
            assert!(matches!(line[0], 0 | 2), "filter {} on row {y}", line[0]);
            for x in 0..w {
                let up = y.checked_sub(1).filter(|_| line[0] == 2);
                pixels.push(line[1 + x].wrapping_add(up.map_or(0, |a| pixels[a * w + x])));
            }
        }
        (width, height, pixels)
    }

    fn text_grid(text: &str, r: usize, c: usize) -> Grid {
        Encoding::Matrix.parse_grid(text, r, c).expect("a matrix")
    }

    /// Generated mazes of every size, a few shapes each, and hand-written odd grids.
    fn grids() -> Vec<Grid> {
        let mut out = Vec::new();
        for n in [5, 7, 9, 11] {
            for shape in [Shape::Square, Shape::Spiral, Shape::Cross] {
                let lib = TemplateLibrary::for_shape(n, shape);
                let maze = generate_one(shape, 3, 7, &lib).expect("a maze");
                out.push(maze.grid().clone());
            }
        }
        out.push(text_grid("1", 1, 1));
        out.push(text_grid("P", 1, 1));
        out.push(text_grid("G 0 0 1\n1 1 0 P", 2, 4));
        out
    }

    #[test]
    fn the_png_decodes_to_the_image_pixels() {
        for g in grids() {
            let image = draw(&g);
            let (width, height, pixels) = decode(&png(&image));
            assert_eq!((width, height), (image.width, image.height));
            assert_eq!(pixels, image.pixels, "{}x{}", g.rows(), g.cols());
        }
    }

    #[test]
    fn the_drawing_rule_has_the_documented_numbers() {
        let image = draw(&text_grid("1 0 P\nG 0 1", 2, 3));
        assert_eq!((image.width, image.height), (3 * 33 + 1, 2 * 33 + 1));
        let (line, wall, white) = ([0x9c, 0xa3, 0xaf], [0x1f, 0x29, 0x33], [0xff; 3]);
        let (blue, green) = ([0x25, 0x63, 0xeb], [0x16, 0xa3, 0x4a]);
        let (px, py, gx, gy) = (1 + 2 * 33, 1, 1, 1 + 33); // the P's and G's squares
        let expected = [
            (0, 17, line, "left border"),
            (33, 17, line, "line between cells"),
            (99, 17, line, "right border"),
            (40, 66, line, "bottom border"),
            (1, 1, wall, "a wall's first pixel"),
            (32, 32, wall, "a wall's last pixel"),
            (34, 1, white, "empty"),
            (px, py, blue, "player"),
            (px + 6, py + 2, white, "the P's top-left pixel"),
            (px + 5, py + 2, blue, "left of the P"),
            (px + 22, py + 2, blue, "the P's top row ends"),
            (px + 25, py + 6, white, "the P's right stroke"),
            (px + 6, py + 29, white, "the P's stem ends"),
            (px + 6, py + 30, blue, "below the P"),
            (gx, gy, green, "goal"),
            (gx + 6, gy + 2, green, "the G's rounded corner"),
            (gx + 10, gy + 2, white, "the G's top stroke"),
        ];
        for (x, y, colour, what) in expected {
            assert_eq!(image.pixel(x, y), Some(colour), "{what} at ({x}, {y})");
        }
        assert_eq!(image.pixel(image.width, 0), None);
        assert_eq!(image.pixel(0, image.height), None);
    }

    #[test]
    fn reading_the_image_by_cell_gives_the_maze_back() {
        for g in grids() {
            let image = draw(&g);
            let tiles: Vec<Tile> = read_cells(&image).concat();
            assert_eq!(tiles.len(), g.rows() * g.cols());
            assert!(g.positions().zip(&tiles).all(|(p, &t)| g.get(p) == Some(t)));
            for p in g.positions() {
                let tile = g.get(p).expect("in the grid");
                let (x0, y0) = (1 + p.col as u32 * PITCH, 1 + p.row as u32 * PITCH);
                let centre = image.pixel(x0 + CELL / 2, y0 + CELL / 2).expect("inside");
                let (background, glyph) = look(tile);
                let white = PALETTE[usize::from(WHITE)];
                let on = PALETTE[usize::from(background)] == centre;
                assert!(
                    on || (glyph.is_some() && centre == white),
                    "{p}: {centre:?}"
                );
                // The letter is all there: 4 x 4 white pixels per lit glyph bit.
                let bits = glyph.map_or(0, |g| g.iter().map(|r| r.count_ones()).sum());
                let whites = (0..CELL * CELL)
                    .filter(|i| image.pixel(x0 + i % CELL, y0 + i / CELL) == Some(white))
                    .count() as u32;
                let expect = [bits * SCALE * SCALE, CELL * CELL][usize::from(tile == Tile::Empty)];
                assert_eq!(whites, expect, "white pixels in {p} ({tile:?})");
            }
        }
    }

    #[test]
    fn the_png_is_much_smaller_than_the_raw_pixels() {
        // Measured: 5x5 637 to 646 bytes (27,556 pixels), 7x7 1,048 to 1,054 (53,824),
        // 9x9 1,606 to 1,607 (88,804), 11x11 2,230 to 2,239 (132,496): about 1:45 to 1:60.
        for g in grids().iter().filter(|g| g.rows() >= 5) {
            let image = draw(g);
            let size = png(&image).len();
            let raw = image.pixels.len();
            assert!(size * 20 < raw, "{size} bytes for {raw} pixels");
            assert!(g.rows() > 5 || size < 2048, "a 5x5 maze in {size} bytes");
        }
    }

    #[test]
    fn the_png_bytes_are_pinned() {
        // Records refer to images that must be made again byte for byte, on every platform:
        // a change here changes every image sent, so it must be deliberate.
        let file = png(&draw(&text_grid("1 0 P\nG 0 1", 2, 3)));
        assert_eq!((file.len(), crc32fast::hash(&file)), (306, 0xDDE5_91BE));
        let url = data_url(&file);
        assert!(
            url.starts_with("data:image/png;base64,iVBORw0KGgo"),
            "{url}"
        );
    }

    #[test]
    fn the_data_url_is_base64_by_the_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in vectors {
            assert_eq!(
                data_url(plain.as_bytes()),
                format!("data:image/png;base64,{coded}"),
                "{plain:?}"
            );
        }
        assert_eq!(
            data_url(&[0xfb, 0xff]),
            "data:image/png;base64,+/8=",
            "the standard alphabet"
        );
    }

    #[test]
    fn crc32_and_adler32_match_their_check_values() {
        assert_eq!(crc32fast::hash(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32fast::hash(b""), 0);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        assert_eq!(adler32(b""), 1);
    }

    fn round_trips(data: &[u8], stride: usize) {
        let z = zlib(data, stride);
        assert_eq!(
            miniz_oxide::inflate::decompress_to_vec_zlib(&z).expect("inflates"),
            data,
            "{} bytes, stride {stride}",
            data.len()
        );
    }

    /// `n` bytes from a fixed linear congruential generator.
    fn noise(n: usize, seed: u32) -> Vec<u8> {
        let next = |s: &u32| Some(s.wrapping_mul(1_103_515_245).wrapping_add(12_345));
        let states = std::iter::successors(next(&seed), next);
        states.take(n).map(|s| (s >> 16) as u8).collect()
    }

    #[test]
    fn deflate_round_trips_tricky_inputs() {
        round_trips(&[], 1);
        round_trips(&[7], 1);
        round_trips(&[0, 0], 1);
        for n in [3, 4, 257, 258, 259, 260, 516, 517, 1000] {
            round_trips(&vec![9; n], 5);
        }
        for stride in [1, 3, 100, 32768, 40000] {
            round_trips(&noise(5000, 1), stride);
        }
        // Every match length: runs of 4..=259 equal bytes are a literal and a match of
        // 3..=258 at distance 1.
        let runs = (4..=259usize).flat_map(|n| vec![(n % 251) as u8; n]);
        round_trips(&runs.collect::<Vec<u8>>(), 1);
        // Every distance symbol at its first and last distance: a block of noise repeated
        // once at distance `stride`.
        for (d, &base) in DIST_BASE.iter().enumerate() {
            for stride in [base, (base + (1 << DIST_EXTRA[d]) - 1).min(MAX_DIST)] {
                let mut data = noise(stride, d as u32);
                for i in stride..stride + 300 {
                    data.push(data[i - stride]);
                }
                let alone = zlib(&data[..stride], stride).len();
                let with_copy = zlib(&data, stride).len();
                assert!(with_copy < alone + 8, "distance {stride} was used");
                round_trips(&data, stride);
            }
        }
        // Noise with runs and repeated rows mixed in, as a scanline-like stream.
        let mut mixed = noise(3000, 9);
        mixed.extend(vec![0; 700]);
        mixed.extend_from_within(100..1100);
        round_trips(&mixed, 1000);
    }
}
