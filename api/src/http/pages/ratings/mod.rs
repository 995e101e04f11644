//! The rating pages (`docs/ratings.md`): the list, `/ratings`, and a player's profile,
//! `/players/{username}`. They read the rating projection through the same functions
//! as `GET /v1/ratings` and `GET /v1/players/{username}/rating` (`crate::ratings`), and
//! their forms are plain GET forms, so they work without the script.
//!
//! - `list.rs`: the list, its filters, its pages and its CSV;
//! - `profile.rs`: the profile, with its head-to-head form;
//! - `chart.rs`: the rating over time, drawn as SVG on the server.

pub mod chart;
pub mod list;
pub mod profile;

use maud::{Markup, html};

use super::format::query_value;

/// A player's name, linked to their profile (their id when the account is gone).
pub fn player_link(username: Option<&str>, player: i64) -> Markup {
    html! {
        @match username {
            Some(name) => a href={ "/players/" (query_value(name)) } { (name) },
            None => { "#" (player) },
        }
    }
}
