//! Self-service (自助服务, `/zzfw`): quick purchase (快速采购, what the member bought before, to
//! buy again at today's prices) and wanted varieties (品种求购, goods the member asks the shop
//! to source, answered by the operator with `origin admin reply-wanted`).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, Member, PageQuery, Query};
use super::goods::placeholders;
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::orders::life::OrderStatus;
use crate::domain::self_service::WantedStatus;
use crate::security::text;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(fast_buy)).routes(routes!(want, wanted)).routes(routes!(wanted_one))
}

const PAGE_SIZE: i64 = 20;

/// A goods the member bought before, with today's card.
#[derive(Serialize, ToSchema)]
pub struct Bought {
    goods: Card,
    /// The unit price of the last purchase.
    #[schema(example = "12.30")]
    last_price: String,
    /// When it was last ordered, Unix seconds.
    last_at: i64,
    /// Orders it was in, and units bought in all.
    times: i64,
    units: i64,
}

/// One page of goods bought before.
#[derive(Serialize, ToSchema)]
pub struct BoughtPage {
    list: Vec<Bought>,
    total: i64,
    page: i64,
}

#[derive(sqlx::FromRow)]
struct BoughtRow {
    goods_id: i64,
    last_at: i64,
    times: i64,
    units: i64,
    last_price: i64,
}

/// Which goods bought: a page, in an order.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoughtQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// `recent` (absent: the last bought first) or `often` (the most bought first). Held
    /// as the goods' SQL order.
    #[param(value_type = Option<String>)]
    order: &'static str,
}

impl FromFields for BoughtQuery {
    fn from_fields(query: &Fields) -> Result<BoughtQuery> {
        let page = query.page()?;
        let order = match query.text("order").as_deref() {
            None | Some("recent") => "last_at DESC, goods_id",
            Some("often") => "times DESC, units DESC, goods_id",
            Some(_) => return Err(Error::field("order", "排序方式不正确")),
        };
        Ok(BoughtQuery { page, order })
    }
}

/// `GET /api/user/fast_buy` (`page`, `order`: `recent` (default) or `often`): the goods of the
/// member's paid orders (not cancelled), each once, with its last unit price and date, how often
/// and how many were bought, and today's goods card (today's price), 20 a page.
#[utoipa::path(get, path = "/api/user/fast_buy", params(BoughtQuery), operation_id = "fast_buy", tag = "自助服务", responses((status = 200, description = "常购商品", body = Envelope<BoughtPage>)))]
async fn fast_buy(
    State(context): State<ApiContext>,
    member: Member,
    viewer: Viewer,
    Query(query): Query<BoughtQuery>,
) -> Answer<BoughtPage> {
    let BoughtQuery { page, order } = query;
    let mut conn = context.db.pool.acquire().await?;
    // Paid, shipped or completed orders; normal and flash-sale lines (a set's goods are the set's).
    let bought =
        "FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.member_id = $1 AND o.status IN ($2, $3, $4) AND i.type <> 3";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(DISTINCT i.goods_id) {bought}")))
        .bind(member.id)
        .bind(OrderStatus::Paid)
        .bind(OrderStatus::Shipped)
        .bind(OrderStatus::Done)
        .fetch_one(&mut *conn)
        .await?;
    let rows: Vec<BoughtRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT goods_id, last_at, times, units, \
         (SELECT i2.price FROM order_items i2 JOIN orders o2 ON o2.id = i2.order_id WHERE o2.member_id = $1 AND o2.status IN ($2, $3, $4) \
          AND i2.type <> 3 AND i2.goods_id = b.goods_id ORDER BY o2.created_at DESC, i2.id DESC LIMIT 1) AS last_price \
         FROM (SELECT i.goods_id, MAX(o.created_at) AS last_at, COUNT(DISTINCT o.id) AS times, CAST(SUM(i.number) AS BIGINT) AS units \
               {bought} GROUP BY i.goods_id) b ORDER BY {order} LIMIT $5 OFFSET $6"
    )))
    .bind(member.id)
    .bind(OrderStatus::Paid)
    .bind(OrderStatus::Shipped)
    .bind(OrderStatus::Done)
    .bind(PAGE_SIZE)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&mut *conn)
    .await?;
    let mut list = Vec::with_capacity(rows.len());
    if !rows.is_empty() {
        let mut statement = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {} FROM goods g WHERE g.id IN ({})",
            card_columns(1),
            placeholders(rows.len(), 2)
        )))
        .bind(now());
        for row in &rows {
            statement = statement.bind(row.goods_id);
        }
        let found = cards(&statement.fetch_all(&mut *conn).await?, &viewer)?;
        for row in rows {
            if let Some(goods) = found.iter().find(|card| card.id == row.goods_id) {
                list.push(Bought {
                    goods: goods.clone(),
                    last_price: money::text(row.last_price),
                    last_at: row.last_at,
                    times: row.times,
                    units: row.units,
                });
            }
        }
    }
    ok(BoughtPage { list, total, page })
}

