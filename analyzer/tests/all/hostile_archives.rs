//! Hostile and damaged archives, each built here from its recipe: the overlapping-entry zip
//! bomb, zip entries failing their CRC check, duplicate zip names, tar data that is decompressed
//! only to be skipped, compressed tars whose members end at a read-buffer boundary, and archives
//! cut short (in the middle, before the gzip trailer, at a member or tar block boundary) in
//! every compression. The bounds are checked on the work done (bytes decompressed), not on time.

use crate::common::{healthy_sample, raw_entries, tar_bytes, SOFTIRQS};
use crate::compression::compress;
use rca::bundle::{Compression, EntryContent, Limits, RawEntry, ReadSummary};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

const MIB: u64 = 1 << 20;

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

fn bytes_of<'a>(entries: &'a [RawEntry], path: &str) -> &'a [u8] {
    match &entries
        .iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("no entry {path}"))
        .content
    {
        EntryContent::Bytes(b) => b,
        other => panic!("{path}: {other:?}"),
    }
}

/// A 1 MiB block that deflates about 120:1: 7000 pseudo-random bytes, then zeros. Under the
/// default ratio alarm (200:1), as in the bombs that aim to pass it.
fn block() -> Vec<u8> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut b: Vec<u8> = (0..7000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    b.resize(MIB as usize, 0);
    b
}

/// A raw deflate stream of `mib` copies of [`block`]: the block compressed once and ended with
/// a sync flush (it refers to nothing before it, and ends on a byte boundary), repeated, then an
/// empty final block. Costs one MiB of compression whatever `mib` is.
fn kernel(mib: u64) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(&block()).unwrap();
    e.flush().unwrap();
    let segment = e.get_ref().clone();
    let mut k = Vec::with_capacity(segment.len() * mib as usize + 2);
    for _ in 0..mib {
        k.extend_from_slice(&segment);
    }
    k.extend_from_slice(&[0x03, 0x00]); // final fixed-Huffman block holding only its end code
    k
}

/// A zip written byte by byte (APPNOTE 6.3.10 §4.3: local file header, data, central
/// directory, end of central directory), so that entries can claim what no zip writer would.
#[derive(Default)]
struct RawZip {
    body: Vec<u8>,
    central: Vec<u8>,
    count: u16,
}

impl RawZip {
    /// A local file header for `name` (method: 0 stored, 8 deflate); returns its offset.
    fn local(&mut self, name: &[u8], method: u16, crc: u32, csize: u32, usize: u32) -> u32 {
        let at = self.body.len() as u32;
        self.body.extend(0x0403_4b50u32.to_le_bytes());
        for v in [20u16, 0, method, 0, 0] {
            self.body.extend(v.to_le_bytes());
        }
        for v in [crc, csize, usize] {
            self.body.extend(v.to_le_bytes());
        }
        self.body.extend((name.len() as u16).to_le_bytes());
        self.body.extend(0u16.to_le_bytes());
        self.body.extend(name);
        at
    }

    /// The central directory record of an entry whose local header is at `offset`.
    fn record(&mut self, name: &[u8], method: u16, crc: u32, csize: u32, usize: u32, offset: u32) {
        self.central.extend(0x0201_4b50u32.to_le_bytes());
        for v in [20u16, 20, 0, method, 0, 0] {
            self.central.extend(v.to_le_bytes());
        }
        for v in [crc, csize, usize] {
            self.central.extend(v.to_le_bytes());
        }
        for v in [name.len() as u16, 0, 0, 0, 0] {
            self.central.extend(v.to_le_bytes());
        }
        self.central.extend(0u32.to_le_bytes());
        self.central.extend(offset.to_le_bytes());
        self.central.extend(name);
        self.count += 1;
    }

    /// A complete stored entry with its right CRC.
    fn stored(&mut self, name: &str, data: &[u8]) {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let (crc, len) = (crc.sum(), data.len() as u32);
        let at = self.local(name.as_bytes(), 0, crc, len, len);
        self.body.extend_from_slice(data);
        self.record(name.as_bytes(), 0, crc, len, len, at);
    }

