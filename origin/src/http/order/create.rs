//! The order's transaction (`POST /api/order`): the cart read again and checked by the engine,
//! the flash sales' limits, the stock taken with guarded updates, the order, its lines and
//! their shares recorded, the settlement spent, the lines left the cart, and the answer kept
//! under the idempotency key — all or nothing.

use std::collections::{BTreeMap, HashMap};

use axum::http::StatusCode;
use engine::checkout::Refusal;
use order_check::form::OrderForm;
use serde::Serialize;
use serde_json::Value;
use sqlx::{Acquire, AnyConnection};
use utoipa::ToSchema;

use super::form::OrderRequest;
use super::{Checked, check, may_order, refusal};
use crate::domain::orders::life::OrderStatus;
use crate::domain::settlement;
use crate::http::cart_read::{CartLine, FLASH_SALE, limit_message, ordered_in_sale};
use crate::http::error::{Envelope, Error, Result};
use crate::http::extract::{Member, checked, int};
use crate::http::{ApiContext, idempotency};
use crate::security::text;
use crate::{money, now};
use engine::contract::Settlement;

/// An order just placed.
#[derive(Serialize, ToSchema)]
pub struct PlacedOrder {
    id: i64,
    order_no: String,
    /// 0: 待付款.
    status: i64,
    #[schema(value_type = String, example = "待付款")]
    status_name: &'static str,
    #[schema(value_type = String, example = "120.00")]
    total: engine::Cents,
    #[schema(value_type = String, example = "10.00")]
    discount: engine::Cents,
    #[schema(value_type = String, example = "110.00")]
    payable: engine::Cents,
    /// What the order settled: coupon, voucher, red packets, points, shipping fee and the
    /// amount due, with each line's shares.
    #[schema(value_type = Settlement)]
    settlement: engine::Settlement,
    /// What the member pays.
    #[schema(value_type = String, example = "98.00")]
    due: engine::Cents,
}

