//! The member centre (会员中心, `/user`) in one call, and the member's messages (我的消息,
//! `/zhzx/wdxx`). A member sees only their own.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::coupon::USABLE_NOW;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, FromFields, Member, Query};
use crate::domain::members::ReviewStatus;
use crate::domain::messages::{self, MessageKind};
use crate::domain::orders::life::OrderStatus;
use crate::domain::promotions::CouponStatus;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(centre)).routes(routes!(messages)).routes(routes!(read_message)).routes(routes!(read_all_messages))
}

/// The member centre: who the member is, what the wallet holds, the orders by state and the
/// latest ones, and the unread messages.
#[derive(Serialize, ToSchema)]
pub struct MemberCentre {
    username: String,
    name: String,
    company: String,
    /// The member's rank (会员等级).
    rank: i64,
    /// 1 when the qualifications were approved.
    is_passed: i64,
    /// The qualifications waiting for review, and those rejected.
    qualifications_pending: i64,
    qualifications_rejected: i64,
    manager: CentreManager,
    /// The store orders go to (a multi-store account), or `null`.
    #[schema(required = true)]
    store: Option<String>,
    #[schema(example = "1000.00")]
    balance: String,
    #[schema(example = "88.00")]
    red_packet: String,
    points: i64,
    /// Coupons and cash vouchers usable now.
    coupons: i64,
    cash_vouchers: i64,
    /// Orders in each state, in the order 待付款, 待发货, 待收货, 已完成, 已取消.
    orders: Vec<OrderCount>,
    /// The five latest orders.
    recent_orders: Vec<RecentOrder>,
    unread_messages: i64,
}

/// The member's account manager.
#[derive(Serialize, ToSchema)]
pub struct CentreManager {
    name: String,
    phone: String,
}

/// How many orders are in one state.
#[derive(Serialize, ToSchema)]
pub struct OrderCount {
    status: i64,
    #[schema(example = "待付款")]
    status_name: &'static str,
    count: i64,
}

/// One of the latest orders.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct RecentOrder {
    id: i64,
    order_no: String,
    status: i64,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    /// What the member pays (paid) for it.
    #[sqlx(skip)]
    #[schema(example = "98.00")]
    due: String,
    #[serde(skip)]
    due_stored: i64,
    /// How many lines it has.
    lines: i64,
    created_at: i64,
}

#[derive(sqlx::FromRow)]
struct CentreRow {
    username: String,
    name: String,
    company: String,
    rank: i64,
    is_passed: i64,
    manager_name: String,
    manager_phone: String,
    balance: i64,
    red_packet: i64,
    points: i64,
}

/// `GET /api/user/center`: the member centre in one answer.
#[utoipa::path(get, path = "/api/user/center", tag = "会员中心", responses((status = 200, description = "会员中心", body = Envelope<MemberCentre>)))]
async fn centre(State(context): State<ApiContext>, member: Member) -> Answer<MemberCentre> {
    let mut conn = context.db.pool.acquire().await?;
    let row: CentreRow = sqlx::query_as(
        "SELECT username, name, company, rank, is_passed, manager_name, manager_phone, balance, red_packet, points \
         FROM members WHERE id = $1",
    )
    .bind(member.id)
    .fetch_one(&mut *conn)
    .await?;
    let (pending, rejected): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(CASE WHEN status = $2 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                CAST(COALESCE(SUM(CASE WHEN status = $3 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM qualifications WHERE member_id = $1",
    )
    .bind(member.id)
    .bind(ReviewStatus::Pending)
    .bind(ReviewStatus::Rejected)
    .fetch_one(&mut *conn)
    .await?;
    let now = now();
    let usable = |table: &str| format!("SELECT COUNT(*) FROM {table} WHERE member_id = $1 AND {USABLE_NOW}");
    let coupons: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(usable("member_coupons")))
        .bind(member.id)
        .bind(CouponStatus::Unused)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?;
    let cash_vouchers: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(usable("member_cash_vouchers")))
        .bind(member.id)
        .bind(CouponStatus::Unused)
        .bind(now)
        .fetch_one(&mut *conn)
        .await?;
    let counted: Vec<(i64, i64)> = sqlx::query_as("SELECT status, COUNT(*) FROM orders WHERE member_id = $1 GROUP BY status")
        .bind(member.id)
        .fetch_all(&mut *conn)
        .await?;
    let orders = OrderStatus::ALL
        .iter()
        .map(|status| OrderCount {
            status: status.code(),
            status_name: status.name(),
            count: counted.iter().find(|(found, _)| *found == status.code()).map_or(0, |(_, count)| *count),
        })
        .collect();
    let mut recent_orders: Vec<RecentOrder> = sqlx::query_as(
        "SELECT o.id, o.order_no, o.status, o.due AS due_stored, o.created_at, \
                (SELECT COUNT(*) FROM order_items i WHERE i.order_id = o.id) AS lines \
         FROM orders o WHERE o.member_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT 5",
    )
    .bind(member.id)
    .fetch_all(&mut *conn)
    .await?;
    for order in &mut recent_orders {
        order.status_name = OrderStatus::from_code(order.status).map_or("", OrderStatus::name);
        order.due = money::text(order.due_stored);
    }
    let store = crate::domain::members::current_store(&mut conn, member.id).await?;
    ok(MemberCentre {
        username: row.username,
        name: row.name,
        company: row.company,
        rank: row.rank,
        is_passed: row.is_passed,
        qualifications_pending: pending,
        qualifications_rejected: rejected,
        manager: CentreManager { name: row.manager_name, phone: row.manager_phone },
        store,
        balance: money::text(row.balance),
        red_packet: money::text(row.red_packet),
        points: row.points,
        coupons,
        cash_vouchers,
        orders,
        recent_orders,
        unread_messages: messages::unread(&mut conn, member.id).await?,
    })
}

/// One of the member's messages.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Message {
    id: i64,
    /// 1 system, 2 order, 3 wallet, 4 qualification.
    #[schema(value_type = i64)]
    kind: MessageKind,
    #[sqlx(skip)]
    #[schema(value_type = String, example = "订单消息")]
    kind_name: &'static str,
    title: String,
    body: String,
    /// When it was read; `null` while unread.
    #[schema(required = true)]
    read_at: Option<i64>,
    created_at: i64,
}

