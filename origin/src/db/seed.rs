//! The demo data: a realistic Chinese catalogue (`origin/seed/catalogue.json`, compiled in),
//! loaded into an empty database on first start and again by `origin seed`.

use std::collections::HashMap;

use anyhow::{Context, bail};
use serde::Deserialize;
use sqlx::{Any, Transaction};

use super::Db;
use crate::{auth, money, now};

const CATALOGUE: &str = include_str!("../../seed/catalogue.json");

/// Every table the demo data fills, children first (the order to empty them in).
const CONTENT_TABLES: &[&str] = &[
    "invoices",
    "after_sale_photos",
    "after_sale_messages",
    "after_sales",
    "order_logistics",
    "order_events",
    "payments",
    "messages",
    "admin_logs",
    "oauth_states",
    "page_views",
    "client_reports",
    "qualifications",
    "idempotency",
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
    /// The shop's identity (`crate::shop`), written to `settings` once.
    shop: crate::shop::ShopIdentity,
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
    if let Some(why) = crate::settlement::coupon_template_refusal(coupon.kind, amount, min_amount, rate, max_reduce) {
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
    if db.kind == super::Kind::Postgres {
        // Articles were given ids: the identity goes on after the highest.
        sqlx::query("SELECT setval(pg_get_serial_sequence('articles', 'id'), (SELECT MAX(id) FROM articles))").execute(&mut *tx).await?;
    }
    tx.commit().await?;
    tracing::info!(goods = catalogue.goods.len(), "demo data loaded");
    Ok(())
}

/// Category key → (id, ids of the category and all its descendants).
type Categories = HashMap<String, (i64, Vec<i64>)>;

async fn insert_categories(tx: &mut Transaction<'_, Any>, roots: &[Category]) -> anyhow::Result<Categories> {
    let mut ids = Categories::new();
    // Breadth first: a parent always exists before its children.
    let mut level: Vec<(Option<i64>, &Category, String)> =
        roots.iter().map(|root| (None, root, root.shop.clone().unwrap_or_else(|| "general".into()))).collect();
    let mut lineage: Vec<(i64, Option<i64>)> = Vec::new();
    while !level.is_empty() {
        let mut next = Vec::new();
        for (sort, (parent, category, shop)) in level.into_iter().enumerate() {
            let id: i64 =
                sqlx::query_scalar("INSERT INTO categories (parent_id, key, name, shop, sort) VALUES ($1, $2, $3, $4, $5) RETURNING id")
                    .bind(parent)
                    .bind(&category.key)
                    .bind(&category.name)
                    .bind(&shop)
                    .bind(sort as i64)
                    .fetch_one(&mut **tx)
                    .await?;
            ids.insert(category.key.clone(), (id, vec![id]));
            lineage.push((id, parent));
            next.extend(category.children.iter().map(|child| (Some(id), child, shop.clone())));
        }
        level = next;
    }
    // Every category's subtree: walk each category up to the roots.
    let parents: HashMap<i64, Option<i64>> = lineage.into_iter().collect();
    let key_of: HashMap<i64, String> = ids.iter().map(|(key, (id, _))| (*id, key.clone())).collect();
    for (&id, _) in parents.iter() {
        let mut ancestor = parents[&id];
        while let Some(up) = ancestor {
            if let Some((_, subtree)) = ids.get_mut(&key_of[&up]) {
                subtree.push(id);
            }
            ancestor = parents[&up];
        }
    }
    Ok(ids)
}

async fn insert_brands(tx: &mut Transaction<'_, Any>, brands: &[Brand]) -> anyhow::Result<HashMap<String, i64>> {
    let mut ids = HashMap::new();
    for (sort, brand) in brands.iter().enumerate() {
        let id: i64 = sqlx::query_scalar("INSERT INTO brands (name, manufacturer, logo, sort) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(&brand.name)
            .bind(&brand.manufacturer)
            .bind(format!("/api/images/brand/{sort}.svg"))
            .bind(sort as i64)
            .fetch_one(&mut **tx)
            .await?;
        ids.insert(brand.name.clone(), id);
    }
    Ok(ids)
}

/// Goods name → ids (a name may be sold by several manufacturers).
async fn insert_goods(
    tx: &mut Transaction<'_, Any>,
    catalogue: &Catalogue,
    categories: &Categories,
    brands: &HashMap<String, i64>,
) -> anyhow::Result<HashMap<String, Vec<i64>>> {
    let mut ids: HashMap<String, Vec<i64>> = HashMap::new();
    let created = now();
    for (index, goods) in catalogue.goods.iter().enumerate() {
        let (category, _) =
            categories.get(&goods.category).with_context(|| format!("goods {}: no category {}", goods.name, goods.category))?;
        let brand = goods.brand.as_ref().and_then(|name| brands.get(name)).copied();
        // ASCII-lowercased, as search patterns are: matching ignores ASCII case on both databases.
        let search_text =
            format!("{} {} {} {} {}", goods.name, goods.sccj, goods.ypgg, goods.pzwh, goods.brand.clone().unwrap_or_default())
                .to_ascii_lowercase();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO goods (name, category_id, brand_id, sccj, ypgg, bzdw, pzwh, origin, jzl, validity, rx, \
             price, base_price, stock, type, is_youx, is_buy, is_dpby, qg_number, ladder_price_type, tags, \
             description, search_text, sales, created_at, zbz) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
             $21, $22, $23, $24, $25, $26) RETURNING id",
        )
        .bind(&goods.name)
        .bind(category)
        .bind(brand)
        .bind(&goods.sccj)
        .bind(&goods.ypgg)
        .bind(&goods.bzdw)
        .bind(&goods.pzwh)
        .bind(&goods.origin)
        .bind(goods.jzl)
        .bind(&goods.validity)
        .bind(i64::from(goods.rx))
        .bind(stored(&goods.price)?)
        .bind(stored(&goods.base_price)?)
        .bind(goods.stock.max(0))
        .bind(goods.goods_type)
        .bind(goods.is_youx)
        .bind(goods.is_buy)
        .bind(goods.is_dpby)
        .bind(goods.qg_number)
        .bind(goods.ladder_price_type)
        .bind(goods.tags.join(","))
        .bind(&goods.description)
        .bind(search_text)
        // A steady, made-up sales figure so that "by sales" sorts the demo sensibly.
        .bind(((index * 7919) % 1000) as i64)
        .bind(created - index as i64)
        .bind(goods.zbz.unwrap_or_else(|| middle_pack(goods.jzl, goods.goods_type)))
        .fetch_one(&mut **tx)
        .await?;
        for step in &goods.ladder_price {
            sqlx::query("INSERT INTO goods_ladders (goods_id, number, price) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(step.number)
                .bind(stored(&step.price)?)
                .execute(&mut **tx)
                .await?;
        }
        ids.entry(goods.name.clone()).or_default().push(id);
    }
    Ok(ids)
}

async fn insert_activities(
    tx: &mut Transaction<'_, Any>,
    catalogue: &Catalogue,
    categories: &Categories,
    goods: &HashMap<String, Vec<i64>>,
) -> anyhow::Result<()> {
    for activity in &catalogue.manjian_activities {
        let id: i64 = sqlx::query_scalar("INSERT INTO manjian_activities (title) VALUES ($1) RETURNING id")
            .bind(&activity.title)
            .fetch_one(&mut **tx)
            .await?;
        for (sort, tier) in activity.tiers.iter().enumerate() {
            sqlx::query("INSERT INTO manjian_tiers (activity_id, amount, reduce, sort) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(stored(&tier.amount)?)
                .bind(stored(&tier.reduce)?)
                .bind(sort as i64)
                .execute(&mut **tx)
                .await?;
        }
        for key in &activity.categories {
            let (_, subtree) = categories.get(key).with_context(|| format!("activity: no category {key}"))?;
            for category in subtree {
                sqlx::query("UPDATE goods SET manjian_id = $1 WHERE category_id = $2 AND manjian_id = 0")
                    .bind(id)
                    .bind(category)
                    .execute(&mut **tx)
                    .await?;
            }
        }
    }
    let first = |name: &str| -> anyhow::Result<i64> {
        goods.get(name).and_then(|ids| ids.first().copied()).with_context(|| format!("no goods named {name}"))
    };
    let start = now() - 3600;
    for (index, sale) in catalogue.flash_sales.iter().enumerate() {
        sqlx::query("INSERT INTO flash_sales (goods_id, price, limit_number, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(first(&sale.goods)?)
            .bind(stored(&sale.price)?)
            .bind(sale.limit)
            .bind(start)
            // Staggered ends, days ahead, so the home page always counts down.
            .bind(start + 3 * 86_400 + index as i64 * 5_400)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, name) in catalogue.everyday_specials.iter().enumerate() {
        sqlx::query("INSERT INTO everyday_specials (goods_id, sort) VALUES ($1, $2)")
            .bind(first(name)?)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for combination in &catalogue.combinations {
        let id: i64 = sqlx::query_scalar("INSERT INTO combinations (name, price, stock) VALUES ($1, $2, $3) RETURNING id")
            .bind(&combination.name)
            .bind(stored(&combination.price)?)
            .bind(200i64)
            .fetch_one(&mut **tx)
            .await?;
        for name in &combination.goods {
            sqlx::query("INSERT INTO combination_items (combination_id, goods_id, number) VALUES ($1, $2, 1)")
                .bind(id)
                .bind(first(name)?)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, coupon) in catalogue.coupons.iter().enumerate() {
        let (amount, min_amount, rate, max_reduce) = coupon_values(coupon)?;
        sqlx::query(
            "INSERT INTO coupons (title, amount, min_amount, days, kind, scope, rate, max_reduce, centre_stock, per_member, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&coupon.title)
        .bind(amount)
        .bind(min_amount)
        .bind(coupon.days)
        .bind(coupon.kind)
        .bind(coupon.scope)
        .bind(rate)
        .bind(max_reduce)
        .bind(coupon.centre_stock)
        .bind(coupon.per_member)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    for voucher in &catalogue.cash_vouchers {
        sqlx::query("INSERT INTO cash_vouchers (title, amount, min_amount, days) VALUES ($1, $2, $3, $4)")
            .bind(&voucher.title)
            .bind(stored(&voucher.amount)?)
            .bind(stored(&voucher.min_amount)?)
            .bind(voucher.days)
            .execute(&mut **tx)
            .await?;
    }
    for item in &catalogue.near_expiry {
        let (year, month, day) = crate::civil_date(now() + item.days * 86_400, 8 * 3600);
        sqlx::query("UPDATE goods SET expires_on = $1 WHERE id = $2")
            .bind(format!("{year:04}-{month:02}-{day:02}"))
            .bind(first(&item.goods)?)
            .execute(&mut **tx)
            .await?;
    }
    for welfare in &catalogue.welfare {
        engine::Money::parse(&welfare.rate).map_err(|error| anyhow::anyhow!("welfare {}: rate {error}", welfare.title))?;
        sqlx::query("INSERT INTO welfare_activities (title, rate, starts_at, ends_at) VALUES ($1, $2, $3, $4)")
            .bind(&welfare.title)
            .bind(&welfare.rate)
            .bind(now() - 86_400)
            .bind(now() + welfare.days * 86_400)
            .execute(&mut **tx)
            .await?;
    }
    for cashback in &catalogue.cashback {
        let activity: i64 =
            sqlx::query_scalar("INSERT INTO cashback_activities (title, starts_at, ends_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(&cashback.title)
                .bind(now() - 86_400)
                .bind(now() + cashback.days * 86_400)
                .fetch_one(&mut **tx)
                .await?;
        for tier in &cashback.tiers {
            sqlx::query("INSERT INTO cashback_tiers (activity_id, amount, back) VALUES ($1, $2, $3)")
                .bind(activity)
                .bind(stored(&tier.amount)?)
                .bind(stored(&tier.back)?)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, activity) in catalogue.activities.iter().enumerate() {
        let starts = now() + activity.starts_in * 86_400;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO activities (url, title, subtitle, template, color, note, starts_at, ends_at, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(&activity.url)
        .bind(&activity.title)
        .bind(&activity.subtitle)
        .bind(&activity.template)
        .bind(&activity.color)
        .bind(&activity.note)
        .bind(starts)
        .bind(starts + activity.days * 86_400)
        .bind(sort as i64)
        .fetch_one(&mut **tx)
        .await?;
        for (place, section) in activity.sections.iter().enumerate() {
            let section_id: i64 =
                sqlx::query_scalar("INSERT INTO activity_sections (activity_id, title, sort) VALUES ($1, $2, $3) RETURNING id")
                    .bind(id)
                    .bind(&section.title)
                    .bind(place as i64)
                    .fetch_one(&mut **tx)
                    .await?;
            for (order, name) in section.goods.iter().enumerate() {
                sqlx::query("INSERT INTO activity_goods (section_id, goods_id, sort) VALUES ($1, $2, $3)")
                    .bind(section_id)
                    .bind(first(name)?)
                    .bind(order as i64)
                    .execute(&mut **tx)
                    .await?;
            }
        }
    }
    let controlled = &catalogue.controlled;
    for item in &controlled.goods {
        sqlx::query("UPDATE goods SET is_kx = 1, kx_listed_at = $1 WHERE id = $2")
            .bind(now() - item.listed_days_ago * 86_400)
            .bind(first(&item.goods)?)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, programme) in controlled.programmes.iter().enumerate() {
        let id: i64 =
            sqlx::query_scalar("INSERT INTO kx_programmes (url, title, subtitle, color, sort) VALUES ($1, $2, $3, $4, $5) RETURNING id")
                .bind(&programme.url)
                .bind(&programme.title)
                .bind(&programme.subtitle)
                .bind(&programme.color)
                .bind(sort as i64)
                .fetch_one(&mut **tx)
                .await?;
        for (place, name) in programme.goods.iter().enumerate() {
            sqlx::query("INSERT INTO kx_programme_goods (programme_id, goods_id, sort) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(first(name)?)
                .bind(place as i64)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, ad) in controlled.ads.iter().enumerate() {
        sqlx::query("INSERT INTO kx_ads (title, subtitle, color, url, sort) VALUES ($1, $2, $3, $4, $5)")
            .bind(&ad.title)
            .bind(&ad.subtitle)
            .bind(&ad.color)
            .bind(&ad.url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for draw in &catalogue.draws {
        let today = now();
        let activity: i64 =
            sqlx::query_scalar("INSERT INTO draw_activities (title, description, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id")
                .bind(&draw.title)
                .bind(&draw.description)
                .bind(today - 86_400)
                .bind(today + draw.days * 86_400)
                .fetch_one(&mut **tx)
                .await?;
        for (sort, prize) in draw.prizes.iter().enumerate() {
            let coupon: Option<i64> = match &prize.coupon {
                Some(title) => Some(
                    sqlx::query_scalar("SELECT id FROM coupons WHERE title = $1")
                        .bind(title)
                        .fetch_optional(&mut **tx)
                        .await?
                        .ok_or_else(|| anyhow::anyhow!("draw prize {}: no coupon {title}", prize.name))?,
                ),
                None => None,
            };
            sqlx::query(
                "INSERT INTO draw_prizes (activity_id, name, remarks, kind, coupon_id, points, red_packet, weight, stock, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(activity)
            .bind(&prize.name)
            .bind(&prize.remarks)
            .bind(prize.kind)
            .bind(coupon)
            .bind(prize.points)
            .bind(prize.red_packet.as_deref().map(stored).transpose()?.unwrap_or(0))
            .bind(prize.weight)
            .bind(prize.stock)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
        }
    }
    for (sort, item) in catalogue.points_goods.iter().enumerate() {
        let goods = match &item.goods {
            Some(name) => Some(first(name)?),
            None => None,
        };
        let coupon: Option<i64> = match &item.coupon {
            Some(title) => Some(
                sqlx::query_scalar("SELECT id FROM coupons WHERE title = $1")
                    .bind(title)
                    .fetch_optional(&mut **tx)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("points goods {}: no coupon {title}", item.name))?,
            ),
            None => None,
        };
        sqlx::query(
            "INSERT INTO points_goods (name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&item.name)
        .bind(&item.description)
        .bind(item.kind)
        .bind(goods)
        .bind(coupon)
        .bind(item.red_packet.as_deref().map(stored).transpose()?.unwrap_or(0))
        .bind(item.points)
        .bind(stored(&item.price)?)
        .bind(item.stock)
        .bind(item.per_member)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

async fn insert_content(tx: &mut Transaction<'_, Any>, catalogue: &Catalogue) -> anyhow::Result<()> {
    for (sort, term) in catalogue.hot_terms.iter().enumerate() {
        sqlx::query("INSERT INTO hot_terms (term, sort) VALUES ($1, $2)").bind(term).bind(sort as i64).execute(&mut **tx).await?;
    }
    for (sort, link) in catalogue.nav.iter().enumerate() {
        sqlx::query("INSERT INTO nav (name, url, is_open, sort) VALUES ($1, $2, 0, $3)")
            .bind(link.name.as_deref().or(link.title.as_deref()).unwrap_or_default())
            .bind(&link.url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, banner) in catalogue.banners.iter().enumerate() {
        insert_ad(tx, "focus", &banner.title, &banner.subtitle, &banner.url, &banner.color, sort).await?;
    }
    for (position, ads) in &catalogue.right_ads {
        for (sort, ad) in ads.iter().enumerate() {
            let title = ad.title.as_deref().or(ad.name.as_deref()).unwrap_or_default();
            insert_ad(tx, position, title, "", &ad.url, "", sort).await?;
        }
    }
    // Help articles keep fixed ids from 66 on: the footer links the first, 会员注册, as
    // `/help/xrzn/hyzc?id=66` (spec §2).
    let mut help_id = HELP_FIRST_ID;
    for (sort, group) in catalogue.help.iter().enumerate() {
        for (item_sort, item) in group.items.iter().enumerate() {
            sqlx::query("INSERT INTO articles (id, kind, group_name, path, title, body, sort) VALUES ($1, 'help', $2, $3, $4, $5, $6)")
                .bind(help_id)
                .bind(&group.group)
                .bind(&item.path)
                .bind(&item.title)
                .bind(&item.body)
                .bind((sort * 100 + item_sort) as i64)
                .execute(&mut **tx)
                .await?;
            help_id += 1;
        }
    }
    for (sort, news) in catalogue.news.iter().enumerate() {
        sqlx::query(
            "INSERT INTO articles (kind, category, title, summary, body, published_on, sort) \
             VALUES ('news', $1, $2, $3, $4, $5, $6)",
        )
        .bind(&news.category)
        .bind(&news.title)
        .bind(&news.summary)
        .bind(&news.body)
        .bind(&news.date)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    let links = [("国家药品监督管理局", "https://www.nmpa.gov.cn"), ("中国医药商业协会", "https://www.cacpc.org.cn")];
    for (sort, (name, url)) in links.iter().enumerate() {
        sqlx::query("INSERT INTO links (name, url, sort) VALUES ($1, $2, $3)")
            .bind(*name)
            .bind(*url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    // The shop's identity, each value as `origin admin settings` would take it.
    for field in &crate::shop::FIELDS {
        let value = catalogue.shop.get(field.name).unwrap_or_default();
        match crate::shop::check(field, value) {
            Ok(kept) if kept == value => {}
            Ok(kept) => bail!("the catalogue's shop.{} must be written as {kept:?}", field.name),
            Err(why) => bail!("the catalogue's shop.{}: {why}", field.name),
        }
    }
    let mut settings = catalogue.shop.rows();
    settings.extend([
        ("quality_inspection_msg", "质检报告请联系您的专属客服索取"),
        // Settlement (docs/pricing.md, rules 15–17), as migration 0009 writes them.
        ("shipping_fee", "10.00"),
        ("red_packet_max_rate", "0.1"),
        ("points_max_rate", "0.1"),
        ("points_per_yuan", "100"),
        ("points_earned_per_yuan", "1"),
    ]);
    for (key, value) in settings {
        sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2)").bind(key).bind(value).execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_ad(
    tx: &mut Transaction<'_, Any>,
    position: &str,
    title: &str,
    subtitle: &str,
    url: &str,
    color: &str,
    sort: usize,
) -> anyhow::Result<()> {
    sqlx::query("INSERT INTO ads (position, title, subtitle, url, image, color, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(position)
        .bind(title)
        .bind(subtitle)
        .bind(url)
        .bind(format!("/api/images/ad/{position}/{sort}.svg"))
        .bind(color)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

async fn insert_demo_member(
    tx: &mut Transaction<'_, Any>,
    member: &DemoMember,
    coupons: &[Coupon],
    password_hash: &str,
    shop_name: &str,
) -> anyhow::Result<()> {
    if member.addresses.is_empty() {
        bail!("the demo member needs an address");
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO members (username, phone, email, password_hash, company, name, is_passed, agreement_signed, points, balance, \
         manager_name, manager_phone, created_at) VALUES ($1, $2, $3, $4, $5, $6, 1, 1, $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind(&member.username)
    .bind(&member.phone)
    .bind(&member.email)
    .bind(password_hash)
    .bind(&member.company)
    .bind(&member.name)
    .bind(member.points)
    .bind(stored(&member.balance)?)
    .bind(&member.account_manager.name)
    .bind(&member.account_manager.phone)
    .bind(now())
    .fetch_one(&mut **tx)
    .await?;
    for address in &member.addresses {
        sqlx::query(
            "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(&address.contact)
        .bind(&address.phone)
        .bind(&address.province)
        .bind(&address.city)
        .bind(&address.district)
        .bind(&address.detail)
        .bind(address.is_default)
        .execute(&mut **tx)
        .await?;
    }
    // Every coupon (but those only the coupon centre gives) and cash voucher of the shop, once,
    // valid from yesterday, in the demo member's wallet; and, to show the other states at checkout and in the lists, one coupon that expired
    // yesterday and one valid only from three days on.
    let today = now();
    for table in ["member_coupons (member_id, coupon_id", "member_cash_vouchers (member_id, voucher_id"] {
        let templates = if table.starts_with("member_coupons") { "coupons" } else { "cash_vouchers" };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {table}, status, starts_at, expires_at, created_at) SELECT $1, id, 0, $2 - 86400, $2 + days * 86400, $2 FROM {templates}"
        )))
        .bind(id)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    }
    for coupon in coupons.iter().filter(|coupon| !coupon.in_wallet) {
        sqlx::query("DELETE FROM member_coupons WHERE member_id = $1 AND coupon_id IN (SELECT id FROM coupons WHERE title = $2)")
            .bind(id)
            .bind(&coupon.title)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at) \
         SELECT $1, id, 0, $2 - 31 * 86400, $2 - 86400, $2 - 31 * 86400 FROM coupons WHERE id = (SELECT MIN(id) FROM coupons)",
    )
    .bind(id)
    .bind(today)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at) \
         SELECT $1, id, 0, $2 + 3 * 86400, $2 + 33 * 86400, $2 FROM coupons WHERE kind = 1 AND scope = 0 ORDER BY amount DESC LIMIT 1",
    )
    .bind(id)
    .bind(today)
    .execute(&mut **tx)
    .await?;
    let red_packet = stored(&member.red_packet)?;
    sqlx::query("UPDATE members SET red_packet = $1 WHERE id = $2").bind(red_packet).bind(id).execute(&mut **tx).await?;
    sqlx::query("INSERT INTO red_packet_logs (member_id, amount, balance_after, note, created_at) VALUES ($1, $2, $2, '开户赠送', $3)")
        .bind(id)
        .bind(red_packet)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO points_logs (member_id, points, balance_after, note, created_at) VALUES ($1, $2, $2, '开户赠送', $3)")
        .bind(id)
        .bind(member.points)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, note, created_at) VALUES ($1, $2, $2, 1, '开户充值', $3)",
    )
    .bind(id)
    .bind(stored(&member.balance)?)
    .bind(now())
    .execute(&mut **tx)
    .await?;
    // Approved with its licences (numbers only: scans are uploaded in the account centre), and
    // the business scope they allow; a welcome message, unread.
    for (kind, number, expires_on) in [("营业执照", "91330106MA2B3C4D5E", "2035-12-31"), ("药品经营许可证", "浙CA5710086", "2029-06-30")]
    {
        sqlx::query(
            "INSERT INTO qualifications (member_id, kind, number, expires_on, status, created_at, reviewed_at) VALUES ($1, $2, $3, $4, 1, $5, $5)",
        )
        .bind(id)
        .bind(kind)
        .bind(number)
        .bind(expires_on)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("UPDATE members SET business_scope = $1 WHERE id = $2")
        .bind("中成药\n化学药制剂\n抗生素制剂\n生化药品\n中药饮片\n医疗器械（二类）")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO messages (member_id, kind, title, body, created_at) VALUES ($1, 1, $2, $3, $4)")
        .bind(id)
        .bind(format!("欢迎加入{shop_name}"))
        .bind("您的资质已审核通过，可以下单采购。账户已赠送优惠券、现金券、红包和积分，可在“我的钱包”查看。")
        .bind(today)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The demo's 中包装 where the catalogue names none: medicines packed by the case come ten (or
/// five) to a middle pack when the case divides so; herbs (type 2) and small cases have none (1).
pub(crate) fn middle_pack(jzl: i64, goods_type: i64) -> i64 {
    match jzl {
        _ if goods_type == 2 => 1,
        100.. if jzl % 10 == 0 => 10,
        50.. if jzl % 5 == 0 => 5,
        _ => 1,
    }
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
