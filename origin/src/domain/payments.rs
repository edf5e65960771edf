//! Online payment: the provider the shop asks to take a payment, and what the shop does when a
//! payment is confirmed — once, whatever confirms it first (the provider's notify or the shop's
//! own status query).
//!
//! A provider is three calls ([`Provider`]): create a payment (amount, subject, where to notify
//! and where to send the buyer back; answers the page the buyer pays on), query its status, and
//! verify a notify's signature. [`Gateway`] speaks the protocol of `paygate`, the offline
//! provider (HMAC-SHA256-signed forms, as WeChat Pay v2 and Alipay's key mode do). A real
//! provider plugs in as another implementation of the trait (its SDK's calls and signature
//! check), chosen by configuration; nothing else changes (`docs/payment.md`).

use std::future::Future;
use std::pin::Pin;

use anyhow::Context;
use sqlx::{AnyConnection, Connection};

use crate::db::Db;
use crate::domain::messages;
use crate::domain::orders::life::Actor;
use crate::domain::settlement;
use crate::money;

/// `PAY_PROVIDER_URL` (default `http://127.0.0.1:3100`, the offline provider `paygate`),
/// `PAY_KEY` (the merchant key it shares with the shop: required to serve, see [`check`]),
/// `SHOP_PUBLIC_URL` (where the provider reaches the shop's notify and sends buyers back;
/// default the edge, `http://127.0.0.1:8787`).
///
/// [`check`]: PaymentConfig::check
#[derive(Clone, Debug)]
pub struct PaymentConfig {
    pub provider_url: String,
    pub key: String,
    pub shop_url: String,
    /// `PAY_DEVELOPMENT_KEY=1`: the published `paygate::DEVELOPMENT_KEY` is accepted, and is the
    /// key when `PAY_KEY` is not set (development only).
    pub development_key: bool,
}

impl PaymentConfig {
    pub fn from_env() -> PaymentConfig {
        let var = |name: &str, default: &str| {
            std::env::var(name)
                .ok()
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
                .unwrap_or_else(|| default.to_owned())
        };
        let development_key = paygate::development_switch();
        PaymentConfig {
            provider_url: var("PAY_PROVIDER_URL", "http://127.0.0.1:3100"),
            key: var("PAY_KEY", if development_key { paygate::DEVELOPMENT_KEY } else { "" }),
            shop_url: var("SHOP_PUBLIC_URL", "http://127.0.0.1:8787"),
            development_key,
        }
    }

    /// Refuses to serve without a merchant key of the shop's own: none, a short one, or the
    /// published development key (whoever read the source could sign a notify with it and be
    /// credited), unless the development switch is on.
    pub fn check(&self) -> anyhow::Result<()> {
        paygate::merchant_key("PAY_KEY", Some(&self.key), self.development_key).map_err(anyhow::Error::msg)?;
        Ok(())
    }
}

/// What the shop asks a provider to take.
#[derive(Clone, Debug)]
pub struct NewPayment<'a> {
    pub payment_no: &'a str,
    /// Yuan with two decimals.
    pub amount: &'a str,
    /// What the buyer pays for, beginning with the shop's name (`医药批发商城 订单 …`).
    pub subject: &'a str,
    /// The payee the cashier names: the shop's seller entity (`crate::domain::shop`).
    pub merchant: &'a str,
    pub notify_url: &'a str,
    pub return_url: &'a str,
}

/// A payment's state at the provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderStatus {
    pub paid: bool,
    pub amount: String,
    pub trade_no: String,
}

type Call<'a, T> = Pin<Box<dyn Future<Output = anyhow::Result<T>> + Send + 'a>>;

/// A payment provider.
pub trait Provider: Send + Sync {
    /// Creates the payment; answers the page the buyer pays on.
    fn create<'a>(&'a self, payment: NewPayment<'a>) -> Call<'a, String>;
    /// The payment's state.
    fn query<'a>(&'a self, payment_no: &'a str) -> Call<'a, ProviderStatus>;
    /// Whether a notify's fields carry the provider's valid signature.
    fn verify(&self, fields: &[(String, String)]) -> bool;
}

/// A provider speaking `paygate`'s protocol.
pub struct Gateway {
    config: PaymentConfig,
    client: reqwest::Client,
}

impl Gateway {
    pub fn new(config: PaymentConfig, client: reqwest::Client) -> Gateway {
        Gateway { config, client }
    }

    fn signed(&self, fields: Vec<(&str, &str)>) -> Vec<(String, String)> {
        paygate::signature::signed(
            self.config.key.as_bytes(),
            fields.into_iter().map(|(name, value)| (name.to_owned(), value.to_owned())).collect(),
        )
    }

