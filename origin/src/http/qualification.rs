//! The member's qualification certificates (资质证件, `/zhzx/zzzj`) and business scope
//! (经营范围): `GET /api/user/zizhi`, an upload per certificate, its scan served back to its
//! member only, and `GET /api/user/jyfw`. An operator reviews them (`origin admin
//! qualification …`).
//!
//! A scan is refused unless its content is a JPEG, a PNG or a PDF (whatever its name or
//! declared type says), at most [`upload::MAX_BYTES`], with a plain file name. It is stored under
//! `DATA_DIR/uploads/<member>/` with a random name of the shop's choosing, never the member's;
//! a new scan of a kind replaces the old one, whose file is deleted.

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok, ok_with};
use super::extract::Member;
use super::upload::{self, FromUpload, Upload};
use crate::domain::catalogue::scope::{Scope, ScopeClass};
use crate::domain::certificates::{self, day};
use crate::domain::members::{BuyerType, KINDS, ReviewStatus};
use crate::now;
use crate::security::text;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new()
        .routes(routes!(list, upload))
        .layer(DefaultBodyLimit::max(upload::BODY_LIMIT))
        .routes(routes!(scan))
        .routes(routes!(business_scope))
}

/// One of the member's certificates.
#[derive(Serialize, ToSchema)]
pub struct Certificate {
    id: i64,
    #[schema(example = "营业执照")]
    kind: String,
    number: String,
    /// The first day it is valid, `YYYY-MM-DD`, or empty when not given.
    valid_from: String,
    /// `YYYY-MM-DD`, its last valid day, or empty when it does not expire.
    expires_on: String,
    /// The business scope it states, as printed on it.
    scope: String,
    /// 1 when `expires_on` has passed.
    expired: i64,
    /// 0 待审核, 1 已通过, 2 未通过.
    status: i64,
    #[schema(example = "待审核")]
    status_name: &'static str,
    /// Why it was rejected.
    reason: String,
    /// The scan's address (its member only), or `null` when none was uploaded.
    #[schema(required = true, example = "/api/user/zizhi/3/scan")]
    scan: Option<String>,
    /// `image/jpeg`, `image/png` or `application/pdf`; empty without a scan.
    scan_type: String,
    scan_size: i64,
    created_at: i64,
    #[schema(required = true)]
    reviewed_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct CertificateRow {
    id: i64,
    kind: String,
    number: String,
    valid_from: String,
    expires_on: String,
    scope: String,
    status: ReviewStatus,
    reason: String,
    file_name: String,
    file_type: String,
    file_size: i64,
    created_at: i64,
    reviewed_at: Option<i64>,
}

/// The member's certificates, the kinds they may upload, and whether they are approved.
#[derive(Serialize, ToSchema)]
pub struct Certificates {
    list: Vec<Certificate>,
    kinds: Vec<&'static str>,
    /// The member's kind of business (1 单体药店, 2 连锁药店, 3 诊所, 4 医院/卫生院, 5 批发企业).
    buyer_type: i64,
    #[schema(example = "单体药店")]
    buyer_type_name: &'static str,
    /// The kinds its buyer type must have approved before it may order.
    required: Vec<&'static str>,
    /// Those of them with no approved certificate.
    missing: Vec<&'static str>,
    /// Certificates in force that expire within 30 days or have expired.
    expiring: Vec<Expiring>,
    is_passed: i64,
    /// The largest scan, in bytes.
    max_bytes: i64,
}

/// A certificate in force that expires soon or has expired.
#[derive(Serialize, ToSchema)]
pub struct Expiring {
    #[schema(example = "药品经营许可证")]
    kind: String,
    #[schema(example = "2026-12-31")]
    expires_on: String,
    /// Days left; negative once expired (it then stops every order).
    days_left: i64,
}

/// Today as `YYYY-MM-DD` (UTC+8, the shop's day).
fn today() -> String {
    day(now())
}

/// A date the form gives: `YYYY-MM-DD`, a real day of a year from 2000 to 2199.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [year, month, day] = parts.as_slice() else { return false };
    if year.len() != 4 || month.len() != 2 || day.len() != 2 || !text.bytes().all(|byte| byte.is_ascii_digit() || byte == b'-') {
        return false;
    }
    let (Ok(year), Ok(month), Ok(day)) = (year.parse::<i64>(), month.parse::<i64>(), day.parse::<i64>()) else { return false };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (2000..2200).contains(&year) && (1..=days).contains(&day)
}

