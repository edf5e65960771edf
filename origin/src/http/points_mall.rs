//! The points mall (积分商城, `/jfsc`) and its orders (积分订单, `/jfdd`): goods priced in points,
//! some in points and money (积分+现金, the money from the balance). A redemption is one
//! transaction: the member's row first (their redemptions run one after another, so the
//! per-member limit holds), the item's stock taken with a guarded update (never below zero), the
//! points taken with a guarded update (never below zero), the money likewise, each with its log
//! row; a coupon lands in the wallet and red packets in their account at once, goods wait for
//! the shop to ship them (`origin admin ship-points`) and the member to confirm receipt.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, MaybeMember, Member, Query};
use crate::domain::points_mall::{PointsKind, PointsOrderStatus};
use crate::domain::promotions::CouponStatus;
use crate::domain::settlement;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(item))
        .routes(routes!(redeem))
        .routes(routes!(orders))
        .routes(routes!(receive))
}

/// The most units one redemption takes.
const NUMBER_MAX: i64 = 99;
const PAGE_SIZE: i64 = 12;

/// An item of the mall.
#[derive(Serialize, ToSchema)]
pub struct PointsGoods {
    id: i64,
    name: String,
    description: String,
    /// 1 goods shipped, 2 a coupon, 3 red packets.
    kind: i64,
    #[schema(value_type = String, example = "实物商品")]
    kind_name: &'static str,
    /// Kind 1: the goods' picture; `null` otherwise.
    #[schema(required = true)]
    picture: Option<String>,
    /// Points for one.
    points: i64,
    /// Money for one, beside the points, from the balance (`0.00`: points only).
    #[schema(example = "99.00")]
    price: String,
    /// Kind 3: the red packets one credits.
    #[schema(example = "5.00")]
    red_packet: String,
    stock: i64,
    redeemed: i64,
    /// The most one member may redeem in all (0: no limit).
    per_member: i64,
    /// How many the member has redeemed (0 for a visitor).
    mine: i64,
}

#[derive(sqlx::FromRow)]
struct GoodsRow {
    id: i64,
    name: String,
    description: String,
    kind: PointsKind,
    goods_id: Option<i64>,
    points: i64,
    price: i64,
    red_packet: i64,
    stock: i64,
    redeemed: i64,
    per_member: i64,
    mine: i64,
}

impl GoodsRow {
    fn card(self) -> PointsGoods {
        PointsGoods {
            id: self.id,
            name: self.name,
            description: self.description,
            kind: self.kind.code(),
            kind_name: self.kind.name(),
            picture: self.goods_id.map(|goods| format!("/api/images/goods/{goods}.svg")),
            points: self.points,
            price: money::text(self.price),
            red_packet: money::text(self.red_packet),
            stock: self.stock,
            redeemed: self.redeemed,
            per_member: self.per_member,
            mine: self.mine,
        }
    }
}

const GOODS_COLUMNS: &str = "g.id, g.name, g.description, g.kind, g.goods_id, g.points, g.price, g.red_packet, g.stock, g.redeemed, \
     g.per_member, CAST(COALESCE((SELECT SUM(o.number) FROM points_orders o WHERE o.points_goods_id = g.id AND o.member_id = $1), 0) AS BIGINT) AS mine \
     FROM points_goods g WHERE g.is_on = 1";

/// One page of the mall, with the member's points.
#[derive(Serialize, ToSchema)]
pub struct PointsMallPage {
    list: Vec<PointsGoods>,
    total: i64,
    page: i64,
    /// The member's points (0 for a visitor).
    points: i64,
}

/// Which items of the mall: a page, of a kind, in an order.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PointsMallQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 商品类型 1–3; absent: all.
    #[param(value_type = Option<i64>)]
    kind: i64,
    /// `sort`: `points_asc` or `points_desc`; absent: the shop's order. Held as the
    /// items' SQL order.
    #[param(rename = "sort", value_type = Option<String>)]
    order: &'static str,
}

