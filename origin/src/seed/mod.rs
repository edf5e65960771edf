//! The demo data: a realistic Chinese catalogue (`origin/seed/catalogue.json`, compiled in),
//! loaded into an empty database on first start and again by `origin seed`.
//!
//! This module reads the catalogue file's shapes and runs the load in one transaction; one
//! module per area writes its rows: `goods` (categories, brands, goods), `activities` (every
//! promotion), `content` (articles, adverts), `members` (the demo member).

mod activities;
mod content;
mod goods;
mod members;

use std::collections::HashMap;

use anyhow::{Context, bail};
use serde::Deserialize;

use self::activities::insert_activities;
use self::content::insert_content;
use self::goods::{insert_brands, insert_categories, insert_goods};
use self::members::insert_demo_member;
use crate::db::Db;
use crate::{auth, money, now};

const CATALOGUE: &str = include_str!("../../seed/catalogue.json");

/// Every table the demo data fills, children first (the order to empty them in).
const CONTENT_TABLES: &[&str] = &[
    "invoices",
    "after_sale_photos",
    "after_sale_messages",
    "after_sales",
    "order_logistics",
    "shipment_lots",
    "shipment_items",
    "shipments",
    "order_events",
    "payments",
    "messages",
    "oauth_states",
    "page_views",
    "client_reports",
    "qualifications",
    "idempotency",
    "balance_requests",
    "balance_logs",
    "red_packet_logs",
    "points_logs",
    "points_orders",
    "draw_records",
    "member_coupons",
    "member_cash_vouchers",
    "order_stock",
    "return_photos",
    "return_lines",
    "returns",
    "order_items",
    "orders",
    "favorites",
    "cart_items",
    "sessions",
    "sms_codes",
    "login_failures",
    "sms_notices",
    "rate_limits",
    "addresses",
    "member_stores",
    "kx_members",
    "wanted_varieties",
    "feedback_photos",
    "feedback",
    "members",
    "companies",
    "activity_goods",
    "activity_sections",
    "activities",
    "kx_programme_goods",
    "kx_programmes",
    "kx_ads",
    "welfare_activities",
    "cashback_tiers",
    "cashback_activities",
    "everyday_specials",
    "combination_items",
    "combinations",
    "flash_sales",
    "lot_reports",
    "goods_lots",
    "goods_ladders",
    "points_goods",
    "goods",
    "manjian_tiers",
    "manjian_activities",
    "brands",
    "draw_prizes",
    "draw_activities",
    "coupons",
    "cash_vouchers",
    "hot_terms",
    "ads",
    "nav",
    "links",
    "articles",
    "settings",
    "categories",
];

#[derive(Deserialize)]
struct Catalogue {
    /// The shop's identity (`crate::domain::shop`), written to `settings` once.
    shop: crate::domain::shop::ShopIdentity,
    categories: Vec<Category>,
    brands: Vec<Brand>,
    goods: Vec<Goods>,
    hot_terms: Vec<String>,
    nav: Vec<Link>,
    banners: Vec<Banner>,
    right_ads: HashMap<String, Vec<Link>>,
    manjian_activities: Vec<Activity>,
    flash_sales: Vec<FlashSale>,
    everyday_specials: Vec<String>,
    combinations: Vec<Combination>,
    coupons: Vec<Coupon>,
    cash_vouchers: Vec<CashVoucher>,
    points_goods: Vec<PointsGoods>,
    draws: Vec<Draw>,
    near_expiry: Vec<NearExpiry>,
    welfare: Vec<Welfare>,
    cashback: Vec<Cashback>,
    activities: Vec<ActivityPage>,
    controlled: Controlled,
    help: Vec<HelpGroup>,
    news: Vec<News>,
    demo_member: DemoMember,
}

#[derive(Deserialize)]
struct Category {
    key: String,
    name: String,
    #[serde(default)]
    shop: Option<String>,
    #[serde(default)]
    children: Vec<Category>,
}

#[derive(Deserialize)]
struct Brand {
    name: String,
    manufacturer: String,
}

