//! Writes need the write token: [`Writer`], an extractor that refuses a request without
//! `Authorization: Bearer <token>` naming the token the server was started with ([`WriteToken`]).

use super::problem::ApiError;
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest};
use sha2::{Digest, Sha256};
use std::future::{ready, Ready};

/// The write token, when one is configured (`BAROQUE_WRITE_TOKEN`).
#[derive(Clone)]
pub struct WriteToken(pub Option<String>);

/// A request allowed to write: it carries `Authorization: Bearer <token>` with the configured
/// token. As an extractor placed first, it refuses before the body is read.
pub struct Writer;

/// Whether two secrets are equal, in time that depends on neither: their SHA-256 digests (of fixed
/// length) are compared byte by byte without an early exit.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    let diff = x
        .iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q));
    std::hint::black_box(diff) == 0
}

impl Writer {
    fn check(req: &HttpRequest) -> Result<Writer, ApiError> {
        let configured = req
            .app_data::<web::Data<WriteToken>>()
            .and_then(|t| t.0.clone())
            .ok_or(ApiError::WritesDisabled)?;
        let sent = req
            .headers()
            .get(header::AUTHORIZATION)
            .ok_or_else(|| {
                ApiError::Unauthorized(
                    "this write needs the header `Authorization: Bearer <token>`".into(),
                )
            })?
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .ok_or_else(|| {
                ApiError::Unauthorized("the `Authorization` header must be `Bearer <token>`".into())
            })?;
        if same_secret(sent, &configured) {
            Ok(Writer)
        } else {
            Err(ApiError::Unauthorized(
                "the bearer token is not the write token".into(),
            ))
        }
    }
}

impl FromRequest for Writer {
    type Error = ApiError;
    type Future = Ready<Result<Writer, ApiError>>;
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Writer::check(req))
    }
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("s3cret", "s3cret"));
        assert!(!same_secret("s3cret", "s3cres"));
        assert!(!same_secret("s3cret", "s3cret "));
        assert!(!same_secret("", "s3cret"));
    }
}
