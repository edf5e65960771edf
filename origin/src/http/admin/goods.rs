//! 商品 in the console: the catalogue listed, searched and filtered; a goods added with every
//! field the shop shows, read, and changed field by field (the fields sent change); goods put on
//! sale or taken off, moved between shops, marked 优选 or repriced, many at once. The rules are
//! `domain::staff::goods`'s.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Page, Staff, can, paging};
use crate::domain::staff::goods::{self, Bulk, FieldChange, FieldSpec, GoodsFilter, GoodsRecord, GoodsRow};
use crate::domain::staff::goods_sheet::{self, ImportReport};
use crate::domain::staff::pictures::{self, Picture, Prepared};
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok, ok_with};
use crate::http::extract::{Fields, Form, FromFields, Query};
use crate::http::upload::{self, FromUpload, Upload};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(form_fields))
        .routes(routes!(detail, change))
        .routes(routes!(bulk))
        .routes(routes!(export))
        .routes(routes!(pictures, arrange_pictures))
        .routes(routes!(delete_picture))
        .merge(OpenApiRouter::new().routes(routes!(import)).routes(routes!(add_pictures)).layer(DefaultBodyLimit::max(upload::BODY_LIMIT)))
}

/// Which goods.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The goods' id, or part of its name, common name, manufacturer or approval number.
    search: Option<String>,
    /// A category (its goods and its sub-categories').
    #[param(value_type = Option<i64>)]
    category: Option<i64>,
    /// 1 自营, 2 中药饮片, 3 器械.
    #[param(value_type = Option<i64>)]
    shop: Option<i64>,
    /// 1 on sale, 0 taken off; absent: both.
    #[param(value_type = Option<i64>)]
    on_sale: Option<bool>,
    /// Only goods with at most this many units.
    #[param(value_type = Option<i64>)]
    stock_below: Option<i64>,
    #[param(value_type = Option<i64>)]
    page: i64,
    #[param(value_type = Option<i64>)]
    size: i64,
}

impl FromFields for ListQuery {
    fn from_fields(fields: &Fields) -> Result<ListQuery> {
        let (page, size) = paging(fields)?;
        let on_sale = match fields.int("on_sale", "上架状态")? {
            None => None,
            Some(flag @ (0 | 1)) => Some(flag == 1),
            Some(_) => return Err(Error::field("on_sale", "上架状态不正确")),
        };
        let stock_below = fields.int("stock_below", "库存")?;
        if stock_below.is_some_and(|units| units < 0) {
            return Err(Error::field("stock_below", "库存不能为负数"));
        }
        Ok(ListQuery {
            search: fields.text("search"),
            category: fields.int("category", "分类")?,
            shop: fields.int("shop", "店铺")?,
            on_sale,
            stock_below,
            page,
            size,
        })
    }
}

impl ListQuery {
    /// The list's filter, page and size.
    fn filter(self) -> (GoodsFilter, i64, i64) {
        let ListQuery { search, category, shop, on_sale, stock_below, page, size } = self;
        (GoodsFilter { search, category, shop, on_sale, stock_below }, page, size)
    }
}

/// `GET /api/admin/goods`: goods, newest first.
#[utoipa::path(get, path = "/api/admin/goods", operation_id = "admin_goods", params(ListQuery), tag = "后台", responses((status = 200, description = "商品列表", body = Envelope<Page<GoodsRow>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Read>, Query(query): Query<ListQuery>) -> Answer<Page<GoodsRow>> {
    let (filter, page, size) = query.filter();
    let (list, total) = goods::list(&mut *context.db.pool.acquire().await?, &filter, page, size).await?;
    ok(Page { list, total, page, size })
}

/// `GET /api/admin/goods/export`: the goods the list's filters find as an `.xlsx` workbook, a
/// column per field (the import's shape); at most 100,000 (422 beyond).
#[utoipa::path(get, path = "/api/admin/goods/export", operation_id = "admin_goods_export", params(ListQuery), tag = "后台", responses((status = 200, description = "商品表", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = String)))]
async fn export(State(context): State<ApiContext>, staff: Staff<can::Read>, Query(query): Query<ListQuery>) -> Result<Response> {
    let (filter, _, _) = query.filter();
    let book = goods_sheet::export(&mut *context.db.pool.acquire().await?, &staff.actor, &filter, now()).await?;
    Ok(super::xlsx("goods", book))
}

