//! Operator accounts and their sessions. A password is kept as an Argon2id hash (`crate::auth`);
//! a `super` must also give a TOTP code (RFC 6238: six digits, 30-second steps, one step of
//! clock skew either side), each code taken once. Sessions are their own table and cookie:
//! a member's session is never an operator's, nor the reverse. A session ends after
//! [`IDLE_SECONDS`] unused, and [`SESSION_SECONDS`] after sign-in in any case.

use rand::RngCore;
use serde::Serialize;
use sqlx::AnyConnection;

use super::audit::{self, Actor, Entry};
use super::roles::Role;
use crate::auth;
use crate::domain::{Error, Result};

/// The operators' session cookie, sent only to the back office's calls.
pub const COOKIE: &str = "osid";
pub const COOKIE_PATH: &str = "/api/admin";
/// An operator's session ends when unused this long.
pub const IDLE_SECONDS: i64 = 30 * 60;
/// …and this long after sign-in, used or not.
pub const SESSION_SECONDS: i64 = 12 * 3600;
/// The shortest password an operator may have.
pub const PASSWORD_MIN: usize = 10;
/// The issuer an authenticator app shows beside the code.
const TOTP_ISSUER: &str = "药品批发商城后台";

/// An operator, as the console and the commands show one.
#[derive(Clone, Debug, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct Operator {
    pub id: i64,
    pub username: String,
    pub name: String,
    #[schema(value_type = Role)]
    #[sqlx(try_from = "String")]
    pub role: RoleKey,
    /// Whether the operator signs in with a TOTP code too.
    #[schema(value_type = bool)]
    #[sqlx(try_from = "i64")]
    pub totp: Flag,
    #[schema(value_type = bool)]
    #[sqlx(try_from = "i64")]
    pub disabled: Flag,
    pub created_at: i64,
    #[schema(required = true)]
    pub last_login_at: Option<i64>,
}

/// A role as read from its column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct RoleKey(pub Role);

impl TryFrom<String> for RoleKey {
    type Error = String;
    fn try_from(key: String) -> std::result::Result<RoleKey, String> {
        Role::parse(&key).map(RoleKey).ok_or_else(|| format!("unknown role {key}"))
    }
}

/// A 0/1 column as a boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Flag(pub bool);

impl From<i64> for Flag {
    fn from(value: i64) -> Flag {
        Flag(value != 0)
    }
}

const COLUMNS: &str =
    "id, username, name, role, CASE WHEN totp_secret IS NULL THEN 0 ELSE 1 END AS totp, disabled, created_at, last_login_at";

/// What a new operator is given.
pub struct NewOperator<'a> {
    pub username: &'a str,
    pub name: &'a str,
    pub role: Role,
    pub password: &'a str,
}

/// An operator added, with the TOTP secret to enter into an authenticator app (when the role
/// needs one), once: it is not shown again.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OperatorAdded {
    pub operator: Operator,
    /// Base32.
    pub totp_secret: Option<String>,
    /// The `otpauth://` address an authenticator app reads (as a QR code).
    pub totp_uri: Option<String>,
}

fn check_username(username: &str) -> Result<()> {
    let fine =
        (3..=32).contains(&username.chars().count()) && username.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if fine { Ok(()) } else { Err(Error::field("username", "账号须为3到32位字母、数字、下划线、点或横线")) }
}

fn check_password(password: &str) -> Result<()> {
    if password.chars().count() < PASSWORD_MIN {
        return Err(Error::field("password", format!("密码至少{PASSWORD_MIN}位")));
    }
    if password.chars().count() > 100 {
        return Err(Error::field("password", "密码不能超过100位"));
    }
    let kinds = [
        password.chars().any(|c| c.is_ascii_lowercase()),
        password.chars().any(|c| c.is_ascii_uppercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| !c.is_ascii_alphanumeric()),
    ];
    if kinds.iter().filter(|kind| **kind).count() < 2 {
        return Err(Error::field("password", "密码须包含字母、数字或符号中的至少两种"));
    }
    Ok(())
}

fn new_secret() -> Vec<u8> {
    let mut bytes = vec![0u8; 20];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes
}

