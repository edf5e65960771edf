//! The demo member `demo` / `demo123`: its company, addresses, stores, coupons, vouchers,
//! red packets, points and balance.

use anyhow::bail;
use sqlx::{Any, Transaction};

use super::{Coupon, DemoMember, stored};
use crate::domain::catalogue::scope::Scope;
use crate::now;

pub(super) async fn insert_demo_member(
    tx: &mut Transaction<'_, Any>,
    member: &DemoMember,
    coupons: &[Coupon],
    password_hash: &str,
    shop_name: &str,
) -> anyhow::Result<()> {
    if member.addresses.is_empty() {
        bail!("the demo member needs an address");
    }
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO members (username, phone, email, password_hash, company, name, is_passed, agreement_signed, points, balance, \
         manager_name, manager_phone, created_at) VALUES ($1, $2, $3, $4, $5, $6, 1, 1, $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind(&member.username)
    .bind(&member.phone)
    .bind(&member.email)
    .bind(password_hash)
    .bind(&member.company)
    .bind(&member.name)
    .bind(member.points)
    .bind(stored(&member.balance)?)
    .bind(&member.account_manager.name)
    .bind(&member.account_manager.phone)
    .bind(now())
    .fetch_one(&mut **tx)
    .await?;
    for address in &member.addresses {
        sqlx::query(
            "INSERT INTO addresses (member_id, contact, phone, province, city, district, detail, is_default) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(&address.contact)
        .bind(&address.phone)
        .bind(&address.province)
        .bind(&address.city)
        .bind(&address.district)
        .bind(&address.detail)
        .bind(address.is_default)
        .execute(&mut **tx)
        .await?;
    }
    // Every coupon (but those only the coupon centre gives) and cash voucher of the shop, once,
    // valid from yesterday, in the demo member's wallet; and, to show the other states at checkout and in the lists, one coupon that expired
    // yesterday and one valid only from three days on.
    let today = now();
    for table in ["member_coupons (member_id, coupon_id", "member_cash_vouchers (member_id, voucher_id"] {
        let templates = if table.starts_with("member_coupons") { "coupons" } else { "cash_vouchers" };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {table}, status, starts_at, expires_at, created_at) SELECT $1, id, 0, $2 - 86400, $2 + days * 86400, $2 FROM {templates}"
        )))
        .bind(id)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    }
    for coupon in coupons.iter().filter(|coupon| !coupon.in_wallet) {
        sqlx::query("DELETE FROM member_coupons WHERE member_id = $1 AND coupon_id IN (SELECT id FROM coupons WHERE title = $2)")
            .bind(id)
            .bind(&coupon.title)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query(
        "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at) \
         SELECT $1, id, 0, $2 - 31 * 86400, $2 - 86400, $2 - 31 * 86400 FROM coupons WHERE id = (SELECT MIN(id) FROM coupons)",
    )
    .bind(id)
    .bind(today)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO member_coupons (member_id, coupon_id, status, starts_at, expires_at, created_at) \
         SELECT $1, id, 0, $2 + 3 * 86400, $2 + 33 * 86400, $2 FROM coupons WHERE kind = 1 AND scope = 0 ORDER BY amount DESC LIMIT 1",
    )
    .bind(id)
    .bind(today)
    .execute(&mut **tx)
    .await?;
    let red_packet = stored(&member.red_packet)?;
    sqlx::query("UPDATE members SET red_packet = $1 WHERE id = $2").bind(red_packet).bind(id).execute(&mut **tx).await?;
    sqlx::query("INSERT INTO red_packet_logs (member_id, amount, balance_after, note, created_at) VALUES ($1, $2, $2, '开户赠送', $3)")
        .bind(id)
        .bind(red_packet)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO points_logs (member_id, points, balance_after, note, created_at) VALUES ($1, $2, $2, '开户赠送', $3)")
        .bind(id)
        .bind(member.points)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO balance_logs (member_id, amount, balance_after, use_type, note, created_at) VALUES ($1, $2, $2, 1, '开户充值', $3)",
    )
    .bind(id)
    .bind(stored(&member.balance)?)
    .bind(now())
    .execute(&mut **tx)
    .await?;
    // Approved with its licences (numbers only: scans are uploaded in the account centre), and
    // the business scope they allow; a welcome message, unread.
    let certificates = [
        ("营业执照", "91330106MA2B3C4D5E", "2015-12-31", "2035-12-31", "药品零售；医疗器械零售；食品销售"),
        (
            "药品经营许可证",
            "浙CA5710086",
            "2024-07-01",
            "2029-06-30",
            "中药饮片、中成药、化学药制剂、抗生素制剂、生化药品、生物制品（除疫苗）",
        ),
        ("第二类医疗器械经营备案凭证", "浙杭食药监械经营备20240086号", "2024-07-01", "", "第二类医疗器械"),
        ("医疗器械经营许可证", "浙杭食药监械经营许20240012号", "2024-07-01", "2029-06-30", "第三类医疗器械"),
        ("食品经营许可证", "JY13301060012345", "2023-03-15", "2028-03-14", "预包装食品销售、保健食品销售"),
    ];
    for (kind, number, valid_from, expires_on, scope) in certificates {
        sqlx::query(
            "INSERT INTO qualifications (member_id, kind, number, valid_from, expires_on, scope, status, created_at, reviewed_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7)",
        )
        .bind(id)
        .bind(kind)
        .bind(number)
        .bind(valid_from)
        .bind(expires_on)
        .bind(scope)
        .bind(today)
        .execute(&mut **tx)
        .await?;
    }
    // A pharmacy licensed for medicines, devices and foods alike: it may buy all the demo sells.
    Scope::all().store(tx, id).await?;
    sqlx::query("INSERT INTO messages (member_id, kind, title, body, created_at) VALUES ($1, 1, $2, $3, $4)")
        .bind(id)
        .bind(format!("欢迎加入{shop_name}"))
        .bind("您的资质已审核通过，可以下单采购。账户已赠送优惠券、现金券、红包和积分，可在“我的钱包”查看。")
        .bind(today)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
