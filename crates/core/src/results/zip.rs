//! A small ZIP container, written and read in Rust, with the compression left outside.
//!
//! The browser deflates with its own `CompressionStream('deflate-raw')` (asynchronous, and
//! nothing added to the wasm), so the writer takes each entry's raw deflate data from the
//! caller ([`ZipWriter::add_deflated`]) or stores it as is ([`ZipWriter::add_stored`]); the
//! CRC-32 is computed here (crc32fast). The reader lists the entries and hands back stored bytes or
//! raw deflate data for the caller to inflate ([`ZipEntry::contents`] takes the inflater
//! and checks the CRC). No ZIP64: at most 65,535 entries and 4 GiB, far above an
//! experiment's export. Entry times are fixed (1980-01-01 00:00), so the same files give
//! the same archive byte for byte.
//!
//! ```
//! use shapemaze_core::results::zip::{read_zip, ZipWriter};
//!
//! let mut w = ZipWriter::new();
//! w.add_stored("trials.csv", b"model\nqwen\n").unwrap();
//! let bytes = w.finish().unwrap();
//! let entries = read_zip(&bytes).unwrap();
//! assert_eq!(entries[0].name, "trials.csv");
//! assert_eq!(entries[0].stored_bytes(), Some(&b"model\nqwen\n"[..]));
//! ```

use std::fmt;

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
/// Version 2.0: deflate, folders.
const VERSION: u16 = 20;
/// General-purpose flag bit 11: names are UTF-8.
const FLAG_UTF8: u16 = 0x0800;
/// 1980-01-01 in MS-DOS date format (the earliest a ZIP can say).
const DOS_DATE: u16 = (1 << 5) | 1;
const LOCAL_LEN: usize = 30;
const CENTRAL_LEN: usize = 46;
const END_LEN: usize = 22;

/// Raw deflate compression of a file's bytes (no zlib or gzip wrapper), injected: the
/// browser's `CompressionStream('deflate-raw')`, or a native library in tests.
pub type DeflateFn<'a> = &'a dyn Fn(&[u8]) -> Vec<u8>;

/// Raw deflate decompression, injected likewise; the error says why the data is bad (as
/// deflate crates say it: `InvalidData`).
pub type InflateFn<'a> = &'a dyn Fn(&[u8]) -> std::io::Result<Vec<u8>>;

/// How an entry's bytes are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// As they are (method 0).
    Stored,
    /// Raw deflate (method 8).
    Deflated,
}

impl Method {
    fn code(self) -> u16 {
        match self {
            Method::Stored => 0,
            Method::Deflated => 8,
        }
    }
}

/// Why an archive cannot be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZipError {
    /// The archive would need ZIP64 (more than 65,535 entries or 4 GiB).
    TooLarge,
    /// An entry's name is empty, absolute or climbs out of the archive (`..`).
    BadName(String),
    /// Not a ZIP archive, or its directory is cut short.
    NotZip(String),
    /// An entry is damaged.
    Corrupt {
        /// The entry's name.
        entry: String,
        /// What is wrong.
        why: String,
    },
    /// An entry uses something this reader does not (encryption, another method).
    Unsupported {
        /// The entry's name.
        entry: String,
        /// What.
        why: String,
    },
}

impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZipError::TooLarge => write!(
                f,
                "the archive would hold more than 65,535 files or 4 GiB: export in parts"
            ),
            ZipError::BadName(n) => write!(f, "'{n}' is not a relative file name"),
            ZipError::NotZip(why) => write!(f, "not a ZIP archive: {why}"),
            ZipError::Corrupt { entry, why } => write!(f, "{entry} in the ZIP is damaged: {why}"),
            ZipError::Unsupported { entry, why } => write!(
                f,
                "{entry} in the ZIP uses {why}, which cannot be read: re-create the ZIP without it"
            ),
        }
    }
}

impl std::error::Error for ZipError {}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn small<T: TryFrom<usize>>(n: usize) -> Result<T, ZipError> {
    T::try_from(n).map_err(|_| ZipError::TooLarge)
}

/// Builds an archive entry by entry (the caller may compress between entries, as the
/// browser's asynchronous `CompressionStream` needs).
#[derive(Clone, Debug, Default)]
pub struct ZipWriter {
    out: Vec<u8>,
    central: Vec<u8>,
    entries: usize,
}

