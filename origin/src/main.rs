//! `origin` serves the shop's API; `origin seed` reloads the demo data.

use origin::config::Config;
use origin::db::{Db, seed};
use origin::startup::Application;
use origin::telemetry;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    telemetry::init();
    let config = Config::from_env()?;
    match std::env::args().nth(1).as_deref() {
        None | Some("serve") => {
            let app = Application::build(&config).await?;
            tracing::info!(address = %app.address(), database = %config.database_url, "origin listening");
            app.run().await
        }
        Some("seed") => {
            let db = Db::connect(&config.database_url).await?;
            db.migrate().await?;
            seed::seed(&db).await?;
            Ok(())
        }
        Some(other) => anyhow::bail!("unknown command {other}: use `serve` (default) or `seed`"),
    }
}
