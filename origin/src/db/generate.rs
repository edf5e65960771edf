//! `origin admin seed --goods N`: a wholesaler's catalogue of N more goods, for benchmarks
//! and tests at scale.
//!
//! Each goods is made from one of the goods already in the shop (the demo's 382 when the
//! database is new): the same medicine, category, unit, kind and full-reduction activity, as
//! a real catalogue lists one generic from many manufacturers — here from one of thousands of
//! made-up ones (city + trade name + company form), in another pack size, under its own
//! approval number, at a price around the template's, with ladders on about one in six, a
//! brand on about half the branded ones, stock (a few sold out), sales spread unevenly (a few
//! best-sellers, a long tail). The same `--seed` writes the same goods.

use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sqlx::{AnyConnection, Connection};

use crate::db::Kind;
use crate::now;

/// Rows per INSERT statement (26 parameters each, under both databases' limits).
const ROWS_PER_STATEMENT: usize = 200;
/// Rows per transaction: a crash loses at most one batch, and SQLite's log stays small.
const ROWS_PER_TRANSACTION: usize = 10_000;

const CITIES: &[&str] = &[
    "北京",
    "上海",
    "天津",
    "重庆",
    "广州",
    "深圳",
    "杭州",
    "南京",
    "苏州",
    "无锡",
    "济南",
    "青岛",
    "郑州",
    "武汉",
    "长沙",
    "成都",
    "西安",
    "兰州",
    "昆明",
    "贵阳",
    "南宁",
    "海口",
    "福州",
    "厦门",
    "南昌",
    "合肥",
    "太原",
    "石家庄",
    "哈尔滨",
    "长春",
    "沈阳",
    "大连",
    "呼和浩特",
    "银川",
    "西宁",
    "乌鲁木齐",
    "拉萨",
    "湖北",
    "湖南",
    "四川",
    "云南",
    "吉林",
    "江西",
    "浙江",
    "山东",
    "河北",
    "河南",
    "广西",
    "安徽",
    "黑龙江",
];
const TRADE_NAMES: &[&str] = &[
    "华康", "仁和", "康恩", "天士", "恒瑞", "济民", "百灵", "康缘", "益丰", "同济", "福瑞", "瑞阳", "金陵", "九州", "汇仁", "三精", "太极",
    "光明", "永安", "德众", "惠民", "长城", "新华", "东方", "万和", "普济", "中和", "信谊", "鲁南", "海王", "贝克", "美罗", "华润", "双鹤",
    "葵花", "修正", "康美", "天龙", "中联",
];
const COMPANY_FORMS: &[&str] = &["制药有限公司", "药业股份有限公司", "制药厂", "药业集团有限公司", "医药科技有限公司", "生物制药有限公司"];
const PACK_COUNTS: &[i64] = &[6, 10, 12, 14, 20, 24, 30, 36, 48, 50, 60, 100];

/// A goods already in the shop that new ones are made from.
#[derive(sqlx::FromRow)]
struct Template {
    name: String,
    category_id: i64,
    brand_id: Option<i64>,
    ypgg: String,
    bzdw: String,
    pzwh: String,
    dispensing: i64,
    scope_class: i64,
    vat_rate: i64,
    price: i64,
    #[sqlx(rename = "type")]
    goods_type: i64,
    is_youx: i64,
    jzl: i64,
    zbz: i64,
    validity: String,
    manjian_id: i64,
    description: String,
}