fn totp(secret: &str) -> Result<totp_rs::Totp> {
    let secret = totp_rs::Secret::try_from_base32(secret).map_err(|error| anyhow::anyhow!("bad TOTP secret: {error:?}"))?;
    Ok(totp_rs::Builder::new().with_secret(secret).build().map_err(|error| anyhow::anyhow!("bad TOTP secret: {error:?}"))?)
}

fn totp_uri(username: &str, secret: &str) -> String {
    let label: String = form_urlencoded(&format!("{TOTP_ISSUER}:{username}"));
    format!("otpauth://totp/{label}?secret={secret}&issuer={}&algorithm=SHA1&digits=6&period=30", form_urlencoded(TOTP_ISSUER))
}

fn form_urlencoded(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (byte as char).to_string(),
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// The current code of a base32 secret at `now` (for the commands' own checks and the tests).
pub fn totp_code(secret: &str, now: i64) -> Result<String> {
    Ok(totp(secret)?.generate(now.max(0) as u64).to_string())
}

/// Adds an operator, in the caller's transaction, recorded in the trail as `actor`'s.
pub async fn add(conn: &mut AnyConnection, actor: &Actor, new: NewOperator<'_>, now: i64) -> Result<OperatorAdded> {
    let username = new.username.trim();
    check_username(username)?;
    let name = new.name.trim();
    if name.chars().count() > 30 {
        return Err(Error::field("name", "姓名不能超过30字"));
    }
    check_password(new.password)?;
    let taken: Option<i64> =
        sqlx::query_scalar("SELECT id FROM operators WHERE username = $1").bind(username).fetch_optional(&mut *conn).await?;
    if taken.is_some() {
        return Err(Error::field("username", "该账号已存在"));
    }
    let hash = {
        let password = new.password.to_owned();
        tokio::task::spawn_blocking(move || auth::hash_password(&password)).await.map_err(anyhow::Error::from)??
    };
    let secret = new.role.needs_totp().then(|| totp_rs::Secret::from(new_secret()).to_base32());
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO operators (username, name, password_hash, role, totp_secret, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(username)
    .bind(name)
    .bind(hash)
    .bind(new.role.key())
    .bind(secret.clone())
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    let operator = get(conn, id).await?;
    let after = serde_json::json!({ "username": username, "name": name, "role": new.role.key(), "totp": secret.is_some() });
    let summary = format!("添加员工 {username}（{}）", new.role.title());
    audit::record(
        conn,
        actor,
        Entry { action: "operator.add", target: format!("operator:{id}"), member: None, summary, before: serde_json::Value::Null, after },
        now,
    )
    .await?;
    let totp_uri = secret.as_deref().map(|secret| totp_uri(username, secret));
    Ok(OperatorAdded { operator, totp_secret: secret, totp_uri })
}

pub async fn get(conn: &mut AnyConnection, id: i64) -> Result<Operator> {
    let query = format!("SELECT {COLUMNS} FROM operators WHERE id = $1");
    let operator: Option<Operator> = sqlx::query_as(sqlx::AssertSqlSafe(query)).bind(id).fetch_optional(&mut *conn).await?;
    operator.ok_or_else(|| Error::not_found("员工不存在"))
}

pub async fn list(conn: &mut AnyConnection) -> Result<Vec<Operator>> {
    let query = format!("SELECT {COLUMNS} FROM operators ORDER BY id");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(query)).fetch_all(&mut *conn).await?)
}

/// What a `super` may change of an operator; `None` leaves it.
#[derive(Debug, Default)]
pub struct Change {
    pub name: Option<String>,
    pub role: Option<Role>,
    pub disabled: Option<bool>,
    pub password: Option<String>,
}

