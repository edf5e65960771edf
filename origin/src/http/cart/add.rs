//! Putting goods in the cart: `POST /api/cart/add` (a goods, a flash sale's or a combination's
//! line) and `POST /api/cart/quick_add` (快速采购), each line checked — sellable, in stock, within
//! a flash sale's limit, a controlled goods only for approved members — under the member's row lock.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::{Acquire, AnyConnection};
use utoipa::ToSchema;

use super::{count_on, goods};
use crate::db::Db;
use crate::domain::cart::{COMBINATION, FLASH_SALE, NORMAL};
use crate::domain::catalogue::controlled;
use crate::domain::catalogue::scope::{OUT_OF_SCOPE, ScopeClass};
use crate::domain::catalogue::viewer::Viewer;
use crate::domain::orders::control::per_order_message;
use crate::domain::orders::ordered_in_sale;
use crate::domain::promotions::limit_message;
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Member};
use crate::now;

/// A line added (or added to): its id, its quantity now, and the number of lines in the cart.
#[derive(Serialize, ToSchema)]
pub struct Added {
    id: i64,
    number: i64,
    cart: i64,
}

impl Added {
    /// Lines in the cart after it.
    pub fn cart(&self) -> i64 {
        self.cart
    }
}

/// `POST /api/cart`: `goods_id`, `number`, optional `type` (1 flash sale, 3 combination with
/// `combination_id`), and the §3 ids (`goods_price_id`, `ladder_price_id`,
/// `goods_manjian_id`, `is_yj`). Adds to a line already in the cart for the same goods and
/// activity. Refuses goods that cannot be bought, and quantities beyond stock or limit (422).
#[utoipa::path(post, path = "/api/cart", request_body(content = CartAddForm, content_type = "application/x-www-form-urlencoded"), operation_id = "cart_add", tag = "购物车", responses((status = 200, description = "加入的行", body = Envelope<Added>)))]
pub(super) async fn add(State(context): State<ApiContext>, member: Member, Form(line): Form<CartAddForm>) -> Answer<Added> {
    let ids = [line.goods_price_id, line.ladder_price_id, line.is_yj];
    ok(add_line(&context.db, member, line.goods_id, line.number, line.line_type, line.combination_id, ids).await?)
}

/// A line to put in the cart.
#[derive(ToSchema)]
pub struct CartAddForm {
    goods_id: i64,
    /// Units (absent: 1).
    #[schema(value_type = Option<i64>)]
    number: i64,
    /// 0 (absent) a normal line, 1 a flash sale, 3 a combination.
    #[serde(rename = "type")]
    #[schema(value_type = Option<i64>)]
    line_type: i64,
    /// The combination of a `type` 3 line.
    #[schema(value_type = Option<i64>)]
    combination_id: i64,
    /// The §3 ids the goods card sends.
    #[schema(value_type = Option<i64>)]
    goods_price_id: i64,
    #[schema(value_type = Option<i64>)]
    ladder_price_id: i64,
    #[schema(value_type = Option<i64>)]
    is_yj: i64,
}

impl FromFields for CartAddForm {
    fn from_fields(form: &Fields) -> Result<CartAddForm> {
        Ok(CartAddForm {
            goods_id: form.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))?,
            number: form.int_or("number", "数量", 1)?,
            line_type: form.int_or("type", "类型", NORMAL)?,
            combination_id: form.int_or("combination_id", "组合", 0)?,
            goods_price_id: form.int_or("goods_price_id", "goods_price_id", 0)?,
            ladder_price_id: form.int_or("ladder_price_id", "ladder_price_id", 0)?,
            is_yj: form.int_or("is_yj", "is_yj", 0)?,
        })
    }
}

/// What a quick add did: the line, how many it added, the line's quantity now, and the lines in
/// the cart.
#[derive(Serialize, ToSchema)]
pub struct QuickAdded {
    id: i64,
    /// Units added now: the goods' middle pack (中包装), one when it has none.
    added: i64,
    /// The line's quantity now.
    number: i64,
    /// 包装单位.
    #[schema(example = "盒")]
    unit: String,
    /// 0 a normal line, 1 a flash-sale line (while its sale runs).
    #[serde(rename = "type")]
    line_type: i64,
    cart: i64,
}