    fn finish(mut self) -> Vec<u8> {
        let (cd_at, cd_len) = (self.body.len() as u32, self.central.len() as u32);
        self.body.extend_from_slice(&self.central);
        self.body.extend(0x0605_4b50u32.to_le_bytes());
        for v in [0u16, 0, self.count, self.count] {
            self.body.extend(v.to_le_bytes());
        }
        self.body.extend(cd_len.to_le_bytes());
        self.body.extend(cd_at.to_le_bytes());
        self.body.extend(0u16.to_le_bytes());
        self.body
    }
}

/// The overlapping-entry zip bomb (D. Fifield, "A better zip bomb", WOOT '19, §3), after a
/// stored `b/proc/softirqs`: `n` deflate entries, each one's data a stored (non-compressed)
/// deflate block quoting the next entry's local header, then that entry's data, down to one
/// shared kernel inflating to `mib` MiB. Every entry thus inflates to the whole kernel and the
/// headers after it; CRCs are left 0 (wrong), as a bomb that never ends an entry needs no
/// right one.
fn overlap_bomb(n: usize, mib: u64) -> Vec<u8> {
    let mut z = RawZip::default();
    z.stored("b/proc/softirqs", SOFTIRQS.as_bytes());
    let kernel = kernel(mib);
    let names: Vec<Vec<u8>> = (0..n).map(|i| format!("b/f{i:05}").into_bytes()).collect();
    let header_len = |i: usize| 30 + names[i].len() as u64;
    // Sizes from the last entry back: each adds a 5-byte block header and the next local header.
    let (mut csize, mut usize) = (vec![0u64; n], vec![0u64; n]);
    let (mut c, mut u) = (kernel.len() as u64, mib * MIB);
    for i in (0..n).rev() {
        csize[i] = c;
        usize[i] = u;
        c += 5 + header_len(i);
        u += header_len(i);
    }
    let mut offsets = Vec::with_capacity(n);
    for i in 0..n {
        offsets.push(z.local(&names[i], 8, 0, csize[i] as u32, usize[i] as u32));
        if i + 1 < n {
            let len = header_len(i + 1) as u16;
            z.body.push(0x00); // BFINAL 0, BTYPE 00 (stored), padding to the byte boundary
            z.body.extend(len.to_le_bytes());
            z.body.extend((!len).to_le_bytes());
        }
    }
    z.body.extend_from_slice(&kernel);
    for i in 0..n {
        z.record(
            &names[i],
            8,
            0,
            csize[i] as u32,
            usize[i] as u32,
            offsets[i],
        );
    }
    z.finish()
}

#[test]
fn the_overlapping_entry_zip_bomb_is_refused_before_anything_is_inflated() {
    // 2000 entries of 1000 MiB each (about 2 TB through one 9 MB kernel, 120:1 each, under the
    // ratio alarm): every entry is refused from the central directory alone.
    let d = tempfile::tempdir().unwrap();
    let bomb = overlap_bomb(2000, 1000);
    assert!(bomb.len() < 16 << 20, "{} bytes", bomb.len());
    let p = write(d.path(), "bomb.zip", &bomb);
    let (s, entries) = raw_entries(&p, &Limits::default());
    assert_eq!(
        s.bytes_decoded,
        SOFTIRQS.len() as u64,
        "only the good entry is read"
    );
    assert_eq!(entries.len(), 1);
    assert_eq!(bytes_of(&entries, "b/proc/softirqs"), SOFTIRQS.as_bytes());
    let overlapping: Vec<_> = s
        .refused
        .iter()
        .filter(|r| r.reason.contains("overlap"))
        .collect();
    assert_eq!(overlapping.len(), 2000, "{:?}", &s.refused[..3]);
    assert_eq!(overlapping[0].path, "b/f00000");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.starts_with("2000 zip entries") && w.contains("zip bomb")),
        "{:?}",
        s.warnings
    );
    assert!(s.bytes_input <= bomb.len() as u64);

    // The report lists them; with nothing else to judge, `rca analyze` exits 2.
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["analyze", "-q"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bomb_of_fifty_overlapping_entries_is_refused_whole() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "bomb50.zip", &overlap_bomb(50, 1000));
    let (s, entries) = raw_entries(&p, &Limits::default());
    assert_eq!(entries.len(), 1);
    assert_eq!(
        s.refused
            .iter()
            .filter(|r| r.reason.contains("overlap"))
            .count(),
        50
    );
    assert_eq!(s.bytes_decoded, SOFTIRQS.len() as u64);
}

