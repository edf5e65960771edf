//! The queries of the goods calls: the list's filters, sorting and paging, a search's keyword,
//! the detail's echoed ids and the promotions' goods.

use serde::Serialize;
use utoipa::ToSchema;

use super::{PAGE_SIZE, PAGE_SIZE_MAX, bounded_keyword, bounded_search, search_type};
use crate::http::error::{Error, Result};
use crate::http::extract::{Fields, FromFields};
use crate::search::Scope;

/// The goods list's query.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoodsQuery {
    /// 页码: from 1 (absent: 1), at most 100000.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100000)]
    pub page: i64,
    /// 每页数量, 1–100 (absent: 20).
    #[param(value_type = Option<i64>)]
    pub page_size: i64,
    /// The keyword's search (`type`): 0 (absent) goods holding it in any searched field, 1
    /// goods whose manufacturer holds it.
    #[param(rename = "type", value_type = Option<i64>)]
    pub scope: Scope,
    /// 关键词 (also read as `keywords`).
    pub keyword: Option<String>,
    /// 生产厂家: the manufacturer holds it.
    pub sccj: Option<String>,
    /// 分类, with its subcategories.
    pub category: Option<i64>,
    /// 品牌.
    pub brand: Option<i64>,
    /// 店铺: `all` (absent), `general`, `youx`, `zy` or `qx`.
    #[param(value_type = Option<String>)]
    pub shop: Shop,
    /// 1: single-item free shipping (单品包邮) only.
    #[param(value_type = Option<i64>)]
    pub is_dpby: bool,
    /// 1: in a full-reduction activity only.
    #[param(value_type = Option<i64>)]
    pub manjian: bool,
    /// 1: daily specials only.
    #[param(value_type = Option<i64>)]
    pub everyday: bool,
    /// 1: controlled goods only.
    #[param(value_type = Option<i64>)]
    pub kx: bool,
    /// 1: a batch expiring within 180 days only.
    #[param(value_type = Option<i64>)]
    pub near_expiry: bool,
    /// 1: in a running flash sale only.
    #[param(value_type = Option<i64>)]
    pub flash: bool,
    /// `default` (absent; by relevance with a keyword), `sales`, `price`, `new` or `expiry`.
    #[param(value_type = Option<String>)]
    pub sort: Sort,
    /// `asc` or `desc`; absent: the sort's own direction.
    #[param(rename = "order", value_type = Option<String>)]
    pub descending: Option<bool>,
}

/// Which shop's goods a list shows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shop {
    All,
    /// Neither herbs nor devices.
    General,
    /// 优选.
    Youx,
    /// 中药饮片.
    Zy,
    /// 医疗器械.
    Qx,
}

/// The goods list's order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Default,
    Sales,
    Price,
    New,
    Expiry,
}

impl FromFields for GoodsQuery {
    fn from_fields(query: &Fields) -> Result<GoodsQuery> {
        let page = query.page()?;
        let page_size = query.int_or("page_size", "每页数量", PAGE_SIZE)?.clamp(1, PAGE_SIZE_MAX);
        let scope = search_type(query, Scope::All)?;
        let keyword = query.text("keyword").or_else(|| query.text("keywords"));
        if let Some(keyword) = &keyword {
            bounded_keyword(keyword)?;
        }
        let sccj = query.text("sccj");
        if let Some(sccj) = &sccj {
            bounded_search("sccj", sccj)?;
        }
        let category = query.int("category", "分类")?;
        let brand = query.int("brand", "品牌")?;
        let shop = match query.text("shop").as_deref() {
            None | Some("all") => Shop::All,
            Some("general") => Shop::General,
            Some("youx") => Shop::Youx,
            Some("zy") => Shop::Zy,
            Some("qx") => Shop::Qx,
            Some(_) => return Err(Error::field("shop", "店铺类型不正确")),
        };
        let flag = |name: &str, label: &str| Ok::<_, Error>(query.int(name, label)? == Some(1));
        let (is_dpby, manjian, everyday) = (flag("is_dpby", "包邮")?, flag("manjian", "满减")?, flag("everyday", "天天特价")?);
        let (kx, near_expiry, flash) = (flag("kx", "控销")?, flag("near_expiry", "近效期")?, flag("flash", "秒杀")?);
        let descending = match query.text("order").as_deref() {
            None => None,
            Some("asc") => Some(false),
            Some("desc") => Some(true),
            Some(_) => return Err(Error::field("order", "排序方向不正确")),
        };
        let sort = match query.text("sort").as_deref() {
            None | Some("default") => Sort::Default,
            Some("sales") => Sort::Sales,
            Some("price") => Sort::Price,
            Some("new") => Sort::New,
            Some("expiry") => Sort::Expiry,
            Some(_) => return Err(Error::field("sort", "排序方式不正确")),
        };
        Ok(GoodsQuery {
            page,
            page_size,
            scope,
            keyword,
            sccj,
            category,
            brand,
            shop,
            is_dpby,
            manjian,
            everyday,
            kx,
            near_expiry,
            flash,
            sort,
            descending,
        })
    }
}

/// A search's suggestions: for a keyword (absent: none, whatever else is asked), of a kind.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SuggestQuery {
    /// 关键词 (also read as `keyword`).
    #[param(rename = "keywords")]
    pub keyword: Option<String>,
    /// 0 (absent) goods names, 1 manufacturers.
    #[param(rename = "type", value_type = Option<i64>)]
    pub scope: Scope,
}

impl FromFields for SuggestQuery {
    fn from_fields(query: &Fields) -> Result<SuggestQuery> {
        let Some(keyword) = query.text("keywords").or_else(|| query.text("keyword")) else {
            return Ok(SuggestQuery { keyword: None, scope: Scope::Name });
        };
        bounded_keyword(&keyword)?;
        Ok(SuggestQuery { keyword: Some(keyword), scope: search_type(query, Scope::Name)? })
    }
}

/// The §2 ids a goods card links with, echoed by the detail.
#[derive(Serialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailQuery {
    #[param(value_type = Option<i64>)]
    goods_price_id: i64,
    #[param(value_type = Option<i64>)]
    ladder_price_id: i64,
    #[param(value_type = Option<i64>)]
    goods_manjian_id: i64,
    #[param(value_type = Option<i64>)]
    is_yj: i64,
    #[param(value_type = Option<i64>)]
    is_jxq: i64,
}

impl FromFields for DetailQuery {
    fn from_fields(query: &Fields) -> Result<DetailQuery> {
        Ok(DetailQuery {
            goods_price_id: query.int_or("goods_price_id", "goods_price_id", 0)?,
            ladder_price_id: query.int_or("ladder_price_id", "ladder_price_id", 0)?,
            goods_manjian_id: query.int_or("goods_manjian_id", "goods_manjian_id", 0)?,
            is_yj: query.int_or("is_yj", "is_yj", 0)?,
            is_jxq: query.int_or("is_jxq", "is_jxq", 0)?,
        })
    }
}

/// Which goods's promotions.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoodsIdQuery {
    pub goods_id: i64,
}

impl FromFields for GoodsIdQuery {
    fn from_fields(query: &Fields) -> Result<GoodsIdQuery> {
        Ok(GoodsIdQuery { goods_id: query.int("goods_id", "商品")?.ok_or_else(|| Error::field("goods_id", "请选择商品"))? })
    }
}
