//! Origins that die mid-load. Real origin processes (the built binary) on one database take
//! orders and balance payments from twenty buyers at once, each request going to the origins in
//! turn, as the edge sends them (`edge/src/balance.rs`): on PostgreSQL three origins, one killed
//! with SIGKILL mid-load; on SQLite the one origin, killed and started again. A buyer whose
//! request got no answer sends it again (an order under the same `Idempotency-Key`) to the next
//! origin. Afterwards every order was answered, none is lost or doubled, each is paid once, and
//! stock, sales and balances add up exactly.

use std::collections::{BTreeSet, HashMap};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::{EDGE_SECRET, approved_buyer, edge_check, edge_proof, on_both, unique_name};
use reqwest::{Client, StatusCode};
use serde_json::Value;

const BUYERS: usize = 20;
const ORDERS_EACH: usize = 3;
const STOCK: i64 = 100_000;
const BALANCE: i64 = 100_000_000;

/// One origin process.
struct Process {
    address: String,
    child: Option<Child>,
    log: std::path::PathBuf,
}

impl Process {
    fn start(database_url: &str, address: &str, folder: &std::path::Path) -> Process {
        let log = folder.join(format!("origin-{}.log", address.replace([':', '.'], "-")));
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_origin"))
            .env("DATABASE_URL", database_url)
            .env("ORIGIN_ADDR", address)
            .env("EDGE_SECRET", EDGE_SECRET)
            .env("PAY_KEY", crate::common::random_key())
            .env("DATA_DIR", folder)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file))
            .spawn()
            .unwrap();
        Process { address: address.to_owned(), child: Some(child), log }
    }

    /// SIGKILL: no graceful shutdown, requests in flight cut off.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    async fn ready(&self) {
        let client = Client::new();
        for _ in 0..600 {
            if let Ok(response) = client.get(format!("http://{}/readyz", self.address)).send().await
                && response.status() == StatusCode::OK
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("origin {} did not get ready: {}", self.address, std::fs::read_to_string(&self.log).unwrap_or_default());
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_address() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

/// A request to `origin` as the edge sends it: with its proof (and the order's signed check).
async fn send(
    client: &Client,
    origin: &str,
    token: &str,
    path: &str,
    form: &[(&str, String)],
    key: Option<&str>,
) -> reqwest::Result<(StatusCode, Value)> {
    let mut request = client
        .post(format!("http://{origin}{path}"))
        .header("Cookie", format!("sid={token}"))
        .header(order_check::proof::HEADER, edge_proof("POST", path))
        .form(form);
    if let Some(key) = key {
        let fields: Vec<(&str, &str)> = form.iter().map(|(name, value)| (*name, value.as_str())).collect();
        request = request.header("Idempotency-Key", key).header(order_check::signature::HEADER, edge_check(key, &fields));
    }
    let response = request.send().await?;
    let status = response.status();
    Ok((status, response.json().await.unwrap_or(Value::Null)))
}

/// Sends until an origin answers something other than a fault or "still running": to the
/// origins in turn from `first`, resting a little after a round without an answer.
async fn until_answered(
    client: &Client,
    origins: &[String],
    first: usize,
    token: &str,
    path: &str,
    form: &[(&str, String)],
    key: Option<&str>,
) -> (StatusCode, Value, usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    let mut retries = 0;
    for attempt in 0.. {
        let origin = &origins[(first + attempt) % origins.len()];
        match send(client, origin, token, path, form, key).await {
            Ok((status, body)) if !status.is_server_error() && status != StatusCode::CONFLICT => return (status, body, retries),
            // A payment answered by an origin that died before telling: the order is paid.
            Ok((StatusCode::CONFLICT, body)) if body["msg"] == "当前订单状态为待发货，不能支付" => {
                return (StatusCode::CONFLICT, body, retries);
            }
            _ => retries += 1,
        }
        assert!(tokio::time::Instant::now() < deadline, "{path}: no answer within 90 s");
        if attempt % origins.len() == origins.len() - 1 {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    unreachable!()
}

#[tokio::test]
async fn orders_survive_an_origin_killed_mid_load() {
    on_both(|app| async move {
        let folder = std::env::temp_dir().join(unique_name());
        std::fs::create_dir_all(&folder).unwrap();
        let goods: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM goods WHERE is_buy = 1 AND is_kx = 0 AND type = 1 AND qg_number = 0 AND ladder_price_type = 0 ORDER BY id LIMIT 3",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(goods.len(), ORDERS_EACH);
        let ids = goods.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE goods SET stock = {STOCK} WHERE id IN ({ids})"))).execute(&app.db.pool).await.unwrap();
        let sales_before: HashMap<i64, i64> =
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT id, sales FROM goods WHERE id IN ({ids})"))).fetch_all(&app.db.pool).await.unwrap().into_iter().collect();

        // Buyers with money, a session, and one cart line per order to come (two of a goods each).
        let hash = origin::auth::hash_password("buyer123").unwrap();
        let mut buyers = Vec::new();
        for n in 0..BUYERS {
            let (member, address) = approved_buyer(&app, &hash, "kill", "139", n).await;
            sqlx::query("UPDATE members SET balance = $1 WHERE id = $2").bind(BALANCE).bind(member).execute(&app.db.pool).await.unwrap();
            let mut lines = Vec::new();
            for goods in &goods {
                let line: i64 = sqlx::query_scalar(
                    "INSERT INTO cart_items (member_id, goods_id, number, price, created_at) SELECT $1, id, 2, price, 0 FROM goods WHERE id = $2 RETURNING id",
                )
                .bind(member)
                .bind(goods)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
                lines.push(line);
            }
            let token = origin::auth::open_session(&app.db, member).await.unwrap();
            buyers.push((member, address, token, lines));
        }

        // The origins: three on PostgreSQL, the one on SQLite.
        let count = if app.database == "postgres" { 3 } else { 1 };
        let mut processes: Vec<Process> = (0..count).map(|_| Process::start(&app.database_url, &free_address(), &folder)).collect();
        for process in &processes {
            process.ready().await;
        }
        let origins: Arc<Vec<String>> = Arc::new(processes.iter().map(|process| process.address.clone()).collect());

        let done = Arc::new(AtomicUsize::new(0));
        let client = Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        let tasks: Vec<_> = buyers
            .iter()
            .enumerate()
            .map(|(n, (_, address, token, lines))| {
                let (client, origins, done, token, lines, address) =
                    (client.clone(), origins.clone(), done.clone(), token.clone(), lines.clone(), *address);
                tokio::spawn(async move {
                    let mut placed = Vec::new();
                    let mut retries = 0;
                    for (k, line) in lines.iter().enumerate() {
                        let key = format!("kill-{n}-{k}");
                        let form = [("ids", line.to_string()), ("address_id", address.to_string())];
                        let (status, body, again) = until_answered(&client, &origins, n + k, &token, "/api/order", &form, Some(&key)).await;
                        assert_eq!(status, StatusCode::OK, "{key}: {body}");
                        let order = body["data"]["id"].as_i64().unwrap();
                        let path = format!("/api/order/{order}/pay");
                        let (status, paid, again_paid) =
                            until_answered(&client, &origins, n + k + 1, &token, &path, &[("method", "balance".into())], None).await;
                        assert!(status == StatusCode::OK || status == StatusCode::CONFLICT, "{path}: {paid}");
                        placed.push(order);
                        retries += again + again_paid;
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                    (placed, retries)
                })
            })
            .collect();

        // A third of the way through, an origin dies; on SQLite it is started again.
        while done.load(Ordering::SeqCst) < BUYERS * ORDERS_EACH / 3 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let victim = if count > 1 { 1 } else { 0 };
        processes[victim].kill();
        if count == 1 {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let address = processes[0].address.clone();
            processes[0] = Process::start(&app.database_url, &address, &folder);
            processes[0].ready().await;
        }
        let mut answered = BTreeSet::new();
        let mut retries = 0;
        for task in tasks {
            let (placed, again) = task.await.unwrap();
            retries += again;
            answered.extend(placed);
        }
        assert!(retries > 0, "{}: some request met the dead origin", app.database);
        eprintln!("{}: {} orders and payments over {count} origin(s), {retries} requests sent again", app.database, BUYERS * ORDERS_EACH);

        // Every order answered, once: none lost, none doubled.
        assert_eq!(answered.len(), BUYERS * ORDERS_EACH);
        let members = buyers.iter().map(|(member, ..)| member.to_string()).collect::<Vec<_>>().join(", ");
        let stored: BTreeSet<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT id FROM orders WHERE member_id IN ({members})")))
            .fetch_all(&app.db.pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(stored, answered, "{}: the orders stored are the orders answered", app.database);
        // Each paid, once.
        let unpaid: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT COUNT(*) FROM orders WHERE member_id IN ({members}) AND status <> {}",
            origin::domain::orders::life::OrderStatus::Paid.code()
        )))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(unpaid, 0);
        let payments: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT o.id, CAST(COUNT(l.id) AS BIGINT) FROM orders o LEFT JOIN balance_logs l ON l.order_id = o.id \
             WHERE o.member_id IN ({members}) GROUP BY o.id"
        )))
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert!(payments.iter().all(|(_, logs)| *logs == 1), "one payment per order: {payments:?}");
        // Balances: what each buyer had, less what their orders cost.
        for (member, ..) in &buyers {
            let (balance, due): (i64, i64) = sqlx::query_as(
                "SELECT m.balance, CAST(COALESCE((SELECT SUM(o.due) FROM orders o WHERE o.member_id = m.id), 0) AS BIGINT) \
                 FROM members m WHERE m.id = $1",
            )
            .bind(member)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
            assert_eq!(balance, BALANCE - due, "member {member}");
        }
        // Stock and sales: moved by exactly what the orders hold.
        for goods in &goods {
            let (stock, sales, ordered): (i64, i64, i64) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT g.stock, g.sales, CAST(COALESCE((SELECT SUM(i.number) FROM order_items i JOIN orders o ON o.id = i.order_id \
                 WHERE i.goods_id = g.id AND o.member_id IN ({members})), 0) AS BIGINT) FROM goods g WHERE g.id = $1"
            )))
            .bind(goods)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
            assert_eq!(ordered, 2 * BUYERS as i64, "goods {goods}: two for each buyer");
            assert_eq!(stock, STOCK - ordered, "goods {goods}");
            assert_eq!(sales, sales_before[goods] + ordered, "goods {goods}");
        }
        drop(processes);
        let _ = std::fs::remove_dir_all(&folder);
    })
    .await;
}
