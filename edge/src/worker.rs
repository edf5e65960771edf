//! The Worker: I/O only. What to answer is decided by the plain functions of [`crate::route`],
//! [`crate::checkout`] and `order_check`, tested natively.
//!
//! Settings (`wrangler.toml` `[vars]`, secrets from `.dev.vars` or `wrangler secret put`):
//! `ORIGIN_URL` (one origin, or several separated by commas: [`crate::balance`]),
//! `PUBLIC_CACHE_TTL` (seconds, 0 = off), `TRUST_CF_CONNECTING_IP` (on only on Cloudflare:
//! [`route::trusts_cf_connecting_ip`]), `EDGE_SECRET`. Every request sent to an origin carries
//! the edge's proof (`order_check::proof`), signed with `EDGE_SECRET`, and a request id
//! (`X-Request-Id`: the client's when it is a plain token, else one made here) that the origin
//! logs and answers with, and the edge's own log lines name. A request's body is read, up to its
//! call's limit (`order_check::limits`), before anything is sent on; a larger one is answered 413.
//! Every answer carries `X-Content-Type-Options: nosniff`, and the app's pages their
//! Content-Security-Policy and Referrer-Policy ([`route::PAGE_HEADERS`]).

use std::cell::RefCell;

use futures_util::StreamExt;
use worker::{Cache, Context, Date, Env, Fetch, Headers, Method, Request, RequestInit, RequestRedirect, Response, event};

use crate::balance::{self, Balancer};
use crate::checkout::{self, Verdict};
use crate::envelope::{self, Answer};
use crate::route::{self, Client, Route};
use order_check::signature::{self, Checked};
use order_check::{headers, paths};
use order_check::{limits, proof};

/// The header that says whether a public GET came from the edge's cache.
const CACHE_STATUS: &str = "x-edge-cache";

/// In a kept answer: the origin's own `Cache-Control`, what the browser is told on a hit (the
/// kept copy's `Cache-Control` is the edge's lifetime for the Cache API).
const BROWSER_CACHE_CONTROL: &str = "x-edge-browser-cache-control";

/// The header that names a request in the logs of the edge and the origin.
const REQUEST_ID: &str = "x-request-id";

/// The settings, and this request's id.
struct Settings {
    origins: Vec<String>,
    cache_ttl: u32,
    secret: Option<String>,
    /// Whether `CF-Connecting-IP` is the client's address (on Cloudflare only).
    trust_cf_connecting_ip: bool,
    request_id: String,
}

thread_local! {
    /// The isolate's turns and resting origins.
    static BALANCER: RefCell<Balancer> = RefCell::new(Balancer::new(0));
}

impl Settings {
    fn from(env: &Env, request_id: String) -> Settings {
        let setting = env.var("ORIGIN_URL").map(|var| var.to_string()).unwrap_or_default();
        let mut origins = balance::origins(&setting);
        if origins.is_empty() {
            origins.push("http://127.0.0.1:3000".into());
        }
        Settings {
            origins,
            cache_ttl: route::cache_ttl(env.var("PUBLIC_CACHE_TTL").ok().map(|var| var.to_string()).as_deref()),
            secret: env.secret("EDGE_SECRET").ok().map(|secret| secret.to_string()).filter(|secret| !secret.is_empty()),
            trust_cf_connecting_ip: route::trusts_cf_connecting_ip(
                env.var("TRUST_CF_CONNECTING_IP").ok().map(|var| var.to_string()).as_deref(),
            ),
            request_id,
        }
    }
}

#[event(fetch)]
async fn fetch(mut request: Request, env: Env, _context: Context) -> worker::Result<Response> {
    let request_id = request_id(&request)?;
    let settings = Settings::from(&env, request_id.clone());
    let method = request.method().to_string();
    let path = request.path();
    let route = route::route(&method, &path);
    let answer = match route {
        Route::App => app(&env, &request).await,
        Route::MissingAsset => missing(),
        Route::Public => public(&settings, request).await,
        Route::Api | Route::CheckoutPreview | Route::Order => match read_body(&mut request, limits::body_limit(&method, &path)).await {
            Body::TooLarge => respond(&envelope::too_large()),
            Body::Unreadable => respond(&envelope::unreadable()),
            Body::Read(body) if route == Route::Api => forward(&settings, request, body).await,
            Body::Read(body) => checked(&settings, request, body.unwrap_or_default()).await,
        },
    };
    let answer = match answer {
        Ok(response) => response,
        Err(error) => {
            log_error(&request_id, "the edge failed", &[("method", &method), ("path", &path), ("error", &error.to_string())]);
            respond(&envelope::busy())?
        }
    };
    let page = route == Route::App && answer.status_code() < 400;
    with_headers(answer, if page { &route::PAGE_HEADERS } else { &[route::NOSNIFF] })
}

