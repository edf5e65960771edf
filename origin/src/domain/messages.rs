//! The member's messages (我的消息): their kinds, and sending one in the transaction of the
//! change it tells of. Reading them is `http::member`'s.

use sqlx::AnyConnection;

use crate::now;

crate::domain::stored::stored_enum! {
    /// What a message tells of (`messages.kind`).
    pub enum MessageKind {
        System = 1 => "系统消息",
        Order = 2 => "订单消息",
        /// The balance, red packets, points, coupons.
        Wallet = 3 => "资产消息",
        Qualification = 4 => "资质消息",
    }
}

/// Sends the member a message (in the caller's transaction, with the change it tells of).
pub async fn send(conn: &mut AnyConnection, member: i64, kind: MessageKind, title: &str, body: &str) -> sqlx::Result<()> {
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
