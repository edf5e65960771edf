//! The goods card: the list views', the cart's and the favourites' shape of a goods (§3 "Cart
//! goods"), and the SQL that reads whole cards — ladder steps and the running flash sale
//! included — in the statement that reads the goods.

use serde::{Deserialize, Serialize};
use sqlx::FromRow;
use sqlx::any::AnyRow;
use utoipa::ToSchema;

use super::scope::{Dispensing, OUT_OF_SCOPE, ScopeClass};
use super::viewer::Viewer;
use crate::db::Kind;
use crate::domain::Result;
use crate::domain::catalogue::pictures;
use crate::money;

/// The columns of a goods card (alias `g`) as (name, expression), its ladder steps and its
/// running flash sale included, so that one statement reads whole cards (every statement is a
/// hand-off to the database's thread, and a cart list is on the hot path): the steps as
/// `number:price,…` by number, the sale as `id:price:limit:ends_at` (the newest, should two
/// overlap). `now` is the number of the parameter that holds the current time.
/// `string_agg … ORDER BY` is the same in SQLite (3.44 and later; sqlx bundles its own) and
/// PostgreSQL.
fn card_fields(now: usize) -> Vec<(&'static str, String)> {
    let columns = [
        "id",
        "name",
        "sccj",
        "ypgg",
        "bzdw",
        "pzwh",
        "price",
        "base_price",
        "stock",
        "type",
        "is_youx",
        "is_buy",
        "is_dpby",
        "qg_number",
        "ladder_price_type",
        "tags",
        "expires_on",
        "is_kx",
        "zbz",
        "jzl",
        "sales",
        "scope_class",
        "dispensing",
        "control_per_order",
        "control_per_month",
    ];
    let mut fields: Vec<(&'static str, String)> = columns.iter().map(|column| (*column, format!("g.{column}"))).collect();
    // The full-reduction activity while it runs; 0 before it starts, after it ends, and for none.
    fields.push((
        "manjian_id",
        format!(
            "COALESCE((SELECT m.id FROM manjian_activities m WHERE m.id = g.manjian_id AND m.starts_at <= ${now} AND m.ends_at > ${now}), 0)"
        ),
    ));
    fields.push((
        "card_ladders",
        "(SELECT string_agg(CAST(l.number AS TEXT) || ':' || CAST(l.price AS TEXT), ',' ORDER BY l.number) \
         FROM goods_ladders l WHERE l.goods_id = g.id)"
            .into(),
    ));
    fields.push((
        "card_sale",
        format!(
            "(SELECT CAST(s.id AS TEXT) || ':' || CAST(s.price AS TEXT) || ':' || CAST(s.limit_number AS TEXT) || ':' || CAST(s.ends_at AS TEXT) \
             FROM flash_sales s WHERE s.goods_id = g.id AND s.starts_at <= ${now} AND s.ends_at > ${now} ORDER BY s.id DESC LIMIT 1)"
        ),
    ));
    // The main picture an operator uploaded, if any (`domain::staff::pictures`).
    fields.push(("card_picture", "(SELECT p.id FROM goods_pictures p WHERE p.goods_id = g.id ORDER BY p.sort, p.id LIMIT 1)".into()));
    fields.push((
        "card_rate",
        format!("(SELECT w.rate FROM welfare_activities w WHERE w.is_on = 1 AND w.starts_at <= ${now} AND w.ends_at > ${now} ORDER BY w.id DESC LIMIT 1)"),
    ));
    fields
}

/// [`card_fields`] as a select list, one column each, read back with [`CardRow`]'s `FromRow`.
pub fn card_columns(now: usize) -> String {
    card_fields(now).iter().map(|(name, expression)| format!("{expression} AS {name}")).collect::<Vec<_>>().join(", ")
}

/// [`card_fields`] as one JSON object (the database's own function for it), read back with
/// [`CardRow`]'s `Deserialize`.
pub fn card_json(kind: Kind, now: usize) -> String {
    let pairs = card_fields(now).iter().map(|(name, expression)| format!("'{name}', {expression}")).collect::<Vec<_>>().join(", ");
    format!("{}({pairs})", kind.json_object())
}

/// What [`card_fields`] select.
#[derive(Debug, Deserialize, sqlx::FromRow)]
pub struct CardRow {
    pub id: i64,
    pub name: String,
    pub sccj: String,
    pub ypgg: String,
    pub bzdw: String,
    pub pzwh: String,
    pub price: i64,
    pub base_price: i64,
    pub stock: i64,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub goods_type: i64,
    pub is_youx: i64,
    pub is_buy: i64,
    pub is_dpby: i64,
    pub qg_number: i64,
    pub ladder_price_type: i64,
    pub manjian_id: i64,
    pub tags: String,
    #[serde(default)]
    pub expires_on: String,
    #[serde(default)]
    pub is_kx: i64,
    #[serde(default = "one")]
    pub zbz: i64,
    #[serde(default)]
    pub jzl: i64,
    #[serde(default)]
    pub sales: i64,
    #[serde(default = "one")]
    pub scope_class: i64,
    #[serde(default)]
    pub dispensing: i64,
    #[serde(default)]
    pub control_per_order: i64,
    #[serde(default)]
    pub control_per_month: i64,
    pub card_ladders: Option<String>,
    pub card_sale: Option<String>,
    /// The running store-wide discount's rate (`0.94`), if any.
    #[serde(default)]
    pub card_rate: Option<String>,
    /// The goods' main uploaded picture, if any.
    #[serde(default)]
    pub card_picture: Option<i64>,
}

fn one() -> i64 {
    1
}

/// 有货 / 库存紧张 / 缺货.
fn stock_state(stock: i64, is_buy: i64) -> &'static str {
    match (is_buy, stock) {
        (0, _) | (_, 0) => "缺货",
        (_, 1..=20) => "库存紧张",
        _ => "有货",
    }
}