/// Writes `count` goods made from the shop's current goods; answers what it did.
pub async fn generate(conn: &mut AnyConnection, kind: Kind, count: usize, seed: u64) -> anyhow::Result<String> {
    let started = std::time::Instant::now();
    let templates: Vec<Template> = sqlx::query_as(
        "SELECT name, category_id, brand_id, ypgg, bzdw, pzwh, dispensing, scope_class, vat_rate, price, type, is_youx, jzl, zbz, validity, manjian_id, description \
         FROM goods WHERE is_kx = 0 ORDER BY id LIMIT 2000",
    )
    .fetch_all(&mut *conn)
    .await?;
    anyhow::ensure!(!templates.is_empty(), "the shop has no goods to make new ones from");
    let mut random = StdRng::seed_from_u64(seed);
    let created = now();
    let mut written = 0;
    while written < count {
        let batch = (count - written).min(ROWS_PER_TRANSACTION);
        let mut tx = conn.begin().await?;
        let mut done = 0;
        while done < batch {
            let rows = (batch - done).min(ROWS_PER_STATEMENT);
            let goods: Vec<Made> = (0..rows).map(|_| made(&templates, &mut random)).collect();
            let last: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM goods").fetch_one(&mut *tx).await?;
            insert(&mut tx, &goods, created - (written + done) as i64).await?;
            // Ids ascend in the order of the rows, in this transaction alone.
            let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM goods WHERE id > $1 ORDER BY id").bind(last).fetch_all(&mut *tx).await?;
            anyhow::ensure!(ids.len() == goods.len(), "expected {} new goods, found {}", goods.len(), ids.len());
            for (id, made) in ids.iter().zip(&goods) {
                for (number, price) in &made.ladder {
                    sqlx::query("INSERT INTO goods_ladders (goods_id, number, price) VALUES ($1, $2, $3)")
                        .bind(id)
                        .bind(number)
                        .bind(price)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            // Each goods' stock is one lot, long-dated: its shown expiry.
            let (produced, expires) = (shop_day(created - 600 * 86_400), shop_day(created + 500 * 86_400));
            sqlx::query(
                "INSERT INTO goods_lots (goods_id, lot_no, produced_on, expires_on, received, quantity, created_at) \
                 SELECT id, 'G' || id, $1, $2, stock, stock, $3 FROM goods WHERE id > $4 AND stock > 0",
            )
            .bind(&produced)
            .bind(&expires)
            .bind(created)
            .bind(last)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE goods SET expires_on = $1 WHERE id > $2 AND stock > 0").bind(&expires).bind(last).execute(&mut *tx).await?;
            done += rows;
        }
        tx.commit().await.context("committing generated goods")?;
        written += batch;
    }
    // After a bulk load: SQLite copies its write-ahead log into the database now, not during
    // the first requests that write; PostgreSQL's planner learns the table's new size.
    match kind {
        Kind::Sqlite => sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut *conn).await?,
        Kind::Postgres => sqlx::query("ANALYZE goods").execute(&mut *conn).await?,
    };
    let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&mut *conn).await?;
    Ok(format!("generated {count} goods in {:.1} s; the catalogue now holds {total}\n", started.elapsed().as_secs_f64()))
}

/// `YYYY-MM-DD` of the shop's day (UTC+8) at `seconds` (as `domain::catalogue::lots::day`, which
/// this layer, below the domain, does not import).
fn shop_day(seconds: i64) -> String {
    let (year, month, day) = crate::civil_date(seconds, 8 * 3600);
    format!("{year:04}-{month:02}-{day:02}")
}

/// One goods to write.
struct Made {
    name: String,
    category_id: i64,
    brand_id: Option<i64>,
    sccj: String,
    ypgg: String,
    bzdw: String,
    pzwh: String,
    jzl: i64,
    zbz: i64,
    validity: String,
    dispensing: i64,
    scope_class: i64,
    vat_rate: i64,
    price: i64,
    base_price: i64,
    stock: i64,
    goods_type: i64,
    is_youx: i64,
    is_buy: i64,
    is_dpby: i64,
    /// 单品包邮's least quantity: ten middle packs when the goods ships free, as the goods form
    /// requires (without a draw of its own, so that a seed makes the goods it always made).
    qg_number: i64,
    ladder_price_type: i64,
    manjian_id: i64,
    description: String,
    sales: i64,
    /// (number, price in cents) steps.
    ladder: Vec<(i64, i64)>,
}

