//! After-sales cases (售后): their kinds and states, and a message added to a case — by its
//! member (`http::after_sales`) or by the operator (`origin admin answer-case`).

use sqlx::AnyConnection;

/// Case kinds, by number: 1 质量问题, 2 配送问题, 3 其他.
pub const KIND_NAMES: [&str; 4] = ["", "质量问题", "配送问题", "其他"];
pub const STATUS_NAMES: [&str; 2] = ["处理中", "已解决"];

/// Adds a message with its photos (already stored under `stored`) to the case.
pub async fn add_message(
    conn: &mut AnyConnection,
    case: i64,
    author: &str,
    body: &str,
    photos: &[(String, &'static str, i64)],
    now: i64,
) -> sqlx::Result<()> {
    let message: i64 =
        sqlx::query_scalar("INSERT INTO after_sale_messages (case_id, author, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(case)
            .bind(author)
            .bind(body)
            .bind(now)
            .fetch_one(&mut *conn)
            .await?;
    for (file_name, file_type, size) in photos {
        sqlx::query("INSERT INTO after_sale_photos (message_id, file_name, file_type, file_size) VALUES ($1, $2, $3, $4)")
            .bind(message)
            .bind(file_name)
            .bind(*file_type)
            .bind(*size)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("UPDATE after_sales SET updated_at = $1 WHERE id = $2").bind(now).bind(case).execute(&mut *conn).await?;
    Ok(())
}
