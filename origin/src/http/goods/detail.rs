//! One goods: its detail page (`GET /api/goods/{id}`) and the promotions it takes part in
//! (`GET /api/goods/activities`).

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;

use super::query::{DetailQuery, GoodsIdQuery};
use crate::db::Db;
use crate::domain::catalogue::card::{Card, CardRow, FlashSale, card, card_columns};
use crate::domain::catalogue::scope::Dispensing;
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::staff::pictures::{self, Picture};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{MaybeMember, Query};
use crate::{money, now};

/// `GET /api/goods/detail/{id}`, with the §2 query ids echoed (`goods_price_id`,
/// `ladder_price_id`, `goods_manjian_id`, `is_yj`, `is_jxq`).
#[utoipa::path(get, path = "/api/goods/detail/{id}", params(DetailQuery), operation_id = "goods_detail", tag = "商品", responses((status = 200, description = "商品详情", body = Envelope<GoodsDetail>)))]
pub(super) async fn detail(
    State(context): State<ApiContext>,
    MaybeMember(member): MaybeMember,
    viewer: Viewer,
    Path(id): Path<i64>,
    Query(echo): Query<DetailQuery>,
) -> Answer<GoodsDetail> {
    let row: DetailRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {}, g.category_id, g.brand_id, g.origin, g.description FROM goods g WHERE g.id = $1",
        card_columns(2)
    )))
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .ok_or_else(|| Error::not_found("商品不存在"))?;
    let manjian = row.card.manjian_id;
    let brand = match row.brand_id {
        Some(brand) => {
            let name: String = sqlx::query_scalar("SELECT name FROM brands WHERE id = $1").bind(brand).fetch_one(&context.db.pool).await?;
            Some(BrandRef { id: brand, name })
        }
        None => None,
    };
    let favorite = match member {
        Some(member) => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM favorites WHERE member_id = $1 AND goods_id = $2")
                .bind(member.id)
                .bind(id)
                .fetch_one(&context.db.pool)
                .await?
        }
        None => 0,
    };
    ok(GoodsDetail {
        rx: i64::from(row.card.dispensing == Dispensing::Prescription.code()),
        card: card(&row.card, &viewer)?,
        lots: lots_on_sale(&mut *context.db.pool.acquire().await?, id).await?,
        pictures: pictures::list(&mut *context.db.pool.acquire().await?, id).await?,
        origin: row.origin,
        description: row.description,
        category_path: category_path(&context.db, row.category_id).await?,
        brand,
        manjian: manjian_activity(&context.db, manjian).await?,
        query: echo,
        is_favorite: favorite,
    })
}

/// What the detail reads: the card's columns and the detail's own.
#[derive(sqlx::FromRow)]
struct DetailRow {
    #[sqlx(flatten)]
    card: CardRow,
    category_id: i64,
    brand_id: Option<i64>,
    origin: String,
    description: String,
}

/// A goods' detail: its card and more.
#[derive(Serialize, ToSchema)]
pub struct GoodsDetail {
    #[serde(flatten)]
    card: Card,
    /// The lots on sale, earliest expiry first (lot number, production and expiry dates, units
    /// in stock are not shown): what the next shipments take. `expires_on` is the first's.
    lots: Vec<LotOnSale>,
    /// The pictures uploaded for it, the main one first; empty when the shop draws its package
    /// (`goods_image`).
    pictures: Vec<Picture>,
    origin: String,
    /// 1 for prescription medicines.
    rx: i64,
    description: String,
    /// The category's path from the top.
    category_path: Vec<CategoryRef>,
    #[schema(required = true)]
    brand: Option<BrandRef>,
    /// The goods' full-reduction activity.
    #[schema(required = true)]
    manjian: Option<ManjianActivity>,
    /// The §2 query ids, echoed (0 when absent).
    query: DetailQuery,
    /// 1 when the member keeps it among their favourites.
    is_favorite: i64,
}

#[derive(Serialize, ToSchema)]
pub struct CategoryRef {
    id: i64,
    name: String,
}

#[derive(Serialize, ToSchema)]
pub struct BrandRef {
    id: i64,
    name: String,
}

/// The category's path from the top: `[{id, name}, …]`.
async fn category_path(db: &Db, category: i64) -> Result<Vec<CategoryRef>> {
    let mut path = Vec::new();
    let mut next = Some(category);
    while let Some(id) = next {
        let row: CategoryLink =
            sqlx::query_as("SELECT id, name, parent_id FROM categories WHERE id = $1").bind(id).fetch_one(&db.pool).await?;
        path.push(CategoryRef { id, name: row.name });
        next = row.parent_id;
    }
    path.reverse();
    Ok(path)
}

#[derive(sqlx::FromRow)]
struct CategoryLink {
    name: String,
    parent_id: Option<i64>,
}

/// A full-reduction activity and its tiers.
#[derive(Serialize, ToSchema)]
pub struct ManjianActivity {
    id: i64,
    title: String,
    tiers: Vec<ManjianTierText>,
}

/// One tier of a full-reduction activity, as the detail shows it.
#[derive(Serialize, ToSchema)]
pub struct ManjianTierText {
    #[schema(example = "500.00")]
    amount: String,
    #[schema(example = "50.00")]
    reduce: String,
    #[schema(example = "满500减50")]
    title: String,
}

