//! 员工与权限: a `super` lists, adds and changes operators (role, name, disabled, a new password).

use axum::extract::{Path, State};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, can};
use crate::domain::staff::Role;
use crate::domain::staff::operators::{self, Change, NewOperator, Operator, OperatorAdded};
use crate::domain::staff::orders::begin_write;
use crate::http::ApiContext;
use crate::http::error::{Answer, Envelope, Error, Result, ok};
use crate::http::extract::{Fields, Form, FromFields};
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list, add)).routes(routes!(change))
}

/// `GET /api/admin/operators`: every operator.
#[utoipa::path(get, path = "/api/admin/operators", operation_id = "admin_operators", tag = "后台", responses((status = 200, description = "员工列表", body = Envelope<Vec<Operator>>)))]
async fn list(State(context): State<ApiContext>, _: Staff<can::Operators>) -> Answer<Vec<Operator>> {
    ok(operators::list(&mut *context.db.pool.acquire().await?).await?)
}

fn role(fields: &Fields) -> Result<Option<Role>> {
    match fields.text("role") {
        None => Ok(None),
        Some(key) => Role::parse(&key).map(Some).ok_or_else(|| Error::field("role", "角色不正确")),
    }
}

/// A new operator.
#[derive(ToSchema)]
pub struct AddForm {
    /// 账号: 3–32 letters, digits, `_`, `.`, `-`.
    username: String,
    /// 姓名.
    name: Option<String>,
    /// super, operations, warehouse, service, finance or readonly.
    #[schema(value_type = Role)]
    role: Role,
    /// 初始密码: at least 10 characters of two kinds.
    password: String,
}

impl FromFields for AddForm {
    fn from_fields(fields: &Fields) -> Result<AddForm> {
        let username = fields.required("username", "账号")?;
        let name = fields.text("name");
        let role = role(fields)?.ok_or_else(|| Error::field("role", "请选择角色"))?;
        let password = fields.required("password", "初始密码")?;
        Ok(AddForm { username, name, role, password })
    }
}

/// `POST /api/admin/operators`: adds an operator; a `super` gets a TOTP secret, answered once.
#[utoipa::path(post, path = "/api/admin/operators", operation_id = "admin_operator_add", request_body(content = AddForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "已添加的员工（及其 TOTP 密钥）", body = Envelope<OperatorAdded>)))]
async fn add(State(context): State<ApiContext>, staff: Staff<can::Operators>, Form(form): Form<AddForm>) -> Answer<OperatorAdded> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = begin_write(&mut conn).await?;
    let name = form.name.unwrap_or_default();
    let new = NewOperator { username: &form.username, name: &name, role: form.role, password: &form.password };
    let added = operators::add(&mut tx, &staff.actor, new, now()).await?;
    tx.commit().await?;
    ok(added)
}

/// What to change of an operator; fields absent stay.
#[derive(ToSchema)]
pub struct ChangeForm {
    name: Option<String>,
    #[schema(value_type = Option<Role>)]
    role: Option<Role>,
    /// `1` disables (their sessions end), `0` enables.
    #[schema(value_type = Option<i64>)]
    disabled: Option<bool>,
    /// A new password (their sessions end).
    password: Option<String>,
}

impl FromFields for ChangeForm {
    fn from_fields(fields: &Fields) -> Result<ChangeForm> {
        let disabled = match fields.int("disabled", "停用")? {
            None => None,
            Some(0) => Some(false),
            Some(1) => Some(true),
            Some(_) => return Err(Error::field("disabled", "停用只能是0或1")),
        };
        Ok(ChangeForm { name: fields.text("name"), role: role(fields)?, disabled, password: fields.text("password") })
    }
}

/// `PUT /api/admin/operators/{id}`: changes an operator (not one's own role or state).
#[utoipa::path(put, path = "/api/admin/operators/{id}", operation_id = "admin_operator_change", params(("id" = i64, Path, description = "员工 id")), request_body(content = ChangeForm, content_type = "application/x-www-form-urlencoded"), tag = "后台", responses((status = 200, description = "修改后的员工", body = Envelope<OperatorAdded>)))]
async fn change(
    State(context): State<ApiContext>,
    staff: Staff<can::Operators>,
    Path(id): Path<i64>,
    Form(form): Form<ChangeForm>,
) -> Answer<OperatorAdded> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = begin_write(&mut conn).await?;
    let change = Change { name: form.name, role: form.role, disabled: form.disabled, password: form.password };
    let changed = operators::change(&mut tx, &staff.actor, id, change, now()).await?;
    tx.commit().await?;
    ok(changed)
}
