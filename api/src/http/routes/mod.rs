//! HTTP routes, one module per resource.
//!
//! Each handler is one function with its `#[utoipa::path]`; the list at the bottom of
//! this file (`api_routes!`) registers every route and collects its OpenAPI operation,
//! so a new endpoint is a handler plus one line there. [`crate::startup::Application`]
//! takes a list of [`RouteConfigurator`]s (these routes and the pages); tests can pass
//! extra ones.
//!
//! Routes are registered as resources built by [`resource`], which answers a wrong
//! method with a 405 problem document carrying `Allow`.

pub mod account_setup;
pub mod accounts;
pub mod checkpoints;
pub mod command;
pub mod csv;
pub mod health;
pub mod metrics;
pub mod my_stream;
pub mod paging;
pub mod problems;
pub mod ratings;
pub mod records;
pub mod rules;
pub mod seasons;
pub mod sessions;
pub mod tables;
pub mod tournaments;

use actix_web::{HttpResponse, Resource, web};

use crate::error::ApiError;

/// Registers some routes on the app.
pub type RouteConfigurator = fn(&mut web::ServiceConfig);

/// Adds the route of `method` to `resource`; a `GET` answers `HEAD` too (the same
/// headers, no body).
macro_rules! route {
    ($resource:expr, GET, $handler:path) => {
        $resource
            .route(web::get().to($handler))
            .route(web::head().to($handler))
    };
    ($resource:expr, POST, $handler:path) => {
        $resource.route(web::post().to($handler))
    };
    ($resource:expr, PUT, $handler:path) => {
        $resource.route(web::put().to($handler))
    };
    ($resource:expr, DELETE, $handler:path) => {
        $resource.route(web::delete().to($handler))
    };
}

/// What `Allow` lists for `method`.
macro_rules! allowed {
    (GET) => {
        "GET, HEAD"
    };
    ($method:ident) => {
        stringify!($method)
    };
}

/// The API as one list: each path with its methods and their handlers. The list both
/// registers the routes ([`configure`]) and collects their OpenAPI operations
/// ([`RouteDocs`]), so a route cannot be served undocumented or documented unserved.
macro_rules! api_routes {
    ($($path:literal => [$m1:ident $h1:path $(, $m:ident $h:path)* $(,)?]),* $(,)?) => {
        /// Registers every route of the API.
        pub fn configure(cfg: &mut web::ServiceConfig) {
            $(
                let entry = resource($path, concat!(allowed!($m1) $(, ", ", allowed!($m))*));
                let entry = route!(entry, $m1, $h1);
                $(let entry = route!(entry, $m, $h);)*
                cfg.service(entry);
            )*
        }

        /// The OpenAPI operations of every route of the API.
        #[derive(Debug, utoipa::OpenApi)]
        #[openapi(paths($($h1 $(, $h)*),*))]
        pub struct RouteDocs;
    };
}

