//! Coupon and cash-voucher templates in the console (docs/backoffice.md, "Promotions"): what
//! each takes off, from what threshold, on which goods, for how many days; how many the coupon
//! centre hands out and to one member at most; a preview the engine computes on sample goods
//! amounts; and grants to a group of members.
//!
//! A template whose copies members already hold keeps its value: its kind, scope, amount,
//! threshold, rate and cap cannot change (a held coupon would change under its holder); its
//! title, days and centre numbers can.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::domain::cart::{NORMAL, sample_input};
use crate::domain::grants::{self, Templates};
use crate::domain::promotions::{CouponKind, CouponScope, CouponStatus};
use crate::domain::settlement;
use crate::domain::{Error, Result};
use crate::money::{self, yuan};

/// The longest title kept, in characters.
pub const TITLE_MAX: usize = 30;
/// The most members one group grant reaches.
pub const GROUP_MAX: i64 = 20_000;

/// A template as the operator writes it; a voucher's `kind`, `scope`, `rate`, `max_reduce` and
/// centre numbers are not used.
#[derive(Clone, Debug)]
pub struct Draft {
    pub title: String,
    /// 1 满减, 2 折扣 (coupons).
    pub kind: i64,
    pub scope: i64,
    /// Stored money taken off (满减 coupons, vouchers).
    pub amount: i64,
    /// Stored money: the threshold (使用门槛); 0 for none.
    pub min_amount: i64,
    /// Stored: the share paid (折扣 coupons), 9500 for 0.95.
    pub rate: i64,
    pub max_reduce: Option<i64>,
    pub days: i64,
    pub centre_stock: i64,
    pub per_member: i64,
}

/// What is wrong with `draft` of `kind` on its own, field by field.
pub fn check_draft(kind: Templates, draft: &Draft) -> Vec<(String, String)> {
    let mut errors = Vec::new();
    let mut refuse = |field: &str, message: String| errors.push((field.to_owned(), message));
    let title = draft.title.trim();
    if title.is_empty() {
        refuse("title", "请填写名称".into());
    } else if title.chars().count() > TITLE_MAX {
        refuse("title", format!("名称不能超过{TITLE_MAX}个字"));
    }
    if !(1..=365).contains(&draft.days) {
        refuse("days", "有效天数应在1到365之间".into());
    }
    let reduces = kind == Templates::Vouchers || draft.kind == CouponKind::Reduce as i64;
    if kind == Templates::Coupons {
        if CouponKind::from_code(draft.kind).is_none() {
            refuse("kind", "请选择券类型".into());
        }
        if CouponScope::from_code(draft.scope).is_none() {
            refuse("scope", "请选择适用范围".into());
        }
        if draft.kind == CouponKind::Discount as i64 {
            if !(1..10_000).contains(&draft.rate) {
                refuse("rate", "折扣应大于0且小于1，如 0.95".into());
            }
            if draft.max_reduce.is_some_and(|cap| cap <= 0) {
                refuse("max_reduce", "最多优惠须大于0".into());
            }
        }
        if draft.centre_stock < 0 {
            refuse("centre_stock", "领券中心发放总量不能为负数".into());
        }
        if !(1..=99).contains(&draft.per_member) {
            refuse("per_member", "每人限领应在1到99之间".into());
        }
    }
    if reduces {
        if draft.amount <= 0 {
            refuse("amount", "面额须大于0".into());
        } else if draft.min_amount > 0 && draft.amount >= draft.min_amount {
            refuse("amount", "面额须小于使用门槛".into());
        }
    }
    errors
}

/// Checks `draft` whole: its fields, then the engine's reader on a coupon of it.
fn check(kind: Templates, draft: &Draft) -> Result<()> {
    let errors = check_draft(kind, draft);
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    if kind == Templates::Coupons
        && let Some(why) = settlement::coupon_template_refusal(draft.kind, draft.amount, draft.min_amount, draft.rate, draft.max_reduce)
    {
        return Err(Error::Internal(anyhow::anyhow!("a checked coupon template the engine refuses: {why}")));
    }
    Ok(())
}

