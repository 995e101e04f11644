//! HTTP routes, one module per resource.
//!
//! Each module exposes `configure(&mut web::ServiceConfig)`, a
//! [`RouteConfigurator`]. [`all`] lists them; [`crate::startup::Application`] takes
//! such a list, so a new resource (game tables, tournaments, the audit endpoint) is
//! one new module plus one line in [`all`] and its handlers in
//! [`crate::openapi::ApiDoc`]. Tests can pass extra configurators.
//!
//! Routes are registered as resources built by [`resource`], which answers a wrong
//! method with a 405 problem document carrying `Allow`.

pub mod accounts;
pub mod health;
pub mod paging;
pub mod records;
pub mod sessions;
pub mod tables;
pub mod tournaments;

use actix_web::{HttpResponse, Resource, web};

use crate::error::ApiError;

/// Registers some routes on the app.
pub type RouteConfigurator = fn(&mut web::ServiceConfig);

/// Every resource of the API.
pub fn all() -> Vec<RouteConfigurator> {
    vec![
        health::configure,
        accounts::configure,
        sessions::configure,
        records::configure,
        tables::configure,
        tournaments::configure,
    ]
}

/// A resource at `path` whose other methods get 405 with `Allow: allow`.
pub fn resource(path: &str, allow: &'static str) -> Resource {
    web::resource(path).default_service(web::to(move || async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed { allow })
    }))
}
