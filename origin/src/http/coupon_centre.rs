//! The coupon centre (领券中心, `/lqzx`): coupon templates the shop hands out, each with how
//! many it hands out in all and at most to one member. Claiming is one transaction that holds
//! the member's row first (so one member's claims run one after another and the limit holds),
//! then takes one coupon from the template with a guarded update (`… WHERE centre_claimed <
//! centre_stock`), so never more are claimed than issued, however many members race; the
//! coupon lands in the member's wallet at once, valid for the template's days.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{MaybeMember, Member};
use crate::domain::promotions::{CouponKind, CouponScope, CouponStatus};
use crate::money::{self, Stored};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(centre)).routes(routes!(claim))
}

/// Where a member's coupon came from (`member_coupons.source`).
pub const FROM_CENTRE: &str = "centre";

/// A coupon template in the centre, with what the member may still claim.
#[derive(Serialize, ToSchema)]
pub struct CentreCoupon {
    /// The template's id (what a claim names).
    id: i64,
    title: String,
    /// 1 满减, 2 折扣.
    kind: i64,
    #[schema(value_type = String, example = "满减券")]
    kind_name: &'static str,
    scope: i64,
    #[schema(value_type = String, example = "全场通用")]
    scope_name: &'static str,
    /// Kind 1: what it takes off.
    #[schema(example = "40.00")]
    reduce: String,
    /// Kind 2: the share paid (`0.95` is 95折).
    #[schema(required = true, example = "0.95")]
    rate: Option<String>,
    #[schema(required = true)]
    max_reduce: Option<String>,
    #[schema(example = "800.00")]
    min_amount: String,
    /// Days a claimed coupon stays valid.
    days: i64,
    /// Handed out in all, claimed so far, and left.
    stock: i64,
    claimed: i64,
    left: i64,
    per_member: i64,
    /// How many the member has claimed here (0 for a visitor).
    mine: i64,
    /// `claim` (立即领取), `claimed` (已领取: the member's limit is reached) or `gone` (已抢光).
    state: String,
}

#[derive(sqlx::FromRow)]
struct CentreRow {
    id: i64,
    title: String,
    kind: CouponKind,
    scope: CouponScope,
    amount: i64,
    rate: Stored,
    max_reduce: Option<i64>,
    min_amount: i64,
    days: i64,
    centre_stock: i64,
    centre_claimed: i64,
    per_member: i64,
    mine: i64,
}

impl CentreRow {
    fn card(self) -> Result<CentreCoupon> {
        let kind = self.kind;
        let discount = kind == CouponKind::Discount;
        let left = (self.centre_stock - self.centre_claimed).max(0);
        let state = if self.mine >= self.per_member {
            "claimed"
        } else if left == 0 {
            "gone"
        } else {
            "claim"
        };
        Ok(CentreCoupon {
            id: self.id,
            title: self.title,
            kind: kind.code(),
            kind_name: kind.name(),
            scope: self.scope.code(),
            scope_name: self.scope.name(),
            reduce: money::text(if kind == CouponKind::Reduce { self.amount } else { 0 }),
            rate: if discount { Some(self.rate.money()?.to_string()) } else { None },
            max_reduce: if discount { self.max_reduce.map(money::text) } else { None },
            min_amount: money::text(self.min_amount),
            days: self.days,
            stock: self.centre_stock,
            claimed: self.centre_claimed,
            left,
            per_member: self.per_member,
            mine: self.mine,
            state: state.to_owned(),
        })
    }
}

const CENTRE_COLUMNS: &str = "c.id, c.title, c.kind, c.scope, c.amount, c.rate, c.max_reduce, c.min_amount, c.days, c.centre_stock, \
     c.centre_claimed, c.per_member, \
     (SELECT COUNT(*) FROM member_coupons m WHERE m.coupon_id = c.id AND m.member_id = $1 AND m.source = 'centre') AS mine \
     FROM coupons c WHERE c.centre_stock > 0";

async fn one(conn: &mut AnyConnection, member: i64, id: i64) -> Result<CentreCoupon> {
    let row: CentreRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {CENTRE_COLUMNS} AND c.id = $2")))
        .bind(member)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("优惠券不存在"))?;
    row.card()
}

/// The centre's coupons.
#[derive(Serialize, ToSchema)]
pub struct CouponCentre {
    list: Vec<CentreCoupon>,
}

/// `GET /api/coupon/centre`: the coupons the centre hands out, in the shop's order, each with
/// how many are left and, for a logged-in member, how many they claimed and whether they may
/// claim another.
#[utoipa::path(get, path = "/api/coupon/centre", operation_id = "coupon_centre", tag = "领券中心", responses((status = 200, description = "领券中心的优惠券", body = Envelope<CouponCentre>)))]
async fn centre(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<CouponCentre> {
    let rows: Vec<CentreRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {CENTRE_COLUMNS} ORDER BY c.sort, c.id")))
        .bind(member.map_or(0, |member| member.id))
        .fetch_all(&context.db.pool)
        .await?;
    ok(CouponCentre { list: rows.into_iter().map(CentreRow::card).collect::<Result<_>>()? })
}

/// A claim's result: the template as it stands now and the member's new coupon.
#[derive(Serialize, ToSchema)]
pub struct Claimed {
    coupon: CentreCoupon,
    /// The member's new coupon (what `coupon_id` names at checkout).
    member_coupon_id: i64,
    expires_at: i64,
}

/// `POST /api/coupon/{id}/claim`: claims one coupon of a template in the centre into the
/// member's wallet; 409 `优惠券已被领完` when none is left, `您已领取过该优惠券` at the member's limit.
#[utoipa::path(post, path = "/api/coupon/{id}/claim", operation_id = "coupon_claim", tag = "领券中心", responses((status = 200, description = "领到的优惠券", body = Envelope<Claimed>)))]
async fn claim(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<Claimed> {
    let now = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    // The member's row first: their claims run one after another (on SQLite this takes the
    // write lock), so the count below cannot change before the insert.
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    let template: Option<(i64, i64, i64)> =
        sqlx::query_as("SELECT per_member, days, centre_stock FROM coupons WHERE id = $1 AND centre_stock > 0")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((per_member, days, _)) = template else { return Err(Error::not_found("优惠券不存在")) };
    let mine: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM member_coupons WHERE coupon_id = $1 AND member_id = $2 AND source = 'centre'")
        .bind(id)
        .bind(member.id)
        .fetch_one(&mut *tx)
        .await?;
    if mine >= per_member {
        return Err(Error::conflict(if per_member == 1 {
            "您已领取过该优惠券".to_owned()
        } else {
            format!("该优惠券每人限领{per_member}张")
        }));
    }
    let taken = sqlx::query("UPDATE coupons SET centre_claimed = centre_claimed + 1 WHERE id = $1 AND centre_claimed < centre_stock")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Error::conflict("优惠券已被领完"));
    }
    let expires_at = now + days * 86_400;
    let member_coupon_id: i64 = sqlx::query_scalar(
        "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at, source) \
         VALUES ($1, $2, $3, $4, $5, $4, $6) RETURNING id",
    )
    .bind(member.id)
    .bind(id)
    .bind(CouponStatus::Unused)
    .bind(now)
    .bind(expires_at)
    .bind(FROM_CENTRE)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    let coupon = one(&mut conn, member.id, id).await?;
    ok_with("领取成功", Claimed { coupon, member_coupon_id, expires_at })
}