async fn certificates(context: &ApiContext, member: Member) -> Result<Certificates> {
    let rows: Vec<CertificateRow> = sqlx::query_as(
        "SELECT id, kind, number, valid_from, expires_on, scope, status, reason, file_name, file_type, file_size, created_at, reviewed_at \
         FROM qualifications WHERE member_id = $1 ORDER BY id",
    )
    .bind(member.id)
    .fetch_all(&context.db.pool)
    .await?;
    let is_passed: i64 =
        sqlx::query_scalar("SELECT is_passed FROM members WHERE id = $1").bind(member.id).fetch_one(&context.db.pool).await?;
    let today = today();
    let list = rows
        .into_iter()
        .map(|row| Certificate {
            expired: i64::from(!row.expires_on.is_empty() && row.expires_on < today),
            status_name: row.status.name(),
            scan: (!row.file_name.is_empty()).then(|| format!("/api/user/zizhi/{}/scan", row.id)),
            id: row.id,
            kind: row.kind,
            number: row.number,
            valid_from: row.valid_from,
            expires_on: row.expires_on,
            scope: row.scope,
            status: row.status.code(),
            reason: row.reason,
            scan_type: row.file_type,
            scan_size: row.file_size,
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        })
        .collect();
    let standing = certificates::standing(&mut *context.db.pool.acquire().await?, member.id, now()).await?;
    let kind = standing.buyer_type.unwrap_or(BuyerType::Pharmacy);
    Ok(Certificates {
        list,
        kinds: KINDS.to_vec(),
        buyer_type: kind.code(),
        buyer_type_name: kind.name(),
        required: kind.required().to_vec(),
        missing: standing.missing,
        expiring: standing.expiring.into_iter().map(|(kind, expires_on, days_left)| Expiring { kind, expires_on, days_left }).collect(),
        is_passed,
        max_bytes: upload::MAX_BYTES as i64,
    })
}

/// `GET /api/user/zizhi`: the member's qualification certificates and their review.
#[utoipa::path(get, path = "/api/user/zizhi", tag = "账户", responses((status = 200, description = "资质证件", body = Envelope<Certificates>)))]
async fn list(State(context): State<ApiContext>, member: Member) -> Answer<Certificates> {
    ok(certificates(&context, member).await?)
}

/// A certificate and its scan (`multipart/form-data`).
#[derive(ToSchema)]
pub struct CertificateForm {
    /// 证件类型: 营业执照, 药品经营许可证, 医疗机构执业许可证, 第二类医疗器械经营备案凭证,
    /// 医疗器械经营许可证, 食品经营许可证, 采购委托书, GSP证书 or 其他.
    #[schema(value_type = String)]
    kind: &'static str,
    /// 证件编号.
    number: String,
    /// 发证日期 / 有效期起 `YYYY-MM-DD`, not after `expires_on`; empty or absent when not given.
    #[schema(value_type = Option<String>, example = "2025-07-01")]
    valid_from: String,
    /// 有效期至 `YYYY-MM-DD`, not past; empty or absent when it has none.
    #[schema(value_type = Option<String>, example = "2030-12-31")]
    expires_on: String,
    /// 证载经营范围, as printed on it (at most 500 characters); optional.
    #[schema(value_type = Option<String>, example = "中成药、化学药制剂、抗生素制剂")]
    scope: String,
    /// The scan: a JPEG, PNG or PDF of at most 5 MB.
    #[schema(value_type = String, format = Binary)]
    file: upload::Checked,
}

