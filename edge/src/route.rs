//! Where a request goes, and what travels with it to the origin.

use order_check::paths;

/// What the edge does with a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// `POST /api/cart/checkout`: checked with the engine, then forwarded.
    CheckoutPreview,
    /// `POST /api/order`: checked with the engine, then forwarded with the signed check.
    Order,
    /// A public GET that does not depend on the session: answered from the edge's cache when
    /// it can be, else forwarded and kept for the configured time.
    Public,
    /// Any other `/api` call: forwarded unchanged.
    Api,
    /// Not `/api`, and not a file of the built web app (files are served before the Worker
    /// runs): a client route, answered with the app's `index.html`.
    App,
    /// Under `/assets/`, where the build's hashed files are, but not one of them: 404. Never
    /// `index.html`, which a browser would keep a year under a hashed file's name.
    MissingAsset,
}

/// Where the build writes its files, each named after its content's hash (`web/public/_headers`
/// makes them immutable).
pub const ASSETS: &str = "/assets/";

/// Public, member-independent reads (the home common data, banners, nav, links, categories,
/// articles, hot search terms and goods pictures). Nothing whose answer can depend on the
/// session is listed (goods cards do: they mark goods outside the member's business scope);
/// prefixes end in `/`.
const PUBLIC: &[&str] = &[
    "/api/index",
    "/api/focus",
    "/api/focus/right",
    "/api/global/links",
    "/api/category",
    "/api/article/category",
    "/api/goods/hot",
    "/api/images/",
];

pub fn route(method: &str, path: &str) -> Route {
    if !(path == "/api" || path.starts_with("/api/")) {
        return if path.starts_with(ASSETS) { Route::MissingAsset } else { Route::App };
    }
    match (method, path.trim_end_matches('/')) {
        ("POST", paths::CHECKOUT) => Route::CheckoutPreview,
        ("POST", paths::ORDER) => Route::Order,
        ("GET", path) if is_public(path) => Route::Public,
        _ => Route::Api,
    }
}

fn is_public(path: &str) -> bool {
    PUBLIC.iter().any(|public| match public.strip_suffix('/') {
        Some(_) => path.starts_with(public) && path.len() > public.len(),
        None => path == *public,
    })
}

/// Headers that describe one hop, not the message (RFC 9110 §7.6.1), the client's say about
/// forwarding, and the edge's own check and proof, which only the edge writes.
fn is_dropped(name: &str) -> bool {
    matches!(
        name,
        "host"
            | "connection"
            | "keep-alive"
            | "proxy-connection"
            | "proxy-authorization"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
            | "content-length"
            | "x-forwarded-host"
            | "x-forwarded-proto"
            | "x-real-ip"
            | "cf-connecting-ip"
            | order_check::headers::EDGE_CHECK
            | order_check::headers::EDGE_PROOF
    )
}

/// The client as the edge sees it.
pub struct Client<'a> {
    /// The address the connection came from, when the edge can know it ([`client_address`]).
    pub address: Option<&'a str>,
    /// The `Host` the client asked for.
    pub host: &'a str,
    /// `http` or `https`.
    pub proto: &'a str,
    /// The encodings the client accepts, as it sent them: see [`client_accept_encoding`].
    pub accept_encoding: Option<&'a str>,
}

/// Whether the `TRUST_CF_CONNECTING_IP` setting is on (`1` or `true`): the edge runs on
/// Cloudflare, which writes `CF-Connecting-IP` itself, replacing any a client sent. Off (the
/// default, and locally) the header may be the client's own word: under `wrangler dev`,
/// Miniflare sets it from the connection only when the client sent none.
pub fn trusts_cf_connecting_ip(setting: Option<&str>) -> bool {
    setting.is_some_and(|setting| matches!(setting.trim().to_ascii_lowercase().as_str(), "1" | "true"))
}

/// The client's address as the edge can know it: `CF-Connecting-IP` where the edge trusts it
/// and it is an IP address, else none (the origin then counts the edge's own address).
pub fn client_address(trusted: bool, cf_connecting_ip: Option<&str>) -> Option<String> {
    let address = cf_connecting_ip?.trim();
    (trusted && address.parse::<std::net::IpAddr>().is_ok()).then(|| address.to_owned())
}

/// The `Accept-Encoding` the client itself sent. On Cloudflare, and under wrangler dev, the
/// runtime replaces the header the Worker sees with its own (`br, gzip`) and keeps the
/// client's in `request.cf.clientAcceptEncoding` (empty when the client sent none); plain
/// workerd leaves the header as it came.
pub fn client_accept_encoding(cf_client_accept_encoding: Option<String>, header: Option<String>) -> Option<String> {
    match cf_client_accept_encoding {
        Some(sent) => Some(sent).filter(|sent| !sent.trim().is_empty()),
        None => header,
    }
}