    /// A signed JSON answer as its fields, refused when its signature is not the provider's.
    fn checked(&self, answer: serde_json::Map<String, serde_json::Value>) -> anyhow::Result<Vec<(String, String)>> {
        let fields: Vec<(String, String)> =
            answer.into_iter().map(|(name, value)| (name, value.as_str().unwrap_or_default().to_owned())).collect();
        anyhow::ensure!(self.verify(&fields), "the provider's answer is not signed with the merchant key");
        Ok(fields)
    }
}

fn field(fields: &[(String, String)], name: &str) -> String {
    fields.iter().find(|(field, _)| field == name).map(|(_, value)| value.clone()).unwrap_or_default()
}

impl Provider for Gateway {
    fn create<'a>(&'a self, payment: NewPayment<'a>) -> Call<'a, String> {
        Box::pin(async move {
            let form = self.signed(vec![
                ("out_trade_no", payment.payment_no),
                ("amount", payment.amount),
                ("subject", payment.subject),
                ("merchant", payment.merchant),
                ("notify_url", payment.notify_url),
                ("return_url", payment.return_url),
            ]);
            let answer: serde_json::Map<String, serde_json::Value> = self
                .client
                .post(format!("{}/v1/payments", self.config.provider_url))
                .form(&form)
                .send()
                .await
                .context("the provider's create call")?
                .error_for_status()
                .context("the provider's create call")?
                .json()
                .await
                .context("the provider's create answer")?;
            let fields = self.checked(answer)?;
            anyhow::ensure!(field(&fields, "amount") == payment.amount, "the provider took another amount");
            Ok(field(&fields, "pay_url"))
        })
    }

    fn query<'a>(&'a self, payment_no: &'a str) -> Call<'a, ProviderStatus> {
        Box::pin(async move {
            let sign = paygate::signature::sign(self.config.key.as_bytes(), [("out_trade_no", payment_no)]);
            let answer: serde_json::Map<String, serde_json::Value> = self
                .client
                .get(format!("{}/v1/payments/{payment_no}", self.config.provider_url))
                .query(&[("sign", sign)])
                .send()
                .await
                .context("the provider's query call")?
                .error_for_status()
                .context("the provider's query call")?
                .json()
                .await
                .context("the provider's query answer")?;
            let fields = self.checked(answer)?;
            anyhow::ensure!(field(&fields, "out_trade_no") == payment_no, "the provider answered for another payment");
            Ok(ProviderStatus {
                paid: field(&fields, "trade_status") == "TRADE_SUCCESS",
                amount: field(&fields, "amount"),
                trade_no: field(&fields, "trade_no"),
            })
        })
    }

    fn verify(&self, fields: &[(String, String)]) -> bool {
        paygate::signature::verify(self.config.key.as_bytes(), fields.iter().map(|(name, value)| (name.as_str(), value.as_str())))
    }
}

crate::domain::stored::stored_enum! {
    /// A payment's state, as stored in `payments.status`.
    pub enum PaymentStatus {
        Pending = 0 => "待支付",
        Paid = 1 => "已支付",
        Closed = 2 => "已关闭",
        /// Paid after its order could no longer be paid (cancelled): the amount went to the
        /// balance.
        Refunded = 3 => "已退回余额",
    }
}

/// What confirming a payment did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirmed {
    /// Credited now (a recharge) or the order paid now.
    Now,
    /// Confirmed before: nothing done again.
    Already,
    /// Its order could not be paid any more: the amount went to the balance.
    Refunded,
}

/// Why a confirmation was refused; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("no such payment")]
    Unknown,
    #[error("the amount {given} is not the payment's {expected}")]
    WrongAmount { given: String, expected: String },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

#[derive(sqlx::FromRow)]
struct PaymentRow {
    id: i64,
    member_id: i64,
    kind: String,
    order_id: Option<i64>,
    amount: i64,
    bonus: i64,
}

