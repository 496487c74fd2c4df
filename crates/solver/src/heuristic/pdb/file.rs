//! The database file: a versioned header, a checksum, then the tables. Pure bytes: nothing
//! here touches the filesystem (see [`super::Cache`]).
//!
//! Layout (little-endian):
//!
//! | offset | size | field |
//! |--------|------|-------|
//! | 0      | 8    | magic `NPUZPDB\n` |
//! | 8      | 4    | format version ([`FORMAT_VERSION`]) |
//! | 12     | 4    | header length `H` (a multiple of 64) |
//! | 16     | 8    | data length `D` |
//! | 24     | 8    | CRC-32 of every byte of the file except these 8 |
//! | 32     | 1+1+1+1 | width, height, group count, reserved (0) |
//! | 36     | cells | the goal, one byte per cell |
//! | ...    |      | per group: tile count `k`, encoding, `k` tiles, data offset (u64), data length (u64) |
//! | `H`    | `D`  | the tables, each starting on a 64-byte boundary |
//!
//! Encodings: 1 = 4 bits an entry (low nibble first), 2 = one byte an entry, plus `0x10` when
//! the table has one entry per (placement, blank region) rather than per placement. An entry
//! is `(distance - manhattan) / 2` (see the [module docs](super)). Entry `i` of a per-placement
//! table of `k` tiles is the placement `subset * k! + order`: the colexicographic rank of the
//! set of cells the tiles occupy, times `k!`, plus the lexicographic rank of the order in which
//! the group's tiles stand on those cells, read in increasing cell order. In a per-region
//! table, each cell set in colexicographic order owns `R * k!` entries, `R` being the number
//! of connected parts of its free cells (numbered in the order of their lowest cells), and
//! the entry of an order `o` with the blank in part `r` is `o * R + r` among them (see
//! `Regions`). Version 1 had per-placement tables only.

use thiserror::Error;

/// The version of the layout above. Files of any other version are rebuilt.
pub const FORMAT_VERSION: u32 = 2;

const MAGIC: &[u8; 8] = b"NPUZPDB\n";

/// Set in a group's encoding byte when its table has one entry per (placement, blank region).
const PER_REGION: u8 = 0x10;

/// How a table's entries are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Four bits an entry, two entries a byte, the even entry in the low nibble.
    Nibble,
    /// One byte an entry.
    Byte,
}

impl Encoding {
    fn code(self) -> u8 {
        match self {
            Encoding::Nibble => 1,
            Encoding::Byte => 2,
        }
    }

    fn from_code(c: u8) -> Option<Encoding> {
        match c {
            1 => Some(Encoding::Nibble),
            2 => Some(Encoding::Byte),
            _ => None,
        }
    }

    /// Bytes for `entries` entries.
    pub fn bytes(self, entries: u64) -> u64 {
        match self {
            Encoding::Nibble => entries.div_ceil(2),
            Encoding::Byte => entries,
        }
    }

    /// `nibble` or `byte`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Nibble => "4-bit",
            Encoding::Byte => "8-bit",
        }
    }
}

/// Why bytes are not a database file that can be trusted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FileError {
    /// Shorter than its header says.
    #[error("truncated: {found} bytes, expected {expected}")]
    Truncated {
        /// Bytes present.
        found: u64,
        /// Bytes the header announces.
        expected: u64,
    },
    /// Not a database file.
    #[error("not a pattern database file")]
    Magic,
    /// Written by another version of the format.
    #[error("format version {0}, expected {FORMAT_VERSION}")]
    Version(u32),
    /// A header field out of range.
    #[error("invalid header: {0}")]
    Header(&'static str),
    /// The checksum does not match: the file was damaged.
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
    /// Longer than its header says (bytes appended, or a torn write of another file).
    #[error("too long: {found} bytes, expected {expected}")]
    TooLong {
        /// Bytes present.
        found: u64,
        /// Bytes the header announces.
        expected: u64,
    },
    /// Not a regular file (a FIFO, a device, a directory): never opened, since opening a FIFO
    /// waits for a writer that may never come.
    #[error("not a regular file")]
    NotAFile,
    /// The file cannot be read (no permission, an I/O error): what the system said.
    #[error("{0}")]
    Unreadable(String),
}

