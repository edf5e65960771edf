//! Placing an order, in the caller's transaction: the cart read again and checked by the
//! engine, the flash sales' limits, the stock taken with guarded updates, the order, its lines
//! and their shares recorded, the settlement spent, and the lines taken out of the cart — all
//! or nothing (`docs/architecture.md`, "An order, end to end").

use std::collections::{BTreeMap, HashMap};

use engine::checkout::{Expected, Refusal};
use order_check::form::OrderForm;
use sqlx::AnyConnection;

use super::checkout::{Checked, check, may_order, refusal};
use super::life::OrderStatus;
use super::ordered_in_sale;
use crate::db::Kind;
use crate::domain::cart::{CartLine, FLASH_SALE};
use crate::domain::promotions::limit_message;
use crate::domain::{Error, Result, members, settlement};
use crate::money;

/// What the member orders: the chosen lines and settlement choices (`order.ids`,
/// `order.choices`), the amounts they were shown, where it goes and their remark.
pub struct NewOrder<'a> {
    pub order: &'a OrderForm,
    pub expected: Expected,
    pub address_id: i64,
    pub remark: &'a str,
}

/// An order just placed: its id and number, its totals and what it settled.
pub struct Placed {
    pub id: i64,
    pub order_no: String,
    pub total: engine::Cents,
    pub discount: engine::Cents,
    pub payable: engine::Cents,
    pub settlement: engine::Settlement,
}

/// Places the member's order at `created`, in the caller's transaction (which the caller
/// commits, with whatever else must hold with the order, or drops).
pub async fn place(tx: &mut AnyConnection, kind: Kind, member: i64, new: NewOrder<'_>, created: i64) -> Result<Placed> {
    // A write first: SQLite then holds the write lock for the whole transaction, so that what
    // it reads below cannot change before it writes (PostgreSQL locks rows as it goes).
    sqlx::query("UPDATE members SET points = points WHERE id = $1").bind(member).execute(&mut *tx).await?;
    may_order(tx, member).await?;
    let address = shipping_address(tx, member, new.address_id).await?;
    let Checked { quote, lines, .. } = check(tx, kind, member, new.order, new.expected, created).await?;
    let settled = quote.settlement.clone().ok_or_else(|| anyhow::anyhow!("an order's quote is always settled"))?;
    let sales = flash_sales(tx, member, &lines).await?;
    let takes = stock_takes(tx, &lines).await?;
    let goods_taken: Vec<(i64, i64)> =
        takes.iter().filter(|((target, _), _)| *target == Target::Goods).map(|(&(_, goods), &(units, _))| (goods, units)).collect();
    super::control::check_order(tx, member, &goods_taken, created).await?;
    take_stock(tx, &takes, created).await?;
    let totals = &quote.summary.totals;
    let stored = settlement::stored;
    let order_id: i64 = sqlx::query_scalar(
        "INSERT INTO orders (member_id, order_no, status, total, discount, payable, address, remark, created_at, \
         member_coupon_id, coupon_value, member_cash_voucher_id, cash_voucher_value, red_packet, points_used, points_value, \
         shipping_fee, due) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING id",
    )
    .bind(member)
    // A placeholder until the id gives the order its number.
    .bind(format!("pending-{}", hex::encode(rand::random::<[u8; 16]>())))
    .bind(OrderStatus::Unpaid)
    .bind(stored(totals.total)?)
    .bind(stored(totals.discount)?)
    .bind(stored(totals.payable)?)
    .bind(&address)
    .bind(new.remark)
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
    crate::domain::cashback::remember(tx, order_id, created).await?;
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
    if let Err(shortfall) = settlement::spend(tx, member, order_id, &settled, created).await? {
        return Err(Error::field(shortfall.field(), shortfall.message()));
    }
    let order_no = order_number(created, order_id);
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
        sqlx::query("DELETE FROM cart_items WHERE id = $1 AND member_id = $2").bind(line.id).bind(member).execute(&mut *tx).await?;
    }
    Ok(Placed { id: order_id, order_no, total: totals.total, discount: totals.discount, payable: totals.payable, settlement: settled })
}

