//! The lucky draw (抽奖, §4, §7): the current activity and whether the member has joined it (the
//! popup's check), its prizes and rules, the latest winners, the member's own records, and the
//! draw itself. The server decides every draw: one transaction holds the member's row, refuses a
//! second draw in the activity (and a unique key backs that), picks a prize by weight among those
//! with stock left, takes it with a guarded update (`… WHERE handed < stock`, so a prize is never
//! handed out past its stock), and lands it in the member's accounts: a coupon in the wallet,
//! points or red packets with their log rows. When no prize with stock is left, the draw answers
//! the activity's 谢谢参与.

use axum::extract::{Path, State};
use rand::Rng;
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, MaybeMember, Member, Query};
use crate::domain::promotions::{CouponStatus, PrizeKind};
use crate::domain::settlement;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(simple))
        .routes(routes!(activity, draw))
        .routes(routes!(details))
        .routes(routes!(new_records))
        .routes(routes!(records))
        .routes(routes!(ads))
}

#[derive(sqlx::FromRow)]
struct ActivityRow {
    id: i64,
    title: String,
    description: String,
    starts_at: i64,
    ends_at: i64,
}

/// The activity running now (the newest when several are), if any.
async fn current(conn: &mut AnyConnection, now: i64) -> sqlx::Result<Option<ActivityRow>> {
    sqlx::query_as(
        "SELECT id, title, description, starts_at, ends_at FROM draw_activities \
         WHERE is_on = 1 AND starts_at <= $1 AND $1 < ends_at ORDER BY starts_at DESC, id DESC LIMIT 1",
    )
    .bind(now)
    .fetch_optional(&mut *conn)
    .await
}

async fn joined(conn: &mut AnyConnection, activity: i64, member: i64) -> sqlx::Result<bool> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM draw_records WHERE activity_id = $1 AND member_id = $2")
        .bind(activity)
        .bind(member)
        .fetch_one(&mut *conn)
        .await?;
    Ok(count > 0)
}

/// The popup's check.
#[derive(Serialize, ToSchema)]
pub struct DrawCheck {
    /// The activity running now; `null` when none is (or for a visitor).
    #[schema(required = true)]
    id: Option<i64>,
    title: String,
    /// 1 when the member has drawn in it, 0 when not: the popup shows only for 0.
    is_join: i64,
}

/// `GET /api/draw/simple`: the activity running now and whether the member has joined it.
#[utoipa::path(get, path = "/api/draw/simple", tag = "抽奖", responses((status = 200, description = "抽奖检查", body = Envelope<DrawCheck>)))]
async fn simple(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<DrawCheck> {
    let mut conn = context.db.pool.acquire().await?;
    let (Some(member), Some(activity)) = (member, current(&mut conn, now()).await?) else {
        return ok(DrawCheck { id: None, title: String::new(), is_join: 1 });
    };
    let is_join = i64::from(joined(&mut conn, activity.id, member.id).await?);
    ok(DrawCheck { id: Some(activity.id), title: activity.title, is_join })
}

/// A prize as the popup shows it.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct DrawPrize {
    id: i64,
    name: String,
    remarks: String,
    /// 0 nothing, 1 a coupon, 2 points, 3 red packets.
    #[schema(value_type = i64)]
    kind: PrizeKind,
    /// Handed out so far, and how many can be (0 for nothing: no limit).
    handed: i64,
    stock: i64,
}

/// An activity with its prizes.
#[derive(Serialize, ToSchema)]
pub struct DrawActivity {
    id: i64,
    title: String,
    description: String,
    starts_at: i64,
    ends_at: i64,
    prizes: Vec<DrawPrize>,
    /// 1 when the member has drawn in it (always 1 for a visitor, who cannot draw).
    is_join: i64,
}