/// One page of the member's messages, and how many are unread.
#[derive(Serialize, ToSchema)]
pub struct MessagePage {
    list: Vec<Message>,
    total: i64,
    page: i64,
    unread: i64,
}

/// Which messages: a page, of a kind, the unread only.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MessageQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
    /// 消息类型; 0 (absent) every one.
    #[param(value_type = Option<i64>)]
    kind: i64,
    /// 1: the unread only.
    #[param(value_type = Option<i64>)]
    unread: bool,
}

impl FromFields for MessageQuery {
    fn from_fields(query: &Fields) -> Result<MessageQuery> {
        let page = query.page()?;
        let kind = query.int_or("kind", "消息类型", 0)?;
        if kind != 0 && MessageKind::from_code(kind).is_none() {
            return Err(Error::field("kind", "消息类型不正确"));
        }
        let unread_only = query.int_or("unread", "未读", 0)? == 1;
        Ok(MessageQuery { page, kind, unread: unread_only })
    }
}

/// `GET /api/user/message` (`page`, `kind` 0 every one, `unread` 1 for the unread only): the
/// member's messages, newest first, 20 a page.
#[utoipa::path(get, path = "/api/user/message", params(MessageQuery), tag = "会员中心", responses((status = 200, description = "一页消息", body = Envelope<MessagePage>)))]
async fn messages(State(context): State<ApiContext>, member: Member, Query(query): Query<MessageQuery>) -> Answer<MessagePage> {
    let MessageQuery { page, kind, unread: unread_only } = query;
    let filter = format!("member_id = $1 AND ($2 = 0 OR kind = $2){}", if unread_only { " AND read_at IS NULL" } else { "" });
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM messages WHERE {filter}")))
        .bind(member.id)
        .bind(kind)
        .fetch_one(&mut *conn)
        .await?;
    let mut list: Vec<Message> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, kind, title, body, read_at, created_at FROM messages WHERE {filter} \
         ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET $3"
    )))
    .bind(member.id)
    .bind(kind)
    .bind((page - 1) * 20)
    .fetch_all(&mut *conn)
    .await?;
    for message in &mut list {
        message.kind_name = message.kind.name();
    }
    ok(MessagePage { list, total, page, unread: messages::unread(&mut conn, member.id).await? })
}

/// What is left unread.
#[derive(Serialize, ToSchema)]
pub struct Unread {
    unread: i64,
}

/// `POST /api/user/message/{id}/read`: marks one of the member's messages read.
#[utoipa::path(post, path = "/api/user/message/{id}/read", tag = "会员中心", responses((status = 200, description = "未读消息数", body = Envelope<Unread>)))]
async fn read_message(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<Unread> {
    let mut conn = context.db.pool.acquire().await?;
    let found = sqlx::query("UPDATE messages SET read_at = COALESCE(read_at, $1) WHERE id = $2 AND member_id = $3")
        .bind(now())
        .bind(id)
        .bind(member.id)
        .execute(&mut *conn)
        .await?;
    if found.rows_affected() == 0 {
        return Err(Error::not_found("消息不存在"));
    }
    ok(Unread { unread: messages::unread(&mut conn, member.id).await? })
}

/// `POST /api/user/message/read_all`: marks every message of the member's read.
#[utoipa::path(post, path = "/api/user/message/read_all", tag = "会员中心", responses((status = 200, description = "未读消息数", body = Envelope<Unread>)))]
async fn read_all_messages(State(context): State<ApiContext>, member: Member) -> Answer<Unread> {
    let mut conn = context.db.pool.acquire().await?;
    sqlx::query("UPDATE messages SET read_at = $1 WHERE member_id = $2 AND read_at IS NULL")
        .bind(now())
        .bind(member.id)
        .execute(&mut *conn)
        .await?;
    ok(Unread { unread: 0 })
}
