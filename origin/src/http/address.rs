//! The account centre's address book (收货地址, `/zhzx/addr`) and the stores of a multi-store
//! account (多店管理, `/zhzx/ddgl`). A member reads and changes only their own: every statement
//! names the member, and another member's id answers 404 as if it did not exist.

use axum::extract::{Path, State};
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::{Fields, Form, FromFields, Member};
use crate::now;
use crate::security::{ADDRESSES_MAX, STORES_MAX, Text, text};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(addresses, add_address))
        .routes(routes!(edit_address, delete_address))
        .routes(routes!(make_default))
        .routes(routes!(stores, add_store))
        .routes(routes!(edit_store, delete_store))
        .routes(routes!(switch_store))
}

const ADDRESS_NOT_FOUND: &str = "收货地址不存在";
const STORE_NOT_FOUND: &str = "门店不存在";

/// A delivery address of the member's.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Address {
    id: i64,
    contact: String,
    phone: String,
    province: String,
    city: String,
    district: String,
    detail: String,
    is_default: i64,
}

/// The member's addresses, the default first.
pub async fn member_addresses(conn: &mut AnyConnection, member: Member) -> Result<Vec<Address>> {
    Ok(sqlx::query_as(
        "SELECT id, contact, phone, province, city, district, detail, is_default FROM addresses \
         WHERE member_id = $1 ORDER BY is_default DESC, id",
    )
    .bind(member.id)
    .fetch_all(&mut *conn)
    .await?)
}

/// The member's delivery addresses.
#[derive(Serialize, ToSchema)]
pub struct AddressList {
    list: Vec<Address>,
    /// The most addresses a member keeps.
    max: i64,
}

/// `GET /api/user/address`: the member's delivery addresses, the default first.
#[utoipa::path(get, path = "/api/user/address", tag = "账户", responses((status = 200, description = "收货地址", body = Envelope<AddressList>)))]
async fn addresses(State(context): State<ApiContext>, member: Member) -> Answer<AddressList> {
    let mut conn = context.db.pool.acquire().await?;
    ok(AddressList { list: member_addresses(&mut conn, member).await?, max: ADDRESSES_MAX })
}

/// A 电话 field (an address's or a store's `phone`): a mobile number, or a landline as §5
/// allows it — an area code of 3–4 digits starting with 0, a dash, 7–8 digits
/// (`0571-88886666`); the engine's `is_phone` with landlines. `None` when absent.
fn telephone(form: &Fields) -> Result<Option<String>> {
    let Some(phone) = form.text("phone") else { return Ok(None) };
    if !engine::is_phone(&phone, true) {
        return Err(Error::field("phone", "联系电话格式不正确"));
    }
    Ok(Some(phone))
}

/// An address as the form gives it, every field checked (all the field errors at once).
#[derive(ToSchema)]
pub struct AddressForm {
    /// 收货人.
    contact: String,
    /// 联系电话: a mobile number or a landline (`0571-88886666`).
    phone: String,
    /// 省份.
    province: String,
    /// 城市.
    city: String,
    /// 区县.
    district: String,
    /// 详细地址.
    detail: String,
    /// 1 to make it the default address.
    #[schema(value_type = Option<i64>)]
    is_default: bool,
}

impl FromFields for AddressForm {
    fn from_fields(form: &Fields) -> Result<AddressForm> {
        let mut errors = Vec::new();
        let mut field = |spec: Text| match form.required_bounded(spec) {
            Ok(value) => value,
            Err(Error::Validation(found)) => {
                errors.extend(found);
                String::new()
            }
            Err(_) => String::new(),
        };
        let contact = field(text::CONTACT);
        let province = field(text::PROVINCE);
        let city = field(text::CITY);
        let district = field(text::DISTRICT);
        let detail = field(text::STREET);
        let phone = match telephone(form).and_then(|phone| phone.ok_or_else(|| Error::field("phone", "请填写联系电话"))) {
            Ok(phone) => phone,
            Err(Error::Validation(found)) => {
                errors.extend(found);
                String::new()
            }
            Err(other) => return Err(other),
        };
        if !errors.is_empty() {
            return Err(Error::Validation(errors));
        }
        let is_default = form.int_or("is_default", "默认地址", 0)? == 1;
        Ok(AddressForm { contact, phone, province, city, district, detail, is_default })
    }
}

