//! Activities (活动): themed pages made from data — a banner and sections of goods cards —
//! which the web app renders with its activity templates (`/hdmb`, `/zqmb`), lists in the
//! activity zone (`/yjh`) and the activity centre (`/Hdzx/{ids}`), and reaches by
//! `/activity/{url}`. 优医汇 (`/yyh`) is the activity whose url is `yyh`.

use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::ApiContext;
use super::error::{Answer, Envelope, Error, ok};
use super::extract::{IdsQuery, Query};
use super::goods::placeholders;
use crate::domain::catalogue::card::{Card, card_columns, cards};
use crate::domain::catalogue::viewer::Viewer;
use crate::now;

pub fn router() -> OpenApiRouter<ApiContext> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(page))
}

/// How many activities one `ids` list may name.
const IDS_MAX: usize = 20;

/// An activity as its links show it. `state` is `running` or `upcoming`; a link to an upcoming
/// activity, or to one without `url`, does not open it but tells the buyer (§8): no `url`
/// 活动暂未开始, a `note` the note, otherwise 活动未开始.
#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct ActivityLink {
    id: i64,
    /// Its address `/activity/{url}`; empty while it has no page.
    url: String,
    title: String,
    subtitle: String,
    /// `hdmb` or `zqmb`: the template that shows it.
    template: String,
    /// The banner's colour.
    color: String,
    note: String,
    starts_at: i64,
    ends_at: i64,
    #[sqlx(skip)]
    #[schema(example = "running")]
    state: &'static str,
}

/// A section of an activity: a title and its goods.
#[derive(Serialize, ToSchema)]
pub struct ActivitySection {
    id: i64,
    title: String,
    goods: Vec<Card>,
}

/// An activity with its sections (empty while it is upcoming).
#[derive(Serialize, ToSchema)]
pub struct ActivityPage {
    #[serde(flatten)]
    activity: ActivityLink,
    sections: Vec<ActivitySection>,
}

const COLUMNS: &str = "id, COALESCE(url, '') AS url, title, subtitle, template, color, note, starts_at, ends_at";

fn with_state(mut activity: ActivityLink, now: i64) -> ActivityLink {
    activity.state = if activity.starts_at <= now { "running" } else { "upcoming" };
    activity
}

/// `GET /api/activities` (`ids`: `3,5,8`, at most 20, optional): the activities that are on and
/// not over — those named, in the order named, or all of them, running first, in the shop's
/// order.
#[utoipa::path(get, path = "/api/activities", params(IdsQuery), operation_id = "activity_list", tag = "活动", responses((status = 200, description = "活动", body = Envelope<Vec<ActivityLink>>)))]
async fn list(State(context): State<ApiContext>, Query(IdsQuery { ids }): Query<IdsQuery>) -> Answer<Vec<ActivityLink>> {
    if ids.len() > IDS_MAX {
        return Err(Error::field("ids", format!("一次最多查询{IDS_MAX}个活动")));
    }
    let now = now();
    let rows: Vec<ActivityLink> = if ids.is_empty() {
        sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM activities WHERE is_on = 1 AND ends_at > $1 \
             ORDER BY CASE WHEN starts_at <= $1 THEN 0 ELSE 1 END, sort, starts_at, id"
        )))
        .bind(now)
        .fetch_all(&context.db.pool)
        .await?
    } else {
        let mut statement = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM activities WHERE is_on = 1 AND ends_at > $1 AND id IN ({})",
            placeholders(ids.len(), 2)
        )))
        .bind(now);
        for id in &ids {
            statement = statement.bind(id);
        }
        let mut found: Vec<ActivityLink> = statement.fetch_all(&context.db.pool).await?;
        found.sort_by_key(|activity| ids.iter().position(|id| *id == activity.id));
        found
    };
    ok(rows.into_iter().map(|activity| with_state(activity, now)).collect())
}

/// `GET /api/activities/{key}` (its id or url): an activity that is on and not over, with its
/// sections of goods cards while it runs; 404 `活动不存在` otherwise.
#[utoipa::path(get, path = "/api/activities/{key}", operation_id = "activity_page", tag = "活动", responses((status = 200, description = "活动页", body = Envelope<ActivityPage>)))]
async fn page(State(context): State<ApiContext>, viewer: Viewer, Path(key): Path<String>) -> Answer<ActivityPage> {
    let now = now();
    let key = key.trim();
    let id: i64 = key.parse().unwrap_or(0);
    let activity: Option<ActivityLink> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM activities WHERE (id = $1 OR url = $2) AND is_on = 1 AND ends_at > $3 ORDER BY id LIMIT 1"
    )))
    .bind(id)
    .bind(key)
    .bind(now)
    .fetch_optional(&context.db.pool)
    .await?;
    let activity = with_state(activity.ok_or_else(|| Error::not_found("活动不存在"))?, now);
    let mut sections = Vec::new();
    if activity.state == "running" {
        let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, title FROM activity_sections WHERE activity_id = $1 ORDER BY sort, id")
            .bind(activity.id)
            .fetch_all(&context.db.pool)
            .await?;
        for (section, title) in rows {
            let goods = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {} FROM activity_goods a JOIN goods g ON g.id = a.goods_id WHERE a.section_id = $1 ORDER BY a.sort, g.id",
                card_columns(2)
            )))
            .bind(section)
            .bind(now)
            .fetch_all(&context.db.pool)
            .await?;
            sections.push(ActivitySection { id: section, title, goods: cards(&goods, &viewer)? });
        }
    }
    ok(ActivityPage { activity, sections })
}
