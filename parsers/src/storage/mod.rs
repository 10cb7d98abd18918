//! Filesystems and block devices: `df` (blocks and inodes), `/proc/mounts` (and `mount`),
//! `lsblk` (JSON, tree and list forms) and the collector's `/sys/block` listings (queue
//! attributes, `slaves/`).
//!
//! In: the text of one command's output or one file. Out: its rows as the tool prints them, each
//! keeping the input line it was read from; sizes in bytes where the tool says its unit.

pub mod df;
pub mod lsblk;
pub mod mounts;
pub mod sysblock;