/// `response` with `headers` added (an answer from elsewhere has headers that cannot change:
/// they are copied).
fn with_headers(response: Response, headers: &[(&str, &str)]) -> worker::Result<Response> {
    let copy = response.headers().clone();
    for (name, value) in headers {
        copy.set(name, value)?;
    }
    Ok(response.with_headers(copy))
}

/// A request's body, as read by [`read_body`].
enum Body {
    /// Read whole: `None` for a GET or HEAD, which send none on.
    Read(Option<Vec<u8>>),
    /// Larger than its call allows, announced or found so: read and thrown away.
    TooLarge,
    /// The client stopped sending it.
    Unreadable,
}

/// Reads the request's body up to `limit` bytes, before anything is sent on: refused without
/// keeping a byte when its `Content-Length` says it is larger, and as soon as it proves larger
/// without one. The body then goes on whole, so that the origin never answers before it arrived.
///
/// A refused body is still read to its end and thrown away ([`route::DRAIN_MAX`] at most): a
/// proxy in front that is still sending it would otherwise lose the answer (wrangler dev's
/// answers 503 "Your worker restarted mid-request"), and the client would get a 5xx for its body.
async fn read_body(request: &mut Request, limit: usize) -> Body {
    if matches!(request.method(), Method::Get | Method::Head) {
        return Body::Read(None);
    }
    if request.inner().body().is_none() {
        return Body::Read(Some(Vec::new()));
    }
    let Ok(mut stream) = request.stream() else { return Body::Unreadable };
    let announced = request.headers().get("content-length").ok().flatten();
    let mut body = (!route::announced_too_large(limit, announced.as_deref())).then(Vec::new);
    let mut read = 0;
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else { return Body::Unreadable };
        read += chunk.len();
        match &mut body {
            Some(kept) if kept.len() + chunk.len() <= limit => kept.extend_from_slice(&chunk),
            _ if read > route::DRAIN_MAX => break,
            _ => body = None,
        }
    }
    match body {
        Some(body) => Body::Read(Some(body)),
        None => Body::TooLarge,
    }
}

/// A client route: the app's `index.html`, asked of the static assets as `/` with the
/// request's method and headers (`If-None-Match` answers 304), so that it keeps the assets'
/// own `Cache-Control` (revalidated) and `ETag`.
async fn app(env: &Env, request: &Request) -> worker::Result<Response> {
    let mut url = request.url()?;
    url.set_path("/");
    url.set_query(None);
    let mut init = RequestInit::new();
    init.with_method(request.method()).with_headers(request.headers().clone());
    env.assets("ASSETS")?.fetch_request(Request::new_with_init(url.as_str(), &init)?).await
}

/// A file under `/assets/` that the build did not write: 404, kept by no cache.
fn missing() -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "text/plain; charset=utf-8")?;
    headers.set("cache-control", "no-store")?;
    Ok(Response::builder().with_status(404).with_headers(headers).fixed(b"Not Found".to_vec()))
}

/// One line of the edge's log, as JSON like the origin's (`LOG_FORMAT=json`): level, message,
/// the request's id, and `fields`.
fn log_error(request_id: &str, message: &str, fields: &[(&str, &str)]) {
    let mut line = serde_json::Map::new();
    line.insert("level".into(), "ERROR".into());
    line.insert("message".into(), message.into());
    line.insert("request_id".into(), request_id.into());
    for (name, value) in fields {
        line.insert((*name).into(), (*value).into());
    }
    worker::console_error!("{}", serde_json::Value::Object(line));
}