async fn activity_of(conn: &mut AnyConnection, member: Option<i64>, id: i64) -> Result<DrawActivity> {
    let row: ActivityRow =
        sqlx::query_as("SELECT id, title, description, starts_at, ends_at FROM draw_activities WHERE id = $1 AND is_on = 1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::not_found("抽奖活动不存在"))?;
    let prizes: Vec<DrawPrize> =
        sqlx::query_as("SELECT id, name, remarks, kind, handed, stock FROM draw_prizes WHERE activity_id = $1 ORDER BY sort, id")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    let is_join = match member {
        Some(member) => i64::from(joined(conn, id, member).await?),
        None => 1,
    };
    Ok(DrawActivity {
        id: row.id,
        title: row.title,
        description: row.description,
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        prizes,
        is_join,
    })
}

/// Which lucky-draw activity (a query, or the draw's form).
#[derive(ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DrawId {
    /// The activity.
    id: i64,
}

impl FromFields for DrawId {
    fn from_fields(fields: &Fields) -> Result<DrawId> {
        Ok(DrawId { id: fields.int("id", "活动")?.ok_or_else(|| Error::field("id", "请选择抽奖活动"))? })
    }
}

/// `GET /api/draw` (`id`): the activity with its prizes, as the popup shows them.
#[utoipa::path(get, path = "/api/draw", params(DrawId), operation_id = "draw_activity", tag = "抽奖", responses((status = 200, description = "抽奖活动", body = Envelope<DrawActivity>)))]
async fn activity(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    Query(DrawId { id }): Query<DrawId>,
) -> Answer<DrawActivity> {
    let mut conn = context.db.pool.acquire().await?;
    ok(activity_of(&mut conn, member.map(|member| member.id), id).await?)
}

/// `GET /api/draw/{id}/activity`: the same, by path (the activity's page).
#[utoipa::path(get, path = "/api/draw/{id}/activity", tag = "抽奖", responses((status = 200, description = "抽奖活动", body = Envelope<DrawActivity>)))]
async fn details(State(context): State<ApiContext>, MaybeMember(member): MaybeMember, Path(id): Path<i64>) -> Answer<DrawActivity> {
    let mut conn = context.db.pool.acquire().await?;
    ok(activity_of(&mut conn, member.map(|member| member.id), id).await?)
}

/// What a draw gave.
#[derive(Serialize, ToSchema)]
pub struct DrawResult {
    /// The record's id.
    id: i64,
    activity_id: i64,
    prize_id: i64,
    #[schema(example = "200积分")]
    name: String,
    #[schema(example = "积分已到账")]
    remarks: String,
    #[schema(value_type = i64)]
    kind: PrizeKind,
    created_at: i64,
}

#[derive(sqlx::FromRow, Clone)]
struct PrizeRow {
    id: i64,
    name: String,
    remarks: String,
    kind: PrizeKind,
    coupon_id: Option<i64>,
    points: i64,
    red_packet: i64,
    weight: i64,
    stock: i64,
    handed: i64,
}

/// Picks one of `prizes` by weight, with `roll` in `0..Σ weight`.
fn pick(prizes: &[PrizeRow], mut roll: i64) -> Option<usize> {
    for (index, prize) in prizes.iter().enumerate() {
        if roll < prize.weight {
            return Some(index);
        }
        roll -= prize.weight;
    }
    None
}

