//! A championship archive (`yaniv-archive/1`, [`yaniv_verify::archive`]) built from the
//! store ([`export`]): `GET /v1/tournaments/{id}/archive` answers it, `yaniv verify`
//! checks it offline with no server at all. `docs/verification.md` specifies both.

pub mod export;