#[test]
fn zip_entries_failing_their_crc_check_count_towards_the_total() {
    // Twenty separate entries of 16 MiB each (no overlap), every CRC wrong: each entry ends in
    // an error, yet all it inflated counts, and reading stops at the total limit.
    let mut z = RawZip::default();
    z.stored("b/proc/softirqs", SOFTIRQS.as_bytes());
    let k = kernel(16);
    for i in 0..20 {
        let name = format!("b/part{i:02}.log");
        let at = z.local(name.as_bytes(), 8, 0, k.len() as u32, (16 * MIB) as u32);
        z.body.extend_from_slice(&k);
        z.record(name.as_bytes(), 8, 0, k.len() as u32, (16 * MIB) as u32, at);
    }
    let bytes = z.finish();
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "crc.zip", &bytes);
    let limits = Limits {
        max_total_bytes: 64 * MIB,
        ..Limits::default()
    };
    let (s, entries) = raw_entries(&p, &limits);
    let stop = s.stopped.clone().expect("reading stopped");
    assert!(
        stop.starts_with("total uncompressed size limit of 64.0 MiB reached"),
        "{stop}"
    );
    assert!(
        s.bytes_decoded > 64 * MIB && s.bytes_decoded <= 64 * MIB + 16 * MIB,
        "{}",
        s.bytes_decoded
    );
    assert!(entries.len() <= 6, "{}", entries.len());
    // Every entry failed its CRC check, but the last one read, which the total limit cut.
    let (last, failed) = entries[1..].split_last().unwrap();
    for e in failed {
        match &e.content {
            EntryContent::ReadError(why) => assert!(why.contains("checksum"), "{why}"),
            other => panic!("{}: {other:?}", e.path),
        }
    }
    assert!(matches!(last.content, EntryContent::TooLarge { limit } if limit == 64 * MIB));
    // The ratio's denominator counts each compressed byte once: never more than the file.
    assert!(s.bytes_input <= bytes.len() as u64);
}

#[test]
fn duplicate_zip_names_keep_the_first_and_list_the_rest() {
    let second = SOFTIRQS.replace("43066", "99999");
    let mut z = RawZip::default();
    z.stored("b/proc/softirqs", SOFTIRQS.as_bytes());
    z.stored("b/proc/softirqs", second.as_bytes());
    z.stored("b/notes.txt", b"slow since 09:00\n");
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "dup.zip", &z.finish());
    let (s, entries) = raw_entries(&p, &Limits::default());
    assert_eq!(entries.len(), 2);
    assert_eq!(bytes_of(&entries, "b/proc/softirqs"), SOFTIRQS.as_bytes());
    assert_eq!(bytes_of(&entries, "b/notes.txt"), b"slow since 09:00\n");
    assert_eq!(s.refused.len(), 1, "{:?}", s.refused);
    assert_eq!(s.refused[0].path, "b/proc/softirqs");
    assert!(s.refused[0].reason.starts_with("duplicate name"));
    assert_eq!(s.stopped, None);
}

/// A tar header (GNU) for `name` (written as is, absolute names included) of type `ty`
/// claiming `size` bytes (base-256 past 8 GiB).
fn header(name: &str, ty: tar::EntryType, size: u64) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    h.set_size(size);
    h.set_mode(0o644);
    h.set_entry_type(ty);
    h.set_cksum();
    h
}

