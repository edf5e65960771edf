//! Favourites (§7): list, add, cancel.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, Member, PageQuery, Query};
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::viewer::Viewer;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, add)).routes(routes!(cancel))
}

const PAGE_SIZE: i64 = 20;

/// `GET /api/favorite?page=`: the member's favourite goods, newest first.
#[utoipa::path(get, path = "/api/favorite", params(PageQuery), operation_id = "favorite_list", tag = "收藏", responses((status = 200, description = "一页收藏的商品", body = Envelope<FavoritePage>)))]
async fn list(
    State(context): State<ApiContext>,
    member: Member,
    viewer: Viewer,
    Query(PageQuery { page }): Query<PageQuery>,
) -> Answer<FavoritePage> {
    let mut conn = context.db.pool.acquire().await?;
    let total: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM favorites WHERE member_id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {} FROM favorites f JOIN goods g ON g.id = f.goods_id WHERE f.member_id = $1 \
         ORDER BY f.created_at DESC, g.id LIMIT {PAGE_SIZE} OFFSET $2",
        card_columns(3)
    )))
    .bind(member.id)
    .bind((page - 1) * PAGE_SIZE)
    .bind(now())
    .fetch_all(&mut *conn)
    .await?;
    ok(FavoritePage { list: cards(&rows, &viewer)?, total, page })
}

/// One page of the member's favourite goods, newest first.
#[derive(Serialize, ToSchema)]
pub struct FavoritePage {
    list: Vec<Card>,
    total: i64,
    page: i64,
}

/// The goods asked for.
#[derive(Serialize, ToSchema)]
pub struct FavoriteGoods {
    goods_ids: Vec<i64>,
}

/// The goods to add to the favourites or take out.
#[derive(ToSchema)]
pub struct FavoriteForm {
    /// Goods ids (`goods_ids=1,2`, `goods_ids[]=1&goods_ids[]=2`); at most 500.
    goods_ids: Vec<i64>,
}

impl FromFields for FavoriteForm {
    fn from_fields(form: &Fields) -> Result<FavoriteForm> {
        Ok(FavoriteForm { goods_ids: form.ids("goods_ids")? })
    }
}

/// `POST /api/favorite` (`goods_ids`): answers "收藏成功".
#[utoipa::path(post, path = "/api/favorite", request_body(content = FavoriteForm, content_type = "application/x-www-form-urlencoded"), operation_id = "favorite_add", tag = "收藏", responses((status = 200, description = "收藏成功（msg 为「收藏成功」）", body = Envelope<FavoriteGoods>)))]
async fn add(
    State(context): State<ApiContext>,
    member: Member,
    Form(FavoriteForm { goods_ids: ids }): Form<FavoriteForm>,
) -> Answer<FavoriteGoods> {
    if ids.is_empty() {
        return Err(Error::field("goods_ids", "请选择商品"));
    }
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    // Every goods must exist (one statement), then all are added (one more).
    let mut existing = sqlx::query_scalar::<sqlx::Any, i64>(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM goods WHERE id IN ({})",
        crate::db::params(1, distinct.len())
    )));
    for id in &distinct {
        existing = existing.bind(*id);
    }
    let existing: i64 = existing.fetch_one(&context.db.pool).await?;
    if existing != distinct.len() as i64 {
        return Err(Error::field("goods_ids", "商品不存在"));
    }
    let mut insert = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO favorites (member_id, goods_id, created_at) SELECT $1, id, $2 FROM goods WHERE id IN ({}) \
         ON CONFLICT (member_id, goods_id) DO NOTHING",
        crate::db::params(3, distinct.len())
    )))
    .bind(member.id)
    .bind(now());
    for id in &distinct {
        insert = insert.bind(*id);
    }
    insert.execute(&context.db.pool).await?;
    ok_with("收藏成功", FavoriteGoods { goods_ids: ids })
}

/// `POST /api/favorite/cancel` (`goods_ids`): answers "取消收藏成功".
#[utoipa::path(post, path = "/api/favorite/cancel", request_body(content = FavoriteForm, content_type = "application/x-www-form-urlencoded"), tag = "收藏", responses((status = 200, description = "取消收藏成功（msg 为「取消收藏成功」）", body = Envelope<FavoriteGoods>)))]
async fn cancel(
    State(context): State<ApiContext>,
    member: Member,
    Form(FavoriteForm { goods_ids: ids }): Form<FavoriteForm>,
) -> Answer<FavoriteGoods> {
    if !ids.is_empty() {
        let mut delete = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM favorites WHERE member_id = $1 AND goods_id IN ({})",
            crate::db::params(2, ids.len())
        )))
        .bind(member.id);
        for id in &ids {
            delete = delete.bind(*id);
        }
        delete.execute(&context.db.pool).await?;
    }
    ok_with("取消收藏成功", FavoriteGoods { goods_ids: ids })
}