/// Makes the order and answers the success envelope, kept under the idempotency key in the
/// order's own transaction: an order never exists without its answer.
pub(super) async fn create_order(context: &ApiContext, member: Member, key: &str, token: &str, form: &OrderRequest) -> Result<Value> {
    let ids = &form.lines;
    let address_id = int("address_id", "收货地址", form.address_id.clone())?.ok_or_else(|| Error::field("address_id", "请选择收货地址"))?;
    let remark = checked(text::REMARK, form.remark.clone())?.unwrap_or_default();
    let order = &form.order;
    let expected = order.expectations()?;
    let created = now();
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    // A write first: SQLite then holds the write lock for the whole transaction, so that what
    // it reads below cannot change before it writes (PostgreSQL locks rows as it goes).
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
    may_order(&mut tx, member).await?;
    let address: Option<String> = sqlx::query_scalar(
        "SELECT contact || ' ' || phone || ' ' || province || city || district || detail FROM addresses WHERE id = $1 AND member_id = $2",
    )
    .bind(address_id)
    .bind(member.id)
    .fetch_optional(&mut *tx)
    .await?;
    let address = address.ok_or_else(|| Error::field("address_id", "收货地址不存在"))?;
    // A multi-store account's order goes to its current store, named first.
    let address = match crate::http::address::current_store(&mut tx, member).await? {
        Some(store) => format!("【{store}】{address}"),
        None => address,
    };
    let order = OrderForm { ids: ids.to_vec(), ..order.clone() };
    let Checked { quote, lines, .. } = check(&mut tx, context.db.kind, member, &order, expected, created).await?;
    let settled = quote.settlement.clone().ok_or_else(|| anyhow::anyhow!("an order's quote is always settled"))?;
    // A flash sale's limit holds across orders: what the member ordered in it before (the
    // member's row lock above keeps a concurrent order or add out) and this line.
    let mut sales: HashMap<i64, i64> = HashMap::new();
    for line in lines.iter().filter(|line| line.line_type == FLASH_SALE) {
        let (sale, limit): (i64, Option<i64>) = sqlx::query_as(
            "SELECT c.activity_id, f.limit_number FROM cart_items c LEFT JOIN flash_sales f ON f.id = c.activity_id \
             WHERE c.id = $1 AND c.member_id = $2",
        )
        .bind(line.id)
        .bind(member.id)
        .fetch_one(&mut *tx)
        .await?;
        if let Some(limit) = limit
            && ordered_in_sale(&mut tx, member, sale).await?.saturating_add(line.number) > limit
        {
            return Err(Error::field("ids", limit_message(limit, &line.goods.bzdw)));
        }
        sales.insert(line.id, sale);
    }
    let takes = stock_takes(&mut tx, &lines).await?;
    for (&(target, id), &(number, line)) in &takes {
        let taken = match target {
            Target::Combination => {
                sqlx::query("UPDATE combinations SET stock = stock - $1 WHERE id = $2 AND stock >= $1").bind(number).bind(id)
            }
            // `sold_at`: the search index reads again the sales of goods sold lately.
            Target::Goods => {
                sqlx::query("UPDATE goods SET stock = stock - $1, sales = sales + $1, sold_at = $3 WHERE id = $2 AND stock >= $1")
                    .bind(number)
                    .bind(id)
                    .bind(now())
            }
        }
        .execute(&mut *tx)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(refusal(Refusal::OverStock { id: line }));
        }
    }
    let totals = &quote.summary.totals;
    let stored = |cents: engine::Cents| -> Result<i64> { Ok(settlement::stored(cents)?) };
    let order_id: i64 = sqlx::query_scalar(
        "INSERT INTO orders (member_id, order_no, status, total, discount, payable, address, remark, created_at, \
         member_coupon_id, coupon_value, member_cash_voucher_id, cash_voucher_value, red_packet, points_used, points_value, \
         shipping_fee, due) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id",
    )
    .bind(member.id)
    // A placeholder until the id gives the order its number.
    .bind(format!("pending-{}", hex::encode(rand::random::<[u8; 16]>())))
    .bind(OrderStatus::Unpaid)
    .bind(stored(totals.total)?)
    .bind(stored(totals.discount)?)
    .bind(stored(totals.payable)?)
    .bind(&address)
    .bind(&remark)
    .bind(created)
    .bind(settled.coupon.map(|chosen| chosen.id))
    .bind(stored(settled.coupon.map_or(engine::Cents::ZERO, |chosen| chosen.value))?)
    .bind(settled.cash_voucher.map(|chosen| chosen.id))
    .bind(stored(settled.cash_voucher.map_or(engine::Cents::ZERO, |chosen| chosen.value))?)
    .bind(stored(settled.red_packet)?)
    .bind(settled.points_used)
    .bind(stored(settled.points_value)?)
    .bind(stored(settled.shipping_fee)?)
    .bind(stored(settled.due)?)
    .fetch_one(&mut *tx)
    .await?;
    crate::domain::cashback::remember(&mut tx, order_id, created).await?;
    sqlx::query(
        "INSERT INTO order_events (order_id, action, status_from, status_to, actor, note, created_at) \
         VALUES ($1, 'place', NULL, $2, 'member', '', $3)",
    )
    .bind(order_id)
    .bind(OrderStatus::Unpaid)
    .bind(created)
    .execute(&mut *tx)
    .await?;
    // The coupon and voucher become this order's, red packets and points are debited: each a
    // guarded update, so that of two orders spending one coupon only one can.
    if let Err(shortfall) = settlement::spend(&mut tx, member.id, order_id, &settled, created).await? {
        return Err(Error::field(shortfall.field(), shortfall.message()));
    }
    let order_no = format!("{}{:08}", chrono_day(created), order_id);
    sqlx::query("UPDATE orders SET order_no = $1 WHERE id = $2").bind(&order_no).bind(order_id).execute(&mut *tx).await?;
    // What the order took, so that cancelling it gives back exactly that.
    for (&(target, id), &(number, _)) in &takes {
        sqlx::query("INSERT INTO order_stock (order_id, goods_id, combination_id, number) VALUES ($1, $2, $3, $4)")
            .bind(order_id)
            .bind((target == Target::Goods).then_some(id))
            .bind((target == Target::Combination).then_some(id))
            .bind(number)
            .execute(&mut *tx)
            .await?;
    }
    for (line, priced) in lines.iter().zip(&quote.lines) {
        // Every chosen line is buyable (the check refused the order otherwise): each has its shares.
        let shares =
            settled.lines.iter().find(|shares| shares.id == line.id).ok_or_else(|| anyhow::anyhow!("line {} unsettled", line.id))?;
        // A set is recorded as the set: its name, its contents as the specification, no maker.
        let (name, ypgg, sccj, bzdw, activity) = match &line.combination {
            Some(combination) => (combination.name.as_str(), combination.contents.as_str(), "", combination.bzdw, combination.id),
            None => (
                line.goods.name.as_str(),
                line.goods.ypgg.as_str(),
                line.goods.sccj.as_str(),
                line.goods.bzdw.as_str(),
                sales.get(&line.id).copied().unwrap_or(0),
            ),
        };
        sqlx::query(
            "INSERT INTO order_items (order_id, goods_id, type, activity_id, name, ypgg, sccj, bzdw, number, price, amount, \
             goods_manjian_amount, coupon, cash_voucher, red_packet, points, paid) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
        )
        .bind(order_id)
        .bind(line.goods.id)
        .bind(line.line_type)
        .bind(activity)
        .bind(name)
        .bind(ypgg)
        .bind(sccj)
        .bind(bzdw)
        .bind(line.number)
        .bind(money::to_stored(priced.unit_price).ok_or_else(|| anyhow::anyhow!("unit price out of range"))?)
        .bind(stored(priced.amount)?)
        .bind(stored(priced.goods_manjian_amount)?)
        .bind(stored(shares.coupon)?)
        .bind(stored(shares.cash_voucher)?)
        .bind(stored(shares.red_packet)?)
        .bind(stored(shares.points)?)
        .bind(stored(shares.paid)?)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM cart_items WHERE id = $1 AND member_id = $2").bind(line.id).bind(member.id).execute(&mut *tx).await?;
    }
    let answer = serde_json::to_value(Envelope::success(PlacedOrder {
        id: order_id,
        order_no,
        status: OrderStatus::Unpaid.code(),
        status_name: OrderStatus::Unpaid.name(),
        total: totals.total,
        discount: totals.discount,
        payable: totals.payable,
        due: settled.due,
        settlement: settled,
    }))
    .map_err(anyhow::Error::from)?;
    idempotency::save(&mut tx, member.id, key, token, StatusCode::OK, &answer.to_string()).await?;
    tx.commit().await?;
    Ok(answer)
}

