//! Returns (退货): what a return of some units refunds, and the one place that moves a return
//! through its states — requested (待审核) → approved (待退货) or rejected (已拒绝) → goods
//! received and refunded (已退款), or withdrawn by the member (已撤销) while still requested.
//!
//! The amounts are docs/pricing.md rule 20, computed by the engine's `refund` on each line's
//! `paid`, on its red-packet share and on its points share; the points given back and the
//! earned points taken back follow those amounts over the whole order ("Returns" in
//! docs/pricing.md). An order has at most one open return (its `return_open`, claimed by a
//! guarded update), so the units returned before a return cannot change between its request and
//! its refund: what the member was shown is what is refunded.

pub mod lots;
mod refund;
#[cfg(test)]
mod tests;

use sqlx::AnyConnection;

use self::refund::refund;
pub use self::refund::{LineRefund, Paid, Refund, compute, points_take_back};
use crate::domain::orders::life as order_life;
use crate::domain::orders::life::{Actor, OrderStatus};
use crate::domain::settlement;
use crate::money;

crate::domain::stored::stored_enum! {
    /// A return's state, as stored in `returns.status`.
    pub enum ReturnStatus {
        /// Requested, waiting for the shop's review.
        Requested = 0 => "待审核",
        /// Approved: the goods may be sent back.
        Approved = 1 => "待退货",
        Rejected = 2 => "已拒绝",
        /// The goods came back and the refund was paid.
        Refunded = 3 => "已退款",
        /// Taken back by the member before the review.
        Withdrawn = 4 => "已撤销",
    }
}

crate::domain::stored::stored_enum! {
    /// Why a return is asked for, as stored in `returns.reason`.
    pub enum ReturnReason {
        Quality = 1 => "质量问题",
        WrongGoods = 2 => "发错货",
        Damaged = 3 => "商品破损",
        /// The goods' expiry date.
        Expiry = 4 => "效期问题",
        Unwanted = 5 => "不想要了",
        /// Said in the description, which it requires.
        Other = 6 => "其他",
    }
}

/// Why a return cannot be requested or moved (the member's message, 409 or 422).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A field of the request is wrong: the field and the message.
    Field(String, String),
    /// The order or return is not in a state that allows it.
    State(String),
}

impl Refusal {
    fn field(field: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal::Field(field.into(), message.into())
    }
}

/// One line of a return: the order line, the units sent back, and the lot they come back
/// from (when the member names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wanted {
    pub item: i64,
    pub number: i64,
    pub lot: Option<i64>,
}

/// Reads `12:1,13:2:345` (order line id, units, and the lot id when named) as the lines of a
/// return.
pub fn parse_lines(text: &str) -> Result<Vec<Wanted>, Refusal> {
    let bad = || Refusal::field("lines", "退货商品格式不正确");
    let mut lines: Vec<Wanted> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|part| !part.is_empty()) {
        let mut fields = part.split(':').map(str::trim);
        let item: i64 = fields.next().and_then(|field| field.parse().ok()).ok_or_else(bad)?;
        let number: i64 = fields.next().and_then(|field| field.parse().ok()).ok_or_else(bad)?;
        let lot: Option<i64> = match fields.next() {
            None | Some("") => None,
            Some(field) => Some(field.parse().map_err(|_| bad())?),
        };
        if fields.next().is_some() {
            return Err(bad());
        }
        if number < 1 {
            return Err(Refusal::field("lines", "退货数量至少为1"));
        }
        if lines.iter().any(|line| line.item == item) {
            return Err(Refusal::field("lines", "同一商品只能填写一次"));
        }
        lines.push(Wanted { item, number, lot });
    }
    if lines.is_empty() {
        return Err(Refusal::field("lines", "请选择要退货的商品"));
    }
    Ok(lines)
}