/// `len` bytes of [`block`]s, produced as they are read.
struct Blocks {
    block: Vec<u8>,
    left: u64,
    at: usize,
}

impl Blocks {
    fn new(len: u64) -> Self {
        Blocks {
            block: block(),
            left: len,
            at: 0,
        }
    }
}

impl Read for Blocks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf
            .len()
            .min(self.left as usize)
            .min(self.block.len() - self.at);
        buf[..n].copy_from_slice(&self.block[self.at..self.at + n]);
        self.at = (self.at + n) % self.block.len();
        self.left -= n as u64;
        Ok(n)
    }
}

#[test]
fn data_of_an_entry_that_is_not_read_is_not_decompressed_past_the_total() {
    // After `b/proc/softirqs`, a directory claiming 10 GiB (a base-256 size) or a refused entry
    // claiming 512 MiB, followed by 512 MiB of data at 120:1 (under the ratio alarm): the
    // reader stops before passing over it instead of decompressing it to skip it.
    let mut head = tar_bytes(&[("b/proc/softirqs", SOFTIRQS.as_bytes())]);
    head.truncate(head.len() - 1024); // without the end-of-archive marker
    let d = tempfile::tempdir().unwrap();
    for (name, ty, size) in [
        ("b/var/", tar::EntryType::Directory, 10u64 << 30),
        ("/etc/shadow", tar::EntryType::Regular, 512 * MIB),
    ] {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
        e.write_all(&head).unwrap();
        e.write_all(header(name, ty, size).as_bytes()).unwrap();
        std::io::copy(&mut Blocks::new(512 * MIB), &mut e).unwrap();
        let p = write(d.path(), "skip.tar.zst", &e.finish().unwrap());
        let limits = Limits {
            max_total_bytes: 256 * MIB,
            ..Limits::default()
        };
        let (s, entries) = raw_entries(&p, &limits);
        assert_eq!(bytes_of(&entries, "b/proc/softirqs"), SOFTIRQS.as_bytes());
        let stop = s.stopped.clone().expect("reading stopped");
        assert!(
            stop.starts_with(&format!("`{name}`, an entry that is not read, claims")),
            "{stop}"
        );
        assert!(stop.contains("total size limit of 256.0 MiB"), "{stop}");
        assert!(s.bytes_decoded < MIB, "{name}: {}", s.bytes_decoded);
        assert_eq!(s.bytes_skipped, 0, "{name}: nothing was passed over");
    }
}

#[test]
fn data_skipped_with_the_entries_not_read_is_reported() {
    let mut b = tar::Builder::new(Vec::new());
    let filler = vec![b'x'; MIB as usize];
    b.append(
        &header(
            "b/proc/softirqs",
            tar::EntryType::Regular,
            SOFTIRQS.len() as u64,
        ),
        SOFTIRQS.as_bytes(),
    )
    .unwrap();
    b.append(
        &header("b/var/", tar::EntryType::Directory, MIB),
        &filler[..],
    )
    .unwrap();
    b.append(
        &header("b/dev/sda", tar::EntryType::Block, MIB),
        &filler[..],
    )
    .unwrap();
    b.append(
        &header("b/notes.txt", tar::EntryType::Regular, 17),
        &b"slow since 09:00\n"[..],
    )
    .unwrap();
    let tar = b.into_inner().unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(&tar).unwrap();
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "skip.tgz", &e.finish().unwrap());
    let (s, entries) = raw_entries(&p, &Limits::default());
    assert_eq!(s.stopped, None);
    assert_eq!(entries.len(), 2);
    assert_eq!(bytes_of(&entries, "b/notes.txt"), b"slow since 09:00\n");
    assert_eq!(s.bytes_skipped, 2 * MIB);
    assert!(s.bytes_decoded >= tar.len() as u64);
    assert!(
        s.warnings.iter().any(|w| w.starts_with(
            "2.0 MiB of data in entries that were not read (refused entries, links or \
             directories carrying data) had to be decompressed to be skipped"
        )),
        "{:?}",
        s.warnings
    );
}

