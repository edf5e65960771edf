//! The demo catalogue's categories, brands and goods (with their ladder prices and links).

use anyhow::Context;
use std::collections::HashMap;

use sqlx::{Any, Transaction};

use super::{Brand, Catalogue, Category, stored};
use crate::domain::catalogue::lots;
use crate::domain::catalogue::scope::{Dispensing, ScopeClass};
use crate::now;

/// Category key → (id, ids of the category and all its descendants).
pub(super) type Categories = HashMap<String, (i64, Vec<i64>)>;

pub(super) async fn insert_categories(tx: &mut Transaction<'_, Any>, roots: &[Category]) -> anyhow::Result<Categories> {
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

pub(super) async fn insert_brands(tx: &mut Transaction<'_, Any>, brands: &[Brand]) -> anyhow::Result<HashMap<String, i64>> {
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
pub(super) async fn insert_goods(
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
        let class = scope_class(&goods.category);
        // ASCII-lowercased, as search patterns are: matching ignores ASCII case on both databases.
        let search_text =
            format!("{} {} {} {} {}", goods.name, goods.sccj, goods.ypgg, goods.pzwh, goods.brand.clone().unwrap_or_default())
                .to_ascii_lowercase();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO goods (name, category_id, brand_id, sccj, ypgg, bzdw, pzwh, origin, jzl, validity, dispensing, \
             price, base_price, stock, type, is_youx, is_buy, is_dpby, qg_number, ladder_price_type, tags, \
             description, search_text, sales, created_at, zbz, scope_class, vat_rate, control_per_order, control_per_month) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
             $21, $22, $23, $24, $25, $26, $27, $28, $29, $30) RETURNING id",
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
        .bind(dispensing(goods.rx, class))
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
        .bind(class)
        .bind(vat_rate(class))
        .bind(goods.control_per_order)
        .bind(goods.control_per_month)
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
        // The near-expiry zone's goods are the first of their name.
        let near = match ids.contains_key(&goods.name) {
            false => catalogue.near_expiry.iter().find(|item| item.goods == goods.name).map(|item| item.days),
            true => None,
        };
        insert_lots(tx, id, index, goods.stock.max(0), near, created).await?;
        ids.entry(goods.name.clone()).or_default().push(id);
    }
    Ok(ids)
}

/// The demo's lots of one goods, its stock split between them: a main lot and a later one (a
/// third), dated from today so that the demo never ages into the near-expiry zone; the zone's
/// goods hold a short-dated lot too (a tenth, expiring in `near_days`), which shipments take
/// first. The goods' shown expiry is then the nearest of them.
async fn insert_lots(
    tx: &mut Transaction<'_, Any>,
    goods: i64,
    index: usize,
    stock: i64,
    near_days: Option<i64>,
    now: i64,
) -> anyhow::Result<()> {
    if stock == 0 {
        return Ok(());
    }
    let near = near_days.map(|days| (days, (stock / 10).max(1)));
    let near_units = near.map_or(0, |(_, units)| units);
    let later = (stock - near_units) / 3;
    let main_days = 400 + (index as i64 * 37) % 700;
    let lots = near.into_iter().chain([(main_days, stock - near_units - later), (main_days + 182, later)]);
    for (n, (days, quantity)) in lots.enumerate().filter(|(_, (_, quantity))| *quantity > 0) {
        let expires = now + days * 86_400;
        let produced = expires - 3 * 365 * 86_400;
        let produced_on = lots::day(produced);
        sqlx::query(
            "INSERT INTO goods_lots (goods_id, lot_no, produced_on, expires_on, received, quantity, created_at) \
             VALUES ($1, $2, $3, $4, $5, $5, $6)",
        )
        .bind(goods)
        .bind(format!("{}{:02}", produced_on.replace('-', ""), n + 1))
        .bind(&produced_on)
        .bind(lots::day(expires))
        .bind(quantity)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    lots::refresh_expiry(tx, goods, &lots::day(now)).await?;
    Ok(())
}

/// The class (经营范围) of the demo's goods, from their category: antibiotics are 抗生素制剂,
/// the other western medicines 化学药制剂; devices by their risk class; health foods, disinfectants
/// and daily goods by their tree. `migrations/*/0036_business_scope.sql` classes existing goods
/// the same way.
pub(crate) fn scope_class(category: &str) -> ScopeClass {
    let under = |prefixes: &[&str]| prefixes.iter().any(|prefix| category.starts_with(prefix));
    match () {
        _ if under(&["xy-kgr-qms", "xy-kgr-tbjs", "xy-kgr-dhzl", "xy-kgr-kny"]) => ScopeClass::Antibiotic,
        _ if under(&["zcy"]) => ScopeClass::PatentChinese,
        _ if under(&["zyyp"]) => ScopeClass::HerbalPieces,
        _ if under(&["qx-kf", "qx-jt", "yyhc-fl"]) => ScopeClass::DeviceI,
        _ if under(&["qx", "yyhc-fh", "jsyp-byt", "jsyp-sz"]) => ScopeClass::DeviceII,
        _ if under(&["yyhc-zs"]) => ScopeClass::DeviceIII,
        _ if under(&["bjp"]) => ScopeClass::HealthFood,
        _ if under(&["yyhc-xd"]) => ScopeClass::Disinfectant,
        _ if under(&["grhl"]) => ScopeClass::Daily,
        _ => ScopeClass::Chemical,
    }
}

/// A medicine is a prescription one when the catalogue says so, else 甲类OTC; other goods are
/// not medicines.
fn dispensing(rx: bool, class: ScopeClass) -> Dispensing {
    match class {
        _ if rx => Dispensing::Prescription,
        ScopeClass::Chemical | ScopeClass::Antibiotic | ScopeClass::PatentChinese => Dispensing::OtcA,
        _ => Dispensing::None,
    }
}

/// The VAT rate in percent: 9 for 中药饮片 (agricultural produce), 13 for everything else.
pub(crate) fn vat_rate(class: ScopeClass) -> i64 {
    if class == ScopeClass::HerbalPieces { 9 } else { 13 }
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
