//! `/v1/seasons`: series of tournaments whose rankings add up (`docs/seasons.md`). The
//! season model is [`crate::seasons`]; its rule is the domain's `yaniv_domain::season`.
//!
//! | method and path | who | what |
//! | --- | --- | --- |
//! | `GET /v1/seasons?before=&limit=` | anyone | the seasons, newest first |
//! | `POST /v1/seasons` | organizer, admin | create one; the caller is its organizer |
//! | `GET /v1/seasons/{id}` | anyone | the season: scale, count, members, standings |
//! | `GET /v1/seasons/{id}/standings?format=csv` | anyone | the standings, JSON or CSV |
//! | `POST /v1/seasons/{id}/commands` | its organizer, admins | `configure`, `add_tournament`, `remove_tournament` |
//! | `GET /v1/seasons/{id}/events` | anyone | the season's stream, page by page |
//!
//! Nothing of a season is secret: the reads need no token.

pub mod commands;
pub mod create;
pub mod read;
