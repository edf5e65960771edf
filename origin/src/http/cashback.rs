//! 满额返现 (`/hb`): the running cash-back activity with its tiers, and for a member the orders
//! that earned cash back. The crediting itself is `crate::domain::cashback`, when an order completes.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, ok};
use super::extract::MaybeMember;
use crate::domain::cashback;
use crate::{money, now};

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(activity))
}

/// A tier: orders whose goods reach `amount` get `back` when they complete.
#[derive(Serialize, ToSchema)]
pub struct CashbackTier {
    #[schema(example = "1000.00")]
    amount: String,
    #[schema(example = "20.00")]
    back: String,
}

/// The running activity.
#[derive(Serialize, ToSchema)]
pub struct CashbackActivity {
    id: i64,
    title: String,
    starts_at: i64,
    ends_at: i64,
    /// Smallest amount first.
    tiers: Vec<CashbackTier>,
}

/// An order of the member's that holds cash back.
#[derive(Serialize, ToSchema)]
pub struct CashbackOrder {
    id: i64,
    order_no: String,
    /// What the order holds now (less what returns took back).
    #[schema(example = "20.00")]
    cashback: String,
    /// When it was credited, Unix seconds.
    cashback_at: i64,
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: i64,
    order_no: String,
    cashback: i64,
    cashback_at: i64,
}

/// The page's data.
#[derive(Serialize, ToSchema)]
pub struct CashbackPage {
    /// The activity running now, or `null`.
    #[schema(required = true)]
    activity: Option<CashbackActivity>,
    /// The member's orders that earned cash back, newest first (empty for a visitor).
    orders: Vec<CashbackOrder>,
}

/// `GET /api/activity/cashback`: 满额返现 — the running activity and its tiers (an order placed
/// while it runs gets the back of the highest tier its goods reach when it completes), and the
/// member's orders that earned cash back.
#[utoipa::path(get, path = "/api/activity/cashback", operation_id = "cashback", tag = "首页", responses((status = 200, description = "满额返现", body = Envelope<CashbackPage>)))]
async fn activity(State(context): State<ApiContext>, MaybeMember(member): MaybeMember) -> Answer<CashbackPage> {
    let mut conn = context.db.pool.acquire().await?;
    let activity = match cashback::running(&mut conn, now()).await? {
        Some((id, title, starts_at, ends_at)) => {
            let tiers = cashback::tiers(&mut conn, id)
                .await?
                .into_iter()
                .map(|(amount, back)| CashbackTier { amount: money::text(amount), back: money::text(back) })
                .collect();
            Some(CashbackActivity { id, title, starts_at, ends_at, tiers })
        }
        None => None,
    };
    let orders: Vec<OrderRow> = match member {
        Some(member) => {
            sqlx::query_as(
                "SELECT id, order_no, cashback, cashback_at FROM orders WHERE member_id = $1 AND cashback_at > 0 \
                 ORDER BY cashback_at DESC, id DESC LIMIT 20",
            )
            .bind(member.id)
            .fetch_all(&mut *conn)
            .await?
        }
        None => Vec::new(),
    };
    let orders = orders
        .into_iter()
        .map(|row| CashbackOrder { id: row.id, order_no: row.order_no, cashback: money::text(row.cashback), cashback_at: row.cashback_at })
        .collect();
    ok(CashbackPage { activity, orders })
}
