//! The HTTP API: one module per area of the specification's §7, merged into one router, and
//! the OpenAPI document made from the same routes. Every answer is the `{code, msg, data}`
//! envelope made by `error`.

pub mod account;
pub mod activity;
pub mod address;
pub mod admin;
pub mod after_sales;
pub mod agreement;
pub mod article;
pub mod cart;
pub mod cashback;
pub mod combination;
pub mod company;
pub mod cookie;
pub mod coupon;
pub mod coupon_centre;
pub mod draw;
pub mod edge;
pub mod error;
pub mod extract;
pub mod favorite;
pub mod feedback;
pub mod goods;
pub mod home;
pub mod idempotency;
pub mod images;
pub mod invoice;
pub mod kxzq;
pub mod lot;
pub mod member;
pub mod openapi;
pub mod ops;
pub mod order;
pub mod order_centre;
pub mod payment;
pub mod points_mall;
pub mod qualification;
pub mod returns;
pub mod self_service;
pub mod session;
pub mod stat;
pub mod upload;
pub mod wallet;
pub mod wechat;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

use axum::routing::get;
use axum::{Json, Router};
use utoipa_axum::router::OpenApiRouter;

use crate::db::Db;
use error::Error;

/// What every handler shares.
#[derive(Clone)]
pub struct ApiContext {
    pub db: Db,
    /// The secret of the edge's order checks (`EDGE_SECRET`); `None` refuses every order.
    pub edge_secret: Option<std::sync::Arc<[u8]>>,
    /// Codes in the log, the sessions' idle limit, retention (`crate::security`).
    pub security: crate::security::Security,
    /// Where the members' uploads are kept (`DATA_DIR/uploads`).
    pub uploads: std::sync::Arc<std::path::Path>,
    /// The WeChat OAuth2 provider, if the shop offers WeChat.
    pub wechat: Option<Arc<crate::wechat::WechatConfig>>,
    /// The client of server-to-server calls (outside providers), with timeouts.
    pub http: reqwest::Client,
    /// The online payment provider, and where it reaches the shop.
    pub payments: Arc<dyn crate::domain::payments::Provider>,
    pub payment: Arc<crate::domain::payments::PaymentConfig>,
    /// The goods search index (`crate::search`).
    pub search: crate::search::SearchIndex,
    /// Goods lists' totals per filter and catalogue version.
    pub counts: Arc<goods::CountCache>,
    /// Minutes an order may stay unpaid (`ORDER_PAY_MINUTES`): its payment deadline.
    pub pay_minutes: u64,
    /// What a scrape of `/metrics` must send (`METRICS_TOKEN`), or `None`: loopback only.
    pub metrics_token: Option<Arc<str>>,
}

impl ApiContext {
    /// The search index at the catalogue's version; 503 while the first one is being built.
    pub async fn search_snapshot(&self) -> error::Result<Arc<crate::search::Snapshot>> {
        match self.search.snapshot().await? {
            Some(snapshot) => Ok(snapshot),
            None => Err(error::Error::Refused(error::Refusal::Unavailable, "搜索服务正在准备，请稍候再试".into())),
        }
    }
}

/// Every route, and the OpenAPI document describing them: a route exists only through its
/// `#[utoipa::path]` annotation (`routes!`), so the document lists every route. Nothing here
/// needs the state or a database.
fn routes() -> (Router<ApiContext>, utoipa::openapi::OpenApi) {
    let (router, mut document) = OpenApiRouter::with_openapi(openapi::frame())
        .merge(session::router())
        .merge(admin::router())
        .merge(account::router())
        .merge(activity::router())
        .merge(agreement::router())
        .merge(article::router())
        .merge(goods::router())
        .merge(home::router())
        .merge(cart::router())
        .merge(cashback::router())
        .merge(combination::router())
        .merge(order::router())
        .merge(order_centre::router())
        .merge(after_sales::router())
        .merge(returns::router())
        .merge(lot::router())
        .merge(self_service::router())
        .merge(invoice::router())
        .merge(kxzq::router())
        .merge(favorite::router())
        .merge(feedback::router())
        .merge(images::router())
        .merge(wallet::router())
        .merge(coupon::router())
        .merge(coupon_centre::router())
        .merge(points_mall::router())
        .merge(draw::router())
        .merge(address::router())
        .merge(company::router())
        .merge(member::router())
        .merge(qualification::router())
        .merge(wechat::router())
        .merge(payment::router())
        .merge(stat::router())
        .split_for_parts();
    openapi::document_errors(&mut document);
    (router, document)
}

/// The OpenAPI document of the API, as `GET /api/openapi.json` serves it (and `origin openapi`
/// prints it); made without a database.
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    routes().1
}

pub fn api_router(context: ApiContext) -> Router {
    let (router, document) = routes();
    let document = Arc::new(document);
    router
        .route("/api/openapi.json", get(move || std::future::ready(Json(document.as_ref().clone()))))
        .route(edge::HEALTH, get(edge::health))
        .route(edge::READY, get(edge::ready))
        .route(ops::METRICS, get(ops::render))
        .route_layer(middleware::from_fn(ops::track))
        .fallback(|| async { Error::not_found("接口不存在") })
        .layer(DefaultBodyLimit::max(edge::BODY_LIMIT))
        .layer(middleware::from_fn(envelope_rejections))
        .layer(middleware::from_fn(refuse_cross_site))
        // Outermost: nothing else sees a request before it is known to come from the edge.
        .layer(middleware::from_fn_with_state(context.clone(), edge::only_through_edge))
        .with_state(context)
}

/// Wraps the answers axum makes itself (a path segment that is not a number, a method the
/// route does not take) in the envelope, like every other answer.
async fn envelope_rejections(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json") || value.starts_with("image/"));
    if !status.is_client_error() || is_json {
        return response;
    }
    let message = match status {
        StatusCode::NOT_FOUND => "接口不存在",
        StatusCode::METHOD_NOT_ALLOWED => "请求方法不正确",
        StatusCode::PAYLOAD_TOO_LARGE => "请求内容过大",
        StatusCode::REQUEST_TIMEOUT => "请求超时，请刷新页面",
        _ => "请求参数不正确",
    };
    error::refused(status, message)
}

/// Refuses state-changing requests another site's page sends (403): the browser says so in
/// `Sec-Fetch-Site`, or the `Origin` names another host than the one asked, or is `null` (a
/// sandboxed frame, a `data:` page, a redirect across sites: never the shop's own page). The
/// host asked is the edge's `X-Forwarded-Host`, which only reaches here on a request the edge
/// proved (`edge::only_through_edge`), else `Host`.
async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let changes_state = !matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state && is_cross_site(&request) {
        return Error::forbidden("禁止跨站请求").into_response();
    }
    next.run(request).await
}

fn is_cross_site(request: &Request) -> bool {
    let headers = request.headers();
    if headers.get("sec-fetch-site").and_then(|value| value.to_str().ok()) == Some("cross-site") {
        return true;
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|value| value.to_str().ok()) else { return false };
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    let host =
        headers.get("x-forwarded-host").or_else(|| headers.get(header::HOST)).and_then(|value| value.to_str().ok()).unwrap_or_default();
    origin.trim().eq_ignore_ascii_case("null") || origin_host != host
}
