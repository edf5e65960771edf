//! How large a request body may be, by route, and which request ids are plain enough to log: the
//! edge refuses a larger body (413) before reading it, so that the origin, which holds the same
//! limits, never sees one; both replace a request id that is not plain (`docs/edge.md`).

/// The largest body of a form (every call but the uploads): 64 KiB.
pub const FORM_BODY: usize = 64 * 1024;

/// The largest body of an upload (a multipart form with a few files of at most 5 MiB each).
pub const UPLOAD_BODY: usize = 30 * 1024 * 1024;

/// The calls that take files (`POST`, multipart), as the origin's routes name them; `{id}` is
/// one path segment.
pub const UPLOADS: [&str; 9] = [
    "/api/user/feedback",
    "/api/user/zizhi",
    "/api/order/{id}/after_sales",
    "/api/after_sales/{id}/reply",
    "/api/order/{id}/return",
    "/api/admin/goods/{id}/lots",
    "/api/admin/lots/{id}/report",
    "/api/admin/goods/import",
    "/api/admin/goods/{id}/pictures",
];

/// The largest body a `method` request to `path` may carry.
pub fn body_limit(method: &str, path: &str) -> usize {
    let path = path.strip_suffix('/').filter(|path| !path.is_empty()).unwrap_or(path);
    if method.eq_ignore_ascii_case("POST") && UPLOADS.iter().any(|pattern| matches(pattern, path)) { UPLOAD_BODY } else { FORM_BODY }
}

/// Whether `path` fits `pattern`, where `{…}` stands for one non-empty segment.
fn matches(pattern: &str, path: &str) -> bool {
    let mut parts = path.split('/');
    let fits = pattern.split('/').all(|expected| match parts.next() {
        Some(part) if expected.starts_with('{') => !part.is_empty(),
        Some(part) => part == expected,
        None => false,
    });
    fits && parts.next().is_none()
}

/// The longest request id kept.
pub const REQUEST_ID_MAX: usize = 64;

/// Whether a client's `X-Request-Id` may name its request in the logs: 1 to 64 ASCII letters,
/// digits and `-`. Any other is replaced by a fresh one, so that nothing a client writes reaches
/// a log line but a plain token.
pub fn is_plain_request_id(value: &[u8]) -> bool {
    !value.is_empty() && value.len() <= REQUEST_ID_MAX && value.iter().all(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uploads_may_be_larger_than_forms() {
        for path in
            ["/api/user/feedback", "/api/user/zizhi/", "/api/order/12/after_sales", "/api/after_sales/3/reply", "/api/order/7/return"]
        {
            assert_eq!(body_limit("POST", path), UPLOAD_BODY, "{path}");
        }
        for (method, path) in [
            ("POST", "/api/order"),
            ("POST", "/api/cart/checkout"),
            ("PUT", "/api/user/feedback"),
            ("POST", "/api/order//return"),
            ("POST", "/api/order/7/return/x"),
            ("POST", "/api/order/7/returns"),
            ("POST", "/api/user/feedbacks"),
            ("POST", "/"),
        ] {
            assert_eq!(body_limit(method, path), FORM_BODY, "{method} {path}");
        }
    }

    #[test]
    fn plain_request_ids() {
        for good in ["a", "0196b3c2d4e-0a1b2c3d4e5f6071", "550e8400-e29b-41d4-a716-446655440000", &"x".repeat(64)] {
            assert!(is_plain_request_id(good.as_bytes()), "{good}");
        }
        for bad in ["", "with_underscore", "a b", "a\u{1b}[31m", "line\nbreak", "é", &"x".repeat(65)] {
            assert!(!is_plain_request_id(bad.as_bytes()), "{bad:?}");
        }
    }
}