/// The client's `X-Request-Id` when it is a plain token (`limits::is_plain_request_id`: letters,
/// digits and `-`, at most 64), else a new one: the time and 64 random bits.
fn request_id(request: &Request) -> worker::Result<String> {
    if let Some(given) = request.headers().get(REQUEST_ID)?
        && limits::is_plain_request_id(given.as_bytes())
    {
        return Ok(given);
    }
    let random = || (worker::js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    Ok(format!("{:011x}-{:08x}{:08x}", Date::now().as_millis(), random(), random()))
}

/// Sends the request `build` makes for an origin to the origins in turn ([`crate::balance`])
/// until one answers: only the first when `resend` is false (a request that could act twice).
async fn dispatch(settings: &Settings, resend: bool, build: impl Fn(&str) -> worker::Result<Request>) -> worker::Result<Response> {
    let now = Date::now().as_millis() as f64;
    let plan = BALANCER.with(|balancer| {
        let mut balancer = balancer.borrow_mut();
        if balancer.len() != settings.origins.len() {
            *balancer = Balancer::new(settings.origins.len());
        }
        balancer.plan(now, resend)
    });
    let mut failure = None;
    for (attempt, origin) in plan.into_iter().enumerate() {
        if attempt > 0 && !resend {
            break;
        }
        let upstream = build(&settings.origins[origin])?;
        let method = upstream.method().to_string();
        let request_id = &settings.request_id;
        match Fetch::Request(upstream).send().await {
            Ok(response) => {
                BALANCER.with(|balancer| balancer.borrow_mut().answered(origin));
                return Ok(response);
            }
            Err(error) => {
                log_error(
                    request_id,
                    "an origin gave no answer",
                    &[("origin", &settings.origins[origin]), ("method", &method), ("error", &error.to_string())],
                );
                BALANCER.with(|balancer| balancer.borrow_mut().failed(origin, Date::now().as_millis() as f64));
                failure = Some(error);
            }
        }
    }
    Err(failure.unwrap_or_else(|| worker::Error::RustError("no origin".into())))
}

fn respond(answer: &Answer) -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set(route::NOSNIFF.0, route::NOSNIFF.1)?;
    Ok(Response::builder().with_status(answer.status).with_headers(headers).fixed(answer.body.clone().into_bytes()))
}

/// The path and query of `request`, as the origin receives them.
fn path_and_query(request: &Request) -> worker::Result<String> {
    let url = request.url()?;
    Ok(match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    })
}

/// `request` as sent to `origin`'s `path_and_query`, with the edge's proof, and `body` (already
/// read) when given (a GET or HEAD has none).
fn upstream_to(settings: &Settings, origin: &str, request: &Request, path_and_query: &str, body: Option<&[u8]>) -> worker::Result<Request> {
    let headers = forwarded_headers(settings, request, request.headers().entries(), accepted_encodings(request)?.as_deref())?;
    headers.set(REQUEST_ID, &settings.request_id)?;
    let url = route::upstream_url(origin, path_and_query);
    prove(settings, &headers, request.method().as_ref(), &url)?;
    let mut init = RequestInit::new();
    init.with_method(request.method()).with_headers(headers).with_redirect(RequestRedirect::Manual);
    if let Some(body) = body {
        init.with_body(Some(worker::js_sys::Uint8Array::from(body).into()));
    }
    Request::new_with_init(&url, &init)
}

/// Whether `request` may go on to another origin after one gave no answer.
fn may_resend(settings: &Settings, request: &Request) -> worker::Result<bool> {
    let key = request.headers().get(headers::IDEMPOTENCY_KEY)?;
    Ok(settings.origins.len() > 1 && balance::may_resend(request.method().as_ref(), key.as_deref()))
}

/// Adds to `headers` the edge's proof (`order_check::proof`) for a `method` request to `url`,
/// over the path and query as the origin will receive them. Without `EDGE_SECRET` there is
/// none, and an origin that has the secret refuses the request.
fn prove(settings: &Settings, headers: &Headers, method: &str, url: &str) -> worker::Result<()> {
    let Some(secret) = &settings.secret else { return Ok(()) };
    let url = worker::Url::parse(url)?;
    let target = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    headers.set(proof::HEADER, &proof::sign(secret.as_bytes(), method, &target, now_seconds()))
}

/// Sends `request`, with `body` (read by [`read_body`]), to an origin and answers what it
/// answers: status, headers (cookies included) and body, as they are.
async fn forward(settings: &Settings, request: Request, body: Option<Vec<u8>>) -> worker::Result<Response> {
    let resend = may_resend(settings, &request)?;
    let target = path_and_query(&request)?;
    dispatch(settings, resend, |origin| upstream_to(settings, origin, &request, &target, body.as_deref())).await
}

