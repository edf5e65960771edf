//! What the operator gives a member: coupons and cash vouchers from a template, red packets,
//! points and balance (an offline recharge), each with the member's log row and a message.

use sqlx::AnyConnection;

use super::{Grant, GrantMoney, GrantTemplate, begin_write, log};
use crate::domain::grants::{self, Granted, Templates};
use crate::{money, now};

pub(super) async fn templates(conn: &mut AnyConnection) -> anyhow::Result<String> {
    let coupons: Vec<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT id, title, kind, days FROM coupons ORDER BY id").fetch_all(&mut *conn).await?;
    let vouchers: Vec<(i64, String, i64, i64)> =
        sqlx::query_as("SELECT id, title, amount, days FROM cash_vouchers ORDER BY id").fetch_all(&mut *conn).await?;
    let mut out = String::from("coupons (grant coupon --template ID)\nid\ttitle\tkind\tdays\n");
    for (id, title, kind, days) in coupons {
        out += &format!("{id}\t{title}\t{}\t{days}\n", if kind == 2 { "折扣" } else { "满减" });
    }
    out += "cash vouchers (grant voucher --template ID)\nid\ttitle\tamount\tdays\n";
    for (id, title, amount, days) in vouchers {
        out += &format!("{id}\t{title}\t{}\t{days}\n", money::text(amount));
    }
    Ok(out)
}

/// A positive amount of yuan with at most two decimals, as stored.
fn amount(text: &str) -> anyhow::Result<i64> {
    let stored = money::parse_stored(text.trim()).filter(|stored| *stored > 0 && stored % 100 == 0);
    stored.ok_or_else(|| anyhow::anyhow!("the amount must be a positive number of yuan with at most two decimals, got {text}"))
}

pub(super) async fn grant(conn: &mut AnyConnection, operator: &str, grant: Grant) -> anyhow::Result<String> {
    let now = now();
    let mut tx = begin_write(conn).await?;
    let out = match grant {
        Grant::Coupon(GrantTemplate { member, template, count }) | Grant::Voucher(GrantTemplate { member, template, count })
            if !(1..=grants::COUNT_MAX).contains(&count) =>
        {
            anyhow::bail!("member {member}, template {template}: the count must be from 1 to {}, got {count}", grants::COUNT_MAX)
        }
        Grant::Coupon(grant) => granted(&mut tx, operator, &grant, Templates::Coupons, now).await?,
        Grant::Voucher(grant) => granted(&mut tx, operator, &grant, Templates::Vouchers, now).await?,
        Grant::RedPacket(GrantMoney { member, amount: text, note }) => {
            let stored = amount(&text)?;
            let after = grants::red_packet(&mut tx, member, stored, &note, now).await?;
            let yuan = money::text(stored);
            log(&mut tx, operator, "grant.red_packet", member, &format!("+{yuan} ({note})")).await?;
            format!("granted red packets {yuan} to member {member}; now {}\n", money::text(after))
        }
        Grant::Points { member, points, note } => {
            let after = grants::points(&mut tx, member, points, &note, now).await?;
            log(&mut tx, operator, "grant.points", member, &format!("{points:+} ({note})")).await?;
            format!("points {points:+} for member {member}; now {after}\n")
        }
        Grant::Balance(GrantMoney { member, amount: text, note }) => {
            let stored = amount(&text)?;
            let after = grants::balance(&mut tx, member, stored, &note, now).await?;
            let yuan = money::text(stored);
            log(&mut tx, operator, "grant.balance", member, &format!("+{yuan} ({note})")).await?;
            format!("balance +{yuan} for member {member}; now {}\n", money::text(after))
        }
    };
    tx.commit().await?;
    Ok(out)
}

/// Gives the member copies of a template, and logs it.
async fn granted(conn: &mut AnyConnection, operator: &str, grant: &GrantTemplate, kind: Templates, now: i64) -> anyhow::Result<String> {
    let GrantTemplate { member, template, count } = *grant;
    let Granted { title, .. } = grants::templates(conn, kind, member, template, count, now).await?;
    let (action, table) = match kind {
        Templates::Coupons => ("grant.coupon", "coupons"),
        Templates::Vouchers => ("grant.voucher", "cash_vouchers"),
    };
    log(conn, operator, action, member, &format!("{count} × {table} template {template} ({title})")).await?;
    Ok(format!("granted {count} × {title} to member {member}\n"))
}
