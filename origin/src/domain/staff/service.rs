//! Customer service's lists and answers, and the points mall's parcels, for the console and the
//! commands alike: feedback (意见反馈) replied to, wanted varieties (品种求购) answered as sourced
//! or not, points orders (积分订单) shipped. Each write is one transaction with the member's
//! message (the domain's) and the audit row.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::points_mall::{self, PointsOrderStatus};
use crate::domain::self_service::{self, FeedbackKind, FeedbackStatus, WantedStatus};
use crate::domain::{Error, Result, messages};

/// A piece of feedback.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct FeedbackRow {
    pub id: i64,
    pub member_id: i64,
    pub company: String,
    /// 1 功能建议, 2 商品问题, 3 服务投诉, 4 其他.
    #[schema(value_type = i64)]
    pub kind: FeedbackKind,
    pub body: String,
    /// 0 待回复, 1 已回复.
    #[schema(value_type = i64)]
    pub status: FeedbackStatus,
    pub reply: String,
    pub created_at: i64,
}

/// A wanted variety.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct WantedRow {
    pub id: i64,
    pub member_id: i64,
    pub company: String,
    pub name: String,
    pub sccj: String,
    pub ypgg: String,
    pub number: i64,
    pub remark: String,
    /// 0 待处理, 1 已上架, 2 暂无货源.
    #[schema(value_type = i64)]
    pub status: WantedStatus,
    pub reply: String,
    pub created_at: i64,
}

/// A points-mall order.
#[derive(Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct PointsOrderRow {
    pub id: i64,
    pub order_no: String,
    pub member_id: i64,
    pub company: String,
    pub name: String,
    pub number: i64,
    pub points: i64,
    /// 0 待发货, 1 待收货, 2 已完成.
    #[schema(value_type = i64)]
    pub status: PointsOrderStatus,
    pub address: String,
    pub carrier: String,
    pub tracking_no: String,
    pub created_at: i64,
}

/// Feedback, those waiting for a reply first when `open` (only they), else the newest first.
pub async fn feedback(conn: &mut AnyConnection, open: bool) -> Result<Vec<FeedbackRow>> {
    Ok(sqlx::query_as(
        "SELECT f.id, f.member_id, m.company, f.kind, f.body, f.status, f.reply, f.created_at FROM feedback f \
         JOIN members m ON m.id = f.member_id WHERE ($1 = 0 OR f.status = $2) ORDER BY f.id DESC LIMIT 200",
    )
    .bind(i64::from(open))
    .bind(FeedbackStatus::Waiting)
    .fetch_all(&mut *conn)
    .await?)
}

fn checked_reply(reply: &str) -> Result<&str> {
    let reply = reply.trim();
    if reply.is_empty() {
        return Err(Error::field("reply", "请填写回复内容"));
    }
    if reply.chars().count() > 500 {
        return Err(Error::field("reply", "回复内容不能超过500字"));
    }
    Ok(reply)
}

/// Replies to feedback `id`, once (the member reads it beside their feedback).
pub async fn reply_feedback(conn: &mut AnyConnection, actor: &Actor, id: i64, reply: &str, now: i64) -> Result<()> {
    let reply = checked_reply(reply)?;
    let mut tx = begin_write(conn).await?;
    let member = self_service::reply_feedback(&mut tx, id, reply, now).await?;
    let entry = Entry {
        action: "feedback.reply",
        target: format!("feedback:{id}"),
        member: Some(member),
        summary: format!("回复意见反馈 {id}：{reply}"),
        before: json!({ "status": FeedbackStatus::Waiting.name() }),
        after: json!({ "status": FeedbackStatus::Replied.name(), "reply": reply }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(())
}

/// Wanted varieties, only those waiting when `open`, newest first.
pub async fn wanted(conn: &mut AnyConnection, open: bool) -> Result<Vec<WantedRow>> {
    Ok(sqlx::query_as(
        "SELECT w.id, w.member_id, m.company, w.name, w.sccj, w.ypgg, w.number, w.remark, w.status, w.reply, w.created_at \
         FROM wanted_varieties w JOIN members m ON m.id = w.member_id WHERE ($1 = 0 OR w.status = $2) ORDER BY w.id DESC LIMIT 200",
    )
    .bind(i64::from(open))
    .bind(WantedStatus::Waiting)
    .fetch_all(&mut *conn)
    .await?)
}

/// Answers wanted variety `id`: sourced (已上架) or not (暂无货源), with the reply the member reads.
pub async fn answer_wanted(conn: &mut AnyConnection, actor: &Actor, id: i64, status: WantedStatus, reply: &str, now: i64) -> Result<()> {
    if status == WantedStatus::Waiting {
        return Err(Error::field("status", "请选择已上架或暂无货源"));
    }
    let reply = checked_reply(reply)?;
    let mut tx = begin_write(conn).await?;
    let member = self_service::answer_wanted(&mut tx, id, status, reply, now).await?;
    let entry = Entry {
        action: "wanted.reply",
        target: format!("wanted:{id}"),
        member: Some(member),
        summary: format!("答复品种求购 {id}：{}，{reply}", status.name()),
        before: json!({ "status": WantedStatus::Waiting.name() }),
        after: json!({ "status": status.name(), "reply": reply }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(())
}

/// Points orders, only those waiting to be shipped when `pending`, newest first.
pub async fn points_orders(conn: &mut AnyConnection, pending: bool) -> Result<Vec<PointsOrderRow>> {
    Ok(sqlx::query_as(
        "SELECT p.id, p.order_no, p.member_id, m.company, p.name, p.number, p.points, p.status, p.address, p.carrier, p.tracking_no, p.created_at \
         FROM points_orders p JOIN members m ON m.id = p.member_id WHERE ($1 = 0 OR p.status = $2) ORDER BY p.id DESC LIMIT 200",
    )
    .bind(i64::from(pending))
    .bind(PointsOrderStatus::ToShip)
    .fetch_all(&mut *conn)
    .await?)
}

/// Ships points order `id` with its carrier and tracking number; the member is told.
pub async fn ship_points(conn: &mut AnyConnection, actor: &Actor, id: i64, carrier: &str, tracking: &str, now: i64) -> Result<String> {
    let (carrier, tracking) = (carrier.trim(), tracking.trim());
    if carrier.is_empty() {
        return Err(Error::field("carrier", "请填写物流公司"));
    }
    if tracking.is_empty() {
        return Err(Error::field("tracking", "请填写运单号"));
    }
    let mut tx = begin_write(conn).await?;
    let waiting: Option<PointsOrderStatus> =
        sqlx::query_scalar("SELECT status FROM points_orders WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
    match waiting {
        None => return Err(Error::not_found("积分订单不存在")),
        Some(PointsOrderStatus::ToShip) => {}
        Some(status) => return Err(Error::conflict(format!("积分订单{}，不能发货", status.name()))),
    }
    let (member, order_no) = points_mall::ship(&mut tx, id, carrier, tracking, now).await?;
    messages::send(
        &mut tx,
        member,
        messages::MessageKind::Order,
        "积分订单已发货",
        &format!("积分订单 {order_no} 已由{carrier}发出，运单号 {tracking}。"),
    )
    .await?;
    let entry = Entry {
        action: "points_order.ship",
        target: format!("points_order:{id}"),
        member: Some(member),
        summary: format!("积分订单 {order_no} 发货：{carrier} {tracking}"),
        before: json!({ "status": PointsOrderStatus::ToShip.name() }),
        after: json!({ "status": PointsOrderStatus::Shipped.name(), "carrier": carrier, "tracking": tracking }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(order_no)
}
