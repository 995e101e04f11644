//! The HTTP edge: everything that speaks HTTP and nothing below it does. Requests pass
//! the middleware here ([`request_id`], [`cors`], [`response_headers`],
//! [`body_timeout`], the request metrics), are authenticated by the extractors of
//! [`auth`], and reach a handler of [`routes`] (the JSON API, documented by
//! [`openapi`]) or of [`pages`] (HTML for people). [`idempotency_key`] reads the
//! `Idempotency-Key` header and turns a write's answer into a response; [`push`]
//! carries the live streams (SSE and NDJSON). [`replica_lag`] marks an answer read from
//! the replica.

pub mod auth;
pub mod body_timeout;
pub mod cors;
pub mod exposition;
pub mod idempotency_key;
pub mod openapi;
pub mod pages;
pub mod push;
pub mod replica_lag;
pub mod request_id;
pub mod request_metrics;
pub mod response_headers;
pub mod routes;
