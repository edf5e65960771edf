//! The controlled-sales zone (控销专区, `/kxzq`, `/kxzq/new`, `/kxzq/goods/{url}/{ads?}`):
//! goods a manufacturer sells only through buyers the shop approved for them. A member applies
//! here; the operator approves or rejects (`origin admin approve-kx`, `reject-kx`). Only an
//! approved member may put controlled goods in the cart (`cart::add`), and a cart line of
//! one is not buyable for anyone else (`crate::domain::cart`), so the engine, the edge and the
//! order's transaction all refuse it.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, ok, ok_with};
use super::extract::{IdsQuery, MaybeMember, Member, Query};
use super::goods::placeholders;
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::controlled::status;
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::members::{ReviewStatus, application_code, application_name};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(zone))
        .routes(routes!(apply))
        .routes(routes!(programme))
        .routes(routes!(ads))
        .routes(routes!(new_goods))
}

/// How long controlled goods count as new (`/kxzq/new`).
pub const NEW_DAYS: i64 = 30;

/// The member's standing in the zone.
#[derive(Serialize, ToSchema)]
pub struct KxStanding {
    /// −1 未申请 (or a visitor), 0 待审核, 1 已通过, 2 未通过.
    status: i64,
    #[schema(example = "已通过")]
    status_name: &'static str,
    /// Why an application was rejected.
    reason: String,
}

/// A programme of controlled goods (a manufacturer's, usually).
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct KxProgramme {
    url: String,
    title: String,
    subtitle: String,
    color: String,
    /// Its goods.
    goods: i64,
}

/// The zone: the member's standing, the programmes, and how many goods are new.
#[derive(Serialize, ToSchema)]
pub struct KxZone {
    /// Whether a member asks (a visitor is asked to log in before applying).
    login: bool,
    #[serde(flatten)]
    standing: KxStanding,
    programmes: Vec<KxProgramme>,
    /// Controlled goods listed in the last 30 days.
    new_goods: i64,
}

async fn standing(conn: &mut AnyConnection, member: Option<Member>) -> sqlx::Result<KxStanding> {
    let (status, reason) = match member {
        Some(member) => status(conn, member.id).await?,
        None => (None, String::new()),
    };
    Ok(KxStanding { status: application_code(status), status_name: application_name(status), reason })
}