impl FromFields for PointsMallQuery {
    fn from_fields(query: &Fields) -> Result<PointsMallQuery> {
        let page = query.page()?;
        let kind = query.int_or("kind", "商品类型", 0)?;
        if kind != 0 && PointsKind::from_code(kind).is_none() {
            return Err(Error::field("kind", "商品类型不正确"));
        }
        let order = match query.text("sort").as_deref() {
            None => "g.sort, g.id",
            Some("points_asc") => "g.points, g.id",
            Some("points_desc") => "g.points DESC, g.id",
            Some(_) => return Err(Error::field("sort", "排序方式不正确")),
        };
        Ok(PointsMallQuery { page, kind, order })
    }
}

/// `GET /api/points_mall` (`page`; `kind` 1–3; `sort` `points_asc` or `points_desc`, the shop's
/// order by default): the mall's items, 12 a page.
#[utoipa::path(get, path = "/api/points_mall", params(PointsMallQuery), operation_id = "points_mall_list", tag = "积分商城", responses((status = 200, description = "一页积分商品", body = Envelope<PointsMallPage>)))]
async fn list(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    Query(query): Query<PointsMallQuery>,
) -> Answer<PointsMallPage> {
    let PointsMallQuery { page, kind, order } = query;
    let member = member.map_or(0, |member| member.id);
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM points_goods g WHERE g.is_on = 1 AND ($1 = 0 OR g.kind = $1)")
        .bind(kind)
        .fetch_one(&mut *conn)
        .await?;
    let rows: Vec<GoodsRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GOODS_COLUMNS} AND ($2 = 0 OR g.kind = $2) ORDER BY {order} LIMIT {PAGE_SIZE} OFFSET $3"
    )))
    .bind(member)
    .bind(kind)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&mut *conn)
    .await?;
    let points: i64 =
        sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?.unwrap_or(0);
    ok(PointsMallPage { list: rows.into_iter().map(GoodsRow::card).collect(), total, page, points })
}

async fn one(conn: &mut AnyConnection, member: i64, id: i64) -> Result<PointsGoods> {
    let row: GoodsRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {GOODS_COLUMNS} AND g.id = $2")))
        .bind(member)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("积分商品不存在"))?;
    Ok(row.card())
}

/// `GET /api/points_mall/{id}`: one item of the mall.
#[utoipa::path(get, path = "/api/points_mall/{id}", operation_id = "points_goods_detail", tag = "积分商城", responses((status = 200, description = "积分商品", body = Envelope<PointsGoods>)))]
async fn item(State(context): State<ApiContext>, MaybeMember(member): MaybeMember, Path(id): Path<i64>) -> Answer<PointsGoods> {
    let mut conn = context.db.pool.acquire().await?;
    ok(one(&mut conn, member.map_or(0, |member| member.id), id).await?)
}

/// One of the member's points orders.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct PointsOrder {
    id: i64,
    order_no: String,
    points_goods_id: i64,
    name: String,
    #[schema(value_type = i64)]
    kind: PointsKind,
    number: i64,
    /// Points it took.
    points: i64,
    /// Money it took from the balance.
    #[sqlx(skip)]
    #[schema(example = "99.00")]
    price: String,
    #[serde(skip)]
    #[schema(ignore)]
    price_stored: i64,
    /// 0 待发货, 1 待收货, 2 已完成.
    #[schema(value_type = i64)]
    status: PointsOrderStatus,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "待发货")]
    status_name: &'static str,
    address: String,
    carrier: String,
    tracking_no: String,
    created_at: i64,
    #[schema(required = true)]
    shipped_at: Option<i64>,
    #[schema(required = true)]
    done_at: Option<i64>,
}

const ORDER_COLUMNS: &str = "id, order_no, points_goods_id, name, kind, number, points, price AS price_stored, status, address, carrier, \
     tracking_no, created_at, shipped_at, done_at FROM points_orders";

fn dressed(mut order: PointsOrder) -> PointsOrder {
    order.price = money::text(order.price_stored);
    order.status_name = order.status.name();
    order
}

async fn order_of(conn: &mut AnyConnection, member: i64, id: i64) -> Result<PointsOrder> {
    let order: PointsOrder = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {ORDER_COLUMNS} WHERE id = $1 AND member_id = $2")))
        .bind(id)
        .bind(member)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("积分订单不存在"))?;
    Ok(dressed(order))
}

#[derive(sqlx::FromRow)]
struct Redeemable {
    name: String,
    kind: PointsKind,
    coupon_id: Option<i64>,
    red_packet: i64,
    points: i64,
    price: i64,
    per_member: i64,
}