/// `POST /api/draw` (`id` the activity): draws once in a running activity; 409 `您已参与过本次抽奖`
/// for a second draw, `抽奖活动未开始或已结束` outside its dates.
#[utoipa::path(post, path = "/api/draw", request_body(content = DrawId, content_type = "application/x-www-form-urlencoded"), operation_id = "draw_once", tag = "抽奖", responses((status = 200, description = "抽奖结果", body = Envelope<DrawResult>)))]
async fn draw(State(context): State<ApiContext>, member: Member, Form(DrawId { id }): Form<DrawId>) -> Answer<DrawResult> {
    let now = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    let live: Option<(i64, i64)> = sqlx::query_as("SELECT starts_at, ends_at FROM draw_activities WHERE id = $1 AND is_on = 1")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    match live {
        None => return Err(Error::not_found("抽奖活动不存在")),
        Some((starts_at, ends_at)) if now < starts_at || now >= ends_at => return Err(Error::conflict("抽奖活动未开始或已结束")),
        Some(_) => {}
    }
    if joined(&mut tx, id, member.id).await? {
        return Err(Error::conflict("您已参与过本次抽奖"));
    }
    let prizes: Vec<PrizeRow> = sqlx::query_as(
        "SELECT id, name, remarks, kind, coupon_id, points, red_packet, weight, stock, handed FROM draw_prizes \
         WHERE activity_id = $1 ORDER BY sort, id",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    let nothing = prizes.iter().find(|prize| prize.kind == PrizeKind::Nothing).cloned();
    let mut left: Vec<PrizeRow> =
        prizes.into_iter().filter(|prize| prize.kind == PrizeKind::Nothing || prize.handed < prize.stock).collect();
    let won = loop {
        let total: i64 = left.iter().map(|prize| prize.weight).sum();
        if total <= 0 {
            break nothing.clone();
        }
        let roll = rand::thread_rng().gen_range(0..total);
        let Some(index) = pick(&left, roll) else { break nothing.clone() };
        let prize = left[index].clone();
        if prize.kind == PrizeKind::Nothing {
            break Some(prize);
        }
        let taken = sqlx::query("UPDATE draw_prizes SET handed = handed + 1 WHERE id = $1 AND handed < stock")
            .bind(prize.id)
            .execute(&mut *tx)
            .await?;
        if taken.rows_affected() == 1 {
            break Some(prize);
        }
        // Its last one went to a draw in between: pick again among the others.
        left.remove(index);
    };
    let prize = won.ok_or_else(|| Error::conflict("奖品已抽完"))?;
    let note = format!("抽奖获得：{}", prize.name);
    match prize.kind {
        PrizeKind::Coupon => {
            let days: i64 = sqlx::query_scalar("SELECT days FROM coupons WHERE id = $1").bind(prize.coupon_id).fetch_one(&mut *tx).await?;
            sqlx::query(
                "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at, source) \
                 VALUES ($1, $2, $3, $4, $5, $4, 'draw')",
            )
            .bind(member.id)
            .bind(prize.coupon_id)
            .bind(CouponStatus::Unused)
            .bind(now)
            .bind(now + days * 86_400)
            .execute(&mut *tx)
            .await?;
        }
        PrizeKind::Points => {
            settlement::move_points(&mut tx, member.id, None, prize.points, &note, now).await?;
        }
        PrizeKind::RedPacket => {
            settlement::move_red_packet(&mut tx, member.id, None, prize.red_packet, &note, now).await?;
        }
        PrizeKind::Nothing => {}
    }
    let record: Option<i64> = sqlx::query_scalar(
        "INSERT INTO draw_records (activity_id, member_id, prize_id, name, remarks, kind, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (activity_id, member_id) DO NOTHING RETURNING id",
    )
    .bind(id)
    .bind(member.id)
    .bind(prize.id)
    .bind(&prize.name)
    .bind(&prize.remarks)
    .bind(prize.kind)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(record) = record else { return Err(Error::conflict("您已参与过本次抽奖")) };
    tx.commit().await?;
    ok_with(
        "抽奖成功",
        DrawResult {
            id: record,
            activity_id: id,
            prize_id: prize.id,
            name: prize.name,
            remarks: prize.remarks,
            kind: prize.kind,
            created_at: now,
        },
    )
}

/// A winner as the scrolling list shows them: the company's name masked.
#[derive(Serialize, ToSchema)]
pub struct Winner {
    #[schema(example = "杭州****公司")]
    company: String,
    name: String,
    created_at: i64,
}

/// The latest winners.
#[derive(Serialize, ToSchema)]
pub struct Winners {
    list: Vec<Winner>,
}

/// A company's name with its middle hidden: its first two and last two characters.
fn masked(company: &str) -> String {
    let chars: Vec<char> = company.chars().collect();
    if chars.len() <= 4 {
        return format!("{}**", chars.first().map(char::to_string).unwrap_or_default());
    }
    format!("{}****{}", chars[..2].iter().collect::<String>(), chars[chars.len() - 2..].iter().collect::<String>())
}

/// `GET /api/draw/new_record` (`id` the activity): its latest 20 winners of a prize (not
/// 谢谢参与), names masked.
#[utoipa::path(get, path = "/api/draw/new_record", params(DrawId), tag = "抽奖", responses((status = 200, description = "最新中奖", body = Envelope<Winners>)))]
async fn new_records(State(context): State<ApiContext>, Query(DrawId { id }): Query<DrawId>) -> Answer<Winners> {
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT m.company, r.name, r.created_at FROM draw_records r JOIN members m ON m.id = r.member_id \
         WHERE r.activity_id = $1 AND r.kind <> $2 ORDER BY r.created_at DESC, r.id DESC LIMIT 20",
    )
    .bind(id)
    .bind(PrizeKind::Nothing)
    .fetch_all(&context.db.pool)
    .await?;
    ok(Winners {
        list: rows.into_iter().map(|(company, name, created_at)| Winner { company: masked(&company), name, created_at }).collect(),
    })
}

