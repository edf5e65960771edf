//! The back office's calls (`/api/admin/*`, `docs/backoffice.md`): an operator signs in with a
//! session of their own (cookie `osid`, sent only to these paths), and every call names the
//! permission it needs (its [`Staff`] extractor's parameter, `Staff<can::Ship>`): 401 without an operator's session, 403 for a role
//! without the permission. The work itself is the domain's (`crate::domain::staff`), which the
//! commands (`origin admin`) call too.

mod activities;
mod audit;
mod blocks;
mod cashback;
mod combinations;
mod content;
mod coupons;
mod dashboard;
mod draws;
mod flash;
mod goods;
mod grants;
mod invoices;
mod manjian;
mod members;
mod operators;
mod orders;
mod points_goods;
mod returns;
mod service;
mod session;
mod shop;
mod specials;
mod stock;

use std::marker::PhantomData;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::header;
use axum::http::request::Parts;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::ApiContext;
use super::error::{Error, Result};
use super::extract::{Fields, client_address};
use crate::domain::staff::operators::{self as accounts, Operator};
use crate::domain::staff::{Actor, Permission};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .merge(session::router())
        .merge(dashboard::router())
        .merge(orders::router())
        .merge(grants::router())
        .merge(invoices::router())
        .merge(members::router())
        .merge(returns::router())
        .merge(service::router())
        .merge(operators::router())
        .merge(audit::router())
        .merge(shop::router())
        .merge(stock::router())
        .merge(content::router())
        .merge(blocks::router())
        .merge(goods::router())
        .merge(manjian::router())
        .merge(flash::router())
        .merge(coupons::router())
        .merge(combinations::router())
        .merge(cashback::router())
        .merge(specials::router())
        .merge(points_goods::router())
        .merge(draws::router())
        .merge(activities::router())
}

/// What a call needs: the permission it names (`can::Ship`), or only a signed-in operator
/// (`can::SignedIn`).
pub trait Need {
    const PERMISSION: Option<Permission>;
}

/// The permissions as types, for [`Staff`]'s parameter: a handler's signature says what it needs.
pub mod can {
    use super::{Need, Permission};

    macro_rules! needs {
        ($($name:ident),* $(,)?) => {
            $(
                pub struct $name;
                impl Need for $name {
                    const PERMISSION: Option<Permission> = Some(Permission::$name);
                }
            )*
        };
    }
    needs!(
        Read,
        ReadAudit,
        ReviewMembers,
        GrantBenefits,
        GrantBalance,
        Ship,
        CancelOrders,
        ReviewReturns,
        ReceiveReturns,
        AfterSales,
        Invoices,
        Feedback,
        Content,
        Operators,
        Settings,
        Stock,
        Promotions,
        Catalogue
    );

    /// Any signed-in operator.
    pub struct SignedIn;
    impl Need for SignedIn {
        const PERMISSION: Option<Permission> = None;
    }
}

/// The signed-in operator whose role holds `N`'s permission, and who they are for the audit
/// trail. As an extractor it runs before the request's body is read: 401 without an operator's
/// session, 403 for a role without the permission, whatever the body.
pub struct Staff<N: Need = can::SignedIn> {
    pub operator: Operator,
    pub actor: Actor,
    need: PhantomData<N>,
}

/// The operator's session token, from the `osid` cookie.
fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|cookie| cookie.trim().split_once('='))
        .find(|(name, _)| *name == accounts::COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|value| !value.is_empty())
}

impl<S: Send + Sync, N: Need> FromRequestParts<S> for Staff<N>
where
    ApiContext: FromRef<S>,
{
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Staff<N>> {
        let token = session_token(&parts.headers).ok_or(Error::Unauthorized)?;
        let context = ApiContext::from_ref(state);
        let mut conn = context.db.pool.acquire().await?;
        let operator = accounts::session_operator(&mut conn, &token, now()).await?.ok_or(Error::Unauthorized)?;
        if N::PERMISSION.is_some_and(|permission| !operator.role.0.allows(permission)) {
            return Err(Error::forbidden("您的角色没有此操作的权限"));
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| *peer);
        let address = client_address(&parts.headers, peer);
        let actor = Actor { operator: Some(operator.id), name: operator.username.clone(), address };
        Ok(Staff { operator, actor, need: PhantomData })
    }
}

/// An Excel workbook as a download named `{name}-{YYYYMMDD-HHMM}.xlsx` (the shop's time), kept by
/// no cache.
pub fn xlsx(name: &str, body: Vec<u8>) -> axum::response::Response {
    use axum::response::IntoResponse;
    // `YYYY-MM-DD HH:MM` of now, as the workbook's times read, without its separators.
    let stamp: String = crate::domain::staff::export::shop_time(now()).chars().filter(char::is_ascii_digit).collect();
    let file = format!("{name}-{}-{}.xlsx", &stamp[..8], &stamp[8..]);
    (
        [
            (header::CONTENT_TYPE, XLSX.to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file}\"")),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response()
}

/// The content type of an `.xlsx` workbook.
pub const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// A page of a list and how many there are in all.
#[derive(Serialize, ToSchema)]
pub struct Page<T> {
    pub list: Vec<T>,
    pub total: i64,
    pub page: i64,
    pub size: i64,
}

/// The `page` and `size` fields of a list (size 20 when absent, at most 100).
fn paging(fields: &Fields) -> Result<(i64, i64)> {
    let page = fields.page()?;
    let size = fields.int("size", "每页条数")?.unwrap_or(20);
    if !(1..=100).contains(&size) {
        return Err(Error::field("size", "每页条数须在1到100之间"));
    }
    Ok((page, size))
}

/// A day field `YYYY-MM-DD` as the first second of that day in China; `None` when absent.
fn day(fields: &Fields, name: &str, label: &str) -> Result<Option<i64>> {
    match fields.text(name) {
        None => Ok(None),
        Some(text) => super::wallet::day_start(&text).map(Some).ok_or_else(|| Error::field(name, format!("{label}格式应为YYYY-MM-DD"))),
    }
}