#[derive(Deserialize)]
struct Goods {
    name: String,
    category: String,
    sccj: String,
    #[serde(default)]
    brand: Option<String>,
    ypgg: String,
    bzdw: String,
    #[serde(default)]
    pzwh: String,
    #[serde(default)]
    origin: String,
    #[serde(default)]
    jzl: i64,
    /// 中包装; absent: [`middle_pack`] of the case.
    #[serde(default)]
    zbz: Option<i64>,
    #[serde(default)]
    validity: String,
    #[serde(default)]
    rx: bool,
    /// Special control (含麻黄碱类复方制剂): the most one member may buy in one order and in
    /// one month; 0 for no limit.
    #[serde(default)]
    control_per_order: i64,
    #[serde(default)]
    control_per_month: i64,
    price: String,
    base_price: String,
    stock: i64,
    #[serde(rename = "type")]
    goods_type: i64,
    is_youx: i64,
    is_buy: i64,
    is_dpby: i64,
    qg_number: i64,
    ladder_price_type: i64,
    ladder_price: Vec<LadderStep>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    description: String,
}

#[derive(Deserialize)]
struct LadderStep {
    number: i64,
    price: String,
}

#[derive(Deserialize)]
struct Link {
    name: Option<String>,
    title: Option<String>,
    url: String,
}

#[derive(Deserialize)]
struct Banner {
    title: String,
    #[serde(default)]
    subtitle: String,
    url: String,
    #[serde(default)]
    color: String,
}

#[derive(Deserialize)]
struct Activity {
    title: String,
    categories: Vec<String>,
    tiers: Vec<Tier>,
}

#[derive(Deserialize)]
struct Tier {
    amount: String,
    reduce: String,
}

#[derive(Deserialize)]
struct FlashSale {
    goods: String,
    price: String,
    limit: i64,
}

#[derive(Deserialize)]
struct Combination {
    name: String,
    goods: Vec<String>,
    price: String,
}

#[derive(Deserialize)]
struct Coupon {
    title: String,
    amount: String,
    min_amount: String,
    days: i64,
    /// 1 满减, 2 折扣.
    kind: i64,
    /// 0 every coupon line, 1 preferred, 2 Chinese herbs, 3 medical devices.
    scope: i64,
    /// Kind 2: the share paid.
    #[serde(default)]
    rate: Option<String>,
    #[serde(default)]
    max_reduce: Option<String>,
    /// How many the coupon centre hands out (0: not in the centre), and at most to one member.
    #[serde(default)]
    centre_stock: i64,
    #[serde(default = "one")]
    per_member: i64,
    /// Whether the demo member holds one (false: only the coupon centre gives it).
    #[serde(default = "yes")]
    in_wallet: bool,
}

fn one() -> i64 {
    1
}

fn yes() -> bool {
    true
}

/// A points-mall item (积分商城): goods shipped, a coupon of a template, or red packets.
#[derive(Deserialize)]
struct PointsGoods {
    name: String,
    description: String,
    /// 1 goods, 2 coupon, 3 red packets.
    kind: i64,
    /// Kind 1: the catalogue goods' name.
    #[serde(default)]
    goods: Option<String>,
    /// Kind 2: the coupon template's title.
    #[serde(default)]
    coupon: Option<String>,
    /// Kind 3: the red packets credited.
    #[serde(default)]
    red_packet: Option<String>,
    points: i64,
    price: String,
    stock: i64,
    per_member: i64,
}

/// Goods whose batch expires `days` from the day the demo data is loaded (近效期专区).
#[derive(Deserialize)]
struct NearExpiry {
    goods: String,
    days: i64,
}

/// A store-wide discount (全场折扣) running from yesterday for `days`.
#[derive(Deserialize)]
struct Welfare {
    title: String,
    rate: String,
    days: i64,
}

/// A cash-back activity (满额返现) running from yesterday for `days`, with its tiers.
#[derive(Deserialize)]
struct Cashback {
    title: String,
    days: i64,
    tiers: Vec<CashbackTier>,
}

#[derive(Deserialize)]
struct CashbackTier {
    amount: String,
    back: String,
}

