//! The member's coupons (优惠券) and cash vouchers (现金券): the lists of §7
//! (`availableCoupon`, `coupon`, `couponNum`) and the cards checkout shows beside the engine's
//! settlement. A member sees only their own. What a coupon takes off an order is the engine's
//! (`docs/pricing.md`, rules 12–14); these are the coupons as held.

use axum::extract::State;
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, FromFields, Member, Query};
use crate::domain::promotions::{CouponKind, CouponScope, CouponStatus};
use crate::money::{self, Stored};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(available)).routes(routes!(list)).routes(routes!(count)).routes(routes!(vouchers))
}

const PAGE_SIZE: i64 = 20;

/// One of the member's coupons.
#[derive(Serialize, ToSchema)]
pub struct MemberCoupon {
    /// The member's coupon (what `coupon_id` names at checkout).
    id: i64,
    title: String,
    /// 1 满减, 2 折扣.
    kind: i64,
    #[schema(example = "满减券")]
    kind_name: &'static str,
    /// 0 every coupon line, 1 preferred goods, 2 Chinese herbs, 3 medical devices.
    scope: i64,
    #[schema(example = "全场通用")]
    scope_name: &'static str,
    /// Kind 1: what it takes off.
    #[schema(example = "20.00")]
    reduce: String,
    /// Kind 2: the share paid (`0.95` is 95折); `null` for kind 1.
    #[schema(required = true, example = "0.95")]
    rate: Option<String>,
    /// Kind 2: the most it takes off; `null` without a cap.
    #[schema(required = true)]
    max_reduce: Option<String>,
    /// The coupon lines' amount from which it may be used.
    #[schema(example = "500.00")]
    min_amount: String,
    starts_at: i64,
    /// Valid until this moment (exclusive).
    expires_at: i64,
    /// 0 未使用, 1 已使用, 2 已过期.
    status: i64,
    #[schema(example = "未使用")]
    status_name: &'static str,
    /// The order that used it.
    #[schema(required = true)]
    order_id: Option<i64>,
    #[schema(required = true)]
    used_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct CouponRow {
    id: i64,
    title: String,
    kind: CouponKind,
    scope: CouponScope,
    amount: i64,
    rate: Stored,
    max_reduce: Option<i64>,
    min_amount: i64,
    starts_at: i64,
    expires_at: i64,
    status: CouponStatus,
    order_id: Option<i64>,
    used_at: Option<i64>,
}

impl CouponRow {
    fn card(self, now: i64) -> Result<MemberCoupon> {
        let status = self.status.shown(self.expires_at, now);
        let kind = self.kind;
        let discount = kind == CouponKind::Discount;
        Ok(MemberCoupon {
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
            starts_at: self.starts_at,
            expires_at: self.expires_at,
            status: status.code(),
            status_name: status.name(),
            order_id: self.order_id,
            used_at: self.used_at,
        })
    }
}

const COUPON_COLUMNS: &str = "m.id, c.title, c.kind, c.scope, c.amount, c.rate, c.max_reduce, c.min_amount, m.starts_at, m.expires_at, \
                              m.status, m.order_id, m.used_at FROM member_coupons m JOIN coupons c ON c.id = m.coupon_id";

/// One of the member's cash vouchers.
#[derive(Serialize, ToSchema)]
pub struct MemberVoucher {
    /// The member's voucher (what `cash_voucher_id` names at checkout).
    id: i64,
    title: String,
    #[schema(example = "10.00")]
    amount: String,
    /// The order amount (after the coupon) from which it may be used.
    #[schema(example = "100.00")]
    min_amount: String,
    starts_at: i64,
    expires_at: i64,
    /// 0 未使用, 1 已使用, 2 已过期.
    status: i64,
    #[schema(example = "未使用")]
    status_name: &'static str,
    #[schema(required = true)]
    order_id: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct VoucherRow {
    id: i64,
    title: String,
    amount: i64,
    min_amount: i64,
    starts_at: i64,
    expires_at: i64,
    status: CouponStatus,
    order_id: Option<i64>,
}

/// A row of the member's coupons or vouchers, and the card it answers as.
trait Held: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin {
    type Card;
    /// The columns and tables it is read from (`m` the member's row).
    const COLUMNS: &'static str;
    fn id(&self) -> i64;
    fn card(self, now: i64) -> Result<Self::Card>;
}

impl Held for CouponRow {
    type Card = MemberCoupon;
    const COLUMNS: &'static str = COUPON_COLUMNS;
    fn id(&self) -> i64 {
        self.id
    }
    fn card(self, now: i64) -> Result<MemberCoupon> {
        CouponRow::card(self, now)
    }
}

impl Held for VoucherRow {
    type Card = MemberVoucher;
    const COLUMNS: &'static str = VOUCHER_COLUMNS;
    fn id(&self) -> i64 {
        self.id
    }
    fn card(self, now: i64) -> Result<MemberVoucher> {
        Ok(VoucherRow::card(self, now))
    }
}

/// The member's coupons or vouchers with these ids, as cards in this order (ids that are not
/// the member's are left out).
async fn held<Row: Held>(conn: &mut AnyConnection, member: Member, ids: impl Iterator<Item = i64>) -> Result<Vec<Row::Card>> {
    let ids: Vec<i64> = ids.collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut query = sqlx::query_as::<_, Row>(sqlx::AssertSqlSafe(format!(
        "SELECT {} WHERE m.member_id = $1 AND m.id IN ({})",
        Row::COLUMNS,
        crate::db::params(2, ids.len())
    )))
    .bind(member.id);
    for id in &ids {
        query = query.bind(*id);
    }
    let mut rows = query.fetch_all(&mut *conn).await?;
    rows.sort_by_key(|row| ids.iter().position(|id| *id == row.id()).unwrap_or(usize::MAX));
    let now = now();
    rows.into_iter().map(|row| row.card(now)).collect()
}

/// The member's coupons with these ids, in this order (ids that are not the member's are left out).
pub async fn member_coupons(conn: &mut AnyConnection, member: Member, ids: impl Iterator<Item = i64>) -> Result<Vec<MemberCoupon>> {
    held::<CouponRow>(conn, member, ids).await
}

/// The member's cash vouchers with these ids, in this order.
pub async fn member_vouchers(conn: &mut AnyConnection, member: Member, ids: impl Iterator<Item = i64>) -> Result<Vec<MemberVoucher>> {
    held::<VoucherRow>(conn, member, ids).await
}

impl VoucherRow {
    fn card(self, now: i64) -> MemberVoucher {
        let status = self.status.shown(self.expires_at, now);
        MemberVoucher {
            id: self.id,
            title: self.title,
            amount: money::text(self.amount),
            min_amount: money::text(self.min_amount),
            starts_at: self.starts_at,
            expires_at: self.expires_at,
            status: status.code(),
            status_name: status.name(),
            order_id: self.order_id,
        }
    }
}

const VOUCHER_COLUMNS: &str = "m.id, v.title, v.amount, v.min_amount, m.starts_at, m.expires_at, m.status, m.order_id \
                               FROM member_cash_vouchers m JOIN cash_vouchers v ON v.id = m.voucher_id";

/// One page of the member's coupons.
#[derive(Serialize, ToSchema)]
pub struct CouponPage {
    list: Vec<MemberCoupon>,
    total: i64,
    page: i64,
}

/// `type` (0 or absent: every kind; 1 满减; 2 折扣).
fn kind_filter(query: &Fields) -> Result<i64> {
    let kind = query.int_or("type", "优惠券类型", 0)?;
    if !(0..=2).contains(&kind) {
        return Err(Error::field("type", "优惠券类型不正确"));
    }
    Ok(kind)
}

/// `status` (0 未使用, the default, those not yet valid too; 1 已使用; 2 已过期); 422
/// `<label>不正确` for another.
fn state(query: &Fields, label: &str) -> Result<CouponStatus> {
    let status = query.int_or("status", label, 0)?;
    CouponStatus::from_code(status).ok_or_else(|| Error::field("status", format!("{label}不正确")))
}

/// Which usable coupons: of a kind, a page.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsableQuery {
    /// 优惠券类型: 1 满减, 2 折扣; 0 (absent) every kind.
    #[param(rename = "type", value_type = Option<i64>)]
    kind: i64,
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
}

impl FromFields for UsableQuery {
    fn from_fields(query: &Fields) -> Result<UsableQuery> {
        let kind = kind_filter(query)?;
        Ok(UsableQuery { kind, page: query.page()? })
    }
}

/// Which coupons: of a kind, in a state, a page.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CouponQuery {
    /// 优惠券类型: 1 满减, 2 折扣; 0 (absent) every kind.
    #[param(rename = "type", value_type = Option<i64>)]
    kind: i64,
    /// 0 (absent) 未使用, 1 已使用, 2 已过期.
    #[param(value_type = Option<i64>)]
    status: CouponStatus,
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
}