/// The member's address `id` as the order keeps it; a multi-store account's order goes to its
/// current store, named first.
async fn shipping_address(conn: &mut AnyConnection, member: i64, id: i64) -> Result<String> {
    let address: Option<String> = sqlx::query_scalar(
        "SELECT contact || ' ' || phone || ' ' || province || city || district || detail FROM addresses WHERE id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member)
    .fetch_optional(&mut *conn)
    .await?;
    let address = address.ok_or_else(|| Error::field("address_id", "收货地址不存在"))?;
    Ok(match members::current_store(conn, member).await? {
        Some(store) => format!("【{store}】{address}"),
        None => address,
    })
}

/// The flash sale of each flash-sale line, once its limit is checked. A flash sale's limit
/// holds across orders: what the member ordered in it before (the member's row lock taken
/// first keeps a concurrent order or add out) and this line.
async fn flash_sales(conn: &mut AnyConnection, member: i64, lines: &[CartLine]) -> Result<HashMap<i64, i64>> {
    let mut sales: HashMap<i64, i64> = HashMap::new();
    for line in lines.iter().filter(|line| line.line_type == FLASH_SALE) {
        let (sale, limit): (i64, Option<i64>) = sqlx::query_as(
            "SELECT c.activity_id, f.limit_number FROM cart_items c LEFT JOIN flash_sales f ON f.id = c.activity_id \
             WHERE c.id = $1 AND c.member_id = $2",
        )
        .bind(line.id)
        .bind(member)
        .fetch_one(&mut *conn)
        .await?;
        if let Some(limit) = limit
            && ordered_in_sale(conn, member, sale).await?.saturating_add(line.number) > limit
        {
            return Err(Error::field("ids", limit_message(limit, &line.goods.bzdw)));
        }
        sales.insert(line.id, sale);
    }
    Ok(sales)
}

/// Where stock is taken from. Combinations sort before goods: with the ids, the one order
/// every transaction takes and gives back stock in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Combination,
    Goods,
}

/// What the chosen lines take from stock: per combination and goods, how many and the first
/// line that takes it.
type Takes = BTreeMap<(Target, i64), (i64, i64)>;

/// What the chosen lines take from stock, per combination and goods (two lines may take from
/// one goods), with the first line taking each: a combination line takes the combination's own
/// stock and, for each set, every goods inside it (`combination_items.number` of each); any
/// other line takes its goods.
async fn stock_takes(conn: &mut AnyConnection, lines: &[CartLine]) -> Result<Takes> {
    let mut takes = Takes::new();
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

/// Takes the stock, each with a guarded update (`stock >= n`), so that it never goes below
/// zero however many orders race; a shortfall refuses the order on the first line taking it.
async fn take_stock(conn: &mut AnyConnection, takes: &Takes, now: i64) -> Result<()> {
    for (&(target, id), &(number, line)) in takes {
        let taken = match target {
            Target::Combination => {
                sqlx::query("UPDATE combinations SET stock = stock - $1 WHERE id = $2 AND stock >= $1").bind(number).bind(id)
            }
            // `sold_at`: the search index reads again the sales of goods sold lately.
            Target::Goods => {
                sqlx::query("UPDATE goods SET stock = stock - $1, sales = sales + $1, sold_at = $3 WHERE id = $2 AND stock >= $1")
                    .bind(number)
                    .bind(id)
                    .bind(now)
            }
        }
        .execute(&mut *conn)
        .await?;
        if taken.rows_affected() != 1 {
            return Err(refusal(Refusal::OverStock { id: line }));
        }
    }
    Ok(())
}

/// An order's number: its day (UTC) and its id, `2026112200000042`.
fn order_number(created: i64, id: i64) -> String {
    let (year, month, day) = crate::civil_date(created, 0);
    format!("{year:04}{month:02}{day:02}{id:08}")
}
