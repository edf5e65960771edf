//! The cart (§7): add, quick add, list with the engine's quote, count, edit, select, delete.
//!
//! `cart/list` answers the lines in §3's shape, each also a valid `CartItem` of `pricing.md`,
//! with `shipping_data` and `activity_data` beside them and `quote`: the engine's answer for
//! exactly those three, so the browser can feed them to its WebAssembly engine and compare.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::{Acquire, AnyConnection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::cart_read::{COMBINATION, CartList, FLASH_SALE, NORMAL, cart_input, limit_message, ordered_in_sale};
use super::engine_schema::EngineCartInput;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{FormFields, Member};
use crate::db::Db;
use crate::now;
use crate::security::IDS_MAX;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(add))
        .routes(routes!(quick_add))
        .routes(routes!(list))
        .routes(routes!(input))
        .routes(routes!(total))
        .routes(routes!(edit))
        .routes(routes!(batch_select))
        .routes(routes!(batch_delete))
        .routes(routes!(copy))
        .routes(routes!(next_hint))
}

#[derive(sqlx::FromRow)]
struct Goods {
    price: i64,
    stock: i64,
    is_buy: i64,
    manjian_id: i64,
    is_kx: i64,
    /// 包装单位 — the unit limits and stock are counted in.
    bzdw: String,
}