/// The headers to send upstream for a request that came with `incoming` (names lower-case):
/// the message's own headers, cookies included, plus `X-Forwarded-For` (the client's list
/// with the address the edge saw appended, which the origin trusts for its login limits),
/// `X-Forwarded-Host` and `X-Forwarded-Proto` (so that the origin's same-site check and
/// secure cookies see what the browser saw).
pub fn upstream_headers<'a>(incoming: impl IntoIterator<Item = (String, String)>, client: &Client<'a>) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    let mut forwarded_for = None;
    for (name, value) in incoming {
        let name = name.to_ascii_lowercase();
        if name == "x-forwarded-for" {
            forwarded_for = Some(value);
        } else if !is_dropped(&name) {
            headers.push((name, value));
        }
    }
    // The origin takes the list's last entry as the client (its login limits count by it), so
    // the list goes on only with the address the edge saw appended; without one (plain workerd
    // has no `CF-Connecting-IP`), the client's own list would be its word alone, and is dropped.
    if let Some(address) = client.address {
        let list = match forwarded_for {
            Some(list) if !list.trim().is_empty() => format!("{}, {address}", list.trim()),
            _ => address.to_owned(),
        };
        headers.push(("x-forwarded-for".into(), list));
    }
    // The origin compresses for what the client accepts, and a client that asks for no
    // encoding gets none (the runtime would otherwise ask for its own and pass it on).
    headers.retain(|(name, _)| name != "accept-encoding");
    headers.push(("accept-encoding".into(), client.accept_encoding.unwrap_or("identity").to_owned()));
    headers.push(("x-forwarded-host".into(), client.host.to_owned()));
    headers.push(("x-forwarded-proto".into(), client.proto.to_owned()));
    headers
}

/// Whether a request that announces a body of `content_length` bytes may be refused before it
/// is read: larger than the route's limit (`order_check::limits::body_limit`), or a length
/// that is not a number. Without the header the body is read up to the limit.
pub fn announced_too_large(limit: usize, content_length: Option<&str>) -> bool {
    content_length.is_some_and(|length| length.trim().parse::<u64>().map_or(true, |length| length > limit as u64))
}

/// The most of a refused body the edge reads, and throws away, before it answers 413: what
/// Cloudflare itself lets through (100 MB on most plans).
pub const DRAIN_MAX: usize = 100 * 1024 * 1024;

/// Sent with every answer of the edge's and the origin's: a browser takes a file for what its
/// `Content-Type` says, never for what it sniffs.
pub const NOSNIFF: (&str, &str) = ("x-content-type-options", "nosniff");

/// The web app's pages: scripts only from the shop itself (and the engine's WebAssembly
/// compiled), styles from itself and inline (Ant Design writes its styles into the page),
/// pictures from itself and `data:`/`blob:` URLs, calls only to itself, no plugins, no `<base>`,
/// forms only to itself, and never inside another site's frame. The same values are in
/// `web/public/_headers` for the files served before the Worker runs.
pub const PAGE_HEADERS: [(&str, &str); 3] = [
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors 'none'",
    ),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    NOSNIFF,
];