impl ZipWriter {
    /// An empty archive.
    pub fn new() -> ZipWriter {
        ZipWriter::default()
    }

    /// Adds `data` under `path` (a relative name with `/` between folders), stored as is.
    pub fn add_stored(&mut self, path: &str, data: &[u8]) -> Result<(), ZipError> {
        self.add(
            path,
            Method::Stored,
            crc32fast::hash(data),
            data.len(),
            data,
        )
    }

    /// Adds `data` under `path`, given `deflated`, its raw deflate compression (no zlib or
    /// gzip wrapper). Stored instead when compression did not make it smaller.
    pub fn add_deflated(
        &mut self,
        path: &str,
        data: &[u8],
        deflated: &[u8],
    ) -> Result<(), ZipError> {
        if deflated.len() >= data.len() {
            return self.add_stored(path, data);
        }
        self.add(
            path,
            Method::Deflated,
            crc32fast::hash(data),
            data.len(),
            deflated,
        )
    }

    fn add(
        &mut self,
        path: &str,
        method: Method,
        crc: u32,
        size: usize,
        body: &[u8],
    ) -> Result<(), ZipError> {
        if path.is_empty()
            || path.starts_with('/')
            || path.contains('\\')
            || path.split('/').any(|p| p == "..")
        {
            return Err(ZipError::BadName(path.to_string()));
        }
        let offset: u32 = small(self.out.len())?;
        let name = path.as_bytes();
        let name_len: u16 = small(name.len())?;
        let (csize, usize_): (u32, u32) = (small(body.len())?, small(size)?);
        if self.entries == usize::from(u16::MAX) {
            return Err(ZipError::TooLarge);
        }
        let out = &mut self.out;
        u32le(out, LOCAL_SIG);
        u16le(out, VERSION);
        u16le(out, FLAG_UTF8);
        u16le(out, method.code());
        u16le(out, 0);
        u16le(out, DOS_DATE);
        u32le(out, crc);
        u32le(out, csize);
        u32le(out, usize_);
        u16le(out, name_len);
        u16le(out, 0);
        out.extend_from_slice(name);
        out.extend_from_slice(body);
        let c = &mut self.central;
        u32le(c, CENTRAL_SIG);
        u16le(c, VERSION);
        u16le(c, VERSION);
        u16le(c, FLAG_UTF8);
        u16le(c, method.code());
        u16le(c, 0);
        u16le(c, DOS_DATE);
        u32le(c, crc);
        u32le(c, csize);
        u32le(c, usize_);
        u16le(c, name_len);
        u16le(c, 0);
        u16le(c, 0);
        u16le(c, 0);
        u16le(c, 0);
        u32le(c, 0);
        u32le(c, offset);
        c.extend_from_slice(name);
        self.entries += 1;
        small::<u32>(self.out.len())?;
        Ok(())
    }

    /// The finished archive's bytes.
    pub fn finish(mut self) -> Result<Vec<u8>, ZipError> {
        let cd_offset: u32 = small(self.out.len())?;
        let cd_size: u32 = small(self.central.len())?;
        let n: u16 = small(self.entries)?;
        self.out.append(&mut self.central);
        small::<u32>(self.out.len())?;
        let out = &mut self.out;
        u32le(out, END_SIG);
        u16le(out, 0);
        u16le(out, 0);
        u16le(out, n);
        u16le(out, n);
        u32le(out, cd_size);
        u32le(out, cd_offset);
        u16le(out, 0);
        Ok(self.out)
    }
}

/// An archive of `files` (`(path, bytes)`), each deflated with `deflate` (raw deflate)
/// when given and worth it, else stored.
pub fn write_zip(
    files: &[(String, Vec<u8>)],
    deflate: Option<DeflateFn<'_>>,
) -> Result<Vec<u8>, ZipError> {
    let mut w = ZipWriter::new();
    for (path, data) in files {
        match deflate {
            Some(d) => w.add_deflated(path, data, &d(data))?,
            None => w.add_stored(path, data)?,
        }
    }
    w.finish()
}

