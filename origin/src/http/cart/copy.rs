//! `POST /api/cart/copy`: cart lines copied to other approved accounts of the same company,
//! each line added as the target would add it, or skipped with the reason.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use super::add::add_line;
use crate::domain::cart::COMBINATION;
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields, Member};
use crate::security::IDS_MAX;

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

/// Lines to copy, and the store accounts to copy them to.
#[derive(ToSchema)]
pub struct CopyForm {
    /// The member's cart lines (`ids=1,2`, `ids[]=1&ids[]=2`); at least one.
    ids: Vec<i64>,
    /// The store accounts (members) of the company; at least one.
    other_user_ids: Vec<i64>,
}

impl FromFields for CopyForm {
    fn from_fields(form: &Fields) -> Result<CopyForm> {
        let ids = form.ids("ids")?;
        let other_user_ids = form.ids("other_user_ids")?;
        if ids.is_empty() {
            return Err(Error::field("ids", "请选择要复制的商品"));
        }
        if other_user_ids.is_empty() {
            return Err(Error::field("other_user_ids", "请选择要复制到的门店账号"));
        }
        Ok(CopyForm { ids, other_user_ids })
    }
}

/// `POST /api/cart/copy` (`ids`, `other_user_ids`): copies the lines into the carts of other
/// store accounts of the member's company (`members.company_id`, never the company name), each
/// as an add to that cart, merging with what is there. 403 `只能复制到本企业的其他门店账号` for an
/// account of another company (whatever its name), 403 for a member not yet approved, 422 for a
/// store account not yet approved; a copy an add would refuse (stock, limits) is skipped with
/// its reason and the others are made.
#[utoipa::path(post, path = "/api/cart/copy", request_body(content = CopyForm, content_type = "application/x-www-form-urlencoded"), tag = "购物车", responses((status = 200, description = "复制的行数与未能复制的行", body = Envelope<Copied>)))]
pub(super) async fn copy(
    State(context): State<ApiContext>,
    member: Member,
    Form(CopyForm { ids, other_user_ids: targets }): Form<CopyForm>,
) -> Answer<Copied> {
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