/// The member's draws.
#[derive(Serialize, ToSchema)]
pub struct DrawRecords {
    list: Vec<DrawRecord>,
}

#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct DrawRecord {
    id: i64,
    activity_id: i64,
    title: String,
    name: String,
    remarks: String,
    #[schema(value_type = i64)]
    kind: PrizeKind,
    created_at: i64,
}

/// `GET /api/draw/record`: what the member drew, newest first (the member centre's 抽奖记录).
#[utoipa::path(get, path = "/api/draw/record", tag = "抽奖", responses((status = 200, description = "抽奖记录", body = Envelope<DrawRecords>)))]
async fn records(State(context): State<ApiContext>, member: Member) -> Answer<DrawRecords> {
    let list: Vec<DrawRecord> = sqlx::query_as(
        "SELECT r.id, r.activity_id, a.title, r.name, r.remarks, r.kind, r.created_at FROM draw_records r \
         JOIN draw_activities a ON a.id = r.activity_id WHERE r.member_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 50",
    )
    .bind(member.id)
    .fetch_all(&context.db.pool)
    .await?;
    ok(DrawRecords { list })
}

/// An activity as an ad.
#[derive(Serialize, ToSchema)]
pub struct DrawAd {
    id: i64,
    title: String,
    description: String,
    ends_at: i64,
}

/// The running activities, as ads.
#[derive(Serialize, ToSchema)]
pub struct DrawAds {
    list: Vec<DrawAd>,
}

/// `GET /api/draw/ads`: the activities running now, newest first.
#[utoipa::path(get, path = "/api/draw/ads", tag = "抽奖", responses((status = 200, description = "抽奖活动广告", body = Envelope<DrawAds>)))]
async fn ads(State(context): State<ApiContext>) -> Answer<DrawAds> {
    let rows: Vec<ActivityRow> = sqlx::query_as(
        "SELECT id, title, description, starts_at, ends_at FROM draw_activities \
         WHERE is_on = 1 AND starts_at <= $1 AND $1 < ends_at ORDER BY starts_at DESC, id DESC",
    )
    .bind(now())
    .fetch_all(&context.db.pool)
    .await?;
    ok(DrawAds {
        list: rows
            .into_iter()
            .map(|row| DrawAd { id: row.id, title: row.title, description: row.description, ends_at: row.ends_at })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prize(id: i64, weight: i64) -> PrizeRow {
        PrizeRow {
            id,
            name: String::new(),
            remarks: String::new(),
            kind: PrizeKind::Points,
            coupon_id: None,
            points: 0,
            red_packet: 0,
            weight,
            stock: 1,
            handed: 0,
        }
    }

    #[test]
    fn a_roll_falls_on_the_prize_whose_weight_covers_it() {
        let prizes = [prize(1, 3), prize(2, 1), prize(3, 6)];
        let picked: Vec<i64> = (0..10).map(|roll| prizes[pick(&prizes, roll).unwrap()].id).collect();
        assert_eq!(picked, vec![1, 1, 1, 2, 3, 3, 3, 3, 3, 3]);
        assert_eq!(pick(&prizes, 10), None);
    }

    #[test]
    fn company_names_are_masked() {
        assert_eq!(masked("杭州仁心大药房连锁有限公司"), "杭州****公司");
        assert_eq!(masked("药房"), "药**");
    }
}