/// Whether an `Accept-Encoding` allows gzip (`q=0` refuses it).
pub fn accepts_gzip(accept_encoding: Option<&str>) -> bool {
    accept_encoding.unwrap_or_default().split(',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let refused = parts.any(|param| param.strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()) == Some(0.0));
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

/// Whether a body of this `Content-Type` is worth compressing.
pub fn compressible(content_type: &str) -> bool {
    let kind = content_type.split(';').next().unwrap_or_default().trim();
    kind.starts_with("text/") || kind == "application/json" || kind == "image/svg+xml" || kind == "application/javascript"
}

/// The origin's URL for a request to `path_and_query` at the edge.
pub fn upstream_url(origin: &str, path_and_query: &str) -> String {
    format!("{}{path_and_query}", origin.trim_end_matches('/'))
}

/// Whether an origin's answer to a public GET may be kept: a success that sets no cookie.
pub fn may_keep(status: u16, sets_cookie: bool) -> bool {
    status == 200 && !sets_cookie
}

/// The cache lifetime from the `PUBLIC_CACHE_TTL` setting (seconds): 60 when unset or not a
/// number; 0 turns the cache off.
pub fn cache_ttl(setting: Option<&str>) -> u32 {
    setting.and_then(|text| text.trim().parse().ok()).unwrap_or(60)
}

/// A kept answer's `data.timestamp` (the server clock, unix seconds, in the home data) is the
/// time it was kept; on the way out of the cache it becomes the time now, so that the shop's
/// clock and flash-sale countdowns never run behind. `None` when the answer has no clock.
pub fn refresh_clock(body: &[u8], now: i64) -> Option<Vec<u8>> {
    let mut answer: serde_json::Value = serde_json::from_slice(body).ok()?;
    let timestamp = answer.get_mut("data")?.get_mut("timestamp")?;
    if !timestamp.is_i64() {
        return None;
    }
    *timestamp = now.into();
    serde_json::to_vec(&answer).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkout_and_order_posts_are_checked() {
        assert_eq!(route("POST", "/api/cart/checkout"), Route::CheckoutPreview);
        assert_eq!(route("POST", "/api/cart/checkout/"), Route::CheckoutPreview);
        assert_eq!(route("POST", "/api/order"), Route::Order);
        assert_eq!(route("GET", "/api/order"), Route::Api);
        assert_eq!(route("POST", "/api/order/12/pay"), Route::Api);
        assert_eq!(route("GET", "/api/cart/checkout"), Route::Api);
    }

    #[test]
    fn only_public_reads_are_cached() {
        for path in [
            "/api/index",
            "/api/focus",
            "/api/focus/right",
            "/api/global/links",
            "/api/category",
            "/api/article/category",
            "/api/goods/hot",
            "/api/images/goods/12.svg",
        ] {
            assert_eq!(route("GET", path), Route::Public, "{path}");
            assert_eq!(route("POST", path), Route::Api, "{path}");
        }
        for path in [
            "/api/user/base",
            "/api/cart/list",
            "/api/index/spike",
            "/api/goods/list",
            "/api/goods/detail/1",
            "/api/focus/brand/3",
            "/api/focus/brand/",
            "/api/images",
            "/api/indexes",
            "/api/favorite",
        ] {
            assert_eq!(route("GET", path), Route::Api, "{path}");
        }
    }

    #[test]
    fn everything_else_is_the_web_app() {
        for path in ["/", "/cart_step1", "/list/info/3", "/assets", "/assetsx/a.js", "/apix", "/api-docs"] {
            assert_eq!(route("GET", path), Route::App, "{path}");
        }
        assert_eq!(route("GET", "/api"), Route::Api);
    }

    #[test]
    fn a_hashed_file_that_is_not_there_is_missing() {
        for path in ["/assets/index-AbCd1234.js", "/assets/", "/assets/engine_bg-Zz.wasm"] {
            assert_eq!(route("GET", path), Route::MissingAsset, "{path}");
        }
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
    }

    #[test]
    fn cookies_travel_and_hop_headers_do_not() {
        let client = Client { address: Some("203.0.113.9"), host: "shop.example", proto: "https", accept_encoding: None };
        let headers = upstream_headers(
            pairs(&[
                ("Cookie", "sid=abc"),
                ("Host", "shop.example"),
                ("Connection", "keep-alive"),
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("X-Edge-Check", "1.forged"),
                ("X-Edge-Proof", "1.forged"),
                ("X-Forwarded-Host", "evil.example"),
                ("X-Forwarded-For", "10.0.0.1"),
                ("Accept-Encoding", "br, gzip"),
                ("Idempotency-Key", "k1"),
            ]),
            &client,
        );
        assert_eq!(
            headers,
            pairs(&[
                ("cookie", "sid=abc"),
                ("content-type", "application/x-www-form-urlencoded"),
                ("idempotency-key", "k1"),
                ("x-forwarded-for", "10.0.0.1, 203.0.113.9"),
                ("accept-encoding", "identity"),
                ("x-forwarded-host", "shop.example"),
                ("x-forwarded-proto", "https"),
            ])
        );
        // No address known (plain workerd): a client's own X-Forwarded-For is not passed on.
        let direct = upstream_headers(
            pairs(&[("Accept-Encoding", "br, gzip"), ("X-Forwarded-For", "198.51.100.7")]),
            &Client { address: None, host: "127.0.0.1:8787", proto: "http", accept_encoding: Some("gzip, deflate") },
        );
        assert_eq!(
            direct,
            pairs(&[("accept-encoding", "gzip, deflate"), ("x-forwarded-host", "127.0.0.1:8787"), ("x-forwarded-proto", "http")])
        );
    }

    #[test]
    fn cf_connecting_ip_counts_only_where_it_is_trusted() {
        assert!(!trusts_cf_connecting_ip(None));
        for off in ["", "0", "false", "no", "yes please"] {
            assert!(!trusts_cf_connecting_ip(Some(off)), "{off}");
        }
        for on in ["1", "true", " TRUE "] {
            assert!(trusts_cf_connecting_ip(Some(on)), "{on}");
        }
        // Locally (wrangler dev) the header may be the client's own: not believed.
        assert_eq!(client_address(false, Some("198.51.100.7")), None);
        assert_eq!(client_address(true, Some(" 198.51.100.7 ")).as_deref(), Some("198.51.100.7"));
        assert_eq!(client_address(true, Some("2001:db8::1")).as_deref(), Some("2001:db8::1"));
        assert_eq!(client_address(true, Some("198.51.100.7, 10.0.0.1")), None);
        assert_eq!(client_address(true, Some("localhost")), None);
        assert_eq!(client_address(true, None), None);
        // Not believed, a client's CF-Connecting-IP and X-Forwarded-For both stay behind.
        let headers = upstream_headers(
            pairs(&[("CF-Connecting-IP", "198.51.100.7"), ("X-Forwarded-For", "192.0.2.1"), ("X-Real-IP", "192.0.2.2")]),
            &Client {
                address: client_address(false, Some("198.51.100.7")).as_deref(),
                host: "127.0.0.1:8787",
                proto: "http",
                accept_encoding: None,
            },
        );
        assert!(!headers.iter().any(|(_, value)| value.contains("198.51.100.7") || value.contains("192.0.2")), "{headers:?}");
    }

    #[test]
    fn bodies_announced_too_large_are_refused_unread() {
        assert!(!announced_too_large(65_536, None));
        assert!(!announced_too_large(65_536, Some("65536")));
        assert!(announced_too_large(65_536, Some("65537")));
        assert!(announced_too_large(65_536, Some("52428800")));
        assert!(announced_too_large(65_536, Some("lots")));
        assert!(announced_too_large(65_536, Some("99999999999999999999999")));
    }

    #[test]
    fn the_pages_headers_are_the_static_files_headers() {
        // web/public/_headers gives the files served before the Worker the same headers.
        let file = include_str!("../../web/public/_headers");
        let all = file.split("\n/").find(|block| block.trim_start_matches('/').starts_with("*\n")).expect("a /* block");
        for (name, value) in PAGE_HEADERS {
            let line = all.lines().find(|line| line.trim().to_ascii_lowercase().starts_with(&format!("{name}:"))).unwrap_or_default();
            assert_eq!(line.trim().split_once(':').map(|(_, value)| value.trim()), Some(value), "{name}");
        }
        let policy = PAGE_HEADERS[0].1;
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';") && policy.ends_with("frame-ancestors 'none'"));
    }

    #[test]
    fn the_clients_own_accept_encoding_counts_not_the_runtimes() {
        let own = |cf: Option<&str>, header: Option<&str>| client_accept_encoding(cf.map(str::to_owned), header.map(str::to_owned));
        // Cloudflare and wrangler dev: the header is the runtime's, the client's is in `cf`.
        assert_eq!(own(Some(""), Some("br, gzip")), None, "the client sent none");
        assert_eq!(own(Some("identity"), Some("br, gzip")).as_deref(), Some("identity"));
        assert_eq!(own(Some("gzip, deflate"), Some("br, gzip")).as_deref(), Some("gzip, deflate"));
        // Plain workerd: the header is the client's.
        assert_eq!(own(None, Some("gzip")).as_deref(), Some("gzip"));
        assert_eq!(own(None, None), None);
    }

    #[test]
    fn encodings() {
        assert!(accepts_gzip(Some("gzip, deflate, br")));
        assert!(accepts_gzip(Some("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts_gzip(Some("*")));
        assert!(!accepts_gzip(Some("gzip;q=0, br")));
        assert!(!accepts_gzip(Some("identity")));
        assert!(!accepts_gzip(None));
        assert!(compressible("application/json; charset=utf-8"));
        assert!(compressible("image/svg+xml"));
        assert!(!compressible("image/png"));
    }

    #[test]
    fn urls_settings_and_what_is_kept() {
        assert_eq!(upstream_url("http://127.0.0.1:3000/", "/api/goods/list?page=2"), "http://127.0.0.1:3000/api/goods/list?page=2");
        assert_eq!(cache_ttl(None), 60);
        assert_eq!(cache_ttl(Some(" 15 ")), 15);
        assert_eq!(cache_ttl(Some("soon")), 60);
        assert!(may_keep(200, false));
        assert!(!may_keep(200, true));
        assert!(!may_keep(404, false));
    }

    #[test]
    fn a_kept_clock_shows_the_time_now() {
        let kept = r#"{"code":10000,"msg":"ok","data":{"timestamp":1000,"nav":["首页"]}}"#.as_bytes();
        let fresh: serde_json::Value = serde_json::from_slice(&refresh_clock(kept, 1060).unwrap()).unwrap();
        assert_eq!(fresh["data"]["timestamp"], 1060);
        assert_eq!(fresh["data"]["nav"][0], "首页");
        assert!(refresh_clock(br#"{"code":10000,"data":{"list":[]}}"#, 1060).is_none());
        assert!(refresh_clock(br#"{"code":10000,"data":{"timestamp":"soon"}}"#, 1060).is_none());
        assert!(refresh_clock(b"<svg/>", 1060).is_none());
    }
}
