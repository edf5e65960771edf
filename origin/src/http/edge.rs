//! What the origin takes from the edge (`docs/edge.md`, "What the origin trusts").
//!
//! With `EDGE_SECRET` set, every request must carry the edge's proof (`X-Edge-Proof`,
//! `order_check::proof`) over its method, path and query and the time, else it is refused with
//! 403 — all but the health check, `GET /healthz`. Whatever the secret, the forwarding headers
//! (`X-Forwarded-For`, `-Host`, `-Proto`, `Forwarded`, `X-Real-IP`) are taken away from a
//! request without a valid proof before any handler sees it: the login limits then count the
//! TCP peer, the cross-site check compares with `Host`, and the session cookie is `Secure` only
//! when the edge says the browser used https.
//!
//! Without the secret (development: `cargo run -p origin`, called directly) every request is
//! answered as before, orders aside: they need the edge's signed check, which needs the secret.
//!
//! A request that passes has its body read whole, up to its call's limit
//! (`order_check::limits`, the edge's too), before any handler runs: a handler that answers
//! without reading it (not logged in, a cross-site refusal) would otherwise close the connection
//! on unread bytes, and the reset could cost the edge the answer.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use order_check::proof;

use super::ApiContext;
use super::error::{Error, Nothing, ok, refused};
use crate::now;

/// The health check: answered without the edge's proof, for load balancers and tunnels.
pub const HEALTH: &str = "/healthz";
/// The readiness check: like the health check, and the search index is built.
pub const READY: &str = "/readyz";
/// The operator's routes, answered without the edge's proof (the edge forwards only `/api/*`,
/// so they are reached on the origin's own address).
const OPERATIONS: [&str; 3] = [HEALTH, READY, super::ops::METRICS];

/// The largest request body the origin reads, in bytes, but for uploads
/// (`order_check::limits::body_limit`): every body is a short form. A larger one is answered 413
/// `请求内容过大`.
pub const BODY_LIMIT: usize = order_check::limits::FORM_BODY;

/// What a body larger than its call allows is told.
const TOO_LARGE: &str = "请求内容过大";

/// What a request without a valid proof is told.
pub const NOT_THROUGH_EDGE: &str = "禁止直接访问源站";

/// The headers that say how a request was forwarded: believed only from the edge.
const FORWARDING: [&str; 5] = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "forwarded"];

/// The middleware: refuses a request without a valid proof when the origin has the secret, and
/// drops the forwarding headers of every request without one.
pub async fn only_through_edge(State(context): State<ApiContext>, mut request: Request, next: Next) -> Response {
    let proven = match &context.edge_secret {
        None => false,
        Some(secret) => {
            let header = request.headers().get(proof::HEADER).and_then(|value| value.to_str().ok());
            let target = request.uri().path_and_query().map_or_else(|| request.uri().path(), |target| target.as_str());
            match proof::verify(secret, header, request.method().as_str(), target, now()) {
                Ok(()) => true,
                Err(_) if OPERATIONS.contains(&request.uri().path()) => false,
                Err(rejection) => {
                    tracing::warn!(?rejection, method = %request.method(), path = request.uri().path(), "a request without the edge's proof was refused");
                    return Error::forbidden(NOT_THROUGH_EDGE).into_response();
                }
            }
        }
    };
    if !proven {
        for name in FORWARDING {
            request.headers_mut().remove(name);
        }
    }
    match read_whole(request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => refusal,
    }
}

/// `request` with its body read whole, up to its call's limit; 413 for a larger one (refused
/// unread when its `Content-Length` says so), 400 for one that stopped before its end.
async fn read_whole(request: Request) -> Result<Request, Response> {
    let limit = order_check::limits::body_limit(request.method().as_str(), request.uri().path());
    let too_large = || refused(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE);
    let announced = request.headers().get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok());
    if announced.and_then(|length| length.trim().parse::<u64>().ok()).is_some_and(|length| length > limit as u64) {
        return Err(too_large());
    }
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, limit).await {
        Ok(bytes) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Err(error) if error.to_string().contains("length limit") => Err(too_large()),
        Err(_) => Err(refused(StatusCode::BAD_REQUEST, "请求参数不正确")),
    }
}

/// `GET /readyz`: 200 once the origin can answer every call — the database answers and the
/// search index is built — else 503 (`/healthz` is 200 as soon as the database answers).
pub async fn ready(State(context): State<ApiContext>) -> Response {
    if context.search.current().is_none() {
        return refused(StatusCode::SERVICE_UNAVAILABLE, "搜索服务正在准备，请稍候再试");
    }
    health(State(context)).await
}

/// `GET /healthz`: 200 with the success envelope while the database answers, else 503.
pub async fn health(State(context): State<ApiContext>) -> Response {
    match sqlx::query("SELECT 1").execute(&context.db.pool).await {
        Ok(_) => ok(Nothing).into_response(),
        Err(error) => {
            tracing::error!(error = %error, "health check: the database does not answer");
            refused(StatusCode::SERVICE_UNAVAILABLE, super::error::BUSY)
        }
    }
}
