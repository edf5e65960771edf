//! `paygate`: the offline payment provider as its own process (`paygate::Gateway`).
//! `PAYGATE_ADDR` (default `127.0.0.1:3100`), `PAYGATE_KEY` (the merchant key, required: at least
//! `paygate::MIN_KEY_BYTES`, never the published `paygate::DEVELOPMENT_KEY` unless
//! `PAY_DEVELOPMENT_KEY=1`, which also makes it the default), `PAYGATE_PUBLIC_URL` (where buyers
//! reach its pages, default `http://<PAYGATE_ADDR>`).

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "paygate=info".into()))
        .init();
    let addr = std::env::var("PAYGATE_ADDR").unwrap_or_else(|_| "127.0.0.1:3100".into());
    let key = paygate::merchant_key("PAYGATE_KEY", std::env::var("PAYGATE_KEY").ok().as_deref(), paygate::development_switch())
        .map_err(anyhow::Error::msg)?;
    if key == paygate::DEVELOPMENT_KEY {
        tracing::warn!("PAY_DEVELOPMENT_KEY=1: signing with the published development key; anyone can forge payments");
    }
    let public_url =
        std::env::var("PAYGATE_PUBLIC_URL").ok().filter(|url| !url.trim().is_empty()).unwrap_or_else(|| format!("http://{addr}"));
    let listener = tokio::net::TcpListener::bind(&addr).await.with_context(|| format!("PAYGATE_ADDR {addr}"))?;
    tracing::info!(address = %listener.local_addr()?, "paygate listening");
    axum::serve(listener, paygate::Gateway::new(&key, &public_url).router())
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