/// A goods workbook to import (`multipart/form-data`).
#[derive(ToSchema)]
pub struct ImportForm {
    /// The `.xlsx` workbook: its first sheet, headings in the first row (编号 and the fields'
    /// labels, as `GET /api/admin/goods/export` writes them).
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// `1` writes the rows (all or none); absent or `0` is a dry run that changes nothing.
    #[schema(value_type = Option<i64>)]
    commit: bool,
}

impl FromUpload for ImportForm {
    const FILES: (&'static str, usize) = ("file", 1);

    fn from_upload(form: upload::Form) -> Result<ImportForm> {
        let commit = match form.text("commit").as_deref().map(str::trim) {
            None | Some("" | "0") => false,
            Some("1") => true,
            Some(_) => return Err(Error::field("commit", "commit 应为0或1")),
        };
        let (_, bytes) = form.files.into_iter().next().ok_or_else(|| Error::field("file", "请选择要导入的表格"))?;
        if !bytes.starts_with(b"PK\x03\x04") {
            return Err(Error::field("file", "请上传 .xlsx 格式的表格"));
        }
        Ok(ImportForm { file: bytes.to_vec(), commit })
    }
}

/// `POST /api/admin/goods/import`: reads a goods workbook; a dry run answers what each row would
/// add or change and every refusal (row, column, message), and changes nothing; with `commit=1`
/// every row is written in one transaction, or none when any is refused.
#[utoipa::path(post, path = "/api/admin/goods/import", operation_id = "admin_goods_import", request_body(content = ImportForm, content_type = "multipart/form-data"), tag = "后台", responses((status = 200, description = "导入结果", body = Envelope<ImportReport>)))]
async fn import(State(context): State<ApiContext>, staff: Staff<can::Catalogue>, Upload(form): Upload<ImportForm>) -> Answer<ImportReport> {
    let report = goods_sheet::import(&mut *context.db.pool.acquire().await?, &staff.actor, &form.file, form.commit, now()).await?;
    ok(report)
}

/// A category a goods may be put in (a leaf), with its path.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct CategoryChoice {
    pub id: i64,
    /// `中西成药 / 感冒用药`.
    pub path: String,
}

/// A brand.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct BrandChoice {
    pub id: i64,
    pub name: String,
}

/// The goods form's fields, and the categories and brands to choose from.
#[derive(Serialize, ToSchema)]
pub struct GoodsFormSpec {
    pub fields: Vec<FieldSpec>,
    pub categories: Vec<CategoryChoice>,
    pub brands: Vec<BrandChoice>,
}