/// The description of one table in a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GroupHeader {
    pub(crate) tiles: Vec<u16>,
    pub(crate) encoding: Encoding,
    /// One entry per (placement, blank region) rather than per placement.
    pub(crate) per_region: bool,
    /// Offset of the table from the start of the data.
    pub(crate) offset: u64,
    pub(crate) len: u64,
}

/// A decoded header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) goal: Vec<u16>,
    pub(crate) groups: Vec<GroupHeader>,
    /// Length of the header; the data starts here.
    pub(crate) header_len: usize,
    pub(crate) data_len: u64,
}

/// Rounds up to a multiple of 64.
pub(crate) fn align(n: u64) -> u64 {
    n.div_ceil(64) * 64
}

/// The header bytes for a database (checksum left zero; [`seal`] fills it in).
pub(crate) fn encode_header(
    width: usize,
    height: usize,
    goal: &[u16],
    groups: &[GroupHeader],
) -> Vec<u8> {
    let data_len = groups.iter().map(|g| g.offset + g.len).max().unwrap_or(0);
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&data_len.to_le_bytes());
    h.extend_from_slice(&0u64.to_le_bytes());
    h.extend_from_slice(&[width as u8, height as u8, groups.len() as u8, 0]);
    h.extend(goal.iter().map(|&t| t as u8));
    for g in groups {
        h.push(g.tiles.len() as u8);
        h.push(g.encoding.code() | if g.per_region { PER_REGION } else { 0 });
        h.extend(g.tiles.iter().map(|&t| t as u8));
        h.extend_from_slice(&g.offset.to_le_bytes());
        h.extend_from_slice(&g.len.to_le_bytes());
    }
    let len = align(h.len() as u64) as usize;
    h.resize(len, 0);
    h[12..16].copy_from_slice(&(len as u32).to_le_bytes());
    h
}

/// The checksum of a whole file image (the checksum field itself excluded).
pub(crate) fn checksum(file: &[u8]) -> u64 {
    let mut c = crc32fast::Hasher::new();
    c.update(&file[..24]);
    c.update(&file[32..]);
    u64::from(c.finalize())
}

/// Writes the checksum of a complete file image into it.
pub(crate) fn seal(file: &mut [u8]) {
    let sum = checksum(file);
    file[24..32].copy_from_slice(&sum.to_le_bytes());
}

/// Reads and checks a header, and the whole file's length and checksum.
///
/// # Errors
/// [`FileError`] for anything that does not hold: magic, version, lengths, fields, checksum.
pub(crate) fn decode(file: &[u8]) -> Result<Header, FileError> {
    let header = decode_header(file)?;
    let expected = header.header_len as u64 + header.data_len;
    let found = file.len() as u64;
    if found < expected {
        return Err(FileError::Truncated { found, expected });
    }
    if found > expected {
        return Err(FileError::TooLong { found, expected });
    }
    let stored = u64::from_le_bytes(file[24..32].try_into().map_err(|_| FileError::Magic)?);
    if stored != checksum(file) {
        return Err(FileError::Checksum);
    }
    Ok(header)
}

