//! What an operator watches: Prometheus metrics at `GET /metrics` — every request counted and
//! timed by method, route and status; the database pool; the search index — beside
//! `/healthz` and `/readyz` (`http::edge`). Like them, `/metrics` is answered on the origin's
//! own address without the edge's proof; the edge forwards only `/api/*`, so it is not public.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::http::ApiContext;

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

/// `GET /metrics`: the Prometheus text format.
pub async fn render(State(context): State<ApiContext>) -> Response {
    let pool = &context.db.pool;
    metrics::gauge!("db_pool_connections").set(f64::from(pool.size()));
    metrics::gauge!("db_pool_idle_connections").set(pool.num_idle() as f64);
    metrics::gauge!("db_pool_max_connections").set(f64::from(pool.options().get_max_connections()));
    if let Some(snapshot) = context.search.current() {
        metrics::gauge!("search_index_goods").set(snapshot.len() as f64);
        metrics::gauge!("search_index_grams").set(snapshot.grams() as f64);
        metrics::gauge!("search_index_catalogue_version").set(snapshot.version as f64);
        metrics::gauge!("search_index_last_build_seconds").set(snapshot.built_in.as_secs_f64());
    }
    metrics::gauge!("search_index_ready").set(if context.search.current().is_some() { 1.0 } else { 0.0 });
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], recorder().render()).into_response()
}
