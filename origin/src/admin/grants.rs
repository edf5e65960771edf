//! What the operator gives a member: coupons and cash vouchers from a template, red packets,
//! points and balance (an offline recharge), each with the member's log row and a message.

use sqlx::AnyConnection;

use super::{Grant, GrantMoney, GrantTemplate};
use crate::domain::staff::Actor;
use crate::domain::staff::grants::{self, Gift, amount};
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

pub(super) async fn grant(conn: &mut AnyConnection, operator: &str, grant: Grant) -> anyhow::Result<String> {
    let (member, gift, note) = match grant {
        Grant::Coupon(GrantTemplate { member, template, count }) => (member, Gift::Coupon { template, count }, "平台赠送".to_owned()),
        Grant::Voucher(GrantTemplate { member, template, count }) => (member, Gift::Voucher { template, count }, "平台赠送".to_owned()),
        Grant::RedPacket(GrantMoney { member, amount: text, note }) => (member, Gift::RedPacket { amount: amount(&text, "amount")? }, note),
        Grant::Points { member, points, note } => (member, Gift::Points { points }, note),
        Grant::Balance(GrantMoney { member, amount: text, note }) => (member, Gift::Balance { amount: amount(&text, "amount")? }, note),
    };
    let given = grants::give(conn, &Actor::command_line(operator), member, gift, &note, now()).await?;
    Ok(match given.request {
        Some(request) => format!("member {member}: {}; request {request} waits for another operator (`/admin`)\n", given.summary),
        None => {
            let (balance, red_packet, points): (i64, i64, i64) =
                sqlx::query_as("SELECT balance, red_packet, points FROM members WHERE id = $1").bind(member).fetch_one(&mut *conn).await?;
            format!(
                "member {member}: {}; now balance {}, red packets {}, points {points}\n",
                given.summary,
                money::text(balance),
                money::text(red_packet)
            )
        }
    })
}