/// One file of an archive being read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZipEntry<'a> {
    /// Its name (path) in the archive.
    pub name: String,
    /// How its bytes are kept.
    pub method: Method,
    /// The CRC-32 of its contents.
    pub crc32: u32,
    /// The size of its contents.
    pub size: u64,
    /// Its bytes in the archive: the contents when stored, raw deflate data when deflated.
    pub data: &'a [u8],
}

impl ZipEntry<'_> {
    /// Whether this is a folder entry (its name ends with `/`).
    pub fn is_dir(&self) -> bool {
        self.name.ends_with('/')
    }

    /// The contents of a stored entry (`None` for a deflated one).
    pub fn stored_bytes(&self) -> Option<&[u8]> {
        (self.method == Method::Stored).then_some(self.data)
    }

    /// Checks `contents` (the stored bytes, or the inflated data) against the entry's size
    /// and CRC-32.
    pub fn check(&self, contents: &[u8]) -> Result<(), ZipError> {
        let corrupt = |why: String| ZipError::Corrupt {
            entry: self.name.clone(),
            why,
        };
        if contents.len() as u64 != self.size {
            return Err(corrupt(format!(
                "{} bytes where {} were recorded",
                contents.len(),
                self.size
            )));
        }
        if crc32fast::hash(contents) != self.crc32 {
            return Err(corrupt("its checksum (CRC-32) does not match".into()));
        }
        Ok(())
    }

    /// The entry's contents, checked: stored bytes as they are, deflated data through
    /// `inflate` (raw deflate to bytes).
    pub fn contents(&self, inflate: InflateFn<'_>) -> Result<Vec<u8>, ZipError> {
        let bytes = match self.method {
            Method::Stored => self.data.to_vec(),
            Method::Deflated => inflate(self.data).map_err(|why| ZipError::Corrupt {
                entry: self.name.clone(),
                why: format!("it cannot be inflated: {why}"),
            })?,
        };
        self.check(&bytes)?;
        Ok(bytes)
    }
}