async fn goods(conn: &mut AnyConnection, id: i64) -> Result<Goods> {
    sqlx::query_as("SELECT price, stock, is_buy, manjian_id, is_kx, bzdw FROM goods WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::field("goods_id", "商品不存在"))
}

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
#[utoipa::path(post, path = "/api/cart", operation_id = "cart_add", tag = "购物车", responses((status = 200, description = "加入的行", body = Envelope<Added>)))]
async fn add(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Answer<Added> {
    let goods_id = form.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))?;
    let number = form.int_or("number", "数量", 1)?;
    let line_type = form.int_or("type", "类型", NORMAL)?;
    let added = add_line(
        &context.db,
        member,
        goods_id,
        number,
        line_type,
        form.int_or("combination_id", "组合", 0)?,
        [
            form.int_or("goods_price_id", "goods_price_id", 0)?,
            form.int_or("ladder_price_id", "ladder_price_id", 0)?,
            form.int_or("is_yj", "is_yj", 0)?,
        ],
    )
    .await?;
    ok(added)
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
async fn quick_add(State(context): State<ApiContext>, member: Member, Path(goods_id): Path<i64>) -> Answer<QuickAdded> {
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
    if goods.is_kx == 1 && !super::kxzq::approved(conn, member.id).await? {
        return Err(Error::forbidden(super::kxzq::NOT_APPROVED));
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
    let ordered = if line_type == FLASH_SALE { ordered_in_sale(conn, member, activity).await? } else { 0 };
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

async fn count(db: &Db, member: Member) -> Result<i64> {
    count_on(&mut *db.pool.acquire().await?, member).await
}

/// [`count`] on a connection the caller holds.
async fn count_on(conn: &mut AnyConnection, member: Member) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM cart_items WHERE member_id = $1").bind(member.id).fetch_one(&mut *conn).await?)
}

/// The number of lines in the cart.
#[derive(Serialize, ToSchema)]
pub struct CartTotal {
    total: i64,
}

/// `GET /api/cart/total`: `{ total }`, the number of lines.
#[utoipa::path(get, path = "/api/cart/total", tag = "购物车", responses((status = 200, description = "购物车行数", body = Envelope<CartTotal>)))]
async fn total(State(context): State<ApiContext>, member: Member) -> Answer<CartTotal> {
    ok(CartTotal { total: count(&context.db, member).await? })
}

/// `GET /api/cart/list`: the lines, `shipping_data`, `activity_data` and the engine's `quote`.
#[utoipa::path(get, path = "/api/cart/list", operation_id = "cart_list", tag = "购物车", responses((status = 200, description = "购物车与引擎报价", body = Envelope<CartList>)))]
async fn list(State(context): State<ApiContext>, member: Member) -> Answer<CartList> {
    ok(cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member).await?.with_quote()?)
}

/// `GET /api/cart/input`: the member's cart as the pricing engine's input and nothing else
/// (`items`, `shipping_data`, `activity_data` of `pricing.md`, and `settlement`: the member's
/// coupons, vouchers, red packets, points and the shop's settlement settings, without choices):
/// the same values `cart/list` quotes, without the goods cards' display fields and without a
/// quote. The edge reads it to check a checkout or an order with its own engine before the
/// origin sees it.
#[utoipa::path(get, path = "/api/cart/input", tag = "购物车", responses((status = 200, description = "引擎的输入", body = Envelope<EngineCartInput>)))]
async fn input(State(context): State<ApiContext>, member: Member) -> Answer<engine::CartInput> {
    let mut conn = context.db.pool.acquire().await?;
    let mut input = cart_input(&mut conn, context.db.kind, member).await?.engine_input();
    input.settlement = Some(crate::settlement::accounts(&mut conn, member.id, crate::now()).await?);
    ok(input)
}

/// A line of the member's (404 for another member's: it is not theirs to see).
/// (goods id, line type, activity id) of one of the member's lines.
async fn own_line(conn: &mut AnyConnection, member: Member, id: i64) -> Result<(i64, i64, i64)> {
    let line: OwnLine = sqlx::query_as("SELECT goods_id, type, activity_id FROM cart_items WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member.id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("购物车中没有该商品"))?;
    Ok((line.goods_id, line.line_type, line.activity_id))
}

/// One of the member's lines as stored.
#[derive(sqlx::FromRow)]
struct OwnLine {
    goods_id: i64,
    #[sqlx(rename = "type")]
    line_type: i64,
    activity_id: i64,
}

/// A line's quantity after an edit.
#[derive(Serialize, ToSchema)]
pub struct Edited {
    id: i64,
    number: i64,
}

/// `POST /api/cart/{id}/edit`: `number`; refused beyond stock.
#[utoipa::path(post, path = "/api/cart/{id}/edit", tag = "购物车", responses((status = 200, description = "修改后的数量", body = Envelope<Edited>)))]
async fn edit(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>, FormFields(form): FormFields) -> Answer<Edited> {
    let number = form.int("number", "数量")?.ok_or_else(|| Error::field("number", "请填写数量"))?;
    if number < 1 {
        return Err(Error::field("number", "数量至少为1"));
    }
    let mut conn = context.db.pool.acquire().await?;
    let (goods_id, line_type, activity) = own_line(&mut conn, member, id).await?;
    let goods = goods(&mut conn, goods_id).await?;
    let stock = match line_type {
        COMBINATION => sqlx::query_scalar("SELECT stock FROM combinations WHERE id = $1").bind(activity).fetch_one(&mut *conn).await?,
        _ => goods.stock,
    };
    if number > stock {
        let unit = if line_type == COMBINATION { "组" } else { goods.bzdw.as_str() };
        return Err(Error::field("number", format!("库存不足，最多可购买{stock}{unit}")));
    }
    if line_type == FLASH_SALE {
        let limit: Option<i64> =
            sqlx::query_scalar("SELECT limit_number FROM flash_sales WHERE id = $1").bind(activity).fetch_optional(&mut *conn).await?;
        // What the member already ordered in the sale counts too; the order's transaction
        // checks the limit again under the member's row lock.
        if let Some(limit) = limit
            && number.saturating_add(ordered_in_sale(&mut conn, member, activity).await?) > limit
        {
            return Err(Error::field("number", limit_message(limit, &goods.bzdw)));
        }
    }
    sqlx::query("UPDATE cart_items SET number = $1 WHERE id = $2 AND member_id = $3")
        .bind(number)
        .bind(id)
        .bind(member.id)
        .execute(&mut *conn)
        .await?;
    ok(Edited { id, number })
}

/// `POST /api/cart/batch_select`: `ids`, `is_selected` (0 or 1). Lines whose goods cannot be
/// bought stay unselected.
#[utoipa::path(post, path = "/api/cart/batch_select", tag = "购物车", responses((status = 200, description = "所选的行与选择状态", body = Envelope<Selected>)))]
async fn batch_select(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Answer<Selected> {
    let ids = form.ids("ids")?;
    let selected = match form.int("is_selected", "选择状态")? {
        Some(flag @ (0 | 1)) => flag,
        _ => return Err(Error::field("is_selected", "选择状态必须是0或1")),
    };
    if !ids.is_empty() {
        let mut update = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE cart_items SET is_selected = $1 WHERE member_id = $2 AND id IN ({}) \
             AND ($1 = 0 OR goods_id IN (SELECT id FROM goods WHERE is_buy = 1 AND stock > 0))",
            crate::db::params(3, ids.len())
        )))
        .bind(selected)
        .bind(member.id);
        for id in &ids {
            update = update.bind(*id);
        }
        update.execute(&context.db.pool).await?;
    }
    ok(Selected { ids, is_selected: selected })
}