api_routes! {
    "/healthz" => [GET health::healthz],
    "/readyz" => [GET health::readyz],
    "/metrics" => [GET metrics::metrics],
    "/v1/accounts" => [GET accounts::search, POST accounts::register],
    "/v1/accounts/me" => [GET accounts::me],
    "/v1/accounts/setup" => [POST account_setup::setup],
    "/v1/accounts/me/stream" => [GET my_stream::stream],
    "/v1/accounts/{id}/roles" => [PUT accounts::set_roles],
    "/v1/sessions" => [POST sessions::login],
    "/v1/sessions/current" => [DELETE sessions::logout],
    "/v1/records/replay" => [POST records::replay],
    "/v1/records/steps" => [POST records::steps::steps],
    "/v1/rules/random" => [POST rules::random],
    "/v1/checkpoints/latest" => [GET checkpoints::latest],
    "/v1/tables" => [GET tables::list::list, POST tables::create::create],
    "/v1/tables/{id}" => [GET tables::show::show],
    "/v1/tables/{id}/join" => [POST tables::join::join],
    "/v1/tables/{id}/leave" => [POST tables::leave::leave],
    "/v1/tables/{id}/start" => [POST tables::start::start],
    "/v1/tables/{id}/actions" => [POST tables::actions::act],
    "/v1/tables/{id}/view" => [GET tables::view::view],
    "/v1/tables/{id}/events" => [GET tables::events::events],
    "/v1/tables/{id}/rounds" => [GET tables::rounds::rounds],
    "/v1/tables/{id}/stream" => [GET tables::stream::stream],
    "/v1/tables/{id}/record" => [GET tables::record::record],
    "/v1/tables/{id}/audit" => [GET tables::audit::audit],
    "/v1/tables/{id}/diff" => [GET tables::diff::diff_versions],
    "/v1/tables/{id}/verify" => [POST tables::verify::verify],
    "/v1/tournaments" => [GET tournaments::list::list, POST tournaments::create::create],
    "/v1/tournaments/{id}" => [GET tournaments::read::show],
    "/v1/tournaments/{id}/commands" => [POST tournaments::commands::command],
    "/v1/tournaments/{id}/draws" => [POST tournaments::draws::draw],
    "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/online" =>
        [POST tournaments::draws::start_online],
    "/v1/tournaments/{id}/tables/{stage}/{round}/{table}/no-show" =>
        [POST tournaments::no_show::no_show],
    "/v1/tournaments/{id}/standings" => [GET tournaments::standings::standings],
    "/v1/tournaments/{id}/standings.csv" => [GET tournaments::standings::standings_csv],
    "/v1/tournaments/{id}/stages" => [GET tournaments::read::stages],
    "/v1/tournaments/{id}/ranking" => [GET tournaments::ranking::ranking],
    "/v1/tournaments/{id}/ranking.csv" => [GET tournaments::ranking::ranking_csv],
    "/v1/tournaments/{id}/results" => [GET tournaments::results::results],
    "/v1/tournaments/{id}/results.csv" => [GET tournaments::results::results_csv],
    "/v1/tournaments/{id}/paper-check" => [POST tournaments::paper_check::paper_check],
    "/v1/tournaments/{id}/interventions" => [GET tournaments::read::interventions],
    "/v1/tournaments/{id}/players" => [GET tournaments::players::players],
    "/v1/tournaments/{id}/registrations" => [POST tournaments::registrations::register_list],
    "/v1/tournaments/{id}/players/{account}/setup-code" =>
        [POST tournaments::setup_codes::reissue],
    "/v1/tournaments/{id}/events" => [GET tournaments::read::events],
    "/v1/tournaments/{id}/stream" => [GET tournaments::stream::stream],
    "/v1/tournaments/{id}/me" => [GET tournaments::me::me],
    "/v1/tournaments/{id}/verify" => [POST tournaments::verify::verify],
    "/v1/tournaments/{id}/archive" => [GET tournaments::archive::archive],
    "/v1/ratings" => [GET ratings::list::list],
    "/v1/ratings.csv" => [GET ratings::list::list_csv],
    "/v1/ratings/tables" => [GET ratings::tables::tables],
    "/v1/players/{username}/rating" => [GET ratings::profile::profile],
    "/v1/seasons" => [GET seasons::create::list, POST seasons::create::create],
    "/v1/seasons/{id}" => [GET seasons::read::show],
    "/v1/seasons/{id}/standings" => [GET seasons::read::standings],
    "/v1/seasons/{id}/commands" => [POST seasons::commands::command],
    "/v1/seasons/{id}/events" => [GET seasons::read::events],
}

/// Every resource of the API, and the pages.
/// A resource at `path` whose other methods get 405 with `Allow: allow`.
pub fn resource(path: &str, allow: &'static str) -> Resource {
    web::resource(path).default_service(web::to(move || async move {
        Err::<HttpResponse, _>(ApiError::MethodNotAllowed { allow })
    }))
}