fn rd16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn rd32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Lists the entries of an archive, in its central directory's order. Never panics on
/// damaged input; the error names the damaged entry.
pub fn read_zip(bytes: &[u8]) -> Result<Vec<ZipEntry<'_>>, ZipError> {
    let not_zip = |why: &str| ZipError::NotZip(why.to_string());
    if bytes.len() < END_LEN {
        return Err(not_zip("too short"));
    }
    // The end record is in the last 22 + 65,535 (comment) bytes.
    let lowest = bytes.len().saturating_sub(END_LEN + usize::from(u16::MAX));
    let end = (lowest..=bytes.len() - END_LEN)
        .rev()
        .find(|&i| rd32(bytes, i) == Some(END_SIG))
        .ok_or_else(|| not_zip("no end of central directory record"))?;
    let field = |at: usize| rd16(bytes, end + at).ok_or_else(|| not_zip("end record cut short"));
    let count = usize::from(field(10)?);
    let cd_offset = rd32(bytes, end + 16).ok_or_else(|| not_zip("end record cut short"))? as usize;
    if count == usize::from(u16::MAX) || cd_offset == u32::MAX as usize {
        return Err(ZipError::Unsupported {
            entry: "the archive".into(),
            why: "ZIP64".into(),
        });
    }
    let mut entries = Vec::with_capacity(count);
    let mut at = cd_offset;
    for n in 0..count {
        let short = || not_zip(&format!("central directory entry {} is cut short", n + 1));
        if rd32(bytes, at) != Some(CENTRAL_SIG) {
            return Err(short());
        }
        let flags = rd16(bytes, at + 8).ok_or_else(short)?;
        let method = rd16(bytes, at + 10).ok_or_else(short)?;
        let crc = rd32(bytes, at + 16).ok_or_else(short)?;
        let csize = rd32(bytes, at + 20).ok_or_else(short)? as usize;
        let size = rd32(bytes, at + 24).ok_or_else(short)?;
        let name_len = usize::from(rd16(bytes, at + 28).ok_or_else(short)?);
        let extra_len = usize::from(rd16(bytes, at + 30).ok_or_else(short)?);
        let comment_len = usize::from(rd16(bytes, at + 32).ok_or_else(short)?);
        let local = rd32(bytes, at + 42).ok_or_else(short)? as usize;
        let name_bytes = bytes
            .get(at + CENTRAL_LEN..at + CENTRAL_LEN + name_len)
            .ok_or_else(short)?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        at += CENTRAL_LEN + name_len + extra_len + comment_len;
        let unsupported = |why: &str| ZipError::Unsupported {
            entry: name.clone(),
            why: why.to_string(),
        };
        if flags & 1 != 0 {
            return Err(unsupported("encryption"));
        }
        let method = match method {
            0 => Method::Stored,
            8 => Method::Deflated,
            m => return Err(unsupported(&format!("compression method {m}"))),
        };
        let corrupt = |why: &str| ZipError::Corrupt {
            entry: name.clone(),
            why: why.to_string(),
        };
        if rd32(bytes, local) != Some(LOCAL_SIG) {
            return Err(corrupt("its local header is missing"));
        }
        let local_name = usize::from(rd16(bytes, local + 26).ok_or_else(|| corrupt("cut short"))?);
        let local_extra = usize::from(rd16(bytes, local + 28).ok_or_else(|| corrupt("cut short"))?);
        let start = local + LOCAL_LEN + local_name + local_extra;
        let data = bytes
            .get(start..start + csize)
            .ok_or_else(|| corrupt("its data is cut short"))?;
        entries.push(ZipEntry {
            name,
            method,
            crc32: crc,
            size: u64::from(size),
            data,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_reads_back_entry_for_entry() {
        let files = vec![
            ("a.txt".to_string(), b"hello".to_vec()),
            ("dir/b.bin".to_string(), vec![0, 1, 2, 255]),
            ("empty".to_string(), vec![]),
        ];
        let bytes = write_zip(&files, None).expect("written");
        let entries = read_zip(&bytes).expect("read");
        assert_eq!(entries.len(), 3, "three entries");
        for ((name, data), e) in files.iter().zip(&entries) {
            assert_eq!(&e.name, name, "names in order");
            let got = e
                .contents(&|_| Err(std::io::Error::other("not deflated")))
                .expect("contents");
            assert_eq!(&got, data, "the bytes of {name}");
        }
    }

    #[test]
    fn the_same_files_give_the_same_archive() {
        let files = vec![("a".to_string(), b"x".to_vec())];
        assert_eq!(
            write_zip(&files, None),
            write_zip(&files, None),
            "byte for byte"
        );
    }

    #[test]
    fn a_damaged_entry_is_named() {
        let bytes =
            write_zip(&[("trials.jsonl".to_string(), b"{}\n".to_vec())], None).expect("written");
        let mut bad = bytes.clone();
        // The entry's data starts after the 30-byte local header and its 12-byte name.
        bad[42] ^= 0xFF;
        let entries = read_zip(&bad).expect("the directory is intact");
        let err = entries[0]
            .contents(&|_| Err(std::io::Error::other("unused")))
            .expect_err("the checksum catches it");
        assert!(
            err.to_string().contains("trials.jsonl") && err.to_string().contains("CRC-32"),
            "{err}"
        );
        assert!(
            matches!(
                read_zip(b"plain text, not a zip at all"),
                Err(ZipError::NotZip(_))
            ),
            "not a zip"
        );
        assert!(
            read_zip(&bytes[..bytes.len() - 30]).is_err(),
            "a cut archive is refused"
        );
    }

    #[test]
    fn names_outside_the_archive_are_refused() {
        for name in ["", "/abs", "a/../b", "a\\b"] {
            assert!(
                ZipWriter::new().add_stored(name, b"x").is_err(),
                "'{name}' refused"
            );
        }
    }

    #[test]
    fn a_deflated_entry_is_kept_only_when_smaller() {
        let data = vec![b'a'; 1000];
        let mut w = ZipWriter::new();
        w.add_deflated("big", &data, &[1, 2, 3]).expect("added");
        w.add_deflated("small", b"ab", b"abc").expect("added");
        let bytes = w.finish().expect("finished");
        let entries = read_zip(&bytes).expect("read");
        assert_eq!(entries[0].method, Method::Deflated, "smaller: deflated");
        assert_eq!(entries[0].data, &[1, 2, 3], "the deflate data as given");
        assert_eq!(entries[0].size, 1000, "the contents' size");
        assert_eq!(entries[1].method, Method::Stored, "not smaller: stored");
    }
}
