//! One error type for every handler, and extractors whose rejections use its shape.
//!
//! Every failure a client sees is `{"error": "one line"}` with a 4xx status for anything it
//! sent: 400 for bad input, 413 for a body over the limit, 503 with `Retry-After` when the
//! solver pool is full. A 500 is reserved for our own bugs (a solver panic).

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::{HeaderValue, StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The longest [`AppJson`] waits for a whole body, as the app's request extension
/// ([`crate::Config::body_timeout`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyTimeout(pub(crate) Duration);

impl BodyTimeout {
    /// Without the extension (a router built by hand).
    const DEFAULT: Duration = Duration::from_secs(10);
}

/// How long a client should wait before retrying when the pool is full, in seconds.
pub const RETRY_AFTER_SECS: u32 = 1;

/// An error answered as `{"error": "..."}` with its status.
#[derive(Debug)]
pub struct AppError {
    status: StatusCode,
    message: String,
}

impl AppError {
    /// 400: the request is malformed or asks for something impossible.
    pub fn bad_request(message: impl Into<String>) -> AppError {
        AppError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// 404: no such resource.
    pub fn not_found(message: impl Into<String>) -> AppError {
        AppError { status: StatusCode::NOT_FOUND, message: message.into() }
    }

    /// 405: the path exists but not with this method.
    pub fn method_not_allowed(message: impl Into<String>) -> AppError {
        AppError { status: StatusCode::METHOD_NOT_ALLOWED, message: message.into() }
    }

    /// 413: the request body is over [`crate::MAX_BODY_BYTES`].
    pub fn too_large() -> AppError {
        let limit = crate::MAX_BODY_BYTES / 1024;
        AppError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!("the request body is over {limit} KiB"),
        }
    }

    /// 408: the request body did not arrive within `limit` (a body dripped a byte at a time
    /// held its connection forever).
    pub fn body_timeout(limit: Duration) -> AppError {
        AppError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!("the request body did not arrive within {} s", limit.as_secs_f64()),
        }
    }

    /// 503: every solver worker is busy and the queue is full (or waited too long).
    pub fn busy() -> AppError {
        AppError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "the solver is busy: every worker is taken and the queue is full; retry in {RETRY_AFTER_SECS} s"
            ),
        }
    }

    /// 500: a bug on our side (the solver panicked). Never used for anything a client sent.
    pub fn internal(message: impl Into<String>) -> AppError {
        AppError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The one-line message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let one_line = self.message.lines().map(str::trim).collect::<Vec<_>>().join(" ");
        let mut response =
            (self.status, axum::Json(ErrorBody { error: one_line.trim() })).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}

impl From<BytesRejection> for AppError {
    fn from(rejection: BytesRejection) -> AppError {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            return AppError::too_large();
        }
        AppError {
            status,
            message: format!("could not read the request body: {}", rejection.body_text()),
        }
    }
}

impl From<QueryRejection> for AppError {
    fn from(rejection: QueryRejection) -> AppError {
        let text = rejection.body_text();
        let text = text.strip_prefix("Failed to deserialize query string: ").unwrap_or(&text);
        // Rust's number-parsing messages, in the words people use.
        let text = [
            ("invalid digit found in string", "expected a whole number of at least 0"),
            ("cannot parse integer from empty string", "expected a whole number, got nothing"),
            ("number too large to fit in target type", "the number is too large"),
            ("invalid float literal", "expected a number"),
        ]
        .iter()
        .fold(text.to_string(), |t, (rust, ours)| t.replace(rust, ours));
        AppError::bad_request(format!("invalid query: {text}"))
    }
}

/// A JSON body, read whatever its `Content-Type` says (so `curl -d` works), with every
/// rejection an [`AppError`]: 413 over the body limit, 400 for malformed JSON or unknown
/// fields.
#[derive(Debug)]
pub struct AppJson<T>(pub T);

impl<T, S> FromRequest<S> for AppJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<AppJson<T>, AppError> {
        // A declared length over the cap is refused before any of it is read (a client
        // announcing 99999999999 bytes and sending two held the connection forever).
        let declared = req.headers().get(header::CONTENT_LENGTH);
        let declared = declared.and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > crate::MAX_BODY_BYTES as u64) {
            return Err(AppError::too_large());
        }
        let limit = req.extensions().get::<BodyTimeout>().map_or(BodyTimeout::DEFAULT, |t| t.0);
        let body = tokio::time::timeout(limit, Bytes::from_request(req, state))
            .await
            .map_err(|_| AppError::body_timeout(limit))??;
        serde_json::from_slice(&body)
            .map(AppJson)
            .map_err(|err| AppError::bad_request(format!("invalid JSON: {err}")))
    }
}

/// A query string, with rejections as [`AppError`] (400).
#[derive(Debug)]
pub struct AppQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for AppQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<AppQuery<T>, AppError> {
        let Query(value) = Query::<T>::from_request_parts(parts, state).await?;
        Ok(AppQuery(value))
    }
}

/// Path parameters, with rejections as [`AppError`] (400): a path that is not UTF-8
/// (`/assets/%FF`) was answered in plain text.
#[derive(Debug)]
pub struct AppPath<T>(pub T);

impl<T, S> FromRequestParts<S> for AppPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<AppPath<T>, AppError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(AppPath(value)),
            Err(rejection) => Err(AppError::from(rejection)),
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(rejection: PathRejection) -> AppError {
        AppError::bad_request(format!("invalid path: {}", rejection.body_text()))
    }
}
