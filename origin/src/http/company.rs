//! A company (企业) and its store accounts. A chain's stores each have their own account, and
//! the accounts of one company are linked by `members.company_id` — never by the company name
//! typed at registration, which two pharmacies may share. A company is made at multi-store
//! registration, with a code (企业编码) that the chain's other stores give at their own
//! multi-store registration to join it; an account registered otherwise gets its company the
//! first time it asks for it. Cart lines are copied only between approved accounts of one
//! company (`cart::copy`).

use axum::extract::State;
use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, Result, ok};
use super::extract::Member;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(company))
}

/// The characters of a company code: capitals and digits without the easily confused 0, O, 1
/// and I, so that a code read out over the phone is typed right.
const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/// Ten characters of 32: 50 bits, not to be guessed.
const CODE_LENGTH: usize = 10;
/// The longest code a form may carry (a longer one is not a code).
pub const CODE_MAX: usize = 20;

fn new_code() -> String {
    let bytes: [u8; CODE_LENGTH] = rand::random();
    bytes.iter().map(|byte| CODE_ALPHABET[usize::from(*byte) % CODE_ALPHABET.len()] as char).collect()
}

/// A code as members type it: trimmed, in capitals, without spaces or dashes.
pub fn normalize_code(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && *c != '-').flat_map(char::to_uppercase).collect()
}

/// Makes a company named `name`; answers its id. A code already taken (one chance in 2^50) is
/// drawn again.
pub async fn create(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    for _ in 0..3 {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO companies (name, code, created_at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING RETURNING id",
        )
        .bind(name)
        .bind(new_code())
        .bind(now())
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(id) = id {
            return Ok(id);
        }
    }
    Err(anyhow::anyhow!("no free company code after three draws").into())
}

/// The company a code names: 422 `企业编码不存在` for none.
pub async fn by_code(conn: &mut AnyConnection, code: &str) -> Result<i64> {
    let code = normalize_code(code);
    if code.chars().count() > CODE_MAX {
        return Err(Error::field("company_code", "企业编码不存在"));
    }
    sqlx::query_scalar("SELECT id FROM companies WHERE code = $1")
        .bind(code)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::field("company_code", "企业编码不存在"))
}

/// The member's company, made now when the member has none yet.
async fn ensure(conn: &mut AnyConnection, member: Member) -> Result<i64> {
    let (company, name): (Option<i64>, String) =
        sqlx::query_as("SELECT company_id, company FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?;
    if let Some(company) = company {
        return Ok(company);
    }
    // Two first asks at once: one transaction sets it, the other's is rolled back, and both
    // answer the one set.
    let mut tx = conn.begin().await?;
    let made = create(&mut tx, &name).await?;
    let set = sqlx::query("UPDATE members SET company_id = $1 WHERE id = $2 AND company_id IS NULL")
        .bind(made)
        .bind(member.id)
        .execute(&mut *tx)
        .await?;
    if set.rows_affected() == 1 {
        tx.commit().await?;
        return Ok(made);
    }
    tx.rollback().await?;
    Ok(sqlx::query_scalar("SELECT company_id FROM members WHERE id = $1").bind(member.id).fetch_one(&mut *conn).await?)
}

/// A company and its store accounts.
#[derive(Serialize, ToSchema)]
pub struct Company {
    id: i64,
    /// The name it was made with (the first account's company name).
    name: String,
    /// 企业编码: what the chain's other stores give at multi-store registration to join it.
    #[schema(example = "7KQ2MZ9DXH")]
    code: String,
    /// Every account of the company, the member's first, then by id.
    accounts: Vec<CompanyAccount>,
}

/// A store account of a company.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct CompanyAccount {
    id: i64,
    username: String,
    /// The company name the account registered with.
    company: String,
    /// The contact.
    name: String,
    /// 1 when its qualifications are approved: only approved accounts send or receive copies.
    is_passed: i64,
    /// 1 for the member asking.
    is_self: i64,
}

/// `GET /api/user/company`: the member's company (made now for an account that has none yet),
/// its code and its store accounts.
#[utoipa::path(get, path = "/api/user/company", tag = "账户", responses((status = 200, description = "所属企业与门店账号", body = Envelope<Company>)))]
async fn company(State(context): State<ApiContext>, member: Member) -> Answer<Company> {
    let mut conn = context.db.pool.acquire().await?;
    let id = ensure(&mut conn, member).await?;
    let (name, code): (String, String) =
        sqlx::query_as("SELECT name, code FROM companies WHERE id = $1").bind(id).fetch_one(&mut *conn).await?;
    let accounts: Vec<CompanyAccount> = sqlx::query_as(
        "SELECT id, username, company, name, is_passed, CASE WHEN id = $2 THEN 1 ELSE 0 END AS is_self \
         FROM members WHERE company_id = $1 ORDER BY CASE WHEN id = $2 THEN 0 ELSE 1 END, id",
    )
    .bind(id)
    .bind(member.id)
    .fetch_all(&mut *conn)
    .await?;
    ok(Company { id, name, code, accounts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_ten_unambiguous_characters() {
        for _ in 0..100 {
            let code = new_code();
            assert_eq!(code.len(), CODE_LENGTH);
            assert!(code.bytes().all(|byte| CODE_ALPHABET.contains(&byte)), "{code}");
        }
        assert_eq!(normalize_code(" 7kq2-mz9d xh "), "7KQ2MZ9DXH");
    }
}
