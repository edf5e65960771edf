//! Lots on the operator's side (`origin admin lot …`): receive a lot into stock with its dates
//! and inspection report, list a goods' lots, keep a report. The same domain functions as the
//! console's (`crate::domain::staff::stock`).

use sqlx::AnyConnection;

use super::LotCommand;
use super::shown::shown;
use crate::domain::catalogue::lots::NewLot;
use crate::domain::staff::{Actor, stock};
use crate::now;

pub(super) async fn run(conn: &mut AnyConnection, operator: &str, command: LotCommand) -> anyhow::Result<String> {
    let actor = Actor::command_line(operator);
    match command {
        LotCommand::Add { goods, lot, produced, expires, quantity, report } => {
            let body = report.as_ref().map(std::fs::read).transpose()?;
            let new = NewLot { goods, lot_no: &lot, produced_on: &produced, expires_on: &expires, quantity };
            let id = stock::receive(conn, &actor, &new, body.as_deref(), now()).await?;
            let report = if body.is_some() { ", with its inspection report" } else { "" };
            Ok(format!("lot {id} ({}) of goods {goods} received: {quantity} units, expires {expires}{report}\n", lot.trim()))
        }
        LotCommand::List { goods } => {
            let (_, lots) = stock::goods_lots(conn, goods).await?;
            let mut out = String::from("id\tlot\tproduced\texpires\treceived\tin stock\treport\n");
            for lot in lots {
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
            stock::keep_report(conn, &actor, lot, &body, now()).await?;
            Ok(format!("inspection report of lot {lot} kept ({} bytes)\n", body.len()))
        }
    }
}