/// A gzip member of exactly `size` bytes holding `data` (stored, with a file name padding the
/// header to the size), or `None` if `data` does not fit.
fn gzip_member_of_size(data: &[u8], size: usize) -> Option<Vec<u8>> {
    let gz = |name: &[u8]| {
        let mut b = flate2::GzBuilder::new();
        if !name.is_empty() {
            b = b.filename(name);
        }
        let mut e = b.write(Vec::new(), flate2::Compression::none());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let bare = gz(b"").len();
    // The name adds its bytes and a NUL.
    let pad = size.checked_sub(bare + 1).filter(|&p| p > 0)?;
    let m = gz(&vec![b'n'; pad]);
    (m.len() == size).then_some(m)
}

/// A tar of `b/proc/softirqs` and `b/big.log`, `lines` lines of hardly compressible numbers:
/// `(big.log's bytes, the tar)`.
fn softirqs_and_big_log(lines: u32) -> (Vec<u8>, Vec<u8>) {
    let big: Vec<u8> = (0..lines)
        .flat_map(|i| format!("{i} {}\n", i.wrapping_mul(2654435761)).into_bytes())
        .collect();
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/big.log", &big),
    ]);
    (big, tar)
}

#[test]
fn a_gzip_member_ending_at_a_read_buffer_boundary_is_followed_by_the_next() {
    // The reader takes the file's first 512 bytes, then 256 KiB at a time: a first member
    // ending one byte before such a boundary leaves one byte of the next member's magic in the
    // buffer. Sizes around that, around the other buffers a decoder might use (8, 32, 64 KiB),
    // and both sides of each.
    let (big, tar) = softirqs_and_big_log(100_000);
    let d = tempfile::tempdir().unwrap();
    let mut boundaries = vec![8 << 10, 32 << 10, 64 << 10];
    boundaries.extend([1usize, 2, 3].map(|k| 512 + k * (256 << 10)));
    for boundary in boundaries {
        for size in boundary - 2..=boundary + 1 {
            let split = size - 3000;
            let first = gzip_member_of_size(&tar[..split], size).expect("the member fits");
            let mut e = flate2::write::GzEncoder::new(first, flate2::Compression::fast());
            e.write_all(&tar[split..]).unwrap();
            let two = e.finish().unwrap();
            let p = write(d.path(), "two.tar.gz", &two);
            let (s, entries) = raw_entries(&p, &Limits::default());
            assert_eq!(s.stopped, None, "first member of {size} bytes");
            assert!(s.warnings.is_empty(), "{size}: {:?}", s.warnings);
            assert_eq!(bytes_of(&entries, "b/big.log"), &big[..], "{size}");
            assert_eq!(bytes_of(&entries, "b/proc/softirqs"), SOFTIRQS.as_bytes());
        }
    }
}

const ALL: [Compression; 4] = [
    Compression::Gzip,
    Compression::Xz,
    Compression::Zstd,
    Compression::Bzip2,
];

fn stop(s: &ReadSummary) -> String {
    s.stopped.clone().expect("reading stopped early: partial")
}