/// The integers of an item of one of [`card_columns`]' aggregated columns (`a:b:…`).
fn integers<const N: usize>(item: &str) -> Result<[i64; N]> {
    let mut parts = item.split(':');
    let mut values = [0; N];
    for value in &mut values {
        *value = parts.next().and_then(|part| part.parse().ok()).ok_or_else(|| anyhow::anyhow!("bad card column item {item:?}"))?;
    }
    Ok(values)
}

/// A goods card: the list views' and the cart's shape of a goods (§3 "Cart goods").
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Card {
    pub id: i64,
    pub name: String,
    /// Manufacturer.
    pub sccj: String,
    /// Specification.
    pub ypgg: String,
    /// Unit.
    pub bzdw: String,
    /// Approval number.
    pub pzwh: String,
    /// `null` while prices are hidden from the viewer (`price_text` says why).
    #[schema(value_type = Option<String>, required = true, example = "12.30")]
    pub price: Option<engine::Money>,
    #[schema(value_type = Option<String>, required = true, example = "15.00")]
    pub base_price: Option<engine::Money>,
    /// 登录可见 for a visitor, 认证后可见 for a member not yet approved, in place of every price
    /// (`docs/compliance.md`); empty when prices are shown.
    #[schema(example = "")]
    pub price_text: &'static str,
    /// Stock.
    pub number: i64,
    /// 有货, 库存紧张 or 缺货.
    #[schema(value_type = String, example = "有货")]
    pub stock_state: &'static str,
    pub is_buy: i64,
    pub is_youx: i64,
    #[serde(rename = "type")]
    pub goods_type: i64,
    pub is_dpby: i64,
    pub qg_number: i64,
    pub ladder_price: Vec<Step>,
    pub ladder_price_type: i64,
    pub goods_manjian_id: i64,
    pub tags: Vec<Tag>,
    /// The running flash sale.
    #[schema(required = true)]
    pub flash_sale: Option<FlashSale>,
    /// One picture: the thumbnail of the goods' main picture, or the package the shop draws.
    #[schema(value_type = Vec<String>, min_items = 1, max_items = 1)]
    pub goods_image: [String; 1],
    /// The batch's expiry date (`2027-03-31`) of near-expiry goods; empty otherwise.
    pub expires_on: String,
    /// 1 for controlled goods (控销): only members approved for the zone may buy them.
    pub is_kx: i64,
    pub ck_id: i64,
    /// 中包装: units in one middle pack, the step of quantity steppers (1: none).
    pub zbz: i64,
    /// 件装量: units in one case (0: not given).
    pub jzl: i64,
    /// Units sold.
    pub sales: i64,
    /// The goods' class in licences' terms (经营范围类别, `docs/compliance.md`).
    #[schema(value_type = i64, example = 3)]
    pub scope_class: ScopeClass,
    #[schema(example = "中成药")]
    pub scope_class_name: &'static str,
    /// 处方药, 甲类OTC or 乙类OTC; empty for goods that are not medicines.
    #[schema(example = "处方药")]
    pub dispensing: &'static str,
    /// 1 when the goods' class is outside the signed-in member's approved business scope: it
    /// cannot be bought (`is_buy` 0) and shows [`OUT_OF_SCOPE`] instead of an add button.
    pub out_of_scope: i64,
    /// Special control (含麻黄碱类复方制剂 …): the most one member may buy in one order and in
    /// one month, in its unit; 0 for no limit (`docs/compliance.md`).
    pub control_per_order: i64,
    pub control_per_month: i64,
    /// Why it cannot be bought by this member ([`OUT_OF_SCOPE`]); empty otherwise.
    #[schema(example = "超出经营范围")]
    pub refusal: &'static str,
}

