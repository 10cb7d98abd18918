//! Apache ZooKeeper (3.4 to 3.9): the `zoo.cfg` configuration file and the answers to the
//! four-letter-word commands `conf`, `mntr`, `wchs` and `srvr` (and `stat`, which prints the
//! same lines as `srvr` plus a client list).
//!
//! In: the text of the file or of one answer (`echo mntr | nc host 2181`). Out: one record per
//! answer, every key kept with its line; numbers are typed where the key is known.

pub mod config;
pub mod mntr;
pub mod srvr;
pub mod wchs;