impl FromUpload for CertificateForm {
    const FILES: (&'static str, usize) = ("file", 1);

    fn from_upload(form: upload::Form) -> Result<CertificateForm> {
        let kind = form.text("kind").ok_or_else(|| Error::field("kind", "请选择证件类型"))?;
        let Some(kind) = KINDS.iter().find(|known| **known == kind) else {
            return Err(Error::field("kind", "证件类型不正确"));
        };
        let number = form.bounded(text::CERTIFICATE)?.ok_or_else(|| Error::field("number", "请填写证件编号"))?;
        let expires_on = form.text("expires_on").unwrap_or_default();
        if !expires_on.is_empty() && !is_date(&expires_on) {
            return Err(Error::field("expires_on", "有效期格式应为YYYY-MM-DD"));
        }
        if !expires_on.is_empty() && expires_on < today() {
            return Err(Error::field("expires_on", "证件已过期，请上传有效证件"));
        }
        let valid_from = form.text("valid_from").unwrap_or_default();
        if !valid_from.is_empty() && !is_date(&valid_from) {
            return Err(Error::field("valid_from", "发证日期格式应为YYYY-MM-DD"));
        }
        if !valid_from.is_empty() && !expires_on.is_empty() && valid_from > expires_on {
            return Err(Error::field("valid_from", "发证日期不能晚于有效期"));
        }
        let scope = form.bounded(text::CERTIFICATE_SCOPE)?.unwrap_or_default();
        let (file_name, bytes) = form.files.into_iter().next().ok_or_else(|| Error::field("file", "请上传证件扫描件"))?;
        let allowed = [upload::Kind::Jpeg, upload::Kind::Png, upload::Kind::Pdf];
        let file = upload::check("file", &file_name, bytes, &allowed, "JPG、PNG或PDF")?;
        Ok(CertificateForm { kind, number, valid_from, expires_on, scope, file })
    }
}

/// `POST /api/user/zizhi` (multipart: `kind`, `number`, `valid_from` and `expires_on`
/// `YYYY-MM-DD` or empty, `scope`, `file` a JPEG, PNG or PDF scan of at most 5 MB): records the
/// certificate of that kind for review (待审核). One not yet approved is replaced (its old scan
/// is deleted); an approved one stays in force beside its renewal until the renewal is approved.
#[utoipa::path(post, path = "/api/user/zizhi", request_body(content = CertificateForm, content_type = "multipart/form-data"), tag = "账户", responses((status = 200, description = "资质证件", body = Envelope<Certificates>)))]
async fn upload(State(context): State<ApiContext>, member: Member, Upload(form): Upload<CertificateForm>) -> Answer<Certificates> {
    // The file first, under a name of the shop's; the row then names it. A failed write leaves
    // no row; a failed row deletes the file again.
    let stored = upload::store(&context, member, std::slice::from_ref(&form.file)).await?.remove(0);
    let replaced = match record(&context, member, &form, &stored).await {
        Ok(replaced) => replaced,
        Err(error) => {
            upload::remove(&context, member, &[stored]).await;
            return Err(error);
        }
    };
    // The scan it replaced is no one's any more: its file goes (the member's folder keeps only
    // what a row names).
    if let Some(old) = replaced.filter(|old| !old.is_empty()) {
        upload::remove(&context, member, &[old]).await;
    }
    ok_with("上传成功，待审核", certificates(&context, member).await?)
}

/// Records the member's certificate `form` with its new scan `stored`: replaces the latest one
/// of its kind while that is not approved (answering the file name of its old scan, empty when
/// it had none), or adds it (answering `None`): the first of its kind, or the renewal of an
/// approved one. The replacement swaps the scan only if it is still the one read, so two uploads
/// at once each learn exactly which file they replaced.
async fn record(context: &ApiContext, member: Member, form: &CertificateForm, stored: &str) -> Result<Option<String>> {
    let file = &form.file;
    let (content_type, size) = (file.kind.content_type(), file.bytes.len() as i64);
    loop {
        let now = now();
        let current: Option<(i64, String, ReviewStatus)> = sqlx::query_as(
            "SELECT id, file_name, status FROM qualifications WHERE id = (SELECT MAX(id) FROM qualifications WHERE member_id = $1 AND kind = $2)",
        )
        .bind(member.id)
        .bind(form.kind)
        .fetch_optional(&context.db.pool)
        .await?;
        let Some((id, old)) = current.filter(|(_, _, status)| *status != ReviewStatus::Approved).map(|(id, old, _)| (id, old)) else {
            sqlx::query(
                "INSERT INTO qualifications (member_id, kind, number, valid_from, expires_on, scope, file_name, file_type, file_size, status, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(member.id)
            .bind(form.kind)
            .bind(&form.number)
            .bind(&form.valid_from)
            .bind(&form.expires_on)
            .bind(&form.scope)
            .bind(stored)
            .bind(content_type)
            .bind(size)
            .bind(ReviewStatus::Pending)
            .bind(now)
            .execute(&context.db.pool)
            .await?;
            return Ok(None);
        };
        let swapped = sqlx::query(
            "UPDATE qualifications SET number = $1, valid_from = $2, expires_on = $3, scope = $4, file_name = $5, file_type = $6, \
             file_size = $7, status = $8, reason = '', reviewed_at = NULL, reminded = NULL, created_at = $9 WHERE id = $10 AND file_name = $11 AND status <> $12",
        )
        .bind(&form.number)
        .bind(&form.valid_from)
        .bind(&form.expires_on)
        .bind(&form.scope)
        .bind(stored)
        .bind(content_type)
        .bind(size)
        .bind(ReviewStatus::Pending)
        .bind(now)
        .bind(id)
        .bind(&old)
        .bind(ReviewStatus::Approved)
        .execute(&context.db.pool)
        .await?
        .rows_affected();
        if swapped == 1 {
            return Ok(Some(old));
        }
    }
}

/// `GET /api/user/zizhi/{id}/scan`: the scan of one of the member's certificates, as it was
/// uploaded (another member's answers 404).
#[utoipa::path(get, path = "/api/user/zizhi/{id}/scan", tag = "账户", responses(
    (status = 200, description = "证件扫描件", content(("image/jpeg"), ("image/png"), ("application/pdf")))
))]
async fn scan(State(context): State<ApiContext>, member: Member, Path(id): Path<i64>) -> Result<Response> {
    let row: Option<(String, String)> =
        sqlx::query_as("SELECT file_name, file_type FROM qualifications WHERE id = $1 AND member_id = $2 AND file_name <> ''")
            .bind(id)
            .bind(member.id)
            .fetch_optional(&context.db.pool)
            .await?;
    let Some((file_name, file_type)) = row else { return Err(Error::not_found("证件不存在")) };
    upload::serve(&context, member, &file_name, &file_type).await
}