/// An order as a return reads it.
#[derive(sqlx::FromRow)]
pub struct OrderFacts {
    pub id: i64,
    pub member_id: i64,
    pub order_no: String,
    pub status: OrderStatus,
    pub points_used: i64,
    pub points_value: i64,
    pub points_earned: i64,
    /// What the member paid for the order (goods and shipping fee).
    pub due: i64,
    pub return_open: i64,
    pub refunded: i64,
    /// The cash back (满额返现) the order holds, and its activity's tiers as (amount, back).
    pub cashback: i64,
    pub cashback_activity_id: i64,
    #[sqlx(skip)]
    pub cashback_tiers: Vec<(i64, i64)>,
}

/// One order line as a return reads it.
#[derive(sqlx::FromRow, Clone, Debug)]
pub struct LineFacts {
    pub id: i64,
    pub name: String,
    pub number: i64,
    pub paid: i64,
    pub red_packet: i64,
    pub points: i64,
    pub returned: i64,
    pub points_back_value: i64,
    /// Units shipped so far.
    pub shipped: i64,
}

pub async fn order_facts(conn: &mut AnyConnection, order: i64, member: Option<i64>) -> sqlx::Result<Option<OrderFacts>> {
    let facts: Option<OrderFacts> = sqlx::query_as(
        "SELECT id, member_id, order_no, status, points_used, points_value, points_earned, due, return_open, refunded, \
         cashback, cashback_activity_id FROM orders WHERE id = $1 AND ($2 = 0 OR member_id = $2)",
    )
    .bind(order)
    .bind(member.unwrap_or(0))
    .fetch_optional(&mut *conn)
    .await?;
    match facts {
        Some(mut facts) if facts.cashback > 0 => {
            facts.cashback_tiers = crate::domain::cashback::tiers(conn, facts.cashback_activity_id).await?;
            Ok(Some(facts))
        }
        facts => Ok(facts),
    }
}

pub async fn line_facts(conn: &mut AnyConnection, order: i64) -> sqlx::Result<Vec<LineFacts>> {
    sqlx::query_as(
        "SELECT id, name, number, paid, red_packet, points, returned, points_back_value, shipped FROM order_items WHERE order_id = $1 \
         ORDER BY id",
    )
    .bind(order)
    .fetch_all(&mut *conn)
    .await
}

/// Whether the order's state allows a return at all; the refusal otherwise.
pub fn returnable(order: &OrderFacts) -> Result<(), Refusal> {
    if !matches!(order.status, OrderStatus::Shipped | OrderStatus::Done) {
        return Err(Refusal::State(format!("当前订单状态为{}，不能退货", order.status.name())));
    }
    if order.return_open != 0 {
        return Err(Refusal::State("该订单有退货申请正在处理中".into()));
    }
    Ok(())
}

/// Records a return's step in the order's timeline (the order's state does not change).
async fn record(conn: &mut AnyConnection, order: &OrderFacts, key: &str, actor: Actor, note: &str, now: i64) -> sqlx::Result<()> {
    order_life::record_step(conn, order.id, order.status, key, actor, note, now).await
}

/// A return as stored, for its transitions.
#[derive(sqlx::FromRow)]
pub struct ReturnRow {
    pub id: i64,
    pub return_no: String,
    pub order_id: i64,
    pub member_id: i64,
    pub status: ReturnStatus,
    pub refund: i64,
    pub red_packet: i64,
    pub points_back: i64,
    pub points_taken: i64,
}

pub async fn return_row(conn: &mut AnyConnection, id: i64, member: Option<i64>) -> sqlx::Result<Option<ReturnRow>> {
    sqlx::query_as(
        "SELECT id, return_no, order_id, member_id, status, refund, red_packet, points_back, points_taken FROM returns \
         WHERE id = $1 AND ($2 = 0 OR member_id = $2)",
    )
    .bind(id)
    .bind(member.unwrap_or(0))
    .fetch_optional(&mut *conn)
    .await
}

/// A request, as the member fills it in.
pub struct Request<'a> {
    pub order: i64,
    pub member: i64,
    pub wanted: &'a [Wanted],
    pub reason: ReturnReason,
    pub description: &'a str,
    /// The refund the member was shown, when given: a different one is refused.
    pub expected_refund: Option<i64>,
    /// Photos already stored: name, content type, size.
    pub photos: &'a [(String, &'static str, i64)],
}

