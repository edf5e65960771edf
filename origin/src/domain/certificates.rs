//! A member's qualification certificates (资质, `docs/compliance.md`): the operator approves or
//! rejects each, and sets the member's business scope when approving; once every kind its
//! buyer type requires has an approved certificate the member is approved and may order, and is
//! told so once. A certificate in force is the latest approved one of its kind; when it expires
//! without an approved renewal the member cannot order until one is approved. Its member is
//! reminded 30 and 7 days before, and on the day after.

use sqlx::AnyConnection;

use crate::domain::catalogue::scope::Scope;
use crate::domain::members::{BuyerType, OTHER, ReviewStatus, buyer_type};
use crate::domain::{Error, Result, messages};

/// A certificate reviewed: its member and kind, and whether the member is now approved.
pub struct Reviewed {
    pub member: i64,
    pub kind: String,
    pub member_approved: bool,
}

/// Marks certificate `id` reviewed with `status` (approved or rejected): answers its member
/// and kind; not found when there is no such certificate.
async fn review(conn: &mut AnyConnection, id: i64, status: ReviewStatus, reason: &str, now: i64) -> Result<(i64, String)> {
    sqlx::query_as("UPDATE qualifications SET status = $1, reason = $2, reviewed_at = $3 WHERE id = $4 RETURNING member_id, kind")
        .bind(status)
        .bind(reason)
        .bind(now)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found("资质证件不存在"))
}

/// Approves certificate `id` at `now`, in the caller's transaction, with the member's business
/// scope when given (it replaces the one approved before). The member is approved once every
/// kind its buyer type requires has an approved certificate, and then told, once: when this
/// approval completes the kinds, or renews a certificate of an approved member. A certificate
/// approved while others are still missing shows its state on the certificates page, without a
/// message of its own.
pub async fn approve(conn: &mut AnyConnection, id: i64, scope: Option<&Scope>, now: i64) -> Result<Reviewed> {
    let (member, kind) = review(conn, id, ReviewStatus::Approved, "", now).await?;
    if let Some(scope) = scope {
        scope.store(conn, member).await?;
    }
    let approved: Vec<String> = sqlx::query_scalar("SELECT DISTINCT kind FROM qualifications WHERE member_id = $1 AND status = $2")
        .bind(member)
        .bind(ReviewStatus::Approved)
        .fetch_all(&mut *conn)
        .await?;
    let required = buyer_type(conn, member).await?.required();
    let member_approved = required.iter().all(|required| approved.iter().any(|kind| kind == required));
    if member_approved {
        sqlx::query("UPDATE members SET is_passed = 1 WHERE id = $1").bind(member).execute(&mut *conn).await?;
        let body = format!("您的{kind}已审核通过，资质审核完成，现在可以下单了。");
        messages::send(conn, member, messages::MessageKind::Qualification, "资质审核通过", &body).await?;
    }
    Ok(Reviewed { member, kind, member_approved })
}

/// Rejects certificate `id` for `reason` at `now`, in the caller's transaction, and tells its
/// member to upload it again.
pub async fn reject(conn: &mut AnyConnection, id: i64, reason: &str, now: i64) -> Result<Reviewed> {
    let (member, kind) = review(conn, id, ReviewStatus::Rejected, reason, now).await?;
    let body = format!("您的{kind}未通过审核：{reason}。请重新上传。");
    messages::send(conn, member, messages::MessageKind::Qualification, "资质审核未通过", &body).await?;
    Ok(Reviewed { member, kind, member_approved: false })
}

pub use crate::domain::catalogue::lots::day;

/// Days from `from` to `to`, both `YYYY-MM-DD`; `None` for a date that is not one.
fn days_between(from: &str, to: &str) -> Option<i64> {
    let number = |text: &str| -> Option<i64> {
        let mut parts = text.split('-').map(|part| part.parse::<i64>().ok());
        Some(crate::days_from_civil(parts.next()??, parts.next()??, parts.next()??))
    };
    Some(number(to)? - number(from)?)
}

/// A certificate in force: the latest approved one of its kind.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct InForce {
    pub id: i64,
    pub kind: String,
    pub number: String,
    /// `YYYY-MM-DD`, empty when it does not expire.
    pub expires_on: String,
    /// The days before its expiry its member was last reminded at (30, 7, or 0 once expired).
    pub reminded: Option<i64>,
}

/// The member's certificates in force, one per kind, by kind.
pub async fn in_force(conn: &mut AnyConnection, member: i64) -> Result<Vec<InForce>> {
    Ok(sqlx::query_as(
        "SELECT q.id, q.kind, q.number, q.expires_on, q.reminded FROM qualifications q \
         WHERE q.member_id = $1 AND q.status = $2 AND q.id = (SELECT MAX(p.id) FROM qualifications p \
         WHERE p.member_id = q.member_id AND p.kind = q.kind AND p.status = $2) ORDER BY q.kind",
    )
    .bind(member)
    .bind(ReviewStatus::Approved)
    .fetch_all(&mut *conn)
    .await?)
}

/// Whether a certificate in force has expired on `today` (its last day is `expires_on`).
fn expired(certificate: &InForce, today: &str) -> bool {
    certificate.kind != OTHER && !certificate.expires_on.is_empty() && certificate.expires_on.as_str() < today
}

