//! `/v1/ratings` and `/v1/players/{username}/rating`: the rating list across rated
//! tournaments and one player's profile (`docs/ratings.md`). Public, like every
//! tournament read: nothing in them is secret, and a token sent must be valid.
//!
//! | method and path | what |
//! | --- | --- |
//! | `GET /v1/ratings?from=&to=&min_games=&offset=&limit=&format=csv` | the list, best first, page by page; JSON or CSV |
//! | `GET /v1/ratings.csv?from=&to=&min_games=` | the whole list as CSV |
//! | `GET /v1/players/{username}/rating?opponent=` | a player's rating, tournaments, history and head-to-head |
//! | `GET /v1/ratings/tables` | the rated casual tables' input rows, to recompute the list |

pub mod list;
pub mod profile;
pub mod tables;