/// `POST /api/cart/quick_add/{id}` (快速加购): adds the goods' default quantity, its middle pack
/// (中包装; one unit when it has none, and no more than a running flash sale's limit), as the
/// goods card's 加入购物车 would: a flash-sale line while its sale runs, else a normal line.
/// Refused as an add is (422: goods not sold, stock, limit).
#[utoipa::path(post, path = "/api/cart/quick_add/{id}", tag = "购物车", responses((status = 200, description = "加入的行", body = Envelope<QuickAdded>)))]
pub(super) async fn quick_add(State(context): State<ApiContext>, member: Member, Path(goods_id): Path<i64>) -> Answer<QuickAdded> {
    let (zbz, bzdw, sale_limit) = {
        let mut conn = context.db.pool.acquire().await?;
        let (zbz, bzdw): (i64, String) = sqlx::query_as("SELECT zbz, bzdw FROM goods WHERE id = $1")
            .bind(goods_id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::field("goods_id", "商品不存在"))?;
        let sale_limit: Option<i64> =
            sqlx::query_scalar("SELECT limit_number FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2")
                .bind(goods_id)
                .bind(now())
                .fetch_optional(&mut *conn)
                .await?;
        (zbz, bzdw, sale_limit)
    };
    let (line_type, number) = match sale_limit {
        Some(limit) => (FLASH_SALE, zbz.min(limit).max(1)),
        None => (NORMAL, zbz.max(1)),
    };
    let added = add_line(&context.db, member, goods_id, number, line_type, 0, [0, 0, 0]).await?;
    ok(QuickAdded { id: added.id, added: number, number: added.number, unit: bzdw, line_type, cart: added.cart })
}

pub(crate) async fn add_line(
    db: &Db,
    member: Member,
    goods_id: i64,
    number: i64,
    line_type: i64,
    combination: i64,
    ids: [i64; 3],
) -> Result<Added> {
    if number < 1 {
        return Err(Error::field("number", "数量至少为1"));
    }
    if number > i64::from(engine::MAX_QUANTITY) {
        return Err(Error::field("number", "数量过大"));
    }
    let mut conn = db.pool.acquire().await?;
    let (id, number) = if line_type == FLASH_SALE {
        // A flash sale's limit counts what the member already ordered in it and the cart line,
        // read and written under the member's row lock (on SQLite the write lock, taken by this
        // first statement), which the order's transaction takes too: adds racing each other or
        // an order cannot pass the limit together.
        let mut tx = conn.begin().await?;
        sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
        let added = put_line(&mut tx, member, goods_id, number, line_type, combination, ids).await?;
        tx.commit().await?;
        added
    } else {
        put_line(&mut conn, member, goods_id, number, line_type, combination, ids).await?
    };
    Ok(Added { id, number, cart: count_on(&mut conn, member).await? })
}

/// What a member whose qualifications are not approved is told when adding to the cart.
pub const NOT_APPROVED: &str = "资质认证通过后方可采购";