/// The lines asked for and the state asked for them.
#[derive(Serialize, ToSchema)]
pub struct Selected {
    ids: Vec<i64>,
    is_selected: i64,
}

/// How many lines were deleted, and the lines left in the cart.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    deleted: u64,
    cart: i64,
}

/// `POST /api/cart/batch_delete`: `ids`.
#[utoipa::path(post, path = "/api/cart/batch_delete", tag = "购物车", responses((status = 200, description = "删除的行数", body = Envelope<Deleted>)))]
async fn batch_delete(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Answer<Deleted> {
    let ids = form.ids("ids")?;
    if ids.is_empty() {
        return Err(Error::field("ids", "请选择要删除的商品"));
    }
    let mut delete = sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM cart_items WHERE member_id = $1 AND id IN ({})",
        crate::db::params(2, ids.len())
    )))
    .bind(member.id);
    for id in &ids {
        delete = delete.bind(*id);
    }
    let deleted = delete.execute(&context.db.pool).await?.rows_affected();
    ok(Deleted { deleted, cart: count(&context.db, member).await? })
}

/// What a copy did: the copies made (one per line and store) and those that could not be.
#[derive(Serialize, ToSchema)]
pub struct Copied {
    copied: i64,
    /// The copies an add would refuse (stock, a flash sale's limit, goods no longer sold), each
    /// with its reason; the others are made.
    skipped: Vec<CopySkipped>,
}

/// A line that could not be copied into one store's cart, and why.
#[derive(Serialize, ToSchema)]
pub struct CopySkipped {
    /// The member's line.
    id: i64,
    /// The goods' (or the combination's) name.
    name: String,
    /// The store account it was to go to.
    member_id: i64,
    username: String,
    #[schema(example = "库存不足，最多可购买20盒")]
    reason: String,
}

/// A line to copy, with its goods' (or combination's) name.
#[derive(sqlx::FromRow)]
struct CopyLine {
    id: i64,
    goods_id: i64,
    #[sqlx(rename = "type")]
    line_type: i64,
    activity_id: i64,
    number: i64,
    name: String,
}