impl FromFields for CouponQuery {
    fn from_fields(query: &Fields) -> Result<CouponQuery> {
        let kind = kind_filter(query)?;
        let status = state(query, "优惠券状态")?;
        Ok(CouponQuery { kind, status, page: query.page()? })
    }
}

/// Which cash vouchers: in a state, a page.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VoucherQuery {
    /// 0 (absent) 未使用, 1 已使用, 2 已过期.
    #[param(value_type = Option<i64>)]
    status: CouponStatus,
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    page: i64,
}

impl FromFields for VoucherQuery {
    fn from_fields(query: &Fields) -> Result<VoucherQuery> {
        let status = state(query, "现金券状态")?;
        Ok(VoucherQuery { status, page: query.page()? })
    }
}

/// A page of the member's coupons matching `filter` (SQL over `m`/`c`, `$1` the member, `$2`
/// the kind or 0, `$3` now).
async fn page(context: &ApiContext, member: Member, filter: &str, kind: i64, page: i64) -> Result<CouponPage> {
    let now = now();
    let condition = format!("m.member_id = $1 AND ($2 = 0 OR c.kind = $2) AND {filter}");
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM member_coupons m JOIN coupons c ON c.id = m.coupon_id WHERE {condition}"
    )))
    .bind(member.id)
    .bind(kind)
    .bind(now)
    .fetch_one(&context.db.pool)
    .await?;
    let rows: Vec<CouponRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COUPON_COLUMNS} WHERE {condition} ORDER BY m.expires_at, m.id LIMIT {PAGE_SIZE} OFFSET $4"
    )))
    .bind(member.id)
    .bind(kind)
    .bind(now)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&context.db.pool)
    .await?;
    let list = rows.into_iter().map(|row| row.card(now)).collect::<Result<_>>()?;
    Ok(CouponPage { list, total, page })
}

