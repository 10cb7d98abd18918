//! sysstat (9.x–12.x): `iostat`, `mpstat`, `sar`, `sadf -j` and `pidstat`.
//!
//! In: the text a tool prints, in any locale (decimal commas, 12-hour clocks, day-first dates),
//! or its JSON (`-o JSON`, `sadf -j`). Out: the banner ([`SysstatHeader`]), one record per
//! report or sample with its [`Timestamp`], and one row per device, CPU or task whose fields
//! transliterate the column headers. Columns are found by header name, never by position.
//!
//! [`SysstatHeader`]: crate::common::SysstatHeader
//! [`Timestamp`]: crate::common::Timestamp

pub mod iostat;
mod json;
pub mod mpstat;
pub mod pidstat;
pub mod sadf;
pub mod sar;
