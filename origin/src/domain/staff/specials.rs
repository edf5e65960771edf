//! 天天特价 in the console (docs/backoffice.md, "Promotions"): the goods of the daily specials
//! (`/mrtj`, the home floor), in the order buyers see them. A special is a goods shown at its own
//! price in that place: what it costs is the goods' price, ladders and activities, priced by the
//! engine like anywhere else. The operator writes the list whole — goods added, taken out and
//! moved — and buyers see it on their next read; putting goods in or out makes a new catalogue
//! version (migration 0045), so the `special` list's total follows at once.

use serde::Serialize;
use serde_json::json;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
use crate::db;
use crate::domain::{Error, Result};

/// The daily specials hold at most this many goods.
pub const MAX_GOODS: usize = 100;

/// A goods of the daily specials, in the console.
#[derive(Debug, Serialize, ToSchema, sqlx::FromRow)]
pub struct SpecialRow {
    pub goods_id: i64,
    pub name: String,
    pub ypgg: String,
    pub sccj: String,
    #[serde(serialize_with = "super::as_money")]
    #[schema(value_type = String, example = "23.50")]
    pub price: i64,
    pub stock: i64,
    /// 1 on sale; 0 off sale (buyers see it greyed, 暂不可购买).
    pub is_buy: i64,
}

/// The daily specials in the buyers' order.
pub async fn list(conn: &mut AnyConnection) -> Result<Vec<SpecialRow>> {
    Ok(sqlx::query_as(
        "SELECT g.id AS goods_id, g.name, g.ypgg, g.sccj, g.price, g.stock, g.is_buy \
         FROM everyday_specials e JOIN goods g ON g.id = e.goods_id ORDER BY e.sort, g.id",
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// What is wrong with `goods` as the whole list: too many, or a goods twice.
pub fn check(goods: &[i64]) -> Option<String> {
    if goods.len() > MAX_GOODS {
        return Some(format!("天天特价最多{MAX_GOODS}个商品"));
    }
    goods.iter().enumerate().find(|(at, id)| goods[..*at].contains(id)).map(|(_, id)| format!("商品{id}重复"))
}

/// Makes `goods` the daily specials, in that order, with its audit row. Answers how many there
/// are now.
pub async fn save(conn: &mut AnyConnection, actor: &Actor, goods: &[i64], now: i64) -> Result<usize> {
    if let Some(message) = check(goods) {
        return Err(Error::field("goods", message));
    }
    let mut tx = begin_write(conn).await?;
    if !goods.is_empty() {
        let sql = format!("SELECT id FROM goods WHERE id IN ({})", db::params(1, goods.len()));
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql));
        for id in goods {
            query = query.bind(*id);
        }
        let found: Vec<i64> = query.fetch_all(&mut *tx).await?;
        let unknown: Vec<String> = goods.iter().filter(|id| !found.contains(id)).map(i64::to_string).collect();
        if !unknown.is_empty() {
            return Err(Error::field("goods", format!("商品不存在：{}", unknown.join("、"))));
        }
    }
    let before: Vec<i64> = sqlx::query_scalar("SELECT goods_id FROM everyday_specials ORDER BY sort, goods_id").fetch_all(&mut *tx).await?;
    if before == goods {
        return Ok(goods.len());
    }
    // Only the goods that leave or join change the catalogue; the others are moved in place.
    for id in before.iter().filter(|id| !goods.contains(id)) {
        sqlx::query("DELETE FROM everyday_specials WHERE goods_id = $1").bind(id).execute(&mut *tx).await?;
    }
    for (sort, id) in goods.iter().enumerate() {
        let sort = sort as i64;
        if before.contains(id) {
            sqlx::query("UPDATE everyday_specials SET sort = $1 WHERE goods_id = $2").bind(sort).bind(id).execute(&mut *tx).await?;
        } else {
            sqlx::query("INSERT INTO everyday_specials (goods_id, sort) VALUES ($1, $2)").bind(id).bind(sort).execute(&mut *tx).await?;
        }
    }
    let added = goods.iter().filter(|id| !before.contains(id)).count();
    let removed = before.iter().filter(|id| !goods.contains(id)).count();
    let entry = Entry {
        action: "specials.change",
        target: "specials".into(),
        member: None,
        summary: format!("修改天天特价：{}个商品（新增{added}个，移出{removed}个）", goods.len()),
        before: json!({ "goods": before }),
        after: json!({ "goods": goods }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(goods.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_has_each_goods_once_and_at_most_a_hundred() {
        assert_eq!(check(&[3, 1, 2]), None);
        assert_eq!(check(&[3, 1, 3]).as_deref(), Some("商品3重复"));
        assert_eq!(check(&(1..=101).collect::<Vec<_>>()).as_deref(), Some("天天特价最多100个商品"));
    }
}