/// Requests a return, in the caller's transaction: claims the order's open return (one guarded
/// update, so of two racing requests one wins), computes the refund as things stand then, and
/// stores it. Answers the return's id.
pub async fn request(conn: &mut AnyConnection, request: &Request<'_>, now: i64) -> anyhow::Result<Result<i64, Refusal>> {
    let claimed =
        sqlx::query("UPDATE orders SET return_open = -1 WHERE id = $1 AND member_id = $2 AND return_open = 0 AND status IN ($3, $4)")
            .bind(request.order)
            .bind(request.member)
            .bind(OrderStatus::Shipped)
            .bind(OrderStatus::Done)
            .execute(&mut *conn)
            .await?;
    let Some(order) = order_facts(conn, request.order, Some(request.member)).await? else {
        return Ok(Err(Refusal::State("订单不存在".into())));
    };
    if claimed.rows_affected() != 1 {
        return Ok(Err(returnable(&order).err().unwrap_or_else(|| Refusal::State("该订单有退货申请正在处理中".into()))));
    }
    let lines = line_facts(conn, order.id).await?;
    let held: i64 = sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(order.member_id).fetch_one(&mut *conn).await?;
    let per_yuan = settlement::settings(conn).await?.points_per_yuan;
    let refund = match compute(&order, &lines, request.wanted, held, per_yuan)? {
        Ok(refund) => refund,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let chosen_lots = match lots::resolve(&lines, &lots::line_lots(conn, order.id).await?, request.wanted) {
        Ok(chosen) => chosen,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if request.expected_refund.is_some_and(|expected| expected != refund.refund) {
        return Ok(Err(Refusal::State(format!("退款金额已变为¥{}，请确认后重新提交", money::text(refund.refund)))));
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO returns (return_no, order_id, member_id, reason, description, status, refund, red_packet, points_value, \
         points_back, points_taken, points_short, points_deducted, cashback_taken, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) RETURNING id",
    )
    .bind(format!("T{now}{}", hex::encode(rand::random::<[u8; 3]>())))
    .bind(order.id)
    .bind(request.member)
    .bind(request.reason)
    .bind(request.description)
    .bind(ReturnStatus::Requested)
    .bind(refund.refund)
    .bind(refund.red_packet)
    .bind(refund.points_value)
    .bind(refund.points_back)
    .bind(refund.points_taken)
    .bind(refund.points_short)
    .bind(refund.points_deducted)
    .bind(refund.cashback_taken)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    for line in &refund.lines {
        let lot = request.wanted.iter().zip(&chosen_lots).find(|(want, _)| want.item == line.item).and_then(|(_, lot)| *lot);
        sqlx::query(
            "INSERT INTO return_lines (return_id, order_item_id, number, refund, red_packet, points_value, lot_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(line.item)
        .bind(line.number)
        .bind(line.refund)
        .bind(line.red_packet)
        .bind(line.points_value)
        .bind(lot)
        .execute(&mut *conn)
        .await?;
    }
    for (file_name, file_type, size) in request.photos {
        sqlx::query("INSERT INTO return_photos (return_id, file_name, file_type, file_size) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(file_name)
            .bind(*file_type)
            .bind(*size)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("UPDATE orders SET return_open = $1 WHERE id = $2").bind(id).bind(order.id).execute(&mut *conn).await?;
    let units: i64 = request.wanted.iter().map(|line| line.number).sum();
    let note = format!("{units}件，退款¥{}", money::text(refund.refund));
    record(conn, &order, "return_request", Actor::Member, &note, now).await?;
    Ok(Ok(id))
}

/// What can happen to a return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The member takes back a request not yet reviewed.
    Withdraw,
    /// The shop accepts a request: the goods may be sent back.
    Approve,
    /// The shop refuses a request, or an approved return whose goods never came.
    Reject,
    /// The goods are back: the refund is paid.
    Receive,
}

impl Step {
    fn from(self) -> &'static [ReturnStatus] {
        match self {
            Step::Withdraw | Step::Approve => &[ReturnStatus::Requested],
            Step::Reject => &[ReturnStatus::Requested, ReturnStatus::Approved],
            Step::Receive => &[ReturnStatus::Approved],
        }
    }

    fn to(self) -> ReturnStatus {
        match self {
            Step::Withdraw => ReturnStatus::Withdrawn,
            Step::Approve => ReturnStatus::Approved,
            Step::Reject => ReturnStatus::Rejected,
            Step::Receive => ReturnStatus::Refunded,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Step::Withdraw => "return_withdraw",
            Step::Approve => "return_approve",
            Step::Reject => "return_reject",
            Step::Receive => "return_receive",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Step::Withdraw => "撤销",
            Step::Approve => "同意",
            Step::Reject => "拒绝",
            Step::Receive => "确认收货退款",
        }
    }

    /// The refusal when the return is in `status`.
    pub fn refusal(self, status: ReturnStatus) -> String {
        format!("退货单状态为{}，不能{}", status.name(), self.verb())
    }
}

/// Moves a return by `step` (of `member`, when given), in the caller's transaction: one guarded
/// update of its state, so of two racing steps only one happens; a withdrawn or rejected return
/// frees the order for another; a received one refunds (balance, red packets, points back, earned
/// points taken back, each with its log row) and counts its units as returned, each line guarded
/// never to pass what was bought. `Ok(Err(_))` when the return is not in a state `step` leaves.
pub async fn step(
    conn: &mut AnyConnection,
    id: i64,
    member: Option<i64>,
    step: Step,
    actor: Actor,
    note: &str,
    now: i64,
) -> anyhow::Result<Result<(ReturnRow, Paid), Refusal>> {
    let Some(current) = return_row(conn, id, member).await? else {
        return Ok(Err(Refusal::State("退货单不存在".into())));
    };
    let from = step.from();
    let stamp = match step {
        Step::Approve | Step::Reject => ", reviewed_at = $2",
        Step::Receive => ", refunded_at = $2",
        Step::Withdraw => "",
    };
    let moved = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE returns SET status = $1, updated_at = $2{stamp}, operator_note = CASE WHEN $3 = '' THEN operator_note ELSE $3 END \
         WHERE id = $4 AND status IN ($5, $6)"
    )))
    .bind(step.to())
    .bind(now)
    .bind(note)
    .bind(id)
    .bind(from[0])
    .bind(*from.last().unwrap_or(&from[0]))
    .execute(&mut *conn)
    .await?;
    if moved.rows_affected() != 1 {
        return Ok(Err(Refusal::State(step.refusal(current.status))));
    }
    let order = order_facts(conn, current.order_id, None).await?.ok_or_else(|| anyhow::anyhow!("return {id} without its order"))?;
    let mut paid = Paid::default();
    match step {
        Step::Approve => {}
        Step::Withdraw | Step::Reject => {
            sqlx::query("UPDATE orders SET return_open = 0 WHERE id = $1 AND return_open = $2")
                .bind(order.id)
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
        Step::Receive => {
            paid = refund(conn, &order, &current, now).await?;
            // What it refunded comes off the order's invoice, if one was issued: a red-letter one.
            crate::domain::invoices::red_letter(conn, order.id, id, now).await?;
        }
    }
    let note = match step {
        Step::Receive => {
            let mut parts = vec![format!("退款¥{}至余额", money::text(paid.refund))];
            if paid.red_packet > 0 {
                parts.push(format!("退回红包¥{}", money::text(paid.red_packet)));
            }
            if paid.points_back > 0 {
                parts.push(format!("退回积分{}", paid.points_back));
            }
            if paid.points_taken > 0 {
                parts.push(format!("扣回赠送积分{}", paid.points_taken));
            }
            if paid.points_deducted > 0 {
                parts.push(format!("已使用的赠送积分折合¥{}从退款中扣除", money::text(paid.points_deducted)));
            }
            if paid.cashback_taken > 0 {
                parts.push(format!("扣回满额返现¥{}", money::text(paid.cashback_taken)));
            }
            parts.join("，")
        }
        _ => note.to_owned(),
    };
    record(conn, &order, step.key(), actor, &note, now).await?;
    Ok(Ok((current, paid)))
}