/// Adds to the member's line (or makes it) within stock and limit; answers its id and quantity.
async fn put_line(
    conn: &mut AnyConnection,
    member: Member,
    goods_id: i64,
    number: i64,
    line_type: i64,
    combination: i64,
    [goods_price_id, ladder_price_id, is_yj]: [i64; 3],
) -> Result<(i64, i64)> {
    let goods = goods(conn, goods_id).await?;
    if goods.is_buy == 0 {
        return Err(Error::field("goods_id", "该商品暂不可购买"));
    }
    if goods.is_kx == 1 && !controlled::approved(conn, member.id).await? {
        return Err(Error::forbidden(controlled::NOT_APPROVED));
    }
    // A member not yet approved sees no prices and buys nothing (docs/compliance.md); goods
    // outside an approved member's business scope, or a combination holding any, are refused.
    let Some(scope) = Viewer::load(conn, Some(member.id)).await?.scope else {
        return Err(Error::forbidden(NOT_APPROVED));
    };
    let classes: Vec<ScopeClass> = match line_type {
        COMBINATION => {
            sqlx::query_scalar(
                "SELECT x.scope_class FROM combination_items i JOIN goods x ON x.id = i.goods_id WHERE i.combination_id = $1",
            )
            .bind(combination)
            .fetch_all(&mut *conn)
            .await?
        }
        _ => vec![goods.scope_class],
    };
    if classes.into_iter().any(|class| !scope.allows(class)) {
        return Err(Error::field("goods_id", OUT_OF_SCOPE));
    }
    let (price, activity, limit, stock) = match line_type {
        NORMAL => (goods.price, 0, i64::MAX, goods.stock),
        FLASH_SALE => {
            let sale: Sale =
                sqlx::query_as("SELECT id, price, limit_number FROM flash_sales WHERE goods_id = $1 AND starts_at <= $2 AND ends_at > $2")
                    .bind(goods_id)
                    .bind(now())
                    .fetch_optional(&mut *conn)
                    .await?
                    .ok_or_else(|| Error::field("type", "秒杀活动已结束"))?;
            (sale.price, sale.id, sale.limit_number, goods.stock)
        }
        COMBINATION => {
            let offer: Offer = sqlx::query_as(
                "SELECT c.id, c.price, c.stock FROM combinations c JOIN combination_items i ON i.combination_id = c.id \
                 WHERE c.id = $1 AND i.goods_id = $2",
            )
            .bind(combination)
            .bind(goods_id)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| Error::field("combination_id", "组合不存在"))?;
            (offer.price, offer.id, i64::MAX, offer.stock)
        }
        _ => return Err(Error::field("type", "商品类型不正确")),
    };
    if stock <= 0 {
        return Err(Error::field("number", "库存不足"));
    }
    let manjian = goods.manjian_id;
    let existing: i64 = sqlx::query_scalar(
        "SELECT COALESCE(MAX(number), 0) FROM cart_items WHERE member_id = $1 AND goods_id = $2 AND type = $3 AND activity_id = $4",
    )
    .bind(member.id)
    .bind(goods_id)
    .bind(line_type)
    .bind(activity)
    .fetch_one(&mut *conn)
    .await?;
    let wanted = existing.saturating_add(number);
    if wanted > stock {
        let unit = if line_type == COMBINATION { "组" } else { goods.bzdw.as_str() };
        return Err(Error::field("number", format!("库存不足，最多可购买{stock}{unit}")));
    }
    if line_type != COMBINATION && goods.control_per_order > 0 && wanted > goods.control_per_order {
        return Err(Error::field("number", per_order_message(&goods.name, goods.control_per_order, &goods.bzdw)));
    }
    let ordered = if line_type == FLASH_SALE { ordered_in_sale(conn, member.id, activity).await? } else { 0 };
    if wanted.saturating_add(ordered) > limit {
        return Err(Error::field("number", limit_message(limit, &goods.bzdw)));
    }
    let with_coupon = i64::from(line_type == NORMAL);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO cart_items (member_id, goods_id, type, activity_id, number, price, is_selected, with_coupon, \
         goods_price_id, ladder_price_id, goods_manjian_id, is_yj, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (member_id, goods_id, type, activity_id) DO UPDATE SET number = cart_items.number + $5, price = $6 \
         RETURNING id",
    )
    .bind(member.id)
    .bind(goods_id)
    .bind(line_type)
    .bind(activity)
    .bind(number)
    .bind(price)
    .bind(with_coupon)
    .bind(goods_price_id)
    .bind(ladder_price_id)
    .bind(if line_type == NORMAL { manjian } else { 0 })
    .bind(is_yj)
    .bind(now())
    .fetch_one(&mut *conn)
    .await?;
    Ok((id, wanted))
}

/// A running flash sale of the goods, as a line takes it.
#[derive(sqlx::FromRow)]
struct Sale {
    id: i64,
    price: i64,
    limit_number: i64,
}

/// A combination the goods is sold in, as a line takes it.
#[derive(sqlx::FromRow)]
struct Offer {
    id: i64,
    price: i64,
    stock: i64,
}