/// How many to redeem, and where goods go.
#[derive(ToSchema)]
pub struct RedeemForm {
    /// 兑换数量, 1–99 (absent: 1).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 99)]
    number: i64,
    /// 收货地址 for goods; absent: the member's default address.
    address_id: Option<i64>,
}

impl FromFields for RedeemForm {
    fn from_fields(form: &Fields) -> Result<RedeemForm> {
        let number = form.int_or("number", "兑换数量", 1)?;
        if !(1..=NUMBER_MAX).contains(&number) {
            return Err(Error::field("number", format!("兑换数量须在1到{NUMBER_MAX}之间")));
        }
        Ok(RedeemForm { number, address_id: form.int("address_id", "收货地址")? })
    }
}

/// `POST /api/points_mall/{id}/redeem` (`number` 1–99, default 1; `address_id` for goods, the
/// member's default address when absent): redeems an item in one transaction. 409
/// `库存不足` or `每人限兑N件`; 422 `积分不足` (on `number`), `账户余额不足` for the money part.
#[utoipa::path(post, path = "/api/points_mall/{id}/redeem", request_body(content = RedeemForm, content_type = "application/x-www-form-urlencoded"), operation_id = "points_redeem", tag = "积分商城", responses((status = 200, description = "积分订单", body = Envelope<PointsOrder>)))]
async fn redeem(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Form(RedeemForm { number, address_id }): Form<RedeemForm>,
) -> Answer<PointsOrder> {
    let now = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    let item: Redeemable =
        sqlx::query_as("SELECT name, kind, coupon_id, red_packet, points, price, per_member FROM points_goods WHERE id = $1 AND is_on = 1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or_else(|| Error::not_found("积分商品不存在"))?;
    let address = if item.kind == PointsKind::Goods {
        let text = "SELECT contact || ' ' || phone || ' ' || province || city || district || detail FROM addresses WHERE member_id = $1";
        let found: Option<String> = match address_id {
            Some(address) => {
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("{text} AND id = $2")))
                    .bind(member.id)
                    .bind(address)
                    .fetch_optional(&mut *tx)
                    .await?
            }
            None => {
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("{text} ORDER BY is_default DESC, id LIMIT 1")))
                    .bind(member.id)
                    .fetch_optional(&mut *tx)
                    .await?
            }
        };
        found.ok_or_else(|| Error::field("address_id", "请选择收货地址"))?
    } else {
        String::new()
    };
    if item.per_member > 0 {
        let mine: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(number), 0) AS BIGINT) FROM points_orders WHERE points_goods_id = $1 AND member_id = $2",
        )
        .bind(id)
        .bind(member.id)
        .fetch_one(&mut *tx)
        .await?;
        if mine + number > item.per_member {
            return Err(Error::conflict(format!("该商品每人限兑{}件，您已兑换{mine}件", item.per_member)));
        }
    }
    let taken = sqlx::query("UPDATE points_goods SET stock = stock - $1, redeemed = redeemed + $1 WHERE id = $2 AND stock >= $1")
        .bind(number)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Error::conflict("库存不足"));
    }
    let points = item.points.checked_mul(number).ok_or_else(|| Error::field("number", "兑换数量不正确"))?;
    let price = item.price.checked_mul(number).ok_or_else(|| Error::field("number", "兑换数量不正确"))?;
    let order_no = format!("J{now}{}", hex::encode(rand::random::<[u8; 3]>()));
    let note = format!("积分商城兑换 {} ×{number}（{order_no}）", item.name);
    if settlement::move_points(&mut tx, member.id, None, -points, &note, now).await?.is_none() {
        return Err(Error::field("number", "积分不足"));
    }
    if price > 0 && settlement::debit_balance(&mut tx, member.id, price, &note, now).await?.is_none() {
        return Err(Error::field("number", "账户余额不足"));
    }
    match item.kind {
        PointsKind::Coupon => {
            let (days,): (i64,) = sqlx::query_as("SELECT days FROM coupons WHERE id = $1")
                .bind(item.coupon_id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or_else(|| anyhow::anyhow!("points goods {id} names no coupon"))?;
            for _ in 0..number {
                sqlx::query(
                    "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at, source) \
                     VALUES ($1, $2, $3, $4, $5, $4, 'mall')",
                )
                .bind(member.id)
                .bind(item.coupon_id)
                .bind(CouponStatus::Unused)
                .bind(now)
                .bind(now + days * 86_400)
                .execute(&mut *tx)
                .await?;
            }
        }
        PointsKind::RedPacket => {
            let amount = item.red_packet.checked_mul(number).ok_or_else(|| Error::field("number", "兑换数量不正确"))?;
            settlement::move_red_packet(&mut tx, member.id, None, amount, &note, now).await?;
        }
        PointsKind::Goods => {}
    }
    let status = if item.kind == PointsKind::Goods { PointsOrderStatus::ToShip } else { PointsOrderStatus::Done };
    let order: i64 = sqlx::query_scalar(
        "INSERT INTO points_orders (order_no, member_id, points_goods_id, name, kind, number, points, price, status, address, created_at, done_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(&order_no)
    .bind(member.id)
    .bind(id)
    .bind(&item.name)
    .bind(item.kind)
    .bind(number)
    .bind(points)
    .bind(price)
    .bind(status)
    .bind(&address)
    .bind(now)
    .bind((status == PointsOrderStatus::Done).then_some(now))
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    ok_with("兑换成功", order_of(&mut conn, member.id, order).await?)
}

/// One page of the member's points orders.
#[derive(Serialize, ToSchema)]
pub struct PointsOrderPage {
    list: Vec<PointsOrder>,
    total: i64,
    page: i64,
}

/// Which points orders: a page, of a status.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PointsOrderQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 订单状态: 0 待发货, 1 已发货, 2 已完成; absent: all.
    #[param(value_type = Option<i64>)]
    status: i64,
}