/// `GET /api/admin/goods/fields`: the goods form's fields (labels, kinds, choices, limits), the
/// leaf categories and the brands.
#[utoipa::path(get, path = "/api/admin/goods/fields", operation_id = "admin_goods_fields", tag = "后台", responses((status = 200, description = "商品表单", body = Envelope<GoodsFormSpec>)))]
async fn form_fields(State(context): State<ApiContext>, _: Staff<can::Read>) -> Answer<GoodsFormSpec> {
    let mut conn = context.db.pool.acquire().await?;
    let categories: Vec<CategoryChoice> = sqlx::query_as(
        "SELECT c.id, COALESCE((SELECT gp.name || ' / ' FROM categories p JOIN categories gp ON gp.id = p.parent_id WHERE p.id = c.parent_id), '') \
                || COALESCE((SELECT p.name || ' / ' FROM categories p WHERE p.id = c.parent_id), '') || c.name AS path \
         FROM categories c WHERE NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id) ORDER BY c.shop, c.parent_id, c.sort, c.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    let brands: Vec<BrandChoice> = sqlx::query_as("SELECT id, name FROM brands ORDER BY sort, id").fetch_all(&mut *conn).await?;
    ok(GoodsFormSpec { fields: goods::field_specs(), categories, brands })
}

macro_rules! goods_form {
    ($($field:ident = $key:literal: $doc:literal),* $(,)?) => {
        /// A goods' fields as text (`GET /api/admin/goods/fields` says each one's kind and
        /// choices): money as `12.50`, a ladder as `10:9.50,50:9.00`, a flag as `1` or `0`, a
        /// choice by its code. Adding a goods needs 商品名称, 生产厂家, 规格, 单位, 分类 and
        /// 价格; a change sends only the fields that change.
        #[derive(ToSchema)]
        pub struct GoodsForm {
            $(
                #[doc = $doc]
                #[schema(rename = $key)]
                $field: Option<String>,
            )*
        }

        impl GoodsForm {
            /// The fields sent, `(name, text)`.
            fn given(&self) -> Vec<(&'static str, &str)> {
                let mut given = Vec::new();
                $(
                    if let Some(text) = &self.$field {
                        given.push(($key, text.as_str()));
                    }
                )*
                given
            }
        }

        impl FromFields for GoodsForm {
            fn from_fields(fields: &Fields) -> Result<GoodsForm> {
                let pairs = fields.pairs();
                let sent = |name: &str| pairs.iter().find(|(key, _)| key == name).map(|(_, text)| text.clone());
                let form = GoodsForm { $($field: sent($key),)* };
                if form.given().is_empty() {
                    return Err(Error::field("name", "请填写商品信息"));
                }
                Ok(form)
            }
        }
    };
}

goods_form! {
    name = "name": "商品名称 (required to add).",
    common_name = "common_name": "通用名.",
    sccj = "sccj": "生产厂家 (required to add).",
    ypgg = "ypgg": "规格 (required to add).",
    bzdw = "bzdw": "单位 (required to add).",
    zbz = "zbz": "中包装: the step a quantity goes by, 1 to 10000.",
    jzl = "jzl": "件装量: units in a case; 0 for not given.",
    pzwh = "pzwh": "批准文号.",
    origin = "origin": "产地.",
    category_id = "category_id": "分类: a leaf category's id (required to add).",
    brand_id = "brand_id": "品牌: a brand's id; 0 for none.",
    shop = "type": "店铺: 1 自营, 2 中药饮片, 3 器械.",
    is_youx = "is_youx": "优选: 1 or 0.",
    scope_class = "scope_class": "经营范围: 1 to 13.",
    dispensing = "dispensing": "处方类别: 0 非药品, 1 处方药, 2 甲类OTC, 3 乙类OTC.",
    vat_rate = "vat_rate": "税率 in percent: 13, 9, 6, 3, 1 or 0.",
    price = "price": "价格 (required to add).",
    base_price = "base_price": "原价; the price when absent on adding.",
    ladder_price_type = "ladder_price_type": "阶梯类型: 1 区间价, 2 起订量价.",
    ladder = "ladder": "阶梯价: `number:price` steps by commas; empty for none.",
    is_buy = "is_buy": "上架: 1 on sale, 0 taken off.",
    is_dpby = "is_dpby": "单品包邮: 1 or 0.",
    qg_number = "qg_number": "包邮起订量: units from which it ships free.",
    control_per_order = "control_per_order": "每单限购; 0 for none.",
    control_per_month = "control_per_month": "每月限购; 0 for none.",
    tags = "tags": "标签, by commas.",
    description = "description": "商品说明 (Markdown).",
}

fn read(form: &GoodsForm) -> Result<goods::Given> {
    goods::read_fields(form.given()).map_err(Error::Validation)
}

/// `POST /api/admin/goods`: adds a goods; every wrong field a 422 on its field. It has no stock
/// until a lot is received (`POST /api/admin/goods/{id}/lots`).
#[utoipa::path(post, path = "/api/admin/goods", operation_id = "admin_goods_add", request_body(content = GoodsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "新增的商品", body = Envelope<GoodsRecord>)))]
async fn create(State(context): State<ApiContext>, staff: Staff<can::Catalogue>, Form(form): Form<GoodsForm>) -> Answer<GoodsRecord> {
    let given = read(&form)?;
    let mut conn = context.db.pool.acquire().await?;
    let id = goods::create(&mut conn, &staff.actor, given, now()).await?;
    ok_with("已新增商品", goods::detail(&mut conn, id).await?)
}

/// `GET /api/admin/goods/{id}`: every field of a goods, its stock and its price history.
#[utoipa::path(get, path = "/api/admin/goods/{id}", operation_id = "admin_goods_detail", params(("id" = i64, Path, description = "商品 id")), tag = "后台", responses((status = 200, description = "商品", body = Envelope<GoodsRecord>)))]
async fn detail(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<GoodsRecord> {
    ok(goods::detail(&mut *context.db.pool.acquire().await?, id).await?)
}

/// A goods changed: what changed, and the goods now.
#[derive(Serialize, ToSchema)]
pub struct GoodsChanged {
    pub changed: Vec<FieldChange>,
    pub goods: GoodsRecord,
}

/// `PUT /api/admin/goods/{id}`: changes the fields sent, all or none (a partial update); answers
/// what changed. A price change is in the buyer's next quote, the cart's included.
#[utoipa::path(put, path = "/api/admin/goods/{id}", operation_id = "admin_goods_change", params(("id" = i64, Path, description = "商品 id")), request_body(content = GoodsForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "改动", body = Envelope<GoodsChanged>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Catalogue>,
    Path(id): Path<i64>,
    Form(form): Form<GoodsForm>,
) -> Answer<GoodsChanged> {
    let given = read(&form)?;
    let mut conn = context.db.pool.acquire().await?;
    let changed = goods::update(&mut conn, &staff.actor, id, given, now()).await?;
    ok(GoodsChanged { changed, goods: goods::detail(&mut conn, id).await? })
}

/// Many goods changed at once.
#[derive(ToSchema)]
pub struct BulkForm {
    /// The goods' ids, by commas (at most 500).
    #[schema(value_type = String, example = "12,15,20")]
    ids: Vec<i64>,
    /// `on_sale` 上架, `off_sale` 下架, `shop` (with `value` 1 自营, 2 中药饮片, 3 器械),
    /// `youx` / `not_youx` 优选, `reprice` (with `value` a rate above 0 and at most 1: `0.95`).
    action: String,
    value: Option<String>,
}

impl FromFields for BulkForm {
    fn from_fields(fields: &Fields) -> Result<BulkForm> {
        Ok(BulkForm { ids: fields.ids("ids")?, action: fields.required("action", "操作")?, value: fields.text("value") })
    }
}

impl BulkForm {
    fn change(&self) -> Result<Bulk> {
        let value = self.value.as_deref().map(str::trim);
        Ok(match self.action.as_str() {
            "on_sale" => Bulk::OnSale(true),
            "off_sale" => Bulk::OnSale(false),
            "youx" => Bulk::Preferred(true),
            "not_youx" => Bulk::Preferred(false),
            "shop" => Bulk::Shop(value.and_then(|value| value.parse().ok()).ok_or_else(|| Error::field("value", "请选择店铺"))?),
            "reprice" => {
                let rate = value.and_then(|value| engine::Money::parse(value).ok());
                Bulk::Reprice(rate.ok_or_else(|| Error::field("value", "请填写调价比例，如 0.95"))?)
            }
            _ => return Err(Error::field("action", "操作不正确")),
        })
    }
}

/// How many goods a bulk change changed.
#[derive(Serialize, ToSchema)]
pub struct BulkDone {
    pub changed: usize,
}

/// `POST /api/admin/goods/bulk`: one change to many goods, all or none, each goods' its own
/// audit row (and price history when priced).
#[utoipa::path(post, path = "/api/admin/goods/bulk", operation_id = "admin_goods_bulk", request_body(content = BulkForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "改动的商品数", body = Envelope<BulkDone>)))]
async fn bulk(State(context): State<ApiContext>, staff: Staff<can::Catalogue>, Form(form): Form<BulkForm>) -> Answer<BulkDone> {
    let change = form.change()?;
    let changed = goods::bulk(&mut *context.db.pool.acquire().await?, &staff.actor, &form.ids, change, now()).await?;
    ok_with("已修改商品", BulkDone { changed })
}

#[cfg(test)]
mod tests {
    use crate::http::extract::FromFields;

    #[test]
    fn the_form_names_every_field_of_the_domain() {
        let form = super::GoodsForm::from_fields(&crate::http::extract::Fields::parse(
            &crate::domain::staff::goods::FIELDS.iter().map(|field| format!("{}=x", field.name)).collect::<Vec<_>>().join("&"),
        ))
        .unwrap();
        let given: Vec<&str> = form.given().into_iter().map(|(name, _)| name).collect();
        let fields: Vec<&str> = crate::domain::staff::goods::FIELDS.iter().map(|field| field.name).collect();
        assert_eq!(given, fields);
    }
}

/// `GET /api/admin/goods/{id}/pictures`: the goods' pictures, the main one first.
#[utoipa::path(get, path = "/api/admin/goods/{id}/pictures", operation_id = "admin_goods_pictures", params(("id" = i64, Path, description = "商品 id")), tag = "后台", responses((status = 200, description = "商品图片", body = Envelope<Vec<Picture>>)))]
async fn pictures(State(context): State<ApiContext>, _: Staff<can::Read>, Path(id): Path<i64>) -> Answer<Vec<Picture>> {
    let mut conn = context.db.pool.acquire().await?;
    goods::detail(&mut conn, id).await?;
    ok(pictures::list(&mut conn, id).await?)
}

/// Pictures to add to a goods (`multipart/form-data`).
#[derive(ToSchema)]
pub struct PicturesForm {
    /// JPEG or PNG files, each at most 5 MB, at least 200×200 and at most 8000×8000 pixels; up
    /// to 10 at once (and 10 per goods).
    #[schema(value_type = Vec<String>, format = Binary)]
    pictures: Vec<(String, upload::Checked)>,
}

impl FromUpload for PicturesForm {
    const FILES: (&'static str, usize) = ("pictures", pictures::MAX_PER_GOODS);

    fn from_upload(form: upload::Form) -> Result<PicturesForm> {
        let allowed = [upload::Kind::Jpeg, upload::Kind::Png];
        let pictures = form
            .files
            .into_iter()
            .map(|(name, bytes)| match upload::check("pictures", &name, bytes, &allowed, "JPG或PNG") {
                Ok(file) => Ok((name, file)),
                // The refusal names the file, as the decoder's do.
                Err(Error::Validation(errors)) => {
                    Err(Error::Validation(errors.into_iter().map(|(field, message)| (field, format!("{name}：{message}"))).collect()))
                }
                Err(error) => Err(error),
            })
            .collect::<Result<Vec<_>>>()?;
        if pictures.is_empty() {
            return Err(Error::field("pictures", "请选择要上传的图片"));
        }
        Ok(PicturesForm { pictures })
    }
}

/// `POST /api/admin/goods/{id}/pictures`: adds pictures after the goods' own, all or none. Each
/// is decoded to be checked and kept large (at most 800 px a side) and as a thumbnail (360 px),
/// encoded again by the shop; a refusal names the file. Answers the goods' pictures now.
#[utoipa::path(post, path = "/api/admin/goods/{id}/pictures", operation_id = "admin_goods_pictures_add", params(("id" = i64, Path, description = "商品 id")), request_body(content = PicturesForm, content_type = "multipart/form-data"), tag = "后台", responses((status = 200, description = "商品图片", body = Envelope<Vec<Picture>>)))]
async fn add_pictures(
    State(context): State<ApiContext>,
    staff: Staff<can::Catalogue>,
    Path(id): Path<i64>,
    Upload(form): Upload<PicturesForm>,
) -> Answer<Vec<Picture>> {
    let mut prepared: Vec<Prepared> = Vec::with_capacity(form.pictures.len());
    for (name, file) in form.pictures {
        let bytes = file.bytes;
        let file_name = name.clone();
        let picture = tokio::task::spawn_blocking(move || pictures::prepare(&file_name, &bytes)).await.map_err(anyhow::Error::from)?;
        prepared.push(picture.map_err(|reason| Error::field("pictures", format!("{name}：{reason}")))?);
    }
    let list = pictures::add(&mut *context.db.pool.acquire().await?, &staff.actor, id, &prepared, now()).await?;
    ok_with("图片已上传", list)
}

/// A goods' pictures in a new order.
#[derive(ToSchema)]
pub struct ArrangeForm {
    /// Every picture's id once, by commas, the main one first.
    #[schema(value_type = String, example = "5,3,4")]
    order: Vec<i64>,
}

impl FromFields for ArrangeForm {
    fn from_fields(fields: &Fields) -> Result<ArrangeForm> {
        Ok(ArrangeForm { order: fields.ids("order")? })
    }
}

/// `PUT /api/admin/goods/{id}/pictures`: puts the goods' pictures in the order given; the first
/// becomes its main picture, shown on cards, in lists and in the cart.
#[utoipa::path(put, path = "/api/admin/goods/{id}/pictures", operation_id = "admin_goods_pictures_arrange", params(("id" = i64, Path, description = "商品 id")), request_body(content = ArrangeForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "商品图片", body = Envelope<Vec<Picture>>)))]
async fn arrange_pictures(
    State(context): State<ApiContext>,
    staff: Staff<can::Catalogue>,
    Path(id): Path<i64>,
    Form(form): Form<ArrangeForm>,
) -> Answer<Vec<Picture>> {
    ok(pictures::arrange(&mut *context.db.pool.acquire().await?, &staff.actor, id, &form.order, now()).await?)
}

/// `DELETE /api/admin/goods/{id}/pictures/{picture}`: deletes a picture; the next becomes the
/// main one, or, for the last, the package the shop draws.
#[utoipa::path(delete, path = "/api/admin/goods/{id}/pictures/{picture}", operation_id = "admin_goods_picture_delete", params(("id" = i64, Path, description = "商品 id"), ("picture" = i64, Path, description = "图片 id")), tag = "后台", responses((status = 200, description = "商品图片", body = Envelope<Vec<Picture>>)))]
async fn delete_picture(
    State(context): State<ApiContext>,
    staff: Staff<can::Catalogue>,
    Path((id, picture)): Path<(i64, i64)>,
) -> Answer<Vec<Picture>> {
    ok(pictures::remove(&mut *context.db.pool.acquire().await?, &staff.actor, id, picture, now()).await?)
}
