//! `origin` serves the shop's API; `origin seed` reloads the demo data; `origin admin …` runs
//! an operator's command (`origin admin --help`); `origin openapi` prints the API's OpenAPI
//! document (JSON) to standard output, without a database.

use origin::config::Config;
use origin::db::Db;
use origin::seed;
use origin::startup::Application;
use origin::telemetry;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let command = std::env::args().nth(1);
    if command.as_deref() == Some("openapi") {
        // Before the logs are set up: standard output holds the document and nothing else.
        let document = origin::http::openapi_document().to_pretty_json()?;
        println!("{document}");
        return Ok(());
    }
    telemetry::init();
    let config = Config::from_env()?;
    match command.as_deref() {
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
        Some("admin") => {
            let admin = match origin::admin::Admin::from_args(std::env::args().skip(2)) {
                Ok(admin) => admin,
                Err(error) => error.exit(),
            };
            if let Some(from) = admin.restore_from() {
                print!("{}", origin::backup::restore(&config.database_url, from).await?);
                return Ok(());
            }
            let db = Db::connect(&config.database_url).await?;
            db.migrate().await?;
            match origin::admin::run(&db, admin).await {
                Ok(out) => {
                    print!("{out}");
                    Ok(())
                }
                // A refusal or a wrong argument is the operator's to read: its message, no trace.
                Err(error) => {
                    eprintln!("error: {}", origin::admin::message(&error));
                    std::process::exit(1)
                }
            }
        }
        Some(other) => anyhow::bail!("unknown command {other}: use `serve` (default), `seed`, `admin` or `openapi`"),
    }
}