/// Changes an operator, in the caller's transaction, recorded as `actor`'s. An operator cannot
/// disable themselves or take away their own `super`, so that the shop never loses its last one
/// by a slip; a password reset or a disable ends the operator's sessions. A role that needs TOTP
/// gets a secret when it had none (answered once, as [`OperatorAdded`]).
pub async fn change(conn: &mut AnyConnection, actor: &Actor, id: i64, change: Change, now: i64) -> Result<OperatorAdded> {
    let before = get(conn, id).await?;
    if actor.operator == Some(id) && (change.disabled == Some(true) || change.role.is_some_and(|role| role != before.role.0)) {
        return Err(Error::conflict("不能停用自己或修改自己的角色"));
    }
    if let Some(name) = &change.name {
        if name.trim().chars().count() > 30 {
            return Err(Error::field("name", "姓名不能超过30字"));
        }
        sqlx::query("UPDATE operators SET name = $1 WHERE id = $2").bind(name.trim()).bind(id).execute(&mut *conn).await?;
    }
    let mut secret = None;
    if let Some(role) = change.role {
        sqlx::query("UPDATE operators SET role = $1 WHERE id = $2").bind(role.key()).bind(id).execute(&mut *conn).await?;
        if role.needs_totp() && !before.totp.0 {
            let new = totp_rs::Secret::from(new_secret()).to_base32();
            sqlx::query("UPDATE operators SET totp_secret = $1 WHERE id = $2").bind(&new).bind(id).execute(&mut *conn).await?;
            secret = Some(new);
        }
    }
    if let Some(disabled) = change.disabled {
        sqlx::query("UPDATE operators SET disabled = $1 WHERE id = $2").bind(i64::from(disabled)).bind(id).execute(&mut *conn).await?;
    }
    if let Some(password) = &change.password {
        check_password(password)?;
        let hash = {
            let password = password.clone();
            tokio::task::spawn_blocking(move || auth::hash_password(&password)).await.map_err(anyhow::Error::from)??
        };
        sqlx::query("UPDATE operators SET password_hash = $1 WHERE id = $2").bind(hash).bind(id).execute(&mut *conn).await?;
    }
    if change.disabled == Some(true) || change.password.is_some() {
        sqlx::query("DELETE FROM operator_sessions WHERE operator_id = $1").bind(id).execute(&mut *conn).await?;
    }
    let after = get(conn, id).await?;
    let mut said = Vec::new();
    if after.role != before.role {
        said.push(format!("角色 {} → {}", before.role.0.title(), after.role.0.title()));
    }
    if after.disabled != before.disabled {
        said.push(if after.disabled.0 { "停用".to_owned() } else { "启用".to_owned() });
    }
    if after.name != before.name {
        said.push(format!("姓名 {} → {}", before.name, after.name));
    }
    if change.password.is_some() {
        said.push("重置密码".to_owned());
    }
    let shown = |operator: &Operator| serde_json::json!({ "name": operator.name, "role": operator.role.0.key(), "disabled": operator.disabled.0, "totp": operator.totp.0 });
    let summary = format!("修改员工 {}：{}", after.username, if said.is_empty() { "无变化".to_owned() } else { said.join("，") });
    let entry = Entry {
        action: "operator.change",
        target: format!("operator:{id}"),
        member: None,
        summary,
        before: shown(&before),
        after: shown(&after),
    };
    audit::record(conn, actor, entry, now).await?;
    let totp_uri = secret.as_deref().map(|secret| totp_uri(&after.username, secret));
    Ok(OperatorAdded { operator: after, totp_secret: secret, totp_uri })
}

/// Why a sign-in failed.
#[derive(Debug, PartialEq, Eq)]
pub enum SignInRefusal {
    /// Wrong account or password (one message for both).
    Password,
    /// The role needs a TOTP code, and none came.
    CodeNeeded,
    /// The code is wrong, or already used.
    Code,
    Disabled,
}

/// Checks a sign-in: the operator's id, or why not. The password is checked against a hash even
/// for an unknown account, so that both cost the same.
pub async fn check_sign_in(
    conn: &mut AnyConnection,
    username: &str,
    password: &str,
    code: Option<&str>,
    now: i64,
) -> Result<std::result::Result<i64, (Option<i64>, SignInRefusal)>> {
    let row: Option<(i64, String, String, Option<String>, i64, i64)> =
        sqlx::query_as("SELECT id, password_hash, role, totp_secret, totp_step, disabled FROM operators WHERE username = $1")
            .bind(username)
            .fetch_optional(&mut *conn)
            .await?;
    let password = password.to_owned();
    let Some((id, hash, role, secret, last_step, disabled)) = row else {
        tokio::task::spawn_blocking(move || auth::verify_nothing(&password)).await.map_err(anyhow::Error::from)?;
        return Ok(Err((None, SignInRefusal::Password)));
    };
    let verified = tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash)).await.map_err(anyhow::Error::from)?;
    if !verified {
        return Ok(Err((Some(id), SignInRefusal::Password)));
    }
    if disabled != 0 {
        return Ok(Err((Some(id), SignInRefusal::Disabled)));
    }
    let needs_code = secret.is_some() || Role::parse(&role).is_some_and(Role::needs_totp);
    if needs_code {
        let (Some(secret), Some(code)) = (secret, code.map(str::trim).filter(|code| !code.is_empty())) else {
            return Ok(Err((Some(id), SignInRefusal::CodeNeeded)));
        };
        let Some(step) = totp(&secret)?.check(code, now.max(0) as u64) else { return Ok(Err((Some(id), SignInRefusal::Code))) };
        let step = step as i64;
        // Each code once: the step moves on only past the last one taken.
        let taken = sqlx::query("UPDATE operators SET totp_step = $1 WHERE id = $2 AND totp_step < $1")
            .bind(step)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        if taken.rows_affected() == 0 || step <= last_step {
            return Ok(Err((Some(id), SignInRefusal::Code)));
        }
    }
    Ok(Ok(id))
}