/// `GET /api/user/availableCoupon` (`type`, `page`): the member's coupons usable now (unused,
/// within their dates), soonest to expire first, 20 a page.
#[utoipa::path(get, path = "/api/user/availableCoupon", params(UsableQuery), tag = "优惠券", responses((status = 200, description = "一页可用的优惠券", body = Envelope<CouponPage>)))]
async fn available(
    State(context): State<ApiContext>,
    member: Member,
    Query(UsableQuery { kind, page: number }): Query<UsableQuery>,
) -> Answer<CouponPage> {
    let filter = format!("m.status = {} AND m.starts_at <= $3 AND m.expires_at > $3", CouponStatus::Unused.code());
    ok(page(&context, member, &filter, kind, number).await?)
}

/// `GET /api/user/coupon` (`page`, `type`, `status`: 0 未使用 (default; those not yet valid too),
/// 1 已使用, 2 已过期): the member's coupons, 20 a page.
#[utoipa::path(get, path = "/api/user/coupon", params(CouponQuery), operation_id = "user_coupon_list", tag = "优惠券", responses((status = 200, description = "一页优惠券", body = Envelope<CouponPage>)))]
async fn list(
    State(context): State<ApiContext>,
    member: Member,
    Query(CouponQuery { kind, status, page: number }): Query<CouponQuery>,
) -> Answer<CouponPage> {
    let filter = status_filter(status, "$3");
    ok(page(&context, member, &filter, kind, number).await?)
}