/// A public GET: from the cache when there, else from the origin, kept for `cache_ttl`.
/// The cache holds the plain body; the runtime compresses it on the way out for clients
/// that accept gzip.
async fn public(settings: &Settings, request: Request) -> worker::Result<Response> {
    if settings.cache_ttl == 0 {
        return forward(settings, request, None).await;
    }
    // The key is the URL alone: no cookie or other header of the member's travels with it.
    let key = request.url()?.to_string();
    let gzip = route::accepts_gzip(accepted_encodings(&request)?.as_deref());
    let cache = Cache::default();
    if let Some(mut kept) = cache.get(key.as_str(), false).await? {
        let headers = kept.headers().clone();
        headers.set(CACHE_STATUS, "HIT")?;
        // The edge's lifetime is its own business; the browser is told what the origin told it
        // (a day for pictures; nothing for the JSON reads), as on a miss.
        headers.delete("cache-control")?;
        if let Some(browser) = headers.get(BROWSER_CACHE_CONTROL)? {
            headers.set("cache-control", &browser)?;
            headers.delete(BROWSER_CACHE_CONTROL)?;
        }
        headers.delete("content-length")?;
        let kind = headers.get("content-type")?.unwrap_or_default();
        if gzip && route::compressible(&kind) {
            headers.set("content-encoding", "gzip")?;
        }
        let body = kept.bytes().await?;
        let body = match kind.starts_with("application/json") {
            true => route::refresh_clock(&body, now_seconds()).unwrap_or(body),
            false => body,
        };
        return Ok(Response::builder().with_headers(headers).fixed(body));
    }
    let mut answer = forward(settings, request, None).await?;
    let sets_cookie = answer.headers().has("set-cookie")?;
    if !route::may_keep(answer.status_code(), sets_cookie) {
        return Ok(answer);
    }
    let status = answer.status_code();
    let headers = answer.headers().clone();
    // Read decoded; a `content-encoding` left on `headers` makes the runtime encode it again.
    let body = answer.bytes().await?;
    headers.delete("content-length")?;
    let kept = headers.clone();
    kept.delete("content-encoding")?;
    if let Some(browser) = headers.get("cache-control")? {
        kept.set(BROWSER_CACHE_CONTROL, &browser)?;
    }
    kept.set("cache-control", &format!("public, max-age={}", settings.cache_ttl))?;
    cache.put(key.as_str(), Response::builder().with_headers(kept).fixed(body.clone())).await?;
    headers.set(CACHE_STATUS, "MISS")?;
    Ok(Response::builder().with_status(status).with_headers(headers).fixed(body))
}

/// `POST /api/cart/checkout` and `POST /api/order` with `body` (read by [`read_body`]): quote the
/// member's cart with the engine and refuse, or forward (the order with the signed check).
async fn checked(settings: &Settings, request: Request, body: Vec<u8>) -> worker::Result<Response> {
    let form = match checkout::read_form(&body) {
        Ok(form) => form,
        Err(answer) => return respond(&answer),
    };
    let order = request.path().trim_end_matches('/') == paths::ORDER;
    // The signing secret is checked before the cart is read: without it no order can pass.
    let secret = match (&settings.secret, order) {
        (Some(secret), _) => Some(secret.as_bytes()),
        (None, false) => None,
        (None, true) => {
            log_error(&settings.request_id, "EDGE_SECRET is not set: orders cannot be signed", &[]);
            return respond(&envelope::busy());
        }
    };

    // Reading the cart, the preview and the kept answer change nothing: they may go on to
    // another origin, and so may the order, under its key.
    let several = settings.origins.len() > 1;
    let mut cart = dispatch(settings, several, |origin| {
        let cart_url = route::upstream_url(origin, paths::CART_INPUT);
        let cart_headers = cart_headers(settings, &request)?;
        cart_headers.set(REQUEST_ID, &settings.request_id)?;
        prove(settings, &cart_headers, "GET", &cart_url)?;
        let mut cart_request = RequestInit::new();
        cart_request.with_method(Method::Get).with_headers(cart_headers);
        Request::new_with_init(&cart_url, &cart_request)
    })
    .await?;
    let cart_status = cart.status_code();
    let cart_body = cart.bytes().await?;
    let quote = match checkout::decide(&form, cart_status, &cart_body) {
        Verdict::Pass(quote) => quote,
        Verdict::Refuse(answer) if order => return refuse_order(settings, &request, body, &answer).await,
        Verdict::Refuse(answer) => return respond(&answer),
        Verdict::Relay => {
            let headers = cart.headers().clone();
            return Ok(Response::builder().with_status(cart_status).with_headers(headers).fixed(cart_body));
        }
    };

    let target = path_and_query(&request)?;
    if order {
        let key = request.headers().get(headers::IDEMPOTENCY_KEY)?.unwrap_or_default();
        let checked =
            Checked { idempotency_key: key.trim(), ids: &form.ids, expected_payable: &form.expected_payable, settlement: &form.settlement };
        let secret = secret.expect("orders have a secret");
        let check = signature::sign(secret, &checked, now_seconds());
        let resend = may_resend(settings, &request)?;
        return dispatch(settings, resend, |origin| {
            let mut upstream = upstream_to(settings, origin, &request, &target, Some(&body))?;
            upstream.headers_mut()?.set(signature::HEADER, &check)?;
            Ok(upstream)
        })
        .await;
    }
    // The preview passes as the origin sent it, with the edge's quote in a header of its own.
    let preview = dispatch(settings, several, |origin| upstream_to(settings, origin, &request, &target, Some(&body))).await?;
    let answer_headers = preview.headers().clone();
    if let Some(summary) = checkout::quote_header(&quote) {
        answer_headers.set(headers::EDGE_QUOTE, &summary)?;
    }
    Ok(preview.with_headers(answer_headers))
}