/// An activity page (活动) starting `starts_in` days from now (−1: yesterday) for `days`, with
/// its sections of goods (by name); no `url` while it has no page.
#[derive(Deserialize)]
struct ActivityPage {
    url: Option<String>,
    title: String,
    subtitle: String,
    template: String,
    color: String,
    #[serde(default)]
    note: String,
    starts_in: i64,
    days: i64,
    sections: Vec<ActivityPageSection>,
}

#[derive(Deserialize)]
struct ActivityPageSection {
    title: String,
    goods: Vec<String>,
}

/// The controlled-sales zone (控销专区): its goods, programmes and ads, and the members approved.
#[derive(Deserialize)]
struct Controlled {
    goods: Vec<ControlledGoods>,
    programmes: Vec<KxProgramme>,
    ads: Vec<KxAd>,
    approved_members: Vec<String>,
}

#[derive(Deserialize)]
struct ControlledGoods {
    goods: String,
    listed_days_ago: i64,
}

#[derive(Deserialize)]
struct KxProgramme {
    url: String,
    title: String,
    subtitle: String,
    color: String,
    goods: Vec<String>,
}

#[derive(Deserialize)]
struct KxAd {
    title: String,
    subtitle: String,
    color: String,
    url: String,
}

/// A lucky-draw activity running from yesterday for `days`, with its prizes.
#[derive(Deserialize)]
struct Draw {
    title: String,
    description: String,
    days: i64,
    prizes: Vec<DrawPrize>,
}

#[derive(Deserialize)]
struct DrawPrize {
    name: String,
    remarks: String,
    /// 0 nothing, 1 a coupon (its template's title), 2 points, 3 red packets.
    kind: i64,
    #[serde(default)]
    coupon: Option<String>,
    #[serde(default)]
    points: i64,
    #[serde(default)]
    red_packet: Option<String>,
    weight: i64,
    stock: i64,
}

#[derive(Deserialize)]
struct CashVoucher {
    title: String,
    amount: String,
    min_amount: String,
    days: i64,
}

#[derive(Deserialize)]
struct HelpGroup {
    group: String,
    items: Vec<HelpItem>,
}

#[derive(Deserialize)]
struct HelpItem {
    title: String,
    path: String,
    body: String,
}

#[derive(Deserialize)]
struct News {
    category: String,
    title: String,
    summary: String,
    body: String,
    date: String,
}

#[derive(Deserialize)]
struct DemoMember {
    username: String,
    password: String,
    company: String,
    name: String,
    phone: String,
    email: String,
    account_manager: Manager,
    addresses: Vec<Address>,
    balance: String,
    points: i64,
    red_packet: String,
}

#[derive(Deserialize)]
struct Manager {
    name: String,
    phone: String,
}

#[derive(Deserialize)]
struct Address {
    contact: String,
    phone: String,
    province: String,
    city: String,
    district: String,
    detail: String,
    is_default: i64,
}

fn stored(text: &str) -> anyhow::Result<i64> {
    money::parse_stored(text).with_context(|| format!("not an amount: {text}"))
}

/// A coupon template's stored `amount`, `min_amount`, `rate` and `max_reduce`, or why it is
/// refused: what the pricing engine cannot use (a 折扣 without a rate above 0 and below 1, a
/// 满减 taking nothing off) is said here, by the template's title, before the database's
/// check refuses it.
fn coupon_values(coupon: &Coupon) -> anyhow::Result<(i64, i64, i64, Option<i64>)> {
    let title = &coupon.title;
    let amount = stored(&coupon.amount).with_context(|| format!("coupon {title}: amount"))?;
    let min_amount = stored(&coupon.min_amount).with_context(|| format!("coupon {title}: min_amount"))?;
    let rate = coupon.rate.as_deref().map(stored).transpose().with_context(|| format!("coupon {title}: rate"))?.unwrap_or(0);
    let max_reduce = coupon.max_reduce.as_deref().map(stored).transpose().with_context(|| format!("coupon {title}: max_reduce"))?;
    if let Some(why) = crate::domain::settlement::coupon_template_refusal(coupon.kind, amount, min_amount, rate, max_reduce) {
        bail!("seed/catalogue.json: coupon {title} is refused: {why}");
    }
    Ok((amount, min_amount, rate, max_reduce))
}

