//! What the operator gives a member: coupons and cash vouchers from a template, red packets,
//! points and balance (an offline recharge), each with the member's log row and a message.

use sqlx::AnyConnection;

use super::{Grant, GrantMoney, GrantTemplate, begin_write, log};
use crate::domain::settlement::UNUSED;
use crate::domain::{messages, settlement};
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

async fn member_exists(conn: &mut AnyConnection, member: i64) -> anyhow::Result<()> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM members WHERE id = $1").bind(member).fetch_optional(&mut *conn).await?;
    found.map(|_| ()).ok_or_else(|| anyhow::anyhow!("no member {member}"))
}

/// A positive amount of yuan with at most two decimals, as stored.
fn amount(text: &str) -> anyhow::Result<i64> {
    let stored = money::parse_stored(text.trim()).filter(|stored| *stored > 0 && stored % 100 == 0);
    stored.ok_or_else(|| anyhow::anyhow!("the amount must be a positive number of yuan with at most two decimals, got {text}"))
}

/// What the member holds of a kind of template: coupons or cash vouchers.
pub(super) struct Templates {
    /// The templates' table, the member's table and its column naming the template.
    templates: &'static str,
    held: &'static str,
    template_column: &'static str,
    /// The log's action and the message's title and name of the thing.
    action: &'static str,
    title: &'static str,
}

const COUPONS: Templates =
    Templates {
        templates: "coupons", held: "member_coupons", template_column: "coupon_id", action: "grant.coupon", title: "获得优惠券"
    };

const VOUCHERS: Templates = Templates {
    templates: "cash_vouchers",
    held: "member_cash_vouchers",
    template_column: "voucher_id",
    action: "grant.voucher",
    title: "获得现金券",
};

/// Gives the member `count` of a template, valid from now for the template's days.
async fn grant_templates(
    conn: &mut AnyConnection,
    operator: &str,
    grant: &GrantTemplate,
    kind: &Templates,
    now: i64,
) -> anyhow::Result<String> {
    let GrantTemplate { member, template, count } = *grant;
    member_exists(conn, member).await?;
    let (title, days): (String, i64) =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT title, days FROM {} WHERE id = $1", kind.templates)))
            .bind(template)
            .fetch_optional(&mut *conn)
            .await?
            .ok_or_else(|| anyhow::anyhow!("no {} template {template}", kind.templates))?;
    if kind.templates == COUPONS.templates {
        coupon_template_usable(conn, template, &title).await?;
    }
    for _ in 0..count {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {} (member_id, {}, status, starts_at, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $4)",
            kind.held, kind.template_column
        )))
        .bind(member)
        .bind(template)
        .bind(UNUSED)
        .bind(now)
        .bind(now + days * 86_400)
        .execute(&mut *conn)
        .await?;
    }
    messages::send(conn, member, messages::WALLET, kind.title, &format!("平台赠送您{count}张{title}，有效期{days}天。")).await?;
    log(conn, operator, kind.action, member, &format!("{count} × {} template {template} ({title})", kind.templates)).await?;
    Ok(format!("granted {count} × {title} to member {member}\n"))
}

/// Refuses a coupon template the pricing engine cannot use (one stored before the database
/// refused such values): a coupon of it would never reach a settlement.
async fn coupon_template_usable(conn: &mut AnyConnection, template: i64, title: &str) -> anyhow::Result<()> {
    let (kind, amount, min_amount, rate, max_reduce): (i64, i64, i64, i64, Option<i64>) =
        sqlx::query_as("SELECT kind, amount, min_amount, rate, max_reduce FROM coupons WHERE id = $1")
            .bind(template)
            .fetch_one(&mut *conn)
            .await?;
    match settlement::coupon_template_refusal(kind, amount, min_amount, rate, max_reduce) {
        Some(why) => anyhow::bail!("coupon template {template} ({title}) cannot be granted: {why}"),
        None => Ok(()),
    }
}

pub(super) async fn grant(conn: &mut AnyConnection, operator: &str, grant: Grant) -> anyhow::Result<String> {
    let now = now();
    let mut tx = begin_write(conn).await?;
    let out = match grant {
        Grant::Coupon(GrantTemplate { member, template, count }) | Grant::Voucher(GrantTemplate { member, template, count })
            if !(1..=100).contains(&count) =>
        {
            anyhow::bail!("member {member}, template {template}: the count must be from 1 to 100, got {count}")
        }
        Grant::Coupon(grant) => grant_templates(&mut tx, operator, &grant, &COUPONS, now).await?,
        Grant::Voucher(grant) => grant_templates(&mut tx, operator, &grant, &VOUCHERS, now).await?,
        Grant::RedPacket(GrantMoney { member, amount: text, note }) => {
            member_exists(&mut tx, member).await?;
            let stored = amount(&text)?;
            let after = settlement::move_red_packet(&mut tx, member, None, stored, &note, now)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the red-packet account cannot go below zero"))?;
            let yuan = money::text(stored);
            messages::send(&mut tx, member, messages::WALLET, "获得红包", &format!("{note}：账户红包+¥{yuan}。")).await?;
            log(&mut tx, operator, "grant.red_packet", member, &format!("+{yuan} ({note})")).await?;
            format!("granted red packets {yuan} to member {member}; now {}\n", money::text(after))
        }
        Grant::Points { member, points, note } => {
            member_exists(&mut tx, member).await?;
            anyhow::ensure!(points != 0, "points must not be 0");
            let after = settlement::move_points(&mut tx, member, None, points, &note, now)
                .await?
                .ok_or_else(|| anyhow::anyhow!("member {member} has fewer than {} points", -points))?;
            messages::send(&mut tx, member, messages::WALLET, "积分变动", &format!("{note}：积分{points:+}。")).await?;
            log(&mut tx, operator, "grant.points", member, &format!("{points:+} ({note})")).await?;
            format!("points {points:+} for member {member}; now {after}\n")
        }
        Grant::Balance(GrantMoney { member, amount: text, note }) => {
            member_exists(&mut tx, member).await?;
            let stored = amount(&text)?;
            let after = settlement::credit_balance(&mut tx, member, None, stored, &note, now).await?;
            let yuan = money::text(stored);
            messages::send(&mut tx, member, messages::WALLET, "余额到账", &format!("{note}：余额+¥{yuan}。")).await?;
            log(&mut tx, operator, "grant.balance", member, &format!("+{yuan} ({note})")).await?;
            format!("balance +{yuan} for member {member}; now {}\n", money::text(after))
        }
    };
    tx.commit().await?;
    Ok(out)
}