/// `GET /api/kxzq`: the controlled-sales zone — the member's standing (a visitor's is 未申请),
/// its programmes with their goods counted, and the number of new goods. Its goods are
/// `GET /api/goods/list?kx=1`.
#[utoipa::path(get, path = "/api/kxzq", operation_id = "kxzq", tag = "控销专区", responses((status = 200, description = "控销专区", body = Envelope<KxZone>)))]
async fn zone(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<KxZone> {
    let mut conn = context.db.pool.acquire().await?;
    let login = member.is_some();
    let standing = standing(&mut conn, member).await?;
    let programmes: Vec<KxProgramme> = sqlx::query_as(
        "SELECT p.url, p.title, p.subtitle, p.color, (SELECT COUNT(*) FROM kx_programme_goods x WHERE x.programme_id = p.id) AS goods \
         FROM kx_programmes p ORDER BY p.sort, p.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let new_goods: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods WHERE is_kx = 1 AND kx_listed_at > $1")
        .bind(now() - NEW_DAYS * 86_400)
        .fetch_one(&mut *conn)
        .await?;
    ok(KxZone { login, standing, programmes, new_goods })
}

/// `POST /api/kxzq/apply`: applies for the zone (待审核); 409 while an application waits or
/// once approved; a rejected member may apply again.
#[utoipa::path(post, path = "/api/kxzq/apply", operation_id = "kxzq_apply", tag = "控销专区", responses((status = 200, description = "申请状态", body = Envelope<KxStanding>)))]
async fn apply(State(context): State<ApiContext>, member: Member) -> Answer<KxStanding> {
    let mut conn = context.db.pool.acquire().await?;
    let now = now();
    // One statement either way, so two racing applications make one row.
    let inserted = sqlx::query(
        "INSERT INTO kx_members (member_id, status, created_at) VALUES ($1, $3, $2) \
         ON CONFLICT (member_id) DO UPDATE SET status = $3, reason = '', created_at = $2, reviewed_at = NULL \
         WHERE kx_members.status = $4",
    )
    .bind(member.id)
    .bind(now)
    .bind(ReviewStatus::Pending)
    .bind(ReviewStatus::Rejected)
    .execute(&mut *conn)
    .await?;
    if inserted.rows_affected() == 0 {
        let (status, _) = status(&mut conn, member.id).await?;
        return Err(Error::conflict(if status == Some(ReviewStatus::Approved) {
            "您已获得控销品种采购资格"
        } else {
            "您的控销资格申请正在审核中"
        }));
    }
    ok_with("已提交申请，请等待审核", standing(&mut conn, Some(member)).await?)
}

/// A programme with its goods.
#[derive(Serialize, ToSchema)]
pub struct KxProgrammePage {
    url: String,
    title: String,
    subtitle: String,
    color: String,
    goods: Vec<Card>,
}

/// `GET /api/kxzq/goods/{url}`: a programme of controlled goods (`/kxzq/goods/{url}/{ads?}`);
/// 404 `控销专区不存在`.
#[utoipa::path(get, path = "/api/kxzq/goods/{url}", operation_id = "kxzq_programme", tag = "控销专区", responses((status = 200, description = "控销品种", body = Envelope<KxProgrammePage>)))]
async fn programme(State(context): State<ApiContext>, viewer: Viewer, Path(url): Path<String>) -> Answer<KxProgrammePage> {
    let mut conn = context.db.pool.acquire().await?;
    let found: Option<(i64, String, String, String)> =
        sqlx::query_as("SELECT id, title, subtitle, color FROM kx_programmes WHERE url = $1").bind(&url).fetch_optional(&mut *conn).await?;
    let (id, title, subtitle, color) = found.ok_or_else(|| Error::not_found("控销专区不存在"))?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM kx_programme_goods x JOIN goods g ON g.id = x.goods_id WHERE x.programme_id = $1 ORDER BY x.sort, g.id",
        card_columns(2)
    )))
    .bind(id)
    .bind(now())
    .fetch_all(&mut *conn)
    .await?;
    ok(KxProgrammePage { url, title, subtitle, color, goods: cards(&rows, &viewer)? })
}

/// An ad of the zone.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct KxAd {
    id: i64,
    title: String,
    subtitle: String,
    color: String,
    url: String,
}

/// `GET /api/focus/kxzq_ad` (`ids`: `1,2`, optional): the zone's ads — those named, in the order
/// named, or all.
#[utoipa::path(get, path = "/api/focus/kxzq_ad", params(IdsQuery), operation_id = "kxzq_ad", tag = "控销专区", responses((status = 200, description = "控销专区广告", body = Envelope<Vec<KxAd>>)))]
async fn ads(State(context): State<ApiContext>, Query(IdsQuery { ids }): Query<IdsQuery>) -> Answer<Vec<KxAd>> {
    let mut conn = context.db.pool.acquire().await?;
    if ids.is_empty() {
        let all: Vec<KxAd> =
            sqlx::query_as("SELECT id, title, subtitle, color, url FROM kx_ads ORDER BY sort, id").fetch_all(&mut *conn).await?;
        return ok(all);
    }
    let mut statement = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, title, subtitle, color, url FROM kx_ads WHERE id IN ({})",
        placeholders(ids.len(), 1)
    )));
    for id in &ids {
        statement = statement.bind(id);
    }
    let mut found: Vec<KxAd> = statement.fetch_all(&mut *conn).await?;
    found.sort_by_key(|ad| ids.iter().position(|id| *id == ad.id));
    ok(found)
}

/// `GET /api/focus/new_kxzq`: controlled goods listed in the last 30 days, newest first.
#[utoipa::path(get, path = "/api/focus/new_kxzq", operation_id = "new_kxzq", tag = "控销专区", responses((status = 200, description = "控销新品", body = Envelope<Vec<Card>>)))]
async fn new_goods(State(context): State<ApiContext>, viewer: Viewer) -> Answer<Vec<Card>> {
    let now = now();
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM goods g WHERE g.is_kx = 1 AND g.kx_listed_at > $1 ORDER BY g.kx_listed_at DESC, g.id LIMIT 60",
        card_columns(2)
    )))
    .bind(now - NEW_DAYS * 86_400)
    .bind(now)
    .fetch_all(&context.db.pool)
    .await?;
    ok(cards(&rows, &viewer)?)
}
