//! Building and running the application: database, router, middleware, listener, graceful
//! shutdown. Tests start the same `Application` on a random port.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::config::Config;
use crate::db::Db;
use crate::http::{ApiContext, api_router};
use crate::seed;

pub struct Application {
    listener: TcpListener,
    router: Router,
    pub db: Db,
    /// Cancels unpaid orders when they are due; stops when the application does.
    _orders_due: crate::domain::orders::due::Task,
    /// Deletes expired sessions, codes, counters and old records hourly; stops with the application.
    _purge: crate::purge::Purge,
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Keeps a caller's `X-Request-Id` only when it is a plain token
/// (`order_check::limits::is_plain_request_id`); any other is taken away, and the next layer
/// makes a fresh one, so that nothing a client writes reaches the log but a plain token.
async fn plain_request_id(mut request: axum::extract::Request) -> axum::extract::Request {
    if request.headers().get(&REQUEST_ID).is_some_and(|id| !order_check::limits::is_plain_request_id(id.as_bytes())) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

/// Every answer: a browser takes a file for what its `Content-Type` says, never for what it sniffs.
/// How long a request may run before it is answered 408 and dropped (its transaction rolls
/// back): 30 s, and 5 minutes for a goods workbook, whose rows (10,000 and more) are all checked,
/// and on a commit written, in one transaction; cut off at 30 s on a loaded server, an operator's
/// import would fail whole for want of time.
fn deadline(path: &str) -> Duration {
    if path == "/api/admin/goods/import" { Duration::from_secs(300) } else { Duration::from_secs(30) }
}

/// Answers 408 Request Timeout, with no body, to a request still running at its `deadline`.
async fn request_deadline(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let limit = deadline(request.uri().path());
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => StatusCode::REQUEST_TIMEOUT.into_response(),
    }
}

async fn nosniff(mut response: axum::response::Response) -> axum::response::Response {
    response.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

impl Application {
    /// Connects, migrates, loads the demo data into an empty database, and binds.
    pub async fn build(config: &Config) -> anyhow::Result<Application> {
        config.check()?;
        let db = Db::connect(&config.database_url).await?;
        db.migrate().await?;
        if seed::seed_if_empty(&db).await? {
            tracing::info!("empty database: demo data loaded");
        }
        if config.payment.key == paygate::DEVELOPMENT_KEY {
            tracing::warn!("PAY_DEVELOPMENT_KEY=1: payments are signed with the published development key; anyone can forge a notify");
        }
        if config.edge_secret.is_none() {
            tracing::warn!(
                "EDGE_SECRET is not set: the origin answers direct calls, believes no X-Forwarded-* header, and refuses orders, since none can carry the edge's check"
            );
        }
        let listener = TcpListener::bind(config.addr).await?;
        crate::http::ops::recorder();
        let search = crate::search::SearchIndex::new(db.clone());
        search.start();
        let middleware = ServiceBuilder::new()
            .layer(axum::middleware::map_response(nosniff))
            .layer(axum::middleware::map_request(plain_request_id))
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(TraceLayer::new_for_http().make_span_with(crate::telemetry::request_span))
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .layer(axum::middleware::from_fn(request_deadline))
            // The fastest level: a 50-line cart is 52 KB of JSON, and at the default level its
            // compression was the largest single cost of the request (BENCHMARKS.md).
            .layer(CompressionLayer::new().quality(CompressionLevel::Fastest));
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .build()
            .context("the HTTP client")?;
        let router = api_router(ApiContext {
            db: db.clone(),
            edge_secret: config.edge_secret.clone().map(String::into_bytes).map(Arc::from),
            security: config.security,
            uploads: Arc::from(config.data_dir.join("uploads")),
            wechat: config.wechat.clone().map(Arc::new),
            http: http.clone(),
            payments: Arc::new(crate::domain::payments::Gateway::new(config.payment.clone(), http)),
            payment: Arc::new(config.payment.clone()),
            search: search.clone(),
            counts: Arc::default(),
            pay_minutes: config.order_pay_minutes,
            metrics_token: config.metrics_token.as_deref().map(Arc::from),
        })
        .layer(middleware);
        let _orders_due = crate::domain::orders::due::spawn(db.clone(), config.order_pay_minutes, config.order_receive_days);
        let _purge = crate::purge::Purge::start(db.clone(), config.security);
        Ok(Application { listener, router, db, _orders_due, _purge })
    }

    pub fn address(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in flight.
    pub async fn run(self) -> anyhow::Result<()> {
        axum::serve(self.listener, self.router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(shutdown_signal())
            .await?;
        Ok(())
    }

    /// Serves until the future completes (tests).
    pub async fn run_until(self, stop: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        axum::serve(self.listener, self.router.into_make_service_with_connect_info::<SocketAddr>()).with_graceful_shutdown(stop).await?;
        Ok(())
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