/// What a template takes off, as a buyer reads it: `满300减15`, `无门槛减10`, `9.5折，最多减50`.
pub fn rule(kind: Templates, draft: &Draft) -> String {
    let threshold = if draft.min_amount > 0 { format!("满{}", yuan(draft.min_amount)) } else { "无门槛".into() };
    if kind == Templates::Coupons && draft.kind == CouponKind::Discount as i64 {
        let rate = crate::domain::promotions::discount_name(&money::text(draft.rate));
        let cap = draft.max_reduce.map(|cap| format!("，最多减{}", yuan(cap))).unwrap_or_default();
        return format!("{threshold}{rate}{cap}");
    }
    format!("{threshold}减{}", yuan(draft.amount))
}

fn noun(kind: Templates) -> (&'static str, &'static str) {
    match kind {
        Templates::Coupons => ("coupon", "优惠券"),
        Templates::Vouchers => ("voucher", "现金券"),
    }
}

async fn read_draft(conn: &mut AnyConnection, kind: Templates, id: i64) -> Result<Draft> {
    type Row = (String, i64, i64, i64, i64, i64, Option<i64>, i64, i64, i64);
    let row: Option<Row> = match kind {
        Templates::Coupons => sqlx::query_as(
            "SELECT title, kind, scope, amount, min_amount, rate, max_reduce, days, centre_stock, per_member FROM coupons WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?,
        Templates::Vouchers => {
            sqlx::query_as("SELECT title, 1, 0, amount, min_amount, 0, CAST(NULL AS BIGINT), days, 0, 1 FROM cash_vouchers WHERE id = $1")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?
        }
    };
    let (title, kind_code, scope, amount, min_amount, rate, max_reduce, days, centre_stock, per_member) =
        row.ok_or_else(|| Error::not_found("模板不存在"))?;
    Ok(Draft { title, kind: kind_code, scope, amount, min_amount, rate, max_reduce, days, centre_stock, per_member })
}

fn audit_value(kind: Templates, draft: &Draft) -> serde_json::Value {
    json!({ "title": draft.title.trim(), "rule": rule(kind, draft), "days": draft.days, "centre_stock": draft.centre_stock, "per_member": draft.per_member })
}

/// Adds a template of `kind` (`id` `None`) or changes template `id`, with its audit row.
/// Answers its id.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, kind: Templates, id: Option<i64>, draft: Draft, now: i64) -> Result<i64> {
    check(kind, &draft)?;
    let mut tx = begin_write(conn).await?;
    let (name, what) = noun(kind);
    let before = match id {
        Some(id) => Some(read_draft(&mut tx, kind, id).await?),
        None => None,
    };
    if let (Some(before), Some(id)) = (&before, id) {
        let held: i64 = match kind {
            Templates::Coupons => sqlx::query_scalar("SELECT COUNT(*) FROM member_coupons WHERE coupon_id = $1"),
            Templates::Vouchers => sqlx::query_scalar("SELECT COUNT(*) FROM member_cash_vouchers WHERE voucher_id = $1"),
        }
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let value_changed = (before.kind, before.scope, before.amount, before.min_amount, before.rate, before.max_reduce)
            != (draft.kind, draft.scope, draft.amount, draft.min_amount, draft.rate, draft.max_reduce);
        if held > 0 && value_changed {
            return Err(Error::conflict(format!("已发放{held}张，不能修改面额、门槛和适用范围；请新建{what}")));
        }
        if kind == Templates::Coupons {
            let claimed: i64 = sqlx::query_scalar("SELECT centre_claimed FROM coupons WHERE id = $1").bind(id).fetch_one(&mut *tx).await?;
            if draft.centre_stock > 0 && draft.centre_stock < claimed {
                return Err(Error::field("centre_stock", format!("领券中心发放总量不能少于已领取的{claimed}张")));
            }
        }
    }
    let title = draft.title.trim();
    let id = match (kind, id) {
        (Templates::Coupons, Some(id)) => {
            sqlx::query(
                "UPDATE coupons SET title = $1, kind = $2, scope = $3, amount = $4, min_amount = $5, rate = $6, max_reduce = $7, \
                 days = $8, centre_stock = $9, per_member = $10 WHERE id = $11",
            )
            .bind(title)
            .bind(draft.kind)
            .bind(draft.scope)
            .bind(coupon_amount(&draft))
            .bind(draft.min_amount)
            .bind(coupon_rate(&draft))
            .bind(coupon_cap(&draft))
            .bind(draft.days)
            .bind(draft.centre_stock)
            .bind(draft.per_member)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
        (Templates::Coupons, None) => {
            sqlx::query_scalar(
                "INSERT INTO coupons (title, kind, scope, amount, min_amount, rate, max_reduce, days, centre_stock, per_member) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            )
            .bind(title)
            .bind(draft.kind)
            .bind(draft.scope)
            .bind(coupon_amount(&draft))
            .bind(draft.min_amount)
            .bind(coupon_rate(&draft))
            .bind(coupon_cap(&draft))
            .bind(draft.days)
            .bind(draft.centre_stock)
            .bind(draft.per_member)
            .fetch_one(&mut *tx)
            .await?
        }
        (Templates::Vouchers, Some(id)) => {
            sqlx::query("UPDATE cash_vouchers SET title = $1, amount = $2, min_amount = $3, days = $4 WHERE id = $5")
                .bind(title)
                .bind(draft.amount)
                .bind(draft.min_amount)
                .bind(draft.days)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            id
        }
        (Templates::Vouchers, None) => {
            sqlx::query_scalar("INSERT INTO cash_vouchers (title, amount, min_amount, days) VALUES ($1, $2, $3, $4) RETURNING id")
                .bind(title)
                .bind(draft.amount)
                .bind(draft.min_amount)
                .bind(draft.days)
                .fetch_one(&mut *tx)
                .await?
        }
    };
    let verb = if before.is_some() { "修改" } else { "新增" };
    let action = match (kind, before.is_some()) {
        (Templates::Coupons, false) => "coupon.add",
        (Templates::Coupons, true) => "coupon.change",
        (Templates::Vouchers, false) => "voucher.add",
        (Templates::Vouchers, true) => "voucher.change",
    };
    let entry = Entry {
        action,
        target: format!("{name}:{id}"),
        member: None,
        summary: format!("{verb}{what} {id} {title}：{}，{}天", rule(kind, &draft), draft.days),
        before: before.as_ref().map(|before| audit_value(kind, before)).unwrap_or_else(|| json!({})),
        after: audit_value(kind, &draft),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// A 折扣 coupon stores no amount; a 满减 coupon no rate or cap.
fn coupon_amount(draft: &Draft) -> i64 {
    if draft.kind == CouponKind::Reduce as i64 { draft.amount } else { 0 }
}

fn coupon_rate(draft: &Draft) -> i64 {
    if draft.kind == CouponKind::Discount as i64 { draft.rate } else { 0 }
}

fn coupon_cap(draft: &Draft) -> Option<i64> {
    if draft.kind == CouponKind::Discount as i64 { draft.max_reduce } else { None }
}

/// A template in the console's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateRow {
    /// `coupon` or `voucher`.
    pub template: &'static str,
    pub id: i64,
    pub title: String,
    /// 满减券, 折扣券 or 现金券.
    pub kind_name: &'static str,
    /// 全场通用, 优选商品, 中药饮片 or 医疗器械.
    pub scope_name: &'static str,
    /// `满300减15`.
    pub rule: String,
    pub days: i64,
    /// The form's values as text, for the form.
    pub kind: i64,
    pub scope: i64,
    #[schema(example = "15.00")]
    pub amount: String,
    #[schema(example = "300.00")]
    pub min_amount: String,
    /// `0.95`; empty for none.
    pub rate: String,
    /// Empty for none.
    pub max_reduce: String,
    pub centre_stock: i64,
    pub centre_claimed: i64,
    pub per_member: i64,
    /// Copies members hold or held.
    pub held: i64,
    pub used: i64,
}

/// Every template, coupons first, newest first.
pub async fn list(conn: &mut AnyConnection) -> Result<Vec<TemplateRow>> {
    type Row = (i64, String, i64, i64, i64, i64, i64, Option<i64>, i64, i64, i64, i64, i64, i64);
    let coupons: Vec<Row> = sqlx::query_as(
        "SELECT c.id, c.title, c.kind, c.scope, c.amount, c.min_amount, c.rate, c.max_reduce, c.days, c.centre_stock, c.centre_claimed, c.per_member, \
                (SELECT COUNT(*) FROM member_coupons m WHERE m.coupon_id = c.id), \
                (SELECT COUNT(*) FROM member_coupons m WHERE m.coupon_id = c.id AND m.status = $1) \
         FROM coupons c ORDER BY c.id DESC",
    )
    .bind(CouponStatus::Used)
    .fetch_all(&mut *conn)
    .await?;
    let vouchers: Vec<Row> = sqlx::query_as(
        "SELECT v.id, v.title, 1, 0, v.amount, v.min_amount, 0, CAST(NULL AS BIGINT), v.days, 0, 0, 1, \
                (SELECT COUNT(*) FROM member_cash_vouchers m WHERE m.voucher_id = v.id), \
                (SELECT COUNT(*) FROM member_cash_vouchers m WHERE m.voucher_id = v.id AND m.status = $1) \
         FROM cash_vouchers v ORDER BY v.id DESC",
    )
    .bind(CouponStatus::Used)
    .fetch_all(&mut *conn)
    .await?;
    let row = |kind: Templates,
               (
        id,
        title,
        kind_code,
        scope,
        amount,
        min_amount,
        rate,
        max_reduce,
        days,
        centre_stock,
        centre_claimed,
        per_member,
        held,
        used,
    ): Row| {
        let draft =
            Draft { title: title.clone(), kind: kind_code, scope, amount, min_amount, rate, max_reduce, days, centre_stock, per_member };
        TemplateRow {
            template: noun(kind).0,
            id,
            rule: rule(kind, &draft),
            title,
            kind_name: match kind {
                Templates::Coupons => CouponKind::from_code(kind_code).map_or("优惠券", CouponKind::name),
                Templates::Vouchers => "现金券",
            },
            scope_name: CouponScope::from_code(scope).map_or("全场通用", CouponScope::name),
            days,
            kind: kind_code,
            scope,
            amount: money::text(amount),
            min_amount: money::text(min_amount),
            rate: if rate > 0 { rust_decimal::Decimal::new(rate, 4).normalize().to_string() } else { String::new() },
            max_reduce: max_reduce.map(money::text).unwrap_or_default(),
            centre_stock,
            centre_claimed,
            per_member,
            held,
            used,
        }
    };
    Ok(coupons.into_iter().map(|r| row(Templates::Coupons, r)).chain(vouchers.into_iter().map(|r| row(Templates::Vouchers, r))).collect())
}

/// What a template takes off an order of one goods amount, by the engine.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplatePreviewRow {
    #[schema(example = "300.00")]
    pub goods: String,
    pub usable: bool,
    /// What it takes off.
    #[schema(example = "15.00")]
    pub value: String,
    /// How much more reaches its threshold.
    #[schema(example = "0.00")]
    pub need: String,
    /// What the member pays, shipping included.
    #[schema(example = "285.00")]
    pub due: String,
}

/// The sample amounts when none are given: just below the threshold, at it, and twice it (100,
/// 300 and 1000 without one).
pub fn default_amounts(draft: &Draft) -> Vec<i64> {
    if draft.min_amount > 100 {
        vec![draft.min_amount - 100, draft.min_amount, draft.min_amount * 2]
    } else {
        vec![100 * 10_000, 300 * 10_000, 1_000 * 10_000]
    }
}

/// The engine's settlement of an order of one line of each `amounts` (stored money), on goods
/// the template applies to, with one copy of the template valid now and nothing else. Changes
/// nothing.
pub async fn preview(
    conn: &mut AnyConnection,
    kind: Templates,
    draft: &Draft,
    amounts: &[i64],
    now: i64,
) -> Result<Vec<TemplatePreviewRow>> {
    check(kind, draft)?;
    let (coupons, vouchers) = match kind {
        Templates::Coupons => (
            vec![settlement::template_coupon(
                1,
                draft.kind,
                draft.scope,
                coupon_amount(draft),
                draft.min_amount,
                coupon_rate(draft),
                coupon_cap(draft),
                now - 1,
                now + draft.days * 86_400,
            )],
            Vec::new(),
        ),
        Templates::Vouchers => {
            (Vec::new(), vec![settlement::template_voucher(1, draft.amount, draft.min_amount, now - 1, now + draft.days * 86_400)])
        }
    };
    let accounts = settlement::sample_accounts(conn, coupons, vouchers, now).await?;
    // Goods the template applies to: preferred goods, herbs or devices for a coupon of that scope.
    let scope = if kind == Templates::Coupons { CouponScope::from_code(draft.scope) } else { None };
    let mut rows = Vec::with_capacity(amounts.len());
    for &amount in amounts {
        let price = money::from_stored(amount)?;
        let goods = engine::Goods {
            id: 1,
            is_buy: true,
            stock: 1,
            is_youx: scope == Some(CouponScope::Preferred),
            goods_type: Some(match scope {
                Some(CouponScope::Herbs) => 2,
                Some(CouponScope::Devices) => 3,
                _ => 1,
            }),
            is_dpby: false,
            qg_number: 0,
            base_price: None,
            ladder: engine::Ladder::default(),
            ladder_price_type: None,
        };
        let input = sample_input(
            vec![engine::CartItem {
                id: 1,
                line_type: Some(NORMAL),
                quantity: 1,
                price,
                is_selected: true,
                with_coupon: true,
                goods_manjian_id: 0,
                goods,
                combination: None,
            }],
            Vec::new(),
            Some(accounts.clone()),
        );
        let quote = engine::quote(&input).map_err(|error| Error::Internal(anyhow::anyhow!("{error}")))?;
        let settled = quote.settlement.ok_or_else(|| anyhow::anyhow!("a quote with a settlement input has its settlement"))?;
        let (usable, value, need) = match kind {
            Templates::Coupons => {
                let coupon = settled.coupons.first().ok_or_else(|| anyhow::anyhow!("the sample coupon is valued"))?;
                (coupon.usable, coupon.value, coupon.need)
            }
            Templates::Vouchers => {
                let voucher = settled.cash_vouchers.first().ok_or_else(|| anyhow::anyhow!("the sample voucher is valued"))?;
                (voucher.usable, voucher.value, engine::Cents::ZERO)
            }
        };
        let text = |cents: engine::Cents| -> Result<String> { Ok(money::text(settlement::stored(cents)?)) };
        rows.push(TemplatePreviewRow {
            goods: money::text(amount),
            usable,
            value: text(value)?,
            need: text(need)?,
            due: text(settled.due)?,
        });
    }
    Ok(rows)
}

/// Who a group grant reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Every approved member.
    Approved,
    /// Approved members of one buyer type (1 单体药店 … 5 批发企业).
    BuyerType(i64),
}

/// Gives `count` copies of template `id` to every member of `group`, each told in a message,
/// for `reason`, in one transaction with one audit row. Answers how many members.
#[allow(clippy::too_many_arguments)]
pub async fn grant_group(
    conn: &mut AnyConnection,
    actor: &Actor,
    kind: Templates,
    id: i64,
    group: Group,
    count: i64,
    reason: &str,
    now: i64,
) -> Result<i64> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::field("reason", "请填写发放原因"));
    }
    if reason.chars().count() > 100 {
        return Err(Error::field("reason", "发放原因不能超过100字"));
    }
    if !(1..=grants::COUNT_MAX).contains(&count) {
        return Err(Error::field("count", format!("数量须在1到{}之间", grants::COUNT_MAX)));
    }
    if let Group::BuyerType(kind) = group
        && !(1..=5).contains(&kind)
    {
        return Err(Error::field("buyer_type", "客户类型不正确"));
    }
    let mut tx = begin_write(conn).await?;
    let draft = read_draft(&mut tx, kind, id).await?;
    let members: Vec<i64> = sqlx::query_scalar("SELECT id FROM members WHERE is_passed = 1 AND ($1 = 0 OR buyer_type = $1) ORDER BY id")
        .bind(match group {
            Group::Approved => 0,
            Group::BuyerType(kind) => kind,
        })
        .fetch_all(&mut *tx)
        .await?;
    if members.is_empty() {
        return Err(Error::conflict("没有符合条件的会员"));
    }
    if members.len() as i64 > GROUP_MAX {
        return Err(Error::conflict(format!("一次最多发放给{GROUP_MAX}位会员")));
    }
    for member in &members {
        grants::templates(&mut tx, kind, *member, id, count, now).await?;
    }
    let (name, what) = noun(kind);
    let entry = Entry {
        action: if kind == Templates::Coupons { "grant.coupon_group" } else { "grant.voucher_group" },
        target: format!("{name}:{id}"),
        member: None,
        summary: format!("向{}位会员发放{what}「{}」×{count}：{reason}", members.len(), draft.title),
        before: json!(null),
        after: json!({ "members": members.len(), "count": count, "group": format!("{group:?}"), "reason": reason }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(members.len() as i64)
}
