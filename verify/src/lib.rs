//! # yaniv-verify: checking stored history, with no I/O
//!
//! A championship's result is only as good as the history it stands on. This crate
//! checks that history from the stored rows alone: the server runs it on what it reads
//! from PostgreSQL, `yaniv verify` on an archive file, offline. Nothing here opens a
//! connection, a socket or a file; `docs/verification.md` specifies every check for a
//! verifier written elsewhere.
//!
//! A tour, from the bytes up:
//!
//! - [`chain`]: what an event's hash covers and how a stream's chain is checked.
//! - [`row`]: a stored event as the checks read it ([`row::Row`]), the server's rows
//!   and an archive's events alike.
//! - [`merkle`] and [`checkpoint`]: a checkpoint of every stream head, its Merkle
//!   root, and a stream compared with every checkpoint that recorded it.
//! - [`checkpoint_root`]: a checkpoint's root recomputed from its stored heads, and
//!   the stream whose head row was deleted named by putting it back.
//! - [`listing`]: a stream compared with its listing row.
//! - [`report`]: the verdict pieces every check returns.
//! - [`table`]: a game table's stream replayed through the rules, and its verdict.
//! - [`tournament`]: a tournament's stream audited, its results compared with their
//!   games, no finished game without its result.
//! - [`archive`]: a championship archive (`yaniv-archive/1`) and its verification.

pub mod archive;
pub mod chain;
pub mod checkpoint;
pub mod checkpoint_root;
pub mod listing;
pub mod merkle;
pub mod report;
pub mod row;
pub mod table;
pub mod tournament;