#[test]
fn a_compressed_tar_cut_at_a_member_boundary_is_partial_in_every_compression() {
    // Compressed in two members (gzip members, xz and bzip2 streams, zstd frames), as parallel
    // compressors write them. Whole, it is complete; its first member alone decodes cleanly,
    // yet the tar in it lacks its end, which is what shows the cut.
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/notes.txt", b"slow since 09:00\n"),
    ]);
    let after_first = 512 + 512; // header and padded data of the first entry
    let d = tempfile::tempdir().unwrap();
    for c in ALL {
        for split in [after_first, after_first + 100] {
            let first = compress(c, &tar[..split]);
            let mut whole = first.clone();
            whole.extend(compress(c, &tar[split..]));
            let p = write(d.path(), "two", &whole);
            let (s, entries) = raw_entries(&p, &Limits::default());
            assert_eq!(s.stopped, None, "{c:?}");
            assert!(s.warnings.is_empty(), "{c:?}: {:?}", s.warnings);
            assert_eq!(entries.len(), 2, "{c:?}");

            let p = write(d.path(), "first", &first);
            let (s, entries) = raw_entries(&p, &Limits::default());
            let why = stop(&s);
            if split == after_first {
                assert!(
                    why.starts_with(
                        "the tar archive ends after 1 entries without its end-of-archive marker"
                    ),
                    "{c:?}: {why}"
                );
                assert_eq!(entries.len(), 1);
            } else {
                // Cut inside the second entry's header.
                assert!(why.contains("truncated"), "{c:?}: {why}");
            }
            assert!(why.ends_with(&format!(
                "; read before that: 1 entries, {} B",
                SOFTIRQS.len()
            )));
        }
    }
}

#[test]
fn a_compressed_tar_cut_anywhere_is_partial_in_every_compression() {
    let (_, tar) = softirqs_and_big_log(60_000);
    let d = tempfile::tempdir().unwrap();
    for c in ALL {
        let data = compress(c, &tar);
        for cut in [
            data.len() / 2,
            data.len() - 1,
            data.len() - 4,
            data.len() - 8,
        ] {
            let p = write(d.path(), "cut", &data[..cut]);
            let (s, _) = raw_entries(&p, &Limits::default());
            let why = stop(&s);
            assert!(why.contains("truncated"), "{c:?} cut at {cut}: {why}");
        }
    }
}

#[test]
fn a_plain_tar_cut_short_is_partial() {
    let big = vec![b'x'; 10_000];
    let tar = tar_bytes(&[
        ("b/proc/softirqs", SOFTIRQS.as_bytes()),
        ("b/big.log", &big),
    ]);
    let d = tempfile::tempdir().unwrap();
    // At a block boundary between two entries: the `tar` crate alone would call it the end.
    let p = write(d.path(), "a.tar", &tar[..512 + 512]);
    let (s, _) = raw_entries(&p, &Limits::default());
    assert!(
        stop(&s).contains("without its end-of-archive marker"),
        "{:?}",
        s.stopped
    );
    // Inside an entry's data: that entry is an error, not a shorter file.
    let p = write(d.path(), "b.tar", &tar[..512 + 512 + 512 + 4096]);
    let (s, entries) = raw_entries(&p, &Limits::default());
    let big = entries.iter().find(|e| e.path == "b/big.log").unwrap();
    match &big.content {
        EntryContent::ReadError(e) => assert!(
            e.starts_with(
                "the tar archive is truncated: `b/big.log` ends after 4.0 KiB of its 9.8 KiB"
            ),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(stop(&s).contains("truncated"));
}

/// `rca analyze` on `path`: its exit status and stderr.
fn run(path: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rca"))
        .args(["analyze", "-q"])
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_truncated_bundle_never_exits_as_healthy() {
    // The shipped healthy sample exits 0 whole. Without its gzip trailer (every entry still
    // there) or cut in half, it is partial: exit 2 when nothing was found in what was read.
    let sample = std::fs::read(healthy_sample()).unwrap();
    let d = tempfile::tempdir().unwrap();
    let whole = write(d.path(), "whole.tar.gz", &sample);
    assert_eq!(run(&whole).0, Some(0));
    for (name, cut) in [
        ("no-trailer.tar.gz", sample.len() - 8),
        ("half.tar.gz", sample.len() / 2),
    ] {
        let p = write(d.path(), name, &sample[..cut]);
        let (code, stderr) = run(&p);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains("the bundle was read only in part: the gzip data ends early: the file is truncated; read before that:"),
            "{name}: {stderr}"
        );
    }
}
