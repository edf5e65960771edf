//! What an operator watches: Prometheus metrics at `GET /metrics` — every request counted and
//! timed by method, route and status; the database pool; the search index — beside
//! `/healthz` and `/readyz` (`edge`). Like them, `/metrics` is answered on the origin's
//! own address without the edge's proof (the edge forwards only `/api/*`), but only to a scraper
//! that proves itself ([`may_scrape`]): where the origin is reachable, so would it be.

use std::net::{IpAddr, SocketAddr};
use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::ApiContext;
use super::error::Error;

/// The metrics route.
pub const METRICS: &str = "/metrics";

/// Latency buckets, in seconds: from half a millisecond (a cached page) to ten seconds.
const BUCKETS: [f64; 14] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The process's one recorder (installed on first use; every application of the process —
/// the tests start many — records into it).
pub fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
            .expect("the buckets are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed");
        }
        handle
    })
}

/// Middleware on every matched route: counts the request and records how long it took, by
/// method, route (its pattern, `/api/goods/detail/{id}`, not the path) and status.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().to_string();
    let route = request.extensions().get::<MatchedPath>().map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let response = next.run(request).await;
    let labels = [("method", method), ("route", route), ("status", response.status().as_u16().to_string())];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels).record(started.elapsed().as_secs_f64());
    response
}

/// Whether a scrape may read the metrics: with a `token` (`METRICS_TOKEN`), one that sends
/// `Authorization: Bearer <token>`, from anywhere; without one, one from the origin's own
/// machine (a loopback `peer`), as Prometheus beside it or `curl` on it.
pub fn may_scrape(token: Option<&str>, authorization: Option<&str>, peer: Option<IpAddr>) -> bool {
    match token {
        Some(token) => authorization.and_then(|value| value.strip_prefix("Bearer ")).is_some_and(|given| {
            given.len() == token.len() && given.bytes().zip(token.bytes()).fold(0, |diff, (a, b)| diff | (a ^ b)) == 0
        }),
        None => peer.is_some_and(|peer| peer.is_loopback() || peer.to_canonical().is_loopback()),
    }
}

/// `GET /metrics`: the Prometheus text format, for a scraper [`may_scrape`] lets in; 401
/// (with a token set) or 403 (without one) for any other.
pub async fn render(State(context): State<ApiContext>, request: Request) -> Response {
    let authorization = request.headers().get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| peer.ip());
    if !may_scrape(context.metrics_token.as_deref(), authorization, peer) {
        tracing::warn!("a scrape of /metrics was refused");
        return match context.metrics_token {
            Some(_) => {
                let mut refused = super::error::refused(StatusCode::UNAUTHORIZED, "请提供监控令牌");
                refused.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                refused
            }
            None => Error::forbidden("禁止访问监控数据").into_response(),
        };
    }
    let pool = &context.db.pool;
    metrics::gauge!("db_pool_connections").set(f64::from(pool.size()));
    metrics::gauge!("db_pool_idle_connections").set(pool.num_idle() as f64);
    metrics::gauge!("db_pool_max_connections").set(f64::from(pool.options().get_max_connections()));
    if let Some(snapshot) = context.search.current() {
        metrics::gauge!("search_index_goods").set(snapshot.len() as f64);
        metrics::gauge!("search_index_grams").set(snapshot.grams() as f64);
        metrics::gauge!("search_index_catalogue_version").set(snapshot.version as f64);
        metrics::gauge!("search_index_base_version").set(snapshot.base_version() as f64);
        metrics::gauge!("search_index_changed_goods").set(snapshot.changed() as f64);
        metrics::gauge!("search_index_last_build_seconds").set(snapshot.built_in().as_secs_f64());
    }
    metrics::gauge!("search_index_ready").set(if context.search.current().is_some() { 1.0 } else { 0.0 });
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], recorder().render()).into_response()
}

#[cfg(test)]
mod tests {
    use super::may_scrape;

    #[test]
    fn a_token_or_the_origins_own_machine() {
        let far = Some("203.0.113.9".parse().unwrap());
        let near = Some("127.0.0.1".parse().unwrap());
        // No token: loopback only (IPv4, IPv6, and IPv4 mapped into IPv6).
        assert!(may_scrape(None, None, near));
        assert!(may_scrape(None, None, Some("::1".parse().unwrap())));
        assert!(may_scrape(None, None, Some("::ffff:127.0.0.1".parse().unwrap())));
        assert!(!may_scrape(None, None, far));
        assert!(!may_scrape(None, Some("Bearer anything"), far));
        assert!(!may_scrape(None, None, None));
        // A token: the token, from anywhere, and nothing else (loopback included).
        let token = Some("a-scrape-token-of-the-operators");
        assert!(may_scrape(token, Some("Bearer a-scrape-token-of-the-operators"), far));
        assert!(!may_scrape(token, Some("Bearer a-scrape-token-of-the-operator"), far));
        assert!(!may_scrape(token, Some("Bearer a-scrape-token-of-the-operatorz"), near));
        assert!(!may_scrape(token, Some("a-scrape-token-of-the-operators"), near));
        assert!(!may_scrape(token, None, near));
    }
}