#[derive(sqlx::FromRow)]
struct TierRow {
    amount: money::Stored,
    reduce: money::Stored,
}

/// A full-reduction activity and its tiers while it runs (`None`, written `null`, for 0 and for
/// an activity not running now).
pub async fn manjian_activity(db: &Db, id: i64) -> Result<Option<ManjianActivity>> {
    if id == 0 {
        return Ok(None);
    }
    let title: Option<String> =
        sqlx::query_scalar("SELECT title FROM manjian_activities WHERE id = $1 AND starts_at <= $2 AND ends_at > $2")
            .bind(id)
            .bind(now())
            .fetch_optional(&db.pool)
            .await?;
    let Some(title) = title else { return Ok(None) };
    let tiers = sqlx::query_as::<_, TierRow>("SELECT amount, reduce FROM manjian_tiers WHERE activity_id = $1 ORDER BY sort, id")
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|TierRow { amount, reduce }| {
            Ok(ManjianTierText {
                amount: money::text(amount),
                reduce: money::text(reduce),
                title: engine::text::manjian_title(amount.money()?, reduce.money()?),
            })
        })
        .collect::<Result<_>>()?;
    Ok(Some(ManjianActivity { id, title, tiers }))
}

/// `GET /api/goods/activities?goods_id=`: the promotions a goods takes part in — its
/// full-reduction activity, a running flash sale, the combinations it is sold in.
#[utoipa::path(get, path = "/api/goods/activities", params(GoodsIdQuery), tag = "商品", responses((status = 200, description = "商品参与的活动", body = Envelope<GoodsActivities>)))]
pub(super) async fn activities(
    State(context): State<ApiContext>,
    viewer: Viewer,
    Query(GoodsIdQuery { goods_id: id }): Query<GoodsIdQuery>,
) -> Answer<GoodsActivities> {
    let shown = viewer.prices.shown();
    let manjian: Option<i64> =
        sqlx::query_scalar("SELECT manjian_id FROM goods WHERE id = $1").bind(id).fetch_optional(&context.db.pool).await?;
    let manjian = manjian.ok_or_else(|| Error::not_found("商品不存在"))?;
    let flash_sale = sqlx::query_as::<_, SaleRow>(
        "SELECT id, price, limit_number, ends_at FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .bind(now())
    .fetch_optional(&context.db.pool)
    .await?
    .map(|sale| {
        let price = if shown { Some(sale.price.money()?) } else { None };
        anyhow::Ok(FlashSale { id: sale.id, price, limit: sale.limit_number, ends_at: sale.ends_at })
    })
    .transpose()?;
    let combinations = sqlx::query_as::<_, OfferRow>(
        "SELECT c.id, c.name, c.price FROM combinations c JOIN combination_items i ON i.combination_id = c.id WHERE i.goods_id = $1 ORDER BY c.id",
    )
    .bind(id)
    .fetch_all(&context.db.pool)
    .await?
    .into_iter()
    .map(|offer| CombinationOffer { id: offer.id, name: offer.name, price: shown.then(|| money::text(offer.price)) })
    .collect();
    let price_text = viewer.prices.text();
    ok(GoodsActivities { manjian: manjian_activity(&context.db, manjian).await?, flash_sale, combinations, price_text })
}

/// The promotions a goods takes part in.
#[derive(Serialize, ToSchema)]
pub struct GoodsActivities {
    #[schema(required = true)]
    manjian: Option<ManjianActivity>,
    /// The running flash sale, `null` when none runs.
    #[schema(required = true)]
    flash_sale: Option<FlashSale>,
    combinations: Vec<CombinationOffer>,
    /// 登录可见 or 认证后可见 in place of the prices; empty when they are shown.
    price_text: &'static str,
}

/// A combination the goods is sold in, at the combination's price (`null` while prices are
/// hidden from the viewer).
#[derive(Serialize, ToSchema)]
pub struct CombinationOffer {
    id: i64,
    name: String,
    #[schema(required = true, example = "99.00")]
    price: Option<String>,
}

#[derive(sqlx::FromRow)]
struct SaleRow {
    id: i64,
    price: money::Stored,
    limit_number: i64,
    ends_at: i64,
}

#[derive(sqlx::FromRow)]
struct OfferRow {
    id: i64,
    name: String,
    price: i64,
}

/// A lot on sale as the goods' page shows it.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct LotOnSale {
    lot_no: String,
    produced_on: String,
    expires_on: String,
}

/// Goods `goods`' lots on sale today (in the warehouse, not expired, dated), earliest expiry first.
async fn lots_on_sale(conn: &mut sqlx::AnyConnection, goods: i64) -> Result<Vec<LotOnSale>> {
    Ok(sqlx::query_as(
        "SELECT lot_no, produced_on, expires_on FROM goods_lots WHERE goods_id = $1 AND quantity > 0 AND expires_on <> '' \
         AND expires_on >= $2 ORDER BY expires_on, id",
    )
    .bind(goods)
    .bind(crate::domain::catalogue::lots::day(now()))
    .fetch_all(&mut *conn)
    .await?)
}