/// The member's business scope (经营范围).
#[derive(Serialize, ToSchema)]
pub struct BusinessScope {
    /// The classes the member may buy, as approved (empty until the licences are), by name.
    #[schema(example = json!(["中成药", "中药饮片"]))]
    list: Vec<&'static str>,
    /// Every class and whether buying it needs the scope: what the page lays the list against.
    classes: Vec<ClassEntry>,
    is_passed: i64,
}

/// A class of goods in licences' terms.
#[derive(Serialize, ToSchema)]
pub struct ClassEntry {
    id: i64,
    #[schema(example = "中成药")]
    name: &'static str,
    /// 1 when only members whose scope holds it may buy it.
    needs_licence: i64,
    /// 1 when the member's approved scope holds it (or it needs none and the member is approved).
    allowed: i64,
}

/// `GET /api/user/jyfw`: the business scope approved with the member's licences.
#[utoipa::path(get, path = "/api/user/jyfw", tag = "账户", responses((status = 200, description = "经营范围", body = Envelope<BusinessScope>)))]
async fn business_scope(State(context): State<ApiContext>, member: Member) -> Answer<BusinessScope> {
    let mut conn = context.db.pool.acquire().await?;
    let is_passed: i64 = sqlx::query_scalar("SELECT is_passed FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    let scope = if is_passed == 1 { Scope::of_member(&mut conn, member.id).await? } else { Scope::default() };
    let list = scope.classes().map(ScopeClass::name).collect();
    let classes = ScopeClass::ALL
        .into_iter()
        .map(|class| ClassEntry {
            id: class.code(),
            name: class.name(),
            needs_licence: i64::from(class.needs_licence()),
            allowed: i64::from(is_passed == 1 && scope.allows(class)),
        })
        .collect();
    ok(BusinessScope { list, classes, is_passed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_days() {
        assert!(is_date("2028-02-29"));
        assert!(!is_date("2027-02-29"));
        assert!(!is_date("2027-13-01"));
        assert!(!is_date("2027-1-01"));
        assert!(!is_date("27-01-01"));
        assert_eq!(crate::civil_date(0, 0), (1970, 1, 1));
        assert_eq!(crate::civil_date(20_596 * 86_400, 0), (2026, 5, 23));
        assert_eq!(crate::civil_date(20_596 * 86_400 - 3600, 8 * 3600), (2026, 5, 23), "the shop's day begins at 16:00 UTC");
    }
}