/// `POST /api/user/address` (`contact`, `phone`, `province`, `city`, `district`, `detail`,
/// `is_default` 1 to make it the default): adds an address. The first one is the default.
#[utoipa::path(post, path = "/api/user/address", request_body(content = AddressForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "新的地址", body = Envelope<AddressList>)))]
async fn add_address(State(context): State<ApiContext>, member: Member, Form(address): Form<AddressForm>) -> Answer<AddressList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    // The write first: on SQLite it takes the write lock, so two adds count one after the other.
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM addresses WHERE member_id = $1").bind(member.id).fetch_one(&mut *tx).await?;
    if count >= ADDRESSES_MAX {
        return Err(Error::field("detail", format!("收货地址最多{ADDRESSES_MAX}个")));
    }
    let is_default = address.is_default || count == 0;
    if is_default {
        sqlx::query("UPDATE addresses SET is_default = 0 WHERE member_id = $1").bind(member.id).execute(&mut *tx).await?;
    }
    sqlx::query(
        "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(member.id)
    .bind(&address.contact)
    .bind(&address.phone)
    .bind(&address.province)
    .bind(&address.city)
    .bind(&address.district)
    .bind(&address.detail)
    .bind(i64::from(is_default))
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    ok_with("添加成功", AddressList { list: member_addresses(&mut conn, member).await?, max: ADDRESSES_MAX })
}

/// `PUT /api/user/address/{id}` (the fields of an add): changes one of the member's addresses.
#[utoipa::path(put, path = "/api/user/address/{id}", request_body(content = AddressForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "修改后的地址", body = Envelope<AddressList>)))]
async fn edit_address(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Form(address): Form<AddressForm>,
) -> Answer<AddressList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let changed = sqlx::query(
        "UPDATE addresses SET contact = $1, phone = $2, province = $3, city = $4, district = $5, detail = $6 \
         WHERE id = $7 AND member_id = $8",
    )
    .bind(&address.contact)
    .bind(&address.phone)
    .bind(&address.province)
    .bind(&address.city)
    .bind(&address.district)
    .bind(&address.detail)
    .bind(id)
    .bind(member.id)
    .execute(&mut *tx)
    .await?;
    if changed.rows_affected() == 0 {
        return Err(Error::not_found(ADDRESS_NOT_FOUND));
    }
    if address.is_default {
        set_default(&mut tx, member, id).await?;
    }
    tx.commit().await?;
    ok_with("保存成功", AddressList { list: member_addresses(&mut conn, member).await?, max: ADDRESSES_MAX })
}

/// Makes `id` the member's one default address.
async fn set_default(conn: &mut AnyConnection, member: Member, id: i64) -> Result<()> {
    let changed = sqlx::query("UPDATE addresses SET is_default = CASE WHEN id = $1 THEN 1 ELSE 0 END WHERE member_id = $2")
        .bind(id)
        .bind(member.id)
        .execute(&mut *conn)
        .await?;
    if changed.rows_affected() == 0 {
        return Err(Error::not_found(ADDRESS_NOT_FOUND));
    }
    Ok(())
}

