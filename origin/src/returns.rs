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

use sqlx::AnyConnection;

use crate::money;
use crate::order_life::{self, Actor, DONE, SHIPPED};
use crate::settlement::{self, stored};

pub const REQUESTED: i64 = 0;
pub const APPROVED: i64 = 1;
pub const REJECTED: i64 = 2;
pub const REFUNDED: i64 = 3;
pub const WITHDRAWN: i64 = 4;

pub const STATUS_NAMES: [&str; 5] = ["待审核", "待退货", "已拒绝", "已退款", "已撤销"];
pub const REASON_NAMES: [&str; 7] = ["", "质量问题", "发错货", "商品破损", "效期问题", "不想要了", "其他"];

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

/// One line of a return: the order line and the units sent back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wanted {
    pub item: i64,
    pub number: i64,
}

/// Reads `12:1,13:2` (order line id, units) as the lines of a return.
pub fn parse_lines(text: &str) -> Result<Vec<Wanted>, Refusal> {
    let bad = || Refusal::field("lines", "退货商品格式不正确");
    let mut lines: Vec<Wanted> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|part| !part.is_empty()) {
        let (item, number) = part.split_once(':').ok_or_else(bad)?;
        let item: i64 = item.trim().parse().map_err(|_| bad())?;
        let number: i64 = number.trim().parse().map_err(|_| bad())?;
        if number < 1 {
            return Err(Refusal::field("lines", "退货数量至少为1"));
        }
        if lines.iter().any(|line| line.item == item) {
            return Err(Refusal::field("lines", "同一商品只能填写一次"));
        }
        lines.push(Wanted { item, number });
    }
    if lines.is_empty() {
        return Err(Refusal::field("lines", "请选择要退货的商品"));
    }
    Ok(lines)
}

/// What returning some units refunds, line by line and in all (stored money; points whole).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refund {
    pub lines: Vec<LineRefund>,
    /// To the balance: Σ rule 20 on each line's `paid`.
    pub refund: i64,
    /// Back to the red-packet account: Σ rule 20 on each line's red-packet share.
    pub red_packet: i64,
    /// The money value of the points given back: Σ rule 20 on each line's points share.
    pub points_value: i64,
    /// Points given back.
    pub points_back: i64,
    /// Earned points taken back from the member's account (rule 21).
    pub points_taken: i64,
    /// Earned points due back that the member no longer holds (rule 21).
    pub points_short: i64,
    /// Their value, taken out of `refund` (rule 21).
    pub points_deducted: i64,
    /// The order's cash back (满额返现) it no longer earns, taken out of `refund`.
    pub cashback_taken: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRefund {
    pub item: i64,
    pub number: i64,
    pub refund: i64,
    pub red_packet: i64,
    pub points_value: i64,
}

/// An order as a return reads it.
#[derive(sqlx::FromRow)]
pub struct OrderFacts {
    pub id: i64,
    pub member_id: i64,
    pub order_no: String,
    pub status: i64,
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
            facts.cashback_tiers = crate::cashback::tiers(conn, facts.cashback_activity_id).await?;
            Ok(Some(facts))
        }
        facts => Ok(facts),
    }
}

pub async fn line_facts(conn: &mut AnyConnection, order: i64) -> sqlx::Result<Vec<LineFacts>> {
    sqlx::query_as(
        "SELECT id, name, number, paid, red_packet, points, returned, points_back_value FROM order_items WHERE order_id = $1 ORDER BY id",
    )
    .bind(order)
    .fetch_all(&mut *conn)
    .await
}

/// Whether the order's state allows a return at all; the refusal otherwise.
pub fn returnable(order: &OrderFacts) -> Result<(), Refusal> {
    if order.status != SHIPPED && order.status != DONE {
        let state = order_life::STATUS_NAMES.get(order.status as usize).copied().unwrap_or("未知");
        return Err(Refusal::State(format!("当前订单状态为{state}，不能退货")));
    }
    if order.return_open != 0 {
        return Err(Refusal::State("该订单有退货申请正在处理中".into()));
    }
    Ok(())
}