/// A `status` ([`state`]) as SQL over `m`, with `now` the parameter that holds the time.
fn status_filter(status: CouponStatus, now: &str) -> String {
    let (unused, used) = (CouponStatus::Unused.code(), CouponStatus::Used.code());
    match status {
        CouponStatus::Used => format!("m.status = {used}"),
        CouponStatus::Expired => format!("m.status = {unused} AND m.expires_at <= {now}"),
        CouponStatus::Unused => format!("m.status = {unused} AND m.expires_at > {now}"),
    }
}

/// `GET /api/user/cash_voucher` (`page`, `status` as for coupons): the member's cash vouchers
/// (现金券), soonest to expire first, 20 a page, with the count in each state.
#[utoipa::path(get, path = "/api/user/cash_voucher", params(VoucherQuery), tag = "优惠券", responses((status = 200, description = "一页现金券", body = Envelope<VoucherPage>)))]
async fn vouchers(
    State(context): State<ApiContext>,
    member: Member,
    Query(VoucherQuery { status, page }): Query<VoucherQuery>,
) -> Answer<VoucherPage> {
    let filter = status_filter(status, "$2");
    let now = now();
    let total: i64 =
        sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM member_cash_vouchers m WHERE m.member_id = $1 AND {filter}")))
            .bind(member.id)
            .bind(now)
            .fetch_one(&context.db.pool)
            .await?;
    let rows: Vec<VoucherRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {VOUCHER_COLUMNS} WHERE m.member_id = $1 AND {filter} ORDER BY m.expires_at, m.id LIMIT {PAGE_SIZE} OFFSET $3"
    )))
    .bind(member.id)
    .bind(now)
    .bind((page - 1) * PAGE_SIZE)
    .fetch_all(&context.db.pool)
    .await?;
    let count = state_counts(&context, "member_cash_vouchers", member).await?;
    ok(VoucherPage { list: rows.into_iter().map(|row| row.card(now)).collect(), total, page, count })
}

/// One page of the member's cash vouchers, and how many are in each state.
#[derive(Serialize, ToSchema)]
pub struct VoucherPage {
    list: Vec<MemberVoucher>,
    total: i64,
    page: i64,
    count: CouponCount,
}

/// How many coupons the member has in each state.
#[derive(Serialize, ToSchema)]
pub struct CouponCount {
    /// 可用: unused and valid now (`USABLE_NOW`), what the wallet and the member centre show.
    usable: i64,
    /// 未使用 (not expired; those not yet valid too).
    unused: i64,
    /// 已使用.
    used: i64,
    /// 已过期.
    expired: i64,
}

/// `GET /api/user/couponNum`: the member's coupons counted by state.
#[utoipa::path(get, path = "/api/user/couponNum", tag = "优惠券", responses((status = 200, description = "各状态的优惠券数", body = Envelope<CouponCount>)))]
async fn count(State(context): State<ApiContext>, member: Member) -> Answer<CouponCount> {
    ok(state_counts(&context, "member_coupons", member).await?)
}

/// The one definition of a coupon or voucher the member can use now (`$2` the state unused,
/// `$3` now): the member centre and the wallet count it alike.
pub(crate) const USABLE_NOW: &str = "status = $2 AND starts_at <= $3 AND expires_at > $3";

/// The member's coupons or vouchers (`table`) counted by state, and those usable now.
async fn state_counts(context: &ApiContext, table: &str, member: Member) -> Result<CouponCount> {
    let (usable, unused, used, expired): (i64, i64, i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT CAST(COALESCE(SUM(CASE WHEN {USABLE_NOW} THEN 1 ELSE 0 END), 0) AS BIGINT), \
                CAST(COALESCE(SUM(CASE WHEN status = $2 AND expires_at > $3 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                CAST(COALESCE(SUM(CASE WHEN status = $4 THEN 1 ELSE 0 END), 0) AS BIGINT), \
                CAST(COALESCE(SUM(CASE WHEN status = $2 AND expires_at <= $3 THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM {table} WHERE member_id = $1"
    )))
    .bind(member.id)
    .bind(CouponStatus::Unused)
    .bind(now())
    .bind(CouponStatus::Used)
    .fetch_one(&context.db.pool)
    .await?;
    Ok(CouponCount { usable, unused, used, expired })
}