/// Opens a session for operator `id` from `address`; answers the cookie's token.
pub async fn open_session(conn: &mut AnyConnection, id: i64, address: &str, now: i64) -> Result<String> {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    sqlx::query(
        "INSERT INTO operator_sessions (token_hash, operator_id, address, created_at, expires_at, last_seen) VALUES ($1, $2, $3, $4, $5, $4)",
    )
    .bind(auth::token_hash(&token))
    .bind(id)
    .bind(address)
    .bind(now)
    .bind(now + SESSION_SECONDS)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE operators SET last_login_at = $1 WHERE id = $2").bind(now).bind(id).execute(&mut *conn).await?;
    Ok(token)
}

/// The operator a session token belongs to, while the session is neither expired nor idle and
/// the operator is not disabled. Using it moves `last_seen` on, at most once a minute.
pub async fn session_operator(conn: &mut AnyConnection, token: &str, now: i64) -> Result<Option<Operator>> {
    let hash = auth::token_hash(token);
    let row: Option<(i64, i64)> = sqlx::query_as(
        "SELECT s.operator_id, s.last_seen FROM operator_sessions s JOIN operators o ON o.id = s.operator_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen > $3 AND o.disabled = 0",
    )
    .bind(&hash)
    .bind(now)
    .bind(now - IDLE_SECONDS)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((id, last_seen)) = row else { return Ok(None) };
    if last_seen <= now - crate::security::SESSION_TOUCH_SECONDS {
        sqlx::query("UPDATE operator_sessions SET last_seen = $1 WHERE token_hash = $2 AND last_seen < $1")
            .bind(now)
            .bind(&hash)
            .execute(&mut *conn)
            .await?;
    }
    Ok(Some(get(conn, id).await?))
}

pub async fn close_session(conn: &mut AnyConnection, token: &str) -> Result<()> {
    sqlx::query("DELETE FROM operator_sessions WHERE token_hash = $1").bind(auth::token_hash(token)).execute(&mut *conn).await?;
    Ok(())
}

/// The `Set-Cookie` value that opens (`Some(token)`) or clears (`None`) an operator's session.
pub fn cookie(token: Option<&str>, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    match token {
        Some(token) => format!("{COOKIE}={token}; Path={COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age={SESSION_SECONDS}{secure}"),
        None => format!("{COOKIE}=; Path={COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0{secure}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_names_are_checked() {
        assert!(check_password("short1").is_err());
        assert!(check_password("alllowercaseletters").is_err());
        assert!(check_password("warehouse-2026").is_ok());
        assert!(check_username("ops").is_ok() && check_username("仓库").is_err() && check_username("a b").is_err());
    }

    #[test]
    fn codes_follow_rfc_6238() {
        // RFC 6238's SHA-1 test secret, "12345678901234567890", and its vector at 59 s: 94287082
        // (eight digits); six digits are its last six.
        let secret = totp_rs::Secret::from(b"12345678901234567890".to_vec()).to_base32();
        assert_eq!(totp_code(&secret, 59).unwrap(), "287082");
        assert_eq!(totp_code(&secret, 1_111_111_109).unwrap(), "081804");
        assert!(totp_uri("boss", &secret).starts_with("otpauth://totp/%E8%8D%AF"));
    }
}
