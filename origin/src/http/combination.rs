//! 组合购 (`/zhzq`): the combinations, each a set of goods sold together at the combination's
//! own price and stock. A set goes into the cart as one line of type 3 (`POST /api/cart` with
//! `type=3`, `combination_id` and any of its goods as `goods_id`), which the engine prices at
//! the combination's price (docs/pricing.md, rule 3).

use axum::extract::State;
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, ok};
use crate::domain::catalogue::card::{Card, CardRow, card, card_columns};
use crate::domain::catalogue::viewer::Viewer;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list))
}

/// One goods of a set and how many of it the set holds.
#[derive(Serialize, ToSchema)]
pub struct CombinationItem {
    number: i64,
    goods: Card,
}

/// A combination as the zone shows it.
#[derive(Serialize, ToSchema)]
pub struct CombinationCard {
    id: i64,
    name: String,
    /// The set's price (组合价); `null` while prices are hidden from the viewer.
    #[schema(required = true, example = "27.90")]
    price: Option<String>,
    /// 登录可见 or 认证后可见 in place of the price; empty when it is shown.
    price_text: &'static str,
    /// Sets left.
    stock: i64,
    /// 1 when every goods of the set can be bought and sets are left.
    is_buy: i64,
    /// Why the member may not buy the set at all (超出经营范围, when one of its goods is);
    /// empty otherwise.
    refusal: &'static str,
    items: Vec<CombinationItem>,
}

#[derive(sqlx::FromRow)]
struct CombinationRow {
    id: i64,
    name: String,
    price: i64,
    stock: i64,
}

/// `GET /api/combination`: every combination with its goods (cards) and their numbers, in the
/// shop's order.
#[utoipa::path(get, path = "/api/combination", operation_id = "combination_list", tag = "商品", responses((status = 200, description = "组合购", body = Envelope<Vec<CombinationCard>>)))]
async fn list(State(context): State<ApiContext>, viewer: Viewer) -> Answer<Vec<CombinationCard>> {
    let mut conn = context.db.pool.acquire().await?;
    let rows: Vec<CombinationRow> =
        sqlx::query_as("SELECT id, name, price, stock FROM combinations ORDER BY id").fetch_all(&mut *conn).await?;
    let items = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT i.combination_id AS set_id, i.number AS set_number, {} FROM combination_items i JOIN goods g ON g.id = i.goods_id \
         ORDER BY i.combination_id, i.id",
        card_columns(1)
    )))
    .bind(now())
    .fetch_all(&mut *conn)
    .await?;
    let mut sets: Vec<CombinationCard> = rows
        .into_iter()
        .map(|row| CombinationCard {
            id: row.id,
            name: row.name,
            price: viewer.prices.shown().then(|| money::text(row.price)),
            price_text: viewer.prices.text(),
            stock: row.stock,
            is_buy: 0,
            refusal: "",
            items: Vec::new(),
        })
        .collect();
    for item in &items {
        let set: i64 = item.try_get("set_id")?;
        let number: i64 = item.try_get("set_number")?;
        let goods = card(&<CardRow as sqlx::FromRow<_>>::from_row(item)?, &viewer)?;
        if let Some(entry) = sets.iter_mut().find(|entry| entry.id == set) {
            entry.items.push(CombinationItem { number, goods });
        }
    }
    for set in &mut sets {
        let buyable = set.stock > 0
            && !set.items.is_empty()
            && set.items.iter().all(|item| item.goods.is_buy == 1 && item.goods.number >= item.number);
        set.is_buy = i64::from(buyable);
        set.refusal = set.items.iter().map(|item| item.goods.refusal).find(|refusal| !refusal.is_empty()).unwrap_or("");
    }
    ok(sets)
}