/// Where stock is taken from. Combinations sort before goods: with the ids, the one order
/// every transaction takes and gives back stock in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Combination,
    Goods,
}

/// What the chosen lines take from stock, per combination and goods (two lines may take from
/// one goods), with the first line taking each: a combination line takes the combination's own
/// stock and, for each set, every goods inside it (`combination_items.number` of each); any
/// other line takes its goods.
async fn stock_takes(conn: &mut AnyConnection, lines: &[CartLine]) -> Result<BTreeMap<(Target, i64), (i64, i64)>> {
    let mut takes: BTreeMap<(Target, i64), (i64, i64)> = BTreeMap::new();
    let mut take = |key: (Target, i64), number: i64, line: i64| {
        let entry = takes.entry(key).or_insert((0, line));
        entry.0 = entry.0.saturating_add(number);
    };
    for line in lines {
        match &line.combination {
            Some(combination) => {
                take((Target::Combination, combination.id), line.number, line.id);
                let parts: Vec<(i64, i64)> = sqlx::query_as("SELECT goods_id, number FROM combination_items WHERE combination_id = $1")
                    .bind(combination.id)
                    .fetch_all(&mut *conn)
                    .await?;
                for (goods, per_set) in parts {
                    take((Target::Goods, goods), line.number.saturating_mul(per_set), line.id);
                }
            }
            None => take((Target::Goods, line.goods.id), line.number, line.id),
        }
    }
    Ok(takes)
}

/// `20261122` for a Unix time (UTC), the date part of order numbers.
fn chrono_day(seconds: i64) -> String {
    let (year, month, day) = crate::civil_date(seconds, 0);
    format!("{year:04}{month:02}{day:02}")
}