/// Confirms the payment `payment_no` for `amount` (yuan text, as the provider says it), paid
/// at the provider as `trade_no`, in one transaction: a recharge credits its amount and bonus
/// to the balance; an order becomes paid, or — when it was cancelled or paid otherwise
/// meanwhile — the amount goes to the balance. Only the first confirmation does anything: the
/// payment leaves `Pending` by one guarded update, which the others find done.
pub async fn confirm(db: &Db, payment_no: &str, amount: &str, trade_no: &str, now: i64) -> Result<Confirmed, Refused> {
    let mut conn = db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    // The write first: SQLite's write lock for the whole transaction, PostgreSQL's row lock.
    let claimed: Option<PaymentRow> = sqlx::query_as(
        "UPDATE payments SET status = $1, paid_at = $2, trade_no = $3 WHERE payment_no = $4 AND status = $5 \
         RETURNING id, member_id, kind, order_id, amount, bonus",
    )
    .bind(PaymentStatus::Paid)
    .bind(now)
    .bind(trade_no)
    .bind(payment_no)
    .bind(PaymentStatus::Pending)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(payment) = claimed else {
        let known: Option<i64> =
            sqlx::query_scalar("SELECT amount FROM payments WHERE payment_no = $1").bind(payment_no).fetch_optional(&mut *tx).await?;
        return match known {
            None => Err(Refused::Unknown),
            Some(expected) if money::parse_stored(amount) != Some(expected) => {
                Err(Refused::WrongAmount { given: amount.to_owned(), expected: money::text(expected) })
            }
            Some(_) => Ok(Confirmed::Already),
        };
    };
    if money::parse_stored(amount) != Some(payment.amount) {
        // Rolled back: the payment stays pending.
        return Err(Refused::WrongAmount { given: amount.to_owned(), expected: money::text(payment.amount) });
    }
    let outcome = match (payment.kind.as_str(), payment.order_id) {
        ("order", Some(order)) => {
            // The payment was created for the order's amount due, which never changes.
            if crate::domain::orders::mark_paid(&mut tx, payment.member_id, order, now, "online", Actor::System).await?.is_some() {
                let text = format!("订单已在线支付¥{}，我们会尽快发货。", money::text(payment.amount));
                messages::send(&mut tx, payment.member_id, messages::MessageKind::Order, "订单支付成功", &text).await?;
                Confirmed::Now
            } else {
                // Paid for an order that could no longer take it (cancelled meanwhile, or paid
                // otherwise): nothing is kept, the whole amount is the member's balance.
                let note = "订单已取消，在线支付退回余额";
                settlement::credit_balance(&mut tx, payment.member_id, Some(order), payment.amount, note, now).await?;
                sqlx::query("UPDATE payments SET status = $1 WHERE id = $2")
                    .bind(PaymentStatus::Refunded)
                    .bind(payment.id)
                    .execute(&mut *tx)
                    .await?;
                let text = format!("订单已取消，在线支付的¥{}已退回您的账户余额。", money::text(payment.amount));
                messages::send(&mut tx, payment.member_id, messages::MessageKind::Wallet, "支付款已退回余额", &text).await?;
                Confirmed::Refunded
            }
        }
        _ => {
            settlement::credit_balance(&mut tx, payment.member_id, None, payment.amount, "在线充值", now).await?;
            if payment.bonus > 0 {
                settlement::credit_balance(&mut tx, payment.member_id, None, payment.bonus, "充值赠送", now).await?;
            }
            let text = format!("在线充值到账¥{}。", money::text(payment.amount + payment.bonus));
            messages::send(&mut tx, payment.member_id, messages::MessageKind::Wallet, "充值成功", &text).await?;
            Confirmed::Now
        }
    };
    tx.commit().await?;
    Ok(outcome)
}

/// Creates a payment's row for `member` (`kind` `recharge` or `order`), asks the provider for
/// it — `subject` after the shop's name, the shop's seller entity as the payee, both read from
/// `settings` now — and keeps the page it answered; answers `(payment_no, pay_url)`.
#[allow(clippy::too_many_arguments)]
pub async fn start(
    conn: &mut AnyConnection,
    provider: &dyn Provider,
    config: &PaymentConfig,
    member: i64,
    kind: &str,
    order: Option<i64>,
    amount: i64,
    bonus: i64,
    subject: &str,
    now: i64,
) -> anyhow::Result<(String, String)> {
    let payment_no = format!("P{now}{}", hex::encode(rand::random::<[u8; 5]>()));
    sqlx::query(
        "INSERT INTO payments (payment_no, member_id, kind, order_id, amount, bonus, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(&payment_no)
    .bind(member)
    .bind(kind)
    .bind(order)
    .bind(amount)
    .bind(bonus)
    .bind(PaymentStatus::Pending)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    let shop = config.shop_url.trim_end_matches('/');
    let return_url = match order {
        Some(order) => format!("{shop}/cart/step3/{order}?payment={payment_no}"),
        None => format!("{shop}/wdqb/yegl?payment={payment_no}"),
    };
    let identity = crate::domain::shop::read(&mut *conn).await?;
    let pay_url = provider
        .create(NewPayment {
            payment_no: &payment_no,
            amount: &money::text(amount),
            subject: &format!("{} {subject}", identity.name),
            merchant: &identity.company,
            notify_url: &format!("{shop}/api/payment/notify"),
            return_url: &return_url,
        })
        .await?;
    sqlx::query("UPDATE payments SET pay_url = $1 WHERE payment_no = $2").bind(&pay_url).bind(&payment_no).execute(&mut *conn).await?;
    Ok((payment_no, pay_url))
}