/// `POST /api/user/address/{id}/default`: makes it the default address.
#[utoipa::path(post, path = "/api/user/address/{id}/default", tag = "账户", responses((status = 200, description = "地址列表", body = Envelope<AddressList>)))]
async fn make_default(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<AddressList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let owned: i64 = sqlx::query_scalar("UPDATE addresses SET is_default = is_default WHERE id = $1 AND member_id = $2 RETURNING id")
        .bind(id)
        .bind(member.id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(ADDRESS_NOT_FOUND))?;
    set_default(&mut tx, member, owned).await?;
    tx.commit().await?;
    ok_with("已设为默认地址", AddressList { list: member_addresses(&mut conn, member).await?, max: ADDRESSES_MAX })
}

/// `DELETE /api/user/address/{id}`: deletes it; when it was the default, the oldest left
/// becomes the default. Orders keep the address they were sent to.
#[utoipa::path(delete, path = "/api/user/address/{id}", tag = "账户", responses((status = 200, description = "剩下的地址", body = Envelope<AddressList>)))]
async fn delete_address(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<AddressList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let was_default: i64 = sqlx::query_scalar("DELETE FROM addresses WHERE id = $1 AND member_id = $2 RETURNING is_default")
        .bind(id)
        .bind(member.id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(ADDRESS_NOT_FOUND))?;
    if was_default == 1 {
        sqlx::query(
            "UPDATE addresses SET is_default = 1 WHERE id = (SELECT MIN(id) FROM addresses WHERE member_id = $1) AND member_id = $1",
        )
        .bind(member.id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    ok_with("删除成功", AddressList { list: member_addresses(&mut conn, member).await?, max: ADDRESSES_MAX })
}

/// A store of a multi-store account.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Store {
    id: i64,
    name: String,
    contact: String,
    phone: String,
    address: String,
    /// 1 for the store orders now go to.
    is_current: i64,
}

/// The member's stores and the one orders go to.
#[derive(Serialize, ToSchema)]
pub struct StoreList {
    list: Vec<Store>,
    /// 1 for a multi-store account (registered with stores).
    is_dd: i64,
    /// The store orders go to; `null`: none chosen.
    #[schema(required = true)]
    current: Option<i64>,
    max: i64,
}

async fn store_list(conn: &mut AnyConnection, member: Member) -> Result<StoreList> {
    let (is_dd, current): (i64, Option<i64>) =
        sqlx::query_as("SELECT is_dd, store_id FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    let list = sqlx::query_as(
        "SELECT s.id, s.name, s.contact, s.phone, s.address, CASE WHEN m.store_id = s.id THEN 1 ELSE 0 END AS is_current \
         FROM member_stores s JOIN members m ON m.id = s.member_id WHERE s.member_id = $1 ORDER BY s.id",
    )
    .bind(member.id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(StoreList { list, is_dd, current, max: STORES_MAX as i64 })
}

/// `GET /api/user/stores`: the member's stores.
#[utoipa::path(get, path = "/api/user/stores", tag = "账户", responses((status = 200, description = "门店", body = Envelope<StoreList>)))]
async fn stores(State(context): State<ApiContext>, member: Member) -> Answer<StoreList> {
    let mut conn = context.db.pool.acquire().await?;
    ok(store_list(&mut conn, member).await?)
}

/// A store as the form gives it.
#[derive(ToSchema)]
pub struct StoreForm {
    /// 门店名称.
    name: String,
    /// 门店联系人.
    #[schema(value_type = Option<String>)]
    contact: String,
    /// 联系电话: a mobile number or a landline.
    #[schema(value_type = Option<String>)]
    phone: String,
    /// 门店地址.
    #[schema(value_type = Option<String>)]
    address: String,
}

impl FromFields for StoreForm {
    fn from_fields(form: &Fields) -> Result<StoreForm> {
        let name = form.required_bounded(text::STORE_NAME)?;
        let contact = form.bounded(text::STORE_CONTACT)?.unwrap_or_default();
        let address = form.bounded(text::STORE_ADDRESS)?.unwrap_or_default();
        let phone = telephone(form)?.unwrap_or_default();
        Ok(StoreForm { name, contact, phone, address })
    }
}

/// `POST /api/user/stores` (`name`, `contact?`, `phone?`, `address?`): adds a store (at most
/// 50); the account becomes a multi-store account.
#[utoipa::path(post, path = "/api/user/stores", request_body(content = StoreForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "门店", body = Envelope<StoreList>)))]
async fn add_store(State(context): State<ApiContext>, member: Member, Form(store): Form<StoreForm>) -> Answer<StoreList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE members SET is_dd = 1 WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM member_stores WHERE member_id = $1").bind(member.id).fetch_one(&mut *tx).await?;
    if count >= STORES_MAX as i64 {
        return Err(Error::field("name", format!("门店最多{STORES_MAX}家")));
    }
    sqlx::query("INSERT INTO member_stores (member_id, name, contact, phone, address, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(member.id)
        .bind(&store.name)
        .bind(&store.contact)
        .bind(&store.phone)
        .bind(&store.address)
        .bind(now())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    ok_with("添加成功", store_list(&mut conn, member).await?)
}

/// `PUT /api/user/stores/{id}` (the fields of an add): changes one of the member's stores.
#[utoipa::path(put, path = "/api/user/stores/{id}", request_body(content = StoreForm, content_type = "application/x-www-form-urlencoded"), tag = "账户", responses((status = 200, description = "门店", body = Envelope<StoreList>)))]
async fn edit_store(
    State(context): State<ApiContext>,
    member: Member,
    Path(id): Path<i64>,
    Form(store): Form<StoreForm>,
) -> Answer<StoreList> {
    let mut conn = context.db.pool.acquire().await?;
    let changed =
        sqlx::query("UPDATE member_stores SET name = $1, contact = $2, phone = $3, address = $4 WHERE id = $5 AND member_id = $6")
            .bind(&store.name)
            .bind(&store.contact)
            .bind(&store.phone)
            .bind(&store.address)
            .bind(id)
            .bind(member.id)
            .execute(&mut *conn)
            .await?;
    if changed.rows_affected() == 0 {
        return Err(Error::not_found(STORE_NOT_FOUND));
    }
    ok_with("保存成功", store_list(&mut conn, member).await?)
}

/// `DELETE /api/user/stores/{id}`: removes a store (orders then go to none chosen when it was
/// the current one).
#[utoipa::path(delete, path = "/api/user/stores/{id}", tag = "账户", responses((status = 200, description = "门店", body = Envelope<StoreList>)))]
async fn delete_store(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<StoreList> {
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    sqlx::query("UPDATE members SET store_id = NULL WHERE id = $1 AND store_id = $2").bind(member.id).bind(id).execute(&mut *tx).await?;
    let deleted =
        sqlx::query("DELETE FROM member_stores WHERE id = $1 AND member_id = $2").bind(id).bind(member.id).execute(&mut *tx).await?;
    if deleted.rows_affected() == 0 {
        return Err(Error::not_found(STORE_NOT_FOUND));
    }
    tx.commit().await?;
    ok_with("删除成功", store_list(&mut conn, member).await?)
}

/// `POST /api/user/stores/{id}/switch`: orders go to this store from now on (its name heads
/// the order's delivery address).
#[utoipa::path(post, path = "/api/user/stores/{id}/switch", tag = "账户", responses((status = 200, description = "门店", body = Envelope<StoreList>)))]
async fn switch_store(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Answer<StoreList> {
    let mut conn = context.db.pool.acquire().await?;
    let changed = sqlx::query(
        "UPDATE members SET store_id = $1 WHERE id = $2 AND EXISTS (SELECT 1 FROM member_stores WHERE id = $1 AND member_id = $2)",
    )
    .bind(id)
    .bind(member.id)
    .execute(&mut *conn)
    .await?;
    if changed.rows_affected() == 0 {
        return Err(Error::not_found(STORE_NOT_FOUND));
    }
    ok_with("已切换门店", store_list(&mut conn, member).await?)
}
