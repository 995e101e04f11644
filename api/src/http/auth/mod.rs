//! Who is asking, as the handlers take it: [`Authenticated`] (a valid bearer token,
//! else 401) and [`MaybeAuthenticated`] (anyone; a token that is sent must be valid).
//! Accounts, passwords, tokens and roles themselves are [`crate::auth`]'s.

pub mod extractor;
pub mod optional;

pub use self::extractor::Authenticated;
pub use self::optional::MaybeAuthenticated;
