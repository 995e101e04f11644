//! Verification on the server: reads what is stored (the events, the listing rows,
//! the games a tournament's results name, the checkpoints) and hands it to the checks
//! of `yaniv-verify`, which hold every rule of what makes a stored history sound.
//!
//! - [`table`] and [`table_links`]: `POST /v1/tables/{id}/verify`.
//! - [`tournament`] and [`tournament_links`]: `POST /v1/tournaments/{id}/verify`.
//! - [`archive`]: a championship archive (`yaniv-archive/1`) built from the store, for
//!   `GET /v1/tournaments/{id}/archive` and `yaniv verify`; [`archive_store`] keeps a
//!   finished tournament's archive and serves it in slices; [`archive_cut`] gives the
//!   checkpoint an archive is cut at, so that it proves where each stream ended.
//! - [`checkpoint_roots`]: the roots of the checkpoints around a stream, recomputed,
//!   for both verifications.

pub mod archive;
pub mod archive_cut;
pub mod archive_store;
pub mod checkpoint_roots;
pub mod table;
pub mod table_links;
pub mod tournament;
pub mod tournament_links;