/// Loads the demo data when the database has no goods yet.
pub async fn seed_if_empty(db: &Db) -> anyhow::Result<bool> {
    let goods: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&db.pool).await?;
    if goods > 0 {
        return Ok(false);
    }
    seed(db).await?;
    Ok(true)
}

/// The id of the first help article (会员注册), which the footer links.
pub const HELP_FIRST_ID: i64 = 66;

/// Empties every content table and loads the demo data, in one transaction.
pub async fn seed(db: &Db) -> anyhow::Result<()> {
    let catalogue: Catalogue = serde_json::from_str(CATALOGUE).context("seed/catalogue.json")?;
    let password_hash = auth::hash_password(&catalogue.demo_member.password)?;
    let mut tx = db.pool.begin().await?;
    for table in CONTENT_TABLES {
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table}")))
            .execute(&mut *tx)
            .await
            .with_context(|| format!("emptying {table}"))?;
    }
    let categories = insert_categories(&mut tx, &catalogue.categories).await?;
    let brands = insert_brands(&mut tx, &catalogue.brands).await?;
    let goods = insert_goods(&mut tx, &catalogue, &categories, &brands).await?;
    insert_activities(&mut tx, &catalogue, &categories, &goods).await?;
    insert_content(&mut tx, &catalogue).await?;
    insert_demo_member(&mut tx, &catalogue.demo_member, &catalogue.coupons, &password_hash, &catalogue.shop.name).await?;
    // Members approved for the controlled-sales zone (the demo pharmacy chain is).
    for username in &catalogue.controlled.approved_members {
        sqlx::query(
            "INSERT INTO kx_members (member_id, status, created_at, reviewed_at) SELECT id, 1, $1, $1 FROM members WHERE username = $2",
        )
        .bind(now())
        .bind(username)
        .execute(&mut *tx)
        .await?;
    }
    if db.kind == crate::db::Kind::Postgres {
        // Articles were given ids: the identity goes on after the highest.
        sqlx::query("SELECT setval(pg_get_serial_sequence('articles', 'id'), (SELECT MAX(id) FROM articles))").execute(&mut *tx).await?;
    }
    tx.commit().await?;
    tracing::info!(goods = catalogue.goods.len(), "demo data loaded");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coupon(kind: i64, amount: &str, rate: Option<&str>) -> Coupon {
        Coupon {
            title: "测试券".into(),
            amount: amount.into(),
            min_amount: "100.00".into(),
            days: 30,
            kind,
            scope: 0,
            rate: rate.map(str::to_owned),
            max_reduce: None,
            centre_stock: 0,
            per_member: 1,
            in_wallet: true,
        }
    }

    #[test]
    fn coupons_the_engine_refuses_are_refused_by_title() {
        assert_eq!(coupon_values(&coupon(2, "0.00", Some("0.95"))).unwrap(), (0, 1_000_000, 9_500, None));
        assert_eq!(coupon_values(&coupon(1, "15.00", None)).unwrap(), (150_000, 1_000_000, 0, None));
        for (kind, amount, rate) in [(2, "0.00", None), (2, "0.00", Some("0")), (2, "0.00", Some("1")), (2, "0.00", Some("1.5"))] {
            let error = coupon_values(&coupon(kind, amount, rate)).unwrap_err().to_string();
            assert!(error.starts_with("seed/catalogue.json: coupon 测试券 is refused: a 折扣 coupon (kind 2)"), "{error}");
            assert!(error.contains("the rate must be above 0 and below 1"), "{error}");
        }
        let error = coupon_values(&coupon(1, "0.00", None)).unwrap_err().to_string();
        assert!(error.contains("a 满减 coupon (kind 1) must take an amount off"), "{error}");
        let error = coupon_values(&coupon(3, "5.00", None)).unwrap_err().to_string();
        assert!(error.contains("the kind must be 1 (满减) or 2 (折扣), got 3"), "{error}");
    }

    #[test]
    fn the_demo_catalogue_is_accepted() {
        let catalogue: Catalogue = serde_json::from_str(CATALOGUE).unwrap();
        for coupon in &catalogue.coupons {
            coupon_values(coupon).unwrap();
        }
    }
}