/// Refuses an order the edge found wrong, unless it is a retry of an order already placed
/// under its `Idempotency-Key` (its lines have left the cart since): then the buyer gets that
/// order's answer, as the origin kept it (`POST /api/order/answer`).
async fn refuse_order(settings: &Settings, request: &Request, body: Vec<u8>, refusal: &Answer) -> worker::Result<Response> {
    let key = request.headers().get(headers::IDEMPOTENCY_KEY)?.unwrap_or_default();
    if key.trim().is_empty() {
        return respond(refusal);
    }
    let several = settings.origins.len() > 1;
    let kept = dispatch(settings, several, |origin| upstream_to(settings, origin, request, paths::ORDER_ANSWER, Some(&body))).await?;
    if kept.status_code() == 404 { respond(refusal) } else { Ok(kept) }
}

fn now_seconds() -> i64 {
    (Date::now().as_millis() / 1000) as i64
}

/// `incoming` (of `request`) as they go to the origin (`route::upstream_headers`), asking for
/// `accept_encoding` (none: uncompressed).
fn forwarded_headers(
    settings: &Settings,
    request: &Request,
    incoming: impl IntoIterator<Item = (String, String)>,
    accept_encoding: Option<&str>,
) -> worker::Result<Headers> {
    let url = request.url()?;
    let address = route::client_address(settings.trust_cf_connecting_ip, request.headers().get("cf-connecting-ip")?.as_deref());
    let host = request.headers().get("host")?.unwrap_or_else(|| url.host_str().unwrap_or_default().to_owned());
    let client = Client { address: address.as_deref(), host: &host, proto: url.scheme(), accept_encoding };
    let headers = Headers::new();
    for (name, value) in route::upstream_headers(incoming, &client) {
        headers.append(&name, &value)?;
    }
    Ok(headers)
}

/// The encodings the client accepts (`route::client_accept_encoding`).
fn accepted_encodings(request: &Request) -> worker::Result<Option<String>> {
    use worker::js_sys::Reflect;
    let cf = Reflect::get(request.inner(), &"cf".into())
        .ok()
        .filter(|cf| cf.is_object())
        .and_then(|cf| Reflect::get(&cf, &"clientAcceptEncoding".into()).ok())
        .and_then(|sent| sent.as_string());
    Ok(route::client_accept_encoding(cf, request.headers().get("accept-encoding")?))
}

/// The headers for reading the member's cart: the member's cookie and language, forwarded
/// like any other request's, asking for the body uncompressed.
fn cart_headers(settings: &Settings, request: &Request) -> worker::Result<Headers> {
    let kept = request.headers().entries().filter(|(name, _)| matches!(name.as_str(), "cookie" | "accept-language" | "x-forwarded-for"));
    forwarded_headers(settings, request, kept, None)
}