/// `POST /api/cart/copy` (`ids`, `other_user_ids`): copies the lines into the carts of other
/// store accounts of the member's company (`members.company_id`, never the company name), each
/// as an add to that cart, merging with what is there. 403 `只能复制到本企业的其他门店账号` for an
/// account of another company (whatever its name), 403 for a member not yet approved, 422 for a
/// store account not yet approved; a copy an add would refuse (stock, limits) is skipped with
/// its reason and the others are made.
#[utoipa::path(post, path = "/api/cart/copy", tag = "购物车", responses((status = 200, description = "复制的行数与未能复制的行", body = Envelope<Copied>)))]
async fn copy(State(context): State<ApiContext>, member: Member, FormFields(form): FormFields) -> Answer<Copied> {
    let ids = form.ids("ids")?;
    let targets = form.ids("other_user_ids")?;
    if ids.is_empty() {
        return Err(Error::field("ids", "请选择要复制的商品"));
    }
    if targets.is_empty() {
        return Err(Error::field("other_user_ids", "请选择要复制到的门店账号"));
    }
    if targets.contains(&member.id) {
        return Err(Error::field("other_user_ids", "请选择本账号以外的门店账号"));
    }
    if ids.len() * targets.len() > IDS_MAX {
        return Err(Error::field("ids", format!("一次最多复制{IDS_MAX}行（商品行数×门店数）")));
    }
    let mut conn = context.db.pool.acquire().await?;
    let (company, is_passed): (Option<i64>, i64) =
        sqlx::query_as("SELECT company_id, is_passed FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    if is_passed != 1 {
        return Err(Error::forbidden("资质审核通过后方可复制到其他门店"));
    }
    // The stores of one company: accounts with the member's company id. One statement for all
    // the targets; a member without a company has no stores.
    let mut stores = sqlx::query_as::<_, (i64, String, i64)>(sqlx::AssertSqlSafe(format!(
        "SELECT id, username, is_passed FROM members WHERE company_id = $1 AND id IN ({})",
        crate::db::params(2, targets.len())
    )))
    .bind(company.unwrap_or(-1));
    for target in &targets {
        stores = stores.bind(*target);
    }
    let stores = stores.fetch_all(&mut *conn).await?;
    if company.is_none() || targets.iter().any(|target| !stores.iter().any(|store| store.0 == *target)) {
        return Err(Error::forbidden("只能复制到本企业的其他门店账号"));
    }
    if let Some((_, username, _)) = stores.iter().find(|store| store.2 != 1) {
        return Err(Error::field("other_user_ids", format!("门店账号{username}的资质尚未通过审核，暂不能复制")));
    }
    // The lines, in one statement; every one asked for must be the member's.
    let mut lines = sqlx::query_as::<_, CopyLine>(sqlx::AssertSqlSafe(format!(
        "SELECT c.id, c.goods_id, c.type, c.activity_id, c.number, COALESCE(k.name, g.name) AS name FROM cart_items c \
         JOIN goods g ON g.id = c.goods_id LEFT JOIN combinations k ON c.type = {COMBINATION} AND k.id = c.activity_id \
         WHERE c.member_id = $1 AND c.id IN ({}) ORDER BY c.id",
        crate::db::params(2, ids.len())
    )))
    .bind(member.id);
    for id in &ids {
        lines = lines.bind(*id);
    }
    let lines = lines.fetch_all(&mut *conn).await?;
    drop(conn);
    if ids.iter().any(|id| !lines.iter().any(|line| line.id == *id)) {
        return Err(Error::not_found("购物车中没有该商品"));
    }
    // Each copy is an add to the store's cart, under every rule an add obeys (stock, limits);
    // one it refuses is reported and the others go on.
    let mut copied = 0;
    let mut skipped = Vec::new();
    for line in lines {
        let combination = if line.line_type == COMBINATION { line.activity_id } else { 0 };
        for (target, username, _) in &stores {
            let target = Member { id: *target };
            match add_line(&context.db, target, line.goods_id, line.number, line.line_type, combination, [0, 0, 0]).await {
                Ok(_) => copied += 1,
                Err(Error::Validation(errors)) => skipped.push(CopySkipped {
                    id: line.id,
                    name: line.name.clone(),
                    member_id: target.id,
                    username: username.clone(),
                    reason: errors.into_iter().next().map(|(_, message)| message).unwrap_or_default(),
                }),
                Err(Error::Refused(_, reason)) => skipped.push(CopySkipped {
                    id: line.id,
                    name: line.name.clone(),
                    member_id: target.id,
                    username: username.clone(),
                    reason,
                }),
                Err(other) => return Err(other),
            }
        }
    }
    ok(Copied { copied, skipped })
}

/// `POST /api/cart/next_hint`: what the selected lines still need for the next
/// full-reduction tier and for free shipping, from the engine's quote.
#[utoipa::path(post, path = "/api/cart/next_hint", tag = "购物车", responses((status = 200, description = "下一档满减与包邮还差多少", body = Envelope<NextHint>)))]
async fn next_hint(State(context): State<ApiContext>, member: Member) -> Answer<NextHint> {
    let cart = cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member).await?;
    let quote = cart.quote()?;
    let summary = &quote.summary;
    let tier = summary.manjian_tiers.iter().find(|tier| tier.status == 0).map(|tier| TierHint {
        amount: tier.amount,
        reduce: tier.reduce,
        need: tier.need,
        text: engine::text::tier_hint(tier.need, tier.reduce),
    });
    let shipping = summary.shipping.need.map(|need| ShippingHint { need, text: engine::text::shipping_hint(need) });
    ok(NextHint { manjian: tier, shipping, free_shipping: summary.shipping.free_shipping })
}

/// What the selected lines still need: the next full-reduction tier (`null` when every tier is
/// reached or there is none) and free shipping (`null` when reached).
#[derive(Serialize, ToSchema)]
pub struct NextHint {
    #[schema(required = true)]
    manjian: Option<TierHint>,
    #[schema(required = true)]
    shipping: Option<ShippingHint>,
    free_shipping: bool,
}

/// The next full-reduction tier and what it still needs.
#[derive(Serialize, ToSchema)]
pub struct TierHint {
    #[schema(value_type = String, example = "500.00")]
    amount: engine::Money,
    #[schema(value_type = String, example = "50.00")]
    reduce: engine::Money,
    #[schema(value_type = String, example = "80.00")]
    need: engine::Cents,
    #[schema(example = "再买 ¥80.00 可减 ¥50.00")]
    text: String,
}

/// What free shipping still needs.
#[derive(Serialize, ToSchema)]
pub struct ShippingHint {
    #[schema(value_type = String, example = "120.00")]
    need: engine::Cents,
    #[schema(example = "还差 ¥120.00 免运费")]
    text: String,
}