fn made(templates: &[Template], random: &mut StdRng) -> Made {
    let template = &templates[random.gen_range(0..templates.len())];
    let sccj = format!(
        "{}{}{}",
        CITIES[random.gen_range(0..CITIES.len())],
        TRADE_NAMES[random.gen_range(0..TRADE_NAMES.len())],
        COMPANY_FORMS[random.gen_range(0..COMPANY_FORMS.len())]
    );
    let ypgg = match template.ypgg.rsplit_once('*') {
        Some((dose, pack)) => {
            let unit: String = pack.chars().skip_while(|c| c.is_ascii_digit()).collect();
            format!("{dose}*{}{unit}", PACK_COUNTS[random.gen_range(0..PACK_COUNTS.len())])
        }
        None => template.ypgg.clone(),
    };
    let pzwh = match template.pzwh.strip_prefix("国药准字") {
        Some(rest) => {
            let letter = rest.chars().next().filter(char::is_ascii_alphabetic).map(String::from).unwrap_or_default();
            format!("国药准字{letter}{:08}", random.gen_range(10_000_000..100_000_000))
        }
        None => template.pzwh.clone(),
    };
    // Around the template's price, in whole cents, never free.
    let price = (template.price * random.gen_range(70..140) / 100).max(10);
    let ladder = if random.gen_ratio(1, 6) { vec![(10, price * 97 / 100), (50, price * 94 / 100)] } else { Vec::new() };
    // A long tail: most goods sell little, a few sell a lot.
    let sales = {
        let x: f64 = random.r#gen();
        (10_000.0 * x.powi(8)) as i64
    };
    let mut made = Made {
        name: template.name.clone(),
        category_id: template.category_id,
        brand_id: template.brand_id.filter(|_| random.gen_bool(0.5)),
        sccj,
        ypgg,
        bzdw: template.bzdw.clone(),
        pzwh,
        jzl: template.jzl,
        zbz: template.zbz,
        validity: template.validity.clone(),
        dispensing: template.dispensing,
        scope_class: template.scope_class,
        vat_rate: template.vat_rate,
        price,
        base_price: price * 6 / 5,
        stock: if random.gen_ratio(1, 20) { 0 } else { random.gen_range(10..10_000) },
        goods_type: template.goods_type,
        is_youx: template.is_youx,
        is_buy: i64::from(!random.gen_ratio(1, 40)),
        is_dpby: i64::from(random.gen_ratio(1, 20)),
        qg_number: 0,
        // 2: each step a minimum quantity (docs/pricing.md).
        ladder_price_type: if ladder.is_empty() { 0 } else { 2 },
        manjian_id: template.manjian_id,
        description: template.description.clone(),
        sales,
        ladder,
    };
    if made.is_dpby == 1 {
        made.qg_number = template.zbz.max(1) * 10;
    }
    made
}

async fn insert(conn: &mut AnyConnection, goods: &[Made], created: i64) -> anyhow::Result<()> {
    const COLUMNS: usize = 27;
    let values = (0..goods.len()).map(|row| format!("({})", super::params(row * COLUMNS + 1, COLUMNS))).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "INSERT INTO goods (name, category_id, brand_id, sccj, ypgg, bzdw, pzwh, jzl, validity, dispensing, price, base_price, \
         stock, type, is_youx, is_buy, is_dpby, ladder_price_type, manjian_id, description, search_text, sales, created_at, \
         qg_number, zbz, scope_class, vat_rate) VALUES {values}"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for (index, made) in goods.iter().enumerate() {
        let search_text = format!("{} {} {} {}", made.name, made.sccj, made.ypgg, made.pzwh).to_ascii_lowercase();
        query = query
            .bind(made.name.clone())
            .bind(made.category_id)
            .bind(made.brand_id)
            .bind(made.sccj.clone())
            .bind(made.ypgg.clone())
            .bind(made.bzdw.clone())
            .bind(made.pzwh.clone())
            .bind(made.jzl)
            .bind(made.validity.clone())
            .bind(made.dispensing)
            .bind(made.price)
            .bind(made.base_price)
            .bind(made.stock)
            .bind(made.goods_type)
            .bind(made.is_youx)
            .bind(made.is_buy)
            .bind(made.is_dpby)
            .bind(made.ladder_price_type)
            .bind(made.manjian_id)
            .bind(made.description.clone())
            .bind(search_text)
            .bind(made.sales)
            .bind(created - index as i64)
            .bind(made.qg_number)
            .bind(made.zbz)
            .bind(made.scope_class)
            .bind(made.vat_rate);
    }
    query.execute(conn).await?;
    Ok(())
}
