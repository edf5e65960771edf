//! Lots on the operator's side (`origin admin lot …`): receive a lot into stock with its dates
//! and inspection report, list a goods' lots, keep a report. The rules are the domain's
//! (`crate::domain::catalogue::lots`).

use sqlx::AnyConnection;

use super::shown::shown;
use super::{LotCommand, begin_write};
use crate::domain::catalogue::lots::{self, NewLot};
use crate::now;

pub(super) async fn run(conn: &mut AnyConnection, operator: &str, command: LotCommand) -> anyhow::Result<String> {
    match command {
        LotCommand::Add { goods, lot, produced, expires, quantity, report } => {
            let body = report.as_ref().map(std::fs::read).transpose()?;
            let mut tx = begin_write(conn).await?;
            let new = NewLot { goods, lot_no: &lot, produced_on: &produced, expires_on: &expires, quantity };
            let id = lots::add(&mut tx, &new, now()).await?;
            if let Some(body) = &body {
                lots::set_report(&mut tx, id, body, now()).await?;
            }
            log(&mut tx, operator, "lot.add", &format!("goods {goods}: lot {id} {lot}, {produced} – {expires}, {quantity}")).await?;
            tx.commit().await?;
            let report = if body.is_some() { ", with its inspection report" } else { "" };
            Ok(format!("lot {id} ({lot}) of goods {goods} received: {quantity} units, expires {expires}{report}\n"))
        }
        LotCommand::List { goods } => {
            let mut out = String::from("id\tlot\tproduced\texpires\treceived\tin stock\treport\n");
            for lot in lots::of_goods(conn, goods).await? {
                out.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                    lot.id,
                    shown(&lot.lot_no),
                    lot.produced_on,
                    lot.expires_on,
                    lot.received,
                    lot.quantity,
                    if lot.has_report { "yes" } else { "no" }
                ));
            }
            Ok(out)
        }
        LotCommand::Report { lot, file } => {
            let body = std::fs::read(&file)?;
            let mut tx = begin_write(conn).await?;
            lots::set_report(&mut tx, lot, &body, now()).await?;
            log(&mut tx, operator, "lot.report", &format!("lot {lot}: {} bytes", body.len())).await?;
            tx.commit().await?;
            Ok(format!("inspection report of lot {lot} kept ({} bytes)\n", body.len()))
        }
    }
}

/// Records the operator's change of stock (no member is concerned).
async fn log(conn: &mut AnyConnection, operator: &str, action: &str, detail: &str) -> anyhow::Result<()> {
    super::record(conn, operator, action, String::new(), None, detail).await
}
