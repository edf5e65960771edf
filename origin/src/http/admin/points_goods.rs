//! 积分商城 items in the console: listed (those off sale too), added and changed. The rules are
//! `domain::staff::points_goods`'s.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::points_mall::PointsKind;
use crate::domain::staff::points_goods::{self, Draft, PointsGoodsRow};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields};
use crate::money;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, create)).routes(routes!(change))
}

/// `GET /api/admin/points-goods`: every item of the mall in its order, those off sale too, with
/// what each gives, its stock left and the units redeemed.
#[utoipa::path(get, path = "/api/admin/points-goods", operation_id = "admin_points_goods", tag = "后台", responses((status = 200, description = "积分商品", body = Envelope<Vec<PointsGoodsRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<Vec<PointsGoodsRow>> {
    ok(points_goods::list(&mut *context.db.pool.acquire().await?).await?)
}

/// An item as the operator writes it (a change sends every field).
#[derive(ToSchema)]
pub struct PointsGoodsForm {
    /// 商品名称, at most 30 characters.
    #[schema(example = "品牌保温杯")]
    name: String,
    /// 商品说明, at most 200 characters.
    description: Option<String>,
    /// 商品类型: 1 goods shipped, 2 a coupon, 3 red packets.
    kind: i64,
    /// Kind 1: the catalogue goods shipped (its picture shows in the mall).
    goods_id: Option<i64>,
    /// Kind 2: the coupon template given.
    coupon_id: Option<i64>,
    /// Kind 3: the red packets one credits.
    #[schema(value_type = Option<String>, example = "5.00")]
    red_packet: i64,
    /// 兑换积分 for one.
    points: i64,
    /// 加价: money from the balance beside the points; absent or 0 for points only.
    #[schema(value_type = Option<String>, example = "9.90")]
    price: i64,
    /// 库存: units left to redeem.
    stock: i64,
    /// 每人限兑 in all; 0 or absent for no limit.
    per_member: Option<i64>,
    /// 排序, smallest first; absent 0.
    sort: Option<i64>,
    /// 1 on sale in the mall (absent: 1), 0 off.
    #[schema(value_type = Option<i64>)]
    is_on: Option<bool>,
}

/// Money written with at most two decimals, as stored; absent is 0.
fn money_field(fields: &Fields, name: &str, label: &str) -> Result<i64> {
    let Some(text) = fields.text(name) else { return Ok(0) };
    let scale_ok = engine::Money::parse(&text).is_ok_and(|money| money.decimal().scale() <= 2);
    money::parse_stored(&text).filter(|_| scale_ok).ok_or_else(|| Error::field(name, format!("{label}应为金额，最多两位小数")))
}

impl FromFields for PointsGoodsForm {
    fn from_fields(fields: &Fields) -> Result<PointsGoodsForm> {
        let is_on = match fields.int("is_on", "上架")? {
            None | Some(1) => Some(true),
            Some(0) => Some(false),
            Some(_) => return Err(Error::field("is_on", "上架只能是0或1")),
        };
        Ok(PointsGoodsForm {
            name: fields.text("name").unwrap_or_default(),
            description: fields.text("description"),
            kind: fields.int("kind", "商品类型")?.unwrap_or(0),
            goods_id: fields.int("goods_id", "兑换的商品")?,
            coupon_id: fields.int("coupon_id", "兑换的优惠券")?,
            red_packet: money_field(fields, "red_packet", "红包金额")?,
            points: fields.int("points", "兑换积分")?.unwrap_or(0),
            price: money_field(fields, "price", "加价金额")?,
            stock: fields.int("stock", "库存")?.unwrap_or(0),
            per_member: fields.int("per_member", "每人限兑")?,
            sort: fields.int("sort", "排序")?,
            is_on,
        })
    }
}

impl PointsGoodsForm {
    fn draft(self) -> Result<Draft> {
        let kind = PointsKind::from_code(self.kind).ok_or_else(|| Error::field("kind", "请选择商品类型"))?;
        Ok(Draft {
            name: self.name,
            description: self.description.unwrap_or_default(),
            kind,
            goods_id: self.goods_id,
            coupon_id: self.coupon_id,
            red_packet: self.red_packet,
            points: self.points,
            price: self.price,
            stock: self.stock,
            per_member: self.per_member.unwrap_or(0),
            sort: self.sort.unwrap_or(0),
            is_on: self.is_on.unwrap_or(true),
        })
    }
}

/// The item saved.
#[derive(Serialize, ToSchema)]
pub struct PointsGoodsSaved {
    id: i64,
}

/// `POST /api/admin/points-goods`: adds an item; every wrong field a 422 on its field.
#[utoipa::path(post, path = "/api/admin/points-goods", operation_id = "admin_points_goods_add", request_body(content = PointsGoodsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的积分商品", body = Envelope<PointsGoodsSaved>)))]
async fn create(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Form(form): Form<PointsGoodsForm>,
) -> Answer<PointsGoodsSaved> {
    let draft = form.draft()?;
    let id = points_goods::save(&mut *context.db.pool.acquire().await?, &staff.actor, None, draft, now()).await?;
    ok_with("已新增积分商品", PointsGoodsSaved { id })
}

/// `PUT /api/admin/points-goods/{id}`: replaces an item; one already redeemed keeps its kind
/// (422 on `kind`). Members see it on their next read of the mall.
#[utoipa::path(put, path = "/api/admin/points-goods/{id}", operation_id = "admin_points_goods_change", params(("id" = i64, Path, description = "积分商品 id")), request_body(content = PointsGoodsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已保存", body = Envelope<PointsGoodsSaved>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Promotions>,
    Path(id): Path<i64>,
    Form(form): Form<PointsGoodsForm>,
) -> Answer<PointsGoodsSaved> {
    let draft = form.draft()?;
    points_goods::save(&mut *context.db.pool.acquire().await?, &staff.actor, Some(id), draft, now()).await?;
    ok_with("已保存积分商品", PointsGoodsSaved { id })
}
