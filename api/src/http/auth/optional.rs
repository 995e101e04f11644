//! [`MaybeAuthenticated`]: the extractor of public reads.
//!
//! A request without an `Authorization` header is anonymous. A request with one is
//! authenticated exactly as [`Authenticated`] does it, and a bad token is still 401:
//! a client that believes it is logged in must learn that its token no longer works,
//! rather than silently getting the anonymous answer.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};

use super::extractor::Authenticated;
use crate::error::ApiError;

/// The account behind the request's bearer token, or `None` when no `Authorization`
/// header was sent.
#[derive(Debug, Clone)]
pub struct MaybeAuthenticated(pub Option<Authenticated>);

impl FromRequest for MaybeAuthenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !req.headers().contains_key(header::AUTHORIZATION) {
            return Box::pin(async { Ok(MaybeAuthenticated(None)) });
        }
        let authenticated = Authenticated::from_request(req, payload);
        Box::pin(async move { Ok(MaybeAuthenticated(Some(authenticated.await?))) })
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[actix_web::test]
    async fn no_header_is_anonymous() {
        let req = TestRequest::default().to_http_request();
        let extracted = MaybeAuthenticated::extract(&req).await.unwrap();
        assert!(extracted.0.is_none());
    }

    #[actix_web::test]
    async fn a_header_must_hold_a_valid_token() {
        for value in ["Bearer not-a-token", "Bearer", "Basic dXNlcjpwYXNz"] {
            let req = TestRequest::default()
                .insert_header((header::AUTHORIZATION, value))
                .to_http_request();
            let refused = MaybeAuthenticated::extract(&req).await.unwrap_err();
            assert!(
                matches!(refused, ApiError::InvalidToken | ApiError::MissingToken),
                "{value}: {refused:?}"
            );
        }
    }
}