/// A ladder step: from `number` units, `price` each (`null` while prices are hidden).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Step {
    pub number: i64,
    #[schema(value_type = Option<String>, required = true, example = "11.80")]
    pub price: Option<engine::Money>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Tag {
    pub name: String,
    #[schema(value_type = String)]
    pub describe: &'static str,
    pub is_show: i64,
    #[serde(rename = "isLadder")]
    pub is_ladder: i64,
}

/// A running flash sale: its price, the most one member may buy, when it ends (Unix seconds).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct FlashSale {
    pub id: i64,
    /// `null` while prices are hidden.
    #[schema(value_type = Option<String>, required = true, example = "9.90")]
    pub price: Option<engine::Money>,
    pub limit: i64,
    pub ends_at: i64,
}

impl Card {
    /// The goods as the engine reads them: the same values the card shows. Only cards whose
    /// prices are shown are priced (the cart's: `Viewer::buyer`); a hidden step is left out.
    pub fn engine_goods(&self) -> engine::Goods {
        let steps = self
            .ladder_price
            .iter()
            .filter_map(|step| {
                let price = step.price?;
                Some(engine::LadderStep { number: step.number.clamp(1, i64::from(engine::MAX_QUANTITY)) as u32, price })
            })
            .collect();
        engine::Goods {
            id: self.id,
            is_buy: self.is_buy == 1,
            stock: self.number,
            is_youx: self.is_youx == 1,
            goods_type: Some(self.goods_type),
            is_dpby: self.is_dpby == 1,
            qg_number: self.qg_number,
            base_price: self.base_price,
            ladder: engine::Ladder::new(steps),
            ladder_price_type: Some(self.ladder_price_type),
        }
    }
}

fn tag(name: &str, is_ladder: i64) -> Tag {
    let describe = if is_ladder == 1 { "多买更优惠" } else { tag_description(name) };
    Tag { name: name.to_owned(), describe, is_show: 1, is_ladder }
}

/// Goods cards for rows selected with [`card_columns`], as `viewer` sees them.
pub fn cards(rows: &[AnyRow], viewer: &Viewer) -> Result<Vec<Card>> {
    rows.iter().map(|row| card(&CardRow::from_row(row)?, viewer)).collect()
}

