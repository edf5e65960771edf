//! The cart (§7): add, quick add, list with the engine's quote, count, edit, select, delete.
//!
//! `cart/list` answers the lines in §3's shape, each also a valid `CartItem` of `pricing.md`,
//! with `shipping_data` and `activity_data` beside them and `quote`: the engine's answer for
//! exactly those three, so the browser can feed them to its WebAssembly engine and compare.

mod add;
mod copy;

pub(crate) use self::add::add_line;

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::{Fields, Form, FromFields, Member};
use crate::db::Db;
use crate::domain::cart::{COMBINATION, CartList, FLASH_SALE, cart_input};
use crate::domain::catalogue::scope::ScopeClass;
use crate::domain::orders::control::per_order_message;
use crate::domain::orders::ordered_in_sale;
use crate::domain::promotions::limit_message;
use engine::contract::CartInput;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(add::add))
        .routes(routes!(add::quick_add))
        .routes(routes!(list))
        .routes(routes!(input))
        .routes(routes!(total))
        .routes(routes!(edit))
        .routes(routes!(batch_select))
        .routes(routes!(batch_delete))
        .routes(routes!(copy::copy))
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
    scope_class: ScopeClass,
    name: String,
    /// Special control: the most one order may take (0: no limit).
    control_per_order: i64,
}

async fn goods(conn: &mut AnyConnection, id: i64) -> Result<Goods> {
    sqlx::query_as("SELECT price, stock, is_buy, manjian_id, is_kx, bzdw, scope_class, name, control_per_order FROM goods WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::field("goods_id", "商品不存在"))
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
    ok(cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member.id).await?.with_quote()?)
}

/// `GET /api/cart/input`: the member's cart as the pricing engine's input and nothing else
/// (`items`, `shipping_data`, `activity_data` of `pricing.md`, and `settlement`: the member's
/// coupons, vouchers, red packets, points and the shop's settlement settings, without choices):
/// the same values `cart/list` quotes, without the goods cards' display fields and without a
/// quote. The edge reads it to check a checkout or an order with its own engine before the
/// origin sees it.
#[utoipa::path(get, path = "/api/cart/input", tag = "购物车", responses((status = 200, description = "引擎的输入", body = Envelope<CartInput>)))]
async fn input(State(context): State<ApiContext>, member: Member) -> Answer<engine::CartInput> {
    let mut conn = context.db.pool.acquire().await?;
    let mut input = cart_input(&mut conn, context.db.kind, member.id).await?.engine_input();
    input.settlement = Some(crate::domain::settlement::accounts(&mut conn, member.id, crate::now()).await?);
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

/// A line's new quantity.
#[derive(ToSchema)]
pub struct CartEditForm {
    /// At least 1.
    #[schema(minimum = 1)]
    number: i64,
}

impl FromFields for CartEditForm {
    fn from_fields(form: &Fields) -> Result<CartEditForm> {
        let number = form.int("number", "数量")?.ok_or_else(|| Error::field("number", "请填写数量"))?;
        if number < 1 {
            return Err(Error::field("number", "数量至少为1"));
        }
        Ok(CartEditForm { number })
    }
}

/// `POST /api/cart/{id}/edit`: `number`; refused beyond stock.
#[utoipa::path(post, path = "/api/cart/{id}/edit", request_body(content = CartEditForm, content_type = "application/x-www-form-urlencoded"), tag = "购物车", responses((status = 200, description = "修改后的数量", body = Envelope<Edited>)))]
async fn edit(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Form(CartEditForm { number }): Form<CartEditForm>,
) -> Answer<Edited> {
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
    if line_type != COMBINATION && goods.control_per_order > 0 && number > goods.control_per_order {
        return Err(Error::field("number", per_order_message(&goods.name, goods.control_per_order, &goods.bzdw)));
    }
    if line_type == FLASH_SALE {
        let limit: Option<i64> =
            sqlx::query_scalar("SELECT limit_number FROM flash_sales WHERE id = $1").bind(activity).fetch_optional(&mut *conn).await?;
        // What the member already ordered in the sale counts too; the order's transaction
        // checks the limit again under the member's row lock.
        if let Some(limit) = limit
            && number.saturating_add(ordered_in_sale(&mut conn, member.id, activity).await?) > limit
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

/// Lines to tick or untick.
#[derive(ToSchema)]
pub struct SelectForm {
    /// The cart lines (`ids=1,2`, `ids[]=1&ids[]=2`); at most 500.
    ids: Vec<i64>,
    /// 1 ticks them, 0 unticks.
    is_selected: i64,
}

impl FromFields for SelectForm {
    fn from_fields(form: &Fields) -> Result<SelectForm> {
        let ids = form.ids("ids")?;
        let is_selected = match form.int("is_selected", "选择状态")? {
            Some(flag @ (0 | 1)) => flag,
            _ => return Err(Error::field("is_selected", "选择状态必须是0或1")),
        };
        Ok(SelectForm { ids, is_selected })
    }
}

/// `POST /api/cart/batch_select`: `ids`, `is_selected` (0 or 1). Lines whose goods cannot be
/// bought stay unselected.
#[utoipa::path(post, path = "/api/cart/batch_select", request_body(content = SelectForm, content_type = "application/x-www-form-urlencoded"), tag = "购物车", responses((status = 200, description = "所选的行与选择状态", body = Envelope<Selected>)))]
async fn batch_select(
    State(context): State<ApiContext>,
    member: Member,
    Form(SelectForm { ids, is_selected: selected }): Form<SelectForm>,
) -> Answer<Selected> {
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

/// Lines to delete.
#[derive(ToSchema)]
pub struct DeleteForm {
    /// The cart lines (`ids=1,2`, `ids[]=1&ids[]=2`); at least one, at most 500.
    ids: Vec<i64>,
}

impl FromFields for DeleteForm {
    fn from_fields(form: &Fields) -> Result<DeleteForm> {
        let ids = form.ids("ids")?;
        if ids.is_empty() {
            return Err(Error::field("ids", "请选择要删除的商品"));
        }
        Ok(DeleteForm { ids })
    }
}

/// `POST /api/cart/batch_delete`: `ids`.
#[utoipa::path(post, path = "/api/cart/batch_delete", request_body(content = DeleteForm, content_type = "application/x-www-form-urlencoded"), tag = "购物车", responses((status = 200, description = "删除的行数", body = Envelope<Deleted>)))]
async fn batch_delete(State(context): State<ApiContext>, member: Member, Form(DeleteForm { ids }): Form<DeleteForm>) -> Answer<Deleted> {
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

/// `POST /api/cart/next_hint`: what the selected lines still need for the next
/// full-reduction tier and for free shipping, from the engine's quote.
#[utoipa::path(post, path = "/api/cart/next_hint", tag = "购物车", responses((status = 200, description = "下一档满减与包邮还差多少", body = Envelope<NextHint>)))]
async fn next_hint(State(context): State<ApiContext>, member: Member) -> Answer<NextHint> {
    let cart = cart_input(&mut *context.db.pool.acquire().await?, context.db.kind, member.id).await?;
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