/// Reads a header without checking the data (for listing).
pub(crate) fn decode_header(file: &[u8]) -> Result<Header, FileError> {
    let short = |expected: usize| FileError::Truncated {
        found: file.len() as u64,
        expected: expected as u64,
    };
    if file.len() < 36 {
        if file.len() >= 8 && &file[..8] != MAGIC {
            return Err(FileError::Magic);
        }
        return Err(short(36));
    }
    if &file[..8] != MAGIC {
        return Err(FileError::Magic);
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]]);
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(FileError::Version(version));
    }
    let header_len = u32_at(12) as usize;
    if header_len % 64 != 0 || header_len < 64 {
        return Err(FileError::Header("header length"));
    }
    if file.len() < header_len {
        return Err(short(header_len));
    }
    let data_len = u64::from_le_bytes(file[16..24].try_into().map_err(|_| FileError::Magic)?);
    let (width, height, count) =
        (usize::from(file[32]), usize::from(file[33]), usize::from(file[34]));
    let cells = width * height;
    if width < 2 || height < 2 || cells > super::pattern::MAX_CELLS || count == 0 {
        return Err(FileError::Header("board size or group count"));
    }
    let mut at = 36;
    let mut take = |n: usize| -> Result<&[u8], FileError> {
        if at + n > header_len {
            return Err(FileError::Header("fields past the header length"));
        }
        at += n;
        Ok(&file[at - n..at])
    };
    let goal: Vec<u16> = take(cells)?.iter().map(|&b| u16::from(b)).collect();
    let mut seen = vec![false; cells];
    for &t in &goal {
        if usize::from(t) >= cells || std::mem::replace(&mut seen[usize::from(t)], true) {
            return Err(FileError::Header("goal is not a permutation"));
        }
    }
    let mut groups = Vec::with_capacity(count);
    for _ in 0..count {
        let kb = take(2)?;
        let (k, code) = (usize::from(kb[0]), kb[1]);
        let per_region = code & PER_REGION != 0;
        let encoding =
            Encoding::from_code(code & !PER_REGION).ok_or(FileError::Header("encoding"))?;
        if k == 0 || k > super::rank::MAX_PATTERN_TILES {
            return Err(FileError::Header("group size"));
        }
        let tiles: Vec<u16> = take(k)?.iter().map(|&b| u16::from(b)).collect();
        if tiles.iter().any(|&t| t == 0 || usize::from(t) >= cells) {
            return Err(FileError::Header("tile number"));
        }
        let offset = u64::from_le_bytes(take(8)?.try_into().map_err(|_| FileError::Magic)?);
        let len = u64::from_le_bytes(take(8)?.try_into().map_err(|_| FileError::Magic)?);
        let entries = if per_region {
            super::pattern::region_entries(width, height, k)
        } else {
            super::pattern::entries(cells, k)
        };
        if len != encoding.bytes(entries)
            || offset % 64 != 0
            || offset.checked_add(len).is_none_or(|e| e > data_len)
        {
            return Err(FileError::Header("table length or offset"));
        }
        groups.push(GroupHeader { tiles, encoding, per_region, offset, len });
    }
    Ok(Header { width, height, goal, groups, header_len, data_len })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let goal: Vec<u16> = (0..9).collect();
        let groups = vec![
            GroupHeader {
                tiles: vec![1, 2],
                encoding: Encoding::Nibble,
                per_region: false,
                offset: 0,
                len: 36,
            },
            GroupHeader {
                tiles: vec![3],
                encoding: Encoding::Byte,
                per_region: false,
                offset: 64,
                len: 9,
            },
        ];
        let mut file = encode_header(3, 3, &goal, &groups);
        file.resize(file.len() + 73, 7);
        seal(&mut file);
        file
    }

    #[test]
    fn header_round_trips() {
        let file = sample();
        let h = decode(&file).unwrap();
        assert_eq!((h.width, h.height), (3, 3));
        assert_eq!(h.groups[1].tiles, vec![3]);
        assert_eq!(h.groups[0].encoding, Encoding::Nibble);
        assert_eq!(h.header_len + h.data_len as usize, file.len());
    }

    #[test]
    fn damage_is_detected() {
        let file = sample();
        let n = file.len();
        assert!(matches!(decode(&file[..n - 1]), Err(FileError::Truncated { .. })));
        assert!(matches!(decode(&file[..20]), Err(FileError::Truncated { .. })));
        assert!(matches!(decode(&[]), Err(FileError::Truncated { .. })));
        let mut longer = file.clone();
        longer.extend_from_slice(&[0; 8]);
        assert_eq!(
            decode(&longer),
            Err(FileError::TooLong { found: n as u64 + 8, expected: n as u64 })
        );
        for at in [0, 9, 40, 100, n - 1] {
            let mut bad = file.clone();
            bad[at] ^= 0x10;
            assert!(decode(&bad).is_err(), "flip at {at}");
        }
        let mut old = file.clone();
        old[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(decode(&old), Err(FileError::Version(0)));
        let mut flipped = file;
        flipped[n - 5] ^= 1;
        assert_eq!(decode(&flipped), Err(FileError::Checksum));
    }
}