/// The goods card of what [`card_fields`] selected, as `viewer` sees it: a goods outside an
/// approved member's business scope cannot be bought.
pub fn card(row: &CardRow, viewer: &Viewer) -> Result<Card> {
    let CardRow { id, stock, manjian_id: manjian, .. } = *row;
    let scope_class =
        ScopeClass::from_code(row.scope_class).ok_or_else(|| anyhow::anyhow!("goods {id}: scope class {}", row.scope_class))?;
    let dispensing = Dispensing::from_code(row.dispensing).ok_or_else(|| anyhow::anyhow!("goods {id}: dispensing {}", row.dispensing))?;
    let out_of_scope = viewer.scope.as_ref().is_some_and(|scope| !scope.allows(scope_class));
    let is_buy = if out_of_scope { 0 } else { row.is_buy };
    // Prices only for those who may see them.
    let shown = |price: engine::Money| viewer.prices.shown().then_some(price);
    let tag_text = &row.tags;
    let mut tags: Vec<Tag> = tag_text.split(',').filter(|name| !name.is_empty()).map(|name| tag(name, 0)).collect();
    // A running store-wide discount (全场折扣) prices the goods and each ladder step at the
    // engine's `rate_price`; flash sales and combinations keep their own prices.
    let rate = match &row.card_rate {
        Some(text) => Some(engine::Money::parse(text).map_err(|error| anyhow::anyhow!("welfare rate {text:?}: {error}"))?),
        None => None,
    };
    let priced = |stored: i64| -> Result<engine::Money> {
        let price = money::from_stored(stored)?;
        match rate {
            Some(rate) => Ok(engine::rate_price(price, rate).map_err(|error| anyhow::anyhow!("welfare price: {error}"))?),
            None => Ok(price),
        }
    };
    let ladder: Vec<Step> = match &row.card_ladders {
        Some(steps) => steps
            .split(',')
            .map(|step| integers::<2>(step).and_then(|[number, price]| Ok(Step { number, price: shown(priced(price)?) })))
            .collect::<Result<_>>()?,
        None => Vec::new(),
    };
    if !ladder.is_empty() {
        tags.push(tag("阶梯价", 1));
    }
    if manjian > 0 && !tag_text.contains('满') {
        tags.push(tag("满", 0));
    }
    let flash_sale = match &row.card_sale {
        Some(sale) => {
            let [sale, price, limit, ends_at] = integers::<4>(sale)?;
            Some(FlashSale { id: sale, price: shown(money::from_stored(price)?), limit, ends_at })
        }
        None => None,
    };
    if flash_sale.is_some() && !tag_text.contains('秒') {
        tags.push(tag("秒", 0));
    }
    if rate.is_some() {
        tags.push(tag("折", 0));
    }
    if row.is_kx == 1 {
        tags.push(tag("控", 0));
    }
    Ok(Card {
        id,
        name: row.name.clone(),
        sccj: row.sccj.clone(),
        ypgg: row.ypgg.clone(),
        bzdw: row.bzdw.clone(),
        pzwh: row.pzwh.clone(),
        price: shown(priced(row.price)?),
        base_price: shown(money::from_stored(row.base_price)?),
        price_text: viewer.prices.text(),
        number: stock,
        stock_state: stock_state(stock, row.is_buy),
        is_buy,
        is_youx: row.is_youx,
        goods_type: row.goods_type,
        is_dpby: row.is_dpby,
        qg_number: row.qg_number,
        ladder_price: ladder,
        ladder_price_type: row.ladder_price_type,
        goods_manjian_id: manjian,
        tags,
        flash_sale,
        goods_image: [pictures::card_image(id, row.card_picture)],
        expires_on: row.expires_on.clone(),
        is_kx: row.is_kx,
        ck_id: 0,
        zbz: row.zbz.max(1),
        jzl: row.jzl,
        sales: row.sales,
        scope_class,
        scope_class_name: scope_class.name(),
        dispensing: dispensing.name(),
        out_of_scope: i64::from(out_of_scope),
        refusal: if out_of_scope { OUT_OF_SCOPE } else { "" },
        control_per_order: row.control_per_order,
        control_per_month: row.control_per_month,
    })
}

fn tag_description(tag: &str) -> &'static str {
    match tag {
        "优" => "优选商品",
        "秒" => "限时秒杀",
        "满" => "参与满减活动",
        "换购" => "满额可换购",
        "赠" => "购买有赠品",
        "特" => "特价商品",
        "新" => "新品上架",
        "折" => "全场折扣价",
        "控" => "控销品种，审核通过后可购",
        _ => "",
    }
}
