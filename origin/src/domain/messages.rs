//! The member's messages (我的消息): their kinds, and sending one in the transaction of the
//! change it tells of. Reading them is `http::member`'s.

use sqlx::AnyConnection;

use crate::now;

/// Message kinds: 1 system, 2 order, 3 wallet, 4 qualification.
pub const SYSTEM: i64 = 1;
pub const ORDER: i64 = 2;
pub const WALLET: i64 = 3;
pub const QUALIFICATION: i64 = 4;
/// Each kind's name, by its number.
pub const KIND_NAMES: [&str; 5] = ["", "系统消息", "订单消息", "资产消息", "资质消息"];

/// Sends the member a message (in the caller's transaction, with the change it tells of).
pub async fn send(conn: &mut AnyConnection, member: i64, kind: i64, title: &str, body: &str) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO messages (member_id, kind, title, body, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(member)
        .bind(kind)
        .bind(title)
        .bind(body)
        .bind(now())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// How many of the member's messages are unread (`message_count` in the user state).
pub async fn unread(conn: &mut AnyConnection, member: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE member_id = $1 AND read_at IS NULL").bind(member).fetch_one(&mut *conn).await
}