/// A wanted variety and the shop's answer.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Wanted {
    id: i64,
    name: String,
    sccj: String,
    ypgg: String,
    number: i64,
    remark: String,
    #[schema(value_type = i64)]
    status: WantedStatus,
    #[sqlx(skip)]
    #[schema(example = "待处理")]
    status_name: &'static str,
    reply: String,
    created_at: i64,
    #[schema(required = true)]
    replied_at: Option<i64>,
}

fn named(mut wanted: Wanted) -> Wanted {
    wanted.status_name = wanted.status.name();
    wanted
}

/// One page of the member's wanted varieties.
#[derive(Serialize, ToSchema)]
pub struct WantedPage {
    list: Vec<Wanted>,
    total: i64,
    page: i64,
}

const WANTED_COLUMNS: &str = "id, name, sccj, ypgg, number, remark, status, reply, created_at, replied_at";

/// A variety the member wants the shop to source.
#[derive(ToSchema)]
pub struct WantedForm {
    /// 品种名称.
    name: String,
    /// 求购数量, 1 to 1,000,000.
    #[schema(minimum = 1, maximum = 1000000)]
    number: i64,
    /// 生产厂家.
    #[schema(value_type = Option<String>)]
    sccj: String,
    /// 规格.
    #[schema(value_type = Option<String>)]
    ypgg: String,
    /// 备注 (lines).
    #[schema(value_type = Option<String>)]
    remark: String,
}

impl FromFields for WantedForm {
    fn from_fields(form: &Fields) -> Result<WantedForm> {
        let name = form.required_bounded(text::WANTED_NAME)?;
        let number = form.int("number", "求购数量")?.ok_or_else(|| Error::field("number", "请填写求购数量"))?;
        if !(1..=1_000_000).contains(&number) {
            return Err(Error::field("number", "求购数量须在1到1000000之间"));
        }
        let sccj = form.bounded(text::WANTED_SCCJ)?.unwrap_or_default();
        let ypgg = form.bounded(text::WANTED_YPGG)?.unwrap_or_default();
        let remark = form.bounded(text::WANTED_REMARK)?.unwrap_or_default();
        Ok(WantedForm { name, number, sccj, ypgg, remark })
    }
}

/// `POST /api/user/buy` (`name`, `number`, optional `sccj`, `ypgg`, `remark`): asks the shop to
/// source a variety (添加求购).
#[utoipa::path(post, path = "/api/user/buy", request_body(content = WantedForm, content_type = "application/x-www-form-urlencoded"), operation_id = "wanted_add", tag = "自助服务", responses((status = 200, description = "新的求购", body = Envelope<Wanted>)))]
async fn want(State(context): State<ApiContext>, member: Member, Form(wanted): Form<WantedForm>) -> Answer<Wanted> {
    let WantedForm { name, number, sccj, ypgg, remark } = wanted;
    let row: Wanted = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO wanted_varieties (member_id, name, sccj, ypgg, number, remark, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING {WANTED_COLUMNS}"
    )))
    .bind(member.id)
    .bind(&name)
    .bind(&sccj)
    .bind(&ypgg)
    .bind(number)
    .bind(&remark)
    .bind(now())
    .fetch_one(&context.db.pool)
    .await?;
    ok_with("已提交求购，我们会尽快为您采购", named(row))
}

/// `GET /api/user/buy` (`page`): the member's wanted varieties, newest first, 20 a page.
#[utoipa::path(get, path = "/api/user/buy", params(PageQuery), operation_id = "wanted_list", tag = "自助服务", responses((status = 200, description = "求购列表", body = Envelope<WantedPage>)))]
async fn wanted(State(context): State<ApiContext>, member: Member, Query(PageQuery { page }): Query<PageQuery>) -> Answer<WantedPage> {
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wanted_varieties WHERE member_id = $1")
        .bind(member.id)
        .fetch_one(&context.db.pool)
        .await?;
    let list: Vec<Wanted> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {WANTED_COLUMNS} FROM wanted_varieties WHERE member_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
    )))
    .bind(member.id)
    .bind(PAGE_SIZE)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&context.db.pool)
    .await?;
    ok(WantedPage { list: list.into_iter().map(named).collect(), total, page })
}

/// `GET /api/user/buy/{id}`: one of the member's wanted varieties with the shop's answer; 404
/// for anyone else's.
#[utoipa::path(get, path = "/api/user/buy/{id}", operation_id = "wanted_one", tag = "自助服务", responses((status = 200, description = "求购详情", body = Envelope<Wanted>)))]
async fn wanted_one(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<Wanted> {
    let row: Option<Wanted> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {WANTED_COLUMNS} FROM wanted_varieties WHERE id = $1 AND member_id = $2")))
            .bind(id)
            .bind(member.id)
            .fetch_optional(&context.db.pool)
            .await?;
    ok(named(row.ok_or_else(|| Error::not_found("求购记录不存在"))?))
}