/// `floor(whole × part / of)`, 0 when `of` is not above 0 (exact, in 128 bits).
fn share(whole: i64, part: i64, of: i64) -> i64 {
    if of <= 0 {
        return 0;
    }
    let value = i128::from(whole) * i128::from(part) / i128::from(of);
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Rule 20 on a stored amount, answered stored.
fn rule20(amount: i64, number: i64, before: i64, k: i64) -> anyhow::Result<i64> {
    let cents = engine::refund(money::from_stored(amount), number, before, k).map_err(|error| anyhow::anyhow!("rule 20: {error}"))?;
    stored(cents)
}

/// Rule 21 through the engine: of the points the order earned, what a refund of `refund` (stored)
/// takes back, the member holding `held` points once the return's spent points are back, and
/// what those no longer held are worth (stored), at `per_yuan` points a yuan.
pub fn points_take_back(order: &OrderFacts, refund: i64, held: i64, per_yuan: i64) -> anyhow::Result<(i64, i64, i64)> {
    let back = engine::points_take_back(
        order.points_earned,
        money::from_stored(order.due),
        money::from_stored(order.refunded),
        money::from_stored(refund),
        held.max(0),
        per_yuan,
    )
    .map_err(|error| anyhow::anyhow!("rule 21, order {}: {error}", order.id))?;
    Ok((back.taken, back.short, stored(back.deducted)?))
}

/// What returning `wanted` of the order's lines refunds now (docs/pricing.md, "Returns"), the
/// member holding `points_held` points now, a point worth `1 / per_yuan` yuan: `Ok(Err(_))`
/// names the first wrong line.
pub fn compute(
    order: &OrderFacts,
    lines: &[LineFacts],
    wanted: &[Wanted],
    points_held: i64,
    per_yuan: i64,
) -> anyhow::Result<Result<Refund, Refusal>> {
    let mut refund = Refund::default();
    for (index, want) in wanted.iter().enumerate() {
        let Some(line) = lines.iter().find(|line| line.id == want.item) else {
            return Ok(Err(Refusal::field(format!("lines[{index}]"), "订单中没有该商品")));
        };
        let left = line.number - line.returned;
        if want.number > left {
            return Ok(Err(Refusal::field(format!("lines[{index}]"), format!("{}最多可退{left}件", line.name))));
        }
        let part = LineRefund {
            item: line.id,
            number: want.number,
            refund: rule20(line.paid, line.number, line.returned, want.number)?,
            red_packet: rule20(line.red_packet, line.number, line.returned, want.number)?,
            points_value: rule20(line.points, line.number, line.returned, want.number)?,
        };
        refund.refund += part.refund;
        refund.red_packet += part.red_packet;
        refund.points_value += part.points_value;
        refund.lines.push(part);
    }
    // Points: what the order's points paid so far and now, as points of the order's own rate.
    let points_before: i64 = lines.iter().map(|line| line.points_back_value).sum();
    let points_after = points_before + refund.points_value;
    refund.points_back =
        share(order.points_used, points_after, order.points_value) - share(order.points_used, points_before, order.points_value);
    // Earned points (rule 21): in proportion to what is refunded of what the order paid (so the
    // points the shipping fee earned, which no return refunds, stay); those the member no longer
    // holds, once this return's spent points are back, come out of the refund.
    let held = points_held.max(0).saturating_add(refund.points_back);
    (refund.points_taken, refund.points_short, refund.points_deducted) = points_take_back(order, refund.refund, held, per_yuan)?;
    let refunded_after = order.refunded + refund.refund;
    // Cash back: what the order holds above the tier its goods reach once this is refunded.
    let goods_after = lines.iter().map(|line| line.paid).sum::<i64>() - refunded_after;
    refund.cashback_taken = crate::cashback::taken_back(order.cashback, &order.cashback_tiers, goods_after, refund.refund);
    Ok(Ok(refund))
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
    pub status: i64,
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
    pub reason: i64,
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
            .bind(SHIPPED)
            .bind(DONE)
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
    .bind(REQUESTED)
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
        sqlx::query(
            "INSERT INTO return_lines (return_id, order_item_id, number, refund, red_packet, points_value) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(line.item)
        .bind(line.number)
        .bind(line.refund)
        .bind(line.red_packet)
        .bind(line.points_value)
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
    fn from(self) -> &'static [i64] {
        match self {
            Step::Withdraw | Step::Approve => &[REQUESTED],
            Step::Reject => &[REQUESTED, APPROVED],
            Step::Receive => &[APPROVED],
        }
    }

    fn to(self) -> i64 {
        match self {
            Step::Withdraw => WITHDRAWN,
            Step::Approve => APPROVED,
            Step::Reject => REJECTED,
            Step::Receive => REFUNDED,
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
    pub fn refusal(self, status: i64) -> String {
        let state = STATUS_NAMES.get(status as usize).copied().unwrap_or("未知");
        format!("退货单状态为{state}，不能{}", self.verb())
    }
}

/// What a receive paid: the refund and the accounts' movements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paid {
    pub refund: i64,
    pub red_packet: i64,
    pub points_back: i64,
    pub points_taken: i64,
    /// The value of the earned points the member no longer held, taken out of the refund.
    pub points_deducted: i64,
    pub cashback_taken: i64,
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
        Step::Receive => paid = refund(conn, &order, &current, now).await?,
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

/// Pays a received return: counts its units on their lines, credits the balance and the
/// red-packet account, gives back points and takes back earned ones (those the member no longer
/// holds out of the refund, rule 21), and frees the order for another return.
async fn refund(conn: &mut AnyConnection, order: &OrderFacts, current: &ReturnRow, now: i64) -> anyhow::Result<Paid> {
    let lines: Vec<(i64, i64, i64, i64, i64)> =
        sqlx::query_as("SELECT order_item_id, number, refund, red_packet, points_value FROM return_lines WHERE return_id = $1 ORDER BY id")
            .bind(current.id)
            .fetch_all(&mut *conn)
            .await?;
    for (item, number, refund, red_packet, points_value) in lines {
        let counted = sqlx::query(
            "UPDATE order_items SET returned = returned + $1, refunded = refunded + $2, red_packet_back = red_packet_back + $3, \
             points_back_value = points_back_value + $4 WHERE id = $5 AND order_id = $6 AND returned + $1 <= number",
        )
        .bind(number)
        .bind(refund)
        .bind(red_packet)
        .bind(points_value)
        .bind(item)
        .bind(order.id)
        .execute(&mut *conn)
        .await?;
        anyhow::ensure!(counted.rows_affected() == 1, "return {}: line {item} would pass the units bought", current.id);
    }
    sqlx::query("UPDATE orders SET refunded = refunded + $1, return_open = 0 WHERE id = $2")
        .bind(current.refund)
        .bind(order.id)
        .execute(&mut *conn)
        .await?;
    let member = current.member_id;
    let note = format!("订单{}退货{}", order.order_no, current.return_no);
    if current.refund > 0 {
        settlement::credit_balance(conn, member, Some(order.id), current.refund, &format!("{note}退款"), now).await?;
    }
    if current.red_packet > 0 {
        settlement::move_red_packet(conn, member, Some(order.id), current.red_packet, &format!("{note}退回红包"), now).await?;
    }
    if current.points_back > 0 {
        settlement::move_points(conn, member, Some(order.id), current.points_back, &format!("{note}退回积分"), now).await?;
    }
    // Cash back the order no longer earns comes out of this refund (the refund was credited
    // whole just above, so the balance covers it).
    let cashback_taken = crate::cashback::take_back(conn, order.id, current.refund).await?;
    if cashback_taken > 0 {
        let debited = settlement::debit_balance(conn, member, cashback_taken, &format!("{note}扣回满额返现"), now).await?;
        anyhow::ensure!(debited.is_some(), "return {}: the balance does not cover the cash back taken back", current.id);
    }
    // Earned points (rule 21): taken from what the member holds now (this return's spent points
    // back included); those spent since come out of the refund, within what is left of it.
    let held: i64 = sqlx::query_scalar("SELECT points FROM members WHERE id = $1").bind(member).fetch_one(&mut *conn).await?;
    let per_yuan = settlement::settings(conn).await?.points_per_yuan;
    let (taken, short, deducted) = points_take_back(order, current.refund, held, per_yuan)?;
    if taken > 0 {
        settlement::move_points(conn, member, Some(order.id), -taken, &format!("{note}扣回赠送积分"), now).await?;
    }
    let deducted = deducted.min(current.refund - cashback_taken).max(0);
    if deducted > 0 {
        let debited = settlement::debit_balance(conn, member, deducted, &format!("{note}扣回已使用的赠送积分{short}"), now).await?;
        anyhow::ensure!(debited.is_some(), "return {}: the balance does not cover the used points taken back", current.id);
    }
    sqlx::query("UPDATE returns SET points_taken = $1, points_short = $2, points_deducted = $3, cashback_taken = $4 WHERE id = $5")
        .bind(taken)
        .bind(short)
        .bind(deducted)
        .bind(cashback_taken)
        .bind(current.id)
        .execute(&mut *conn)
        .await?;
    Ok(Paid {
        refund: current.refund,
        red_packet: current.red_packet,
        points_back: current.points_back,
        points_taken: taken,
        points_deducted: deducted,
        cashback_taken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(points_used: i64, points_value: i64, points_earned: i64, refunded: i64, due: i64) -> OrderFacts {
        OrderFacts {
            id: 1,
            member_id: 1,
            order_no: "D1".into(),
            status: DONE,
            points_used,
            points_value,
            points_earned,
            due,
            return_open: 0,
            refunded,
            cashback: 0,
            cashback_activity_id: 0,
            cashback_tiers: Vec::new(),
        }
    }

    /// Points held: more than any of these orders earned.
    const PLENTY: i64 = 1_000_000;

    fn line(id: i64, number: i64, paid: i64, red_packet: i64, points: i64) -> LineFacts {
        LineFacts { id, name: format!("goods {id}"), number, paid, red_packet, points, returned: 0, points_back_value: 0 }
    }

    /// A return that leaves the order below its cash-back tier takes the difference out of its
    /// refund; one that keeps the tier takes nothing.
    #[test]
    fn cash_back_the_order_no_longer_earns_comes_out_of_the_refund() {
        // Two lines of 600.00 and 500.00 paid; 满1000返20 held.
        let mut order = order(0, 0, 0, 0, 11_000_000);
        order.cashback = 200_000;
        order.cashback_tiers = vec![(10_000_000, 200_000)];
        let lines = vec![line(1, 10, 6_000_000, 0, 0), line(2, 10, 5_000_000, 0, 0)];
        let kept = compute(&order, &lines, &[Wanted { item: 2, number: 2 }], PLENTY, 100).unwrap().unwrap();
        assert_eq!((kept.refund, kept.cashback_taken), (1_000_000, 0), "1000.00 left: the tier holds");
        let below = compute(&order, &lines, &[Wanted { item: 2, number: 3 }], PLENTY, 100).unwrap().unwrap();
        assert_eq!((below.refund, below.cashback_taken), (1_500_000, 200_000), "950.00 left: the 20.00 goes back");
    }

    /// Returning three units one by one refunds exactly what the line paid, and gives back
    /// exactly its red packets, all the points spent and takes back all the points earned.
    #[test]
    fn one_by_one_adds_up_to_the_whole() {
        // 10.00 paid, 0.05 of red packets, 0.07 of points (7 points), 9 points earned.
        let mut order = order(7, 700, 9, 0, 100_000);
        let mut lines = vec![line(1, 3, 100_000, 500, 700)];
        let mut total = Paid::default();
        for _ in 0..3 {
            let refund = compute(&order, &lines, &[Wanted { item: 1, number: 1 }], PLENTY, 100).unwrap().unwrap();
            total.refund += refund.refund;
            total.red_packet += refund.red_packet;
            total.points_back += refund.points_back;
            total.points_taken += refund.points_taken;
            lines[0].returned += 1;
            lines[0].points_back_value += refund.points_value;
            order.refunded += refund.refund;
        }
        assert_eq!(
            total,
            Paid { refund: 100_000, red_packet: 500, points_back: 7, points_taken: 9, points_deducted: 0, cashback_taken: 0 }
        );
        let more = compute(&order, &lines, &[Wanted { item: 1, number: 1 }], PLENTY, 100).unwrap();
        assert_eq!(more, Err(Refusal::field("lines[0]", "goods 1最多可退0件")));
    }

    /// The points a shipping fee earned stay: 94 points earned on 84.00 of goods and 10.00 of
    /// shipping, a unit of 28.00 returned takes back 28 of them, everything back takes 84.
    #[test]
    fn the_shipping_fees_points_stay() {
        let order = order(0, 0, 94, 0, 940_000);
        let lines = vec![line(1, 3, 840_000, 0, 0)];
        let one = compute(&order, &lines, &[Wanted { item: 1, number: 1 }], PLENTY, 100).unwrap().unwrap();
        assert_eq!((one.refund, one.points_taken), (280_000, 28));
        let all = compute(&order, &lines, &[Wanted { item: 1, number: 3 }], PLENTY, 100).unwrap().unwrap();
        assert_eq!(all.points_taken, 84);
    }

    /// Earned points spent since come out of the refund at the points' value (rule 21): 1,000
    /// points earned on 1,000.00, all spent, the whole order back: 10.00 deducted at 100 a
    /// yuan; 400 still held: those taken, 6.00 deducted; the points the return gives back count
    /// as held.
    #[test]
    fn earned_points_spent_come_out_of_the_refund() {
        let whole = order(0, 0, 1_000, 0, 10_000_000);
        let lines = vec![line(1, 10, 10_000_000, 0, 0)];
        let all = [Wanted { item: 1, number: 10 }];
        let none = compute(&whole, &lines, &all, 0, 100).unwrap().unwrap();
        assert_eq!((none.refund, none.points_taken, none.points_short, none.points_deducted), (10_000_000, 0, 1_000, 100_000));
        let some = compute(&whole, &lines, &all, 400, 100).unwrap().unwrap();
        assert_eq!((some.points_taken, some.points_short, some.points_deducted), (400, 600, 60_000));
        // 1,000.00 of goods, 300 points (3.00) spent on them, 997.00 paid and 997 points
        // earned: the 300 points come back with the return and count as held.
        let spent = order(300, 30_000, 997, 0, 9_970_000);
        let lines = vec![line(1, 10, 9_970_000, 0, 30_000)];
        let back = compute(&spent, &lines, &all, 0, 100).unwrap().unwrap();
        assert_eq!((back.points_back, back.points_taken, back.points_short, back.points_deducted), (300, 300, 697, 69_700));
    }

    #[test]
    fn the_first_unit_of_three_refunds_a_third_cut_to_the_cent() {
        let order = order(0, 0, 0, 0, 100_000);
        let lines = vec![line(1, 3, 100_000, 0, 0)];
        let refund = compute(&order, &lines, &[Wanted { item: 1, number: 1 }], PLENTY, 100).unwrap().unwrap();
        assert_eq!((refund.refund, refund.points_back, refund.points_taken), (33_300, 0, 0));
    }

    #[test]
    fn lines_are_read_and_refused_in_chinese() {
        assert_eq!(parse_lines("12:1, 13:2").unwrap(), vec![Wanted { item: 12, number: 1 }, Wanted { item: 13, number: 2 }]);
        assert_eq!(parse_lines(""), Err(Refusal::field("lines", "请选择要退货的商品")));
        assert_eq!(parse_lines("12:0"), Err(Refusal::field("lines", "退货数量至少为1")));
        assert_eq!(parse_lines("12:1,12:2"), Err(Refusal::field("lines", "同一商品只能填写一次")));
        assert_eq!(parse_lines("x"), Err(Refusal::field("lines", "退货商品格式不正确")));
        let order = order(0, 0, 0, 0, 100_000);
        let wrong = compute(&order, &[line(1, 3, 100_000, 0, 0)], &[Wanted { item: 2, number: 1 }], PLENTY, 100).unwrap();
        assert_eq!(wrong, Err(Refusal::field("lines[0]", "订单中没有该商品")));
    }

    #[test]
    fn steps_leave_their_states_only() {
        assert_eq!(Step::Approve.refusal(REFUNDED), "退货单状态为已退款，不能同意");
        assert_eq!(Step::Receive.from(), &[APPROVED]);
        assert_eq!(Step::Reject.from(), &[REQUESTED, APPROVED]);
    }
}