impl FromFields for PointsOrderQuery {
    fn from_fields(query: &Fields) -> Result<PointsOrderQuery> {
        let page = query.page()?;
        let status = query.int_or("status", "订单状态", -1)?;
        if status != -1 && PointsOrderStatus::from_code(status).is_none() {
            return Err(Error::field("status", "订单状态不正确"));
        }
        Ok(PointsOrderQuery { page, status })
    }
}

/// `GET /api/points_orders` (`page`, `status` 0–2): the member's points orders, newest first,
/// 10 a page.
#[utoipa::path(get, path = "/api/points_orders", params(PointsOrderQuery), operation_id = "points_order_list", tag = "积分商城", responses((status = 200, description = "一页积分订单", body = Envelope<PointsOrderPage>)))]
async fn orders(State(context): State<ApiContext>, member: Member, Query(query): Query<PointsOrderQuery>) -> Answer<PointsOrderPage> {
    let PointsOrderQuery { page, status } = query;
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM points_orders WHERE member_id = $1 AND ($2 < 0 OR status = $2)")
        .bind(member.id)
        .bind(status)
        .fetch_one(&mut *conn)
        .await?;
    let list: Vec<PointsOrder> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ORDER_COLUMNS} WHERE member_id = $1 AND ($2 < 0 OR status = $2) ORDER BY created_at DESC, id DESC LIMIT 10 OFFSET $3"
    )))
    .bind(member.id)
    .bind(status)
    .bind((page - 1) * 10)
    .fetch_all(&mut *conn)
    .await?;
    ok(PointsOrderPage { list: list.into_iter().map(dressed).collect(), total, page })
}

/// `POST /api/points_orders/{id}/receive`: the member confirms receipt of shipped goods (409
/// otherwise).
#[utoipa::path(post, path = "/api/points_orders/{id}/receive", operation_id = "points_order_receive", tag = "积分商城", responses((status = 200, description = "积分订单", body = Envelope<PointsOrder>)))]
async fn receive(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<PointsOrder> {
    let mut conn = context.db.pool.acquire().await?;
    let changed = sqlx::query("UPDATE points_orders SET status = $1, done_at = $2 WHERE id = $3 AND member_id = $4 AND status = $5")
        .bind(PointsOrderStatus::Done)
        .bind(now())
        .bind(id)
        .bind(member.id)
        .bind(PointsOrderStatus::Shipped)
        .execute(&mut *conn)
        .await?;
    let order = order_of(&mut conn, member.id, id).await?;
    if changed.rows_affected() != 1 {
        return Err(Error::conflict(format!("当前订单状态为{}，不能确认收货", order.status_name)));
    }
    ok_with("已确认收货", order)
}
