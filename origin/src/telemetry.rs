//! Logs: `tracing` to standard output, filtered by `RUST_LOG` (default `info`); one JSON object
//! per line with `LOG_FORMAT=json` (for a log collector), else plain text. Every request's
//! events carry its `request_id` (`X-Request-Id`: the edge's, else one made here), which the
//! answer also carries, so one request can be followed from the edge's log to the origin's.

use axum::http::Request;
use tracing::Span;
use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let json = std::env::var("LOG_FORMAT").is_ok_and(|format| format.trim().eq_ignore_ascii_case("json"));
    let _ = if json {
        tracing_subscriber::fmt().json().with_current_span(true).with_span_list(false).with_env_filter(filter).with_target(false).try_init()
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init()
    };
}

/// The span of one request: method, path and request id.
pub fn request_span<B>(request: &Request<B>) -> Span {
    let request_id = request.headers().get("x-request-id").and_then(|value| value.to_str().ok()).unwrap_or_default();
    tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), request_id = %request_id)
}