/// Why the member may not order on the shop's day at `now` for a certificate: the first
/// certificate in force that has expired, named with its date. (An approved member holds every
/// kind its buyer type requires: approval waits for them.)
pub async fn lapsed(conn: &mut AnyConnection, member: i64, now: i64) -> Result<Option<String>> {
    let today = day(now);
    let certificates = in_force(conn, member).await?;
    Ok(certificates.iter().find(|certificate| expired(certificate, &today)).map(|certificate| {
        format!("您的{}已于{}过期，请在“资质证件”上传新证，审核通过后方可下单", certificate.kind, certificate.expires_on)
    }))
}

/// Where a member's certificates stand for the account centre: the kinds its buyer type
/// requires with none approved, and the certificates in force that expire within 30 days or
/// have expired.
#[derive(Debug, Default)]
pub struct Standing {
    pub buyer_type: Option<BuyerType>,
    pub missing: Vec<&'static str>,
    /// (kind, `expires_on`, days left: negative once expired).
    pub expiring: Vec<(String, String, i64)>,
}

/// The member's [`Standing`] on the shop's day at `now`.
pub async fn standing(conn: &mut AnyConnection, member: i64, now: i64) -> Result<Standing> {
    let today = day(now);
    let kind = buyer_type(conn, member).await?;
    let certificates = in_force(conn, member).await?;
    let missing = kind.required().iter().copied().filter(|required| !certificates.iter().any(|held| held.kind == *required)).collect();
    let expiring = certificates
        .into_iter()
        .filter(|certificate| certificate.kind != OTHER)
        .filter_map(|certificate| {
            let left = days_between(&today, &certificate.expires_on)?;
            (left <= REMIND_DAYS[0]).then_some((certificate.kind, certificate.expires_on, left))
        })
        .collect();
    Ok(Standing { buyer_type: Some(kind), missing, expiring })
}

/// The days before expiry a member is reminded at.
const REMIND_DAYS: [i64; 2] = [30, 7];

/// Reminds members of certificates in force that expire soon or have expired, on the shop's
/// day at `now`: 30 and 7 days before (or at the first run within them), and once expired;
/// each reminder once per certificate (a renewal starts again). Answers how many were sent.
pub async fn remind(conn: &mut AnyConnection, now: i64) -> Result<usize> {
    let today = day(now);
    let due: Vec<(i64, i64, String, String, Option<i64>)> = sqlx::query_as(
        "SELECT q.id, q.member_id, q.kind, q.expires_on, q.reminded FROM qualifications q \
         WHERE q.status = $1 AND q.expires_on <> '' AND q.kind <> $2 AND q.id = (SELECT MAX(p.id) FROM qualifications p \
         WHERE p.member_id = q.member_id AND p.kind = q.kind AND p.status = $1) ORDER BY q.id",
    )
    .bind(ReviewStatus::Approved)
    .bind(OTHER)
    .fetch_all(&mut *conn)
    .await?;
    let mut sent = 0;
    for (id, member, kind, expires_on, reminded) in due {
        let Some(left) = days_between(&today, &expires_on) else { continue };
        // The step this day falls in: expired (0), within 7 days, within 30 days.
        let step = match left {
            ..0 => 0,
            0..=7 => 7,
            8..=30 => 30,
            _ => continue,
        };
        if reminded.is_some_and(|reminded| reminded <= step) {
            continue;
        }
        let (title, body) = if step == 0 {
            (
                "资质证件已过期".to_owned(),
                format!("您的{kind}已于{expires_on}过期，暂不能下单。请在“资质证件”上传新证，审核通过后即可恢复下单。"),
            )
        } else {
            (
                format!("资质证件{left}天后到期"),
                format!("您的{kind}将于{expires_on}到期（还有{left}天）。请及时在“资质证件”上传新证，以免到期后无法下单。"),
            )
        };
        // Claimed first, so that two origins running this at once remind once.
        let claimed = sqlx::query("UPDATE qualifications SET reminded = $1 WHERE id = $2 AND (reminded IS NULL OR reminded > $1)")
            .bind(step)
            .bind(id)
            .execute(&mut *conn)
            .await?
            .rows_affected();
        if claimed == 1 {
            messages::send(conn, member, messages::MessageKind::Qualification, &title, &body).await?;
            sent += 1;
        }
    }
    Ok(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_between_counts_calendar_days() {
        assert_eq!(days_between("2026-11-27", "2026-12-27"), Some(30));
        assert_eq!(days_between("2026-12-31", "2027-01-01"), Some(1));
        assert_eq!(days_between("2028-02-28", "2028-03-01"), Some(2));
        assert_eq!(days_between("2026-11-27", "2026-11-20"), Some(-7));
        assert_eq!(days_between("2026-11-27", ""), None);
    }

    #[test]
    fn the_shop_month_begins_at_midnight_beijing_time() {
        // 2026-11-27 00:00 UTC: November began at 2026-10-31 16:00 UTC.
        assert_eq!(crate::month_start(1_795_737_600, 8 * 3600), 1_793_462_400);
        // 2026-11-30 16:00 UTC is already December 1st in Beijing.
        assert_eq!(crate::month_start(1_796_054_400, 8 * 3600), 1_796_054_400);
        assert_eq!(crate::month_start(1_796_054_399, 8 * 3600), 1_793_462_400);
        assert_eq!(crate::days_from_civil(1970, 1, 1), 0);
    }

    #[test]
    fn the_shop_day_is_utc_plus_eight() {
        // 2026-11-27 16:00 UTC is the 28th in Beijing.
        assert_eq!(day(1_795_737_600 + 16 * 3600), "2026-11-28");
        assert_eq!(day(1_795_737_600), "2026-11-27");
    }
}
