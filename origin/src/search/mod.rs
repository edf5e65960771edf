//! Goods search: an n-gram index each origin keeps in memory, rebuilt from the database when
//! the catalogue changes.
//!
//! **What matches.** A query is split on white space into terms; a goods matches when every
//! term is a substring of one of its fields: name, manufacturer, specification, approval
//! number, brand, or the full pinyin or pinyin initials of its name and manufacturer
//! (`amxl` and `amoxilin` find 阿莫西林). Both sides are normalised first (`normalize`: letters
//! lower-cased, full-width ASCII folded to half-width), so `ＡＭＸＬ` finds what `amxl` finds.
//! Chinese has no spaces to split words on, so a substring is what a buyer means by
//! "contains": the index answers exactly what a scan with `contains` would, only without
//! the scan (the API tests hold it to that on both databases).
//!
//! **How.** Every field is cut into its characters and its pairs of neighbouring characters
//! (bigrams); each gram keeps the sorted set of goods holding it, as a roaring bitmap. A term
//! of one character is that character's set; a longer term is the intersection of its
//! bigrams' sets, which holds every goods containing the term and, rarely, one holding the
//! bigrams apart: each candidate is then checked with `contains`, which also grades the match
//! (the trigram-index design of Russ Cox's "Regular Expression Matching with a Trigram Index",
//! with bigrams because Chinese words are mostly two characters long).
//!
//! **Ranking.** By match quality — the name (in characters or pinyin) equal to the term, then
//! starting with it, then containing it, then the brand, the manufacturer, the specification
//! or approval number (`quality`) — then by sales (as of at most `SALES_REFRESH` ago: the index
//! reads again the sales of the goods sold lately, `goods.sold_at`), then by id.
//!
//! **Freshness.** `catalogue_version` (migration 0026) is bumped by triggers in the
//! transaction of every change to a searched field. Each search reads it (one primary-key
//! read); when it is newer than the index, one rebuild runs (`SearchIndex::snapshot`) while
//! searches wait for it up to `FRESH_WAIT` and are then answered from the previous index.
//! Every origin on one PostgreSQL keeps its own copy, built from the same rows at the same
//! version, so all of them find the same goods.

#[cfg(test)]
mod tests;
mod text;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use roaring::RoaringBitmap;
use tokio::sync::{Mutex, watch};

use self::text::{bigram, terms, unigram};
pub use self::text::{normalize, pinyin};
use crate::db::Db;

/// How long a search waits for a rebuild after a catalogue change before it is answered from
/// the previous index.
const FRESH_WAIT: Duration = Duration::from_secs(2);

/// How long a search waits for the first index after the origin starts.
const FIRST_WAIT: Duration = Duration::from_secs(120);

/// At most this many terms of a query are used.
const MAX_TERMS: usize = 8;

/// How often the index reads again the sales of goods sold lately, for ranking.
const SALES_REFRESH: Duration = Duration::from_secs(10);

/// How far back "lately" reaches, in seconds: beyond the refresh's period, a transaction's
/// length and the origins' clocks apart (`goods.sold_at` is the selling origin's clock).
const SOLD_LATELY: i64 = 90;

/// Which fields a query looks in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every field (the keyword goods list).
    All,
    /// The name and its pinyin (name suggestions).
    Name,
    /// The manufacturer and its pinyin (manufacturer suggestions).
    Manufacturer,
}

// The normalised fields of a goods, then its name and manufacturer as written (for
// suggestions): the segments of `Doc::text`.
const NAME: usize = 0;

const NAME_PINYIN: usize = 1;

const NAME_INITIALS: usize = 2;

const SCCJ: usize = 3;

const SCCJ_PINYIN: usize = 4;

const SCCJ_INITIALS: usize = 5;

const BRAND: usize = 6;

const YPGG: usize = 7;

const PZWH: usize = 8;

const FIELDS: usize = 9;

const WRITTEN_NAME: usize = 9;

const WRITTEN_SCCJ: usize = 10;

const SEGMENTS: usize = 11;

/// One goods: its texts in one allocation, so that checking a candidate reads one place in
/// memory, not eleven (at 500,000 goods those cache misses were most of a search's time).
struct Doc {
    id: i64,
    /// Refreshed every `SALES_REFRESH` (`SearchIndex::refresh_sales`).
    sales: AtomicI64,
    text: Box<str>,
    /// Where each segment of `text` ends.
    ends: [u32; SEGMENTS],
}

impl Doc {
    fn new(id: i64, sales: i64, segments: [&str; SEGMENTS]) -> Doc {
        let mut text = String::with_capacity(segments.iter().map(|segment| segment.len()).sum());
        let mut ends = [0; SEGMENTS];
        for (index, segment) in segments.iter().enumerate() {
            text.push_str(segment);
            ends[index] = text.len() as u32;
        }
        Doc { id, sales: AtomicI64::new(sales), text: text.into(), ends }
    }

    fn segment(&self, index: usize) -> &str {
        let start = if index == 0 { 0 } else { self.ends[index - 1] as usize };
        &self.text[start..self.ends[index] as usize]
    }
}

/// One goods found: its id, how well it matched (lower is better; see `quality`) and its sales
/// when the index was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub id: i64,
    pub quality: u32,
    pub sales: i64,
    /// Where its goods is in the index.
    position: u32,
}

/// The index at one catalogue version. Immutable: a rebuild makes a new one.
pub struct Snapshot {
    pub version: i64,
    docs: Vec<Doc>,
    grams: HashMap<u64, RoaringBitmap>,
    /// How long the build took (loading the rows included).
    pub built_in: Duration,
}

/// A row the index is built from.
#[derive(sqlx::FromRow)]
struct GoodsRow {
    id: i64,
    name: String,
    sccj: String,
    ypgg: String,
    pzwh: String,
    brand: String,
    sales: i64,
}

/// How well `term` matches a goods within `scope`: `None` when it does not, else lower is
/// better. A name is matched in characters or in pinyin alike (`amxl` is 阿莫西林 typed
/// another way): 0 the name is the term, 1 starts with it, 2 contains it. Over every field,
/// then: 3 the brand contains it, 4 the manufacturer starts with it, 5 contains it, 6 the
/// specification or approval number contains it. Within the manufacturer's scope, its
/// name is graded 0–2 like a goods name.
fn quality(doc: &Doc, term: &str, scope: Scope) -> Option<u32> {
    let f = |index: usize| -> &str { doc.segment(index) };
    let graded = |forms: [&str; 3]| -> Option<u32> {
        forms
            .iter()
            .filter_map(|text| {
                if *text == term {
                    Some(0)
                } else if text.starts_with(term) {
                    Some(1)
                } else if text.contains(term) {
                    Some(2)
                } else {
                    None
                }
            })
            .min()
    };
    let name = || graded([f(NAME), f(NAME_PINYIN), f(NAME_INITIALS)]);
    let manufacturer = || graded([f(SCCJ), f(SCCJ_PINYIN), f(SCCJ_INITIALS)]);
    match scope {
        Scope::Name => name(),
        Scope::Manufacturer => manufacturer(),
        Scope::All => name()
            .or_else(|| f(BRAND).contains(term).then_some(3))
            .or_else(|| manufacturer().map(|grade| if grade < 2 { 4 } else { 5 }))
            .or_else(|| (f(YPGG).contains(term) || f(PZWH).contains(term)).then_some(6)),
    }
}

impl Snapshot {
    fn build(version: i64, rows: Vec<GoodsRow>, started: Instant) -> Snapshot {
        let mut docs = Vec::with_capacity(rows.len());
        let mut grams: HashMap<u64, RoaringBitmap> = HashMap::new();
        let mut seen: HashSet<u64> = HashSet::new();
        for (position, row) in rows.into_iter().enumerate() {
            let (name_pinyin, name_initials) = pinyin(&row.name);
            let (sccj_pinyin, sccj_initials) = pinyin(&row.sccj);
            let fields: [String; FIELDS] = [
                normalize(&row.name),
                name_pinyin,
                name_initials,
                normalize(&row.sccj),
                sccj_pinyin,
                sccj_initials,
                normalize(&row.brand),
                normalize(&row.ypgg),
                normalize(&row.pzwh),
            ];
            seen.clear();
            for field in &fields {
                let mut previous = None;
                for c in field.chars() {
                    seen.insert(unigram(c));
                    if let Some(p) = previous {
                        seen.insert(bigram(p, c));
                    }
                    previous = Some(c);
                }
            }
            let position = position as u32;
            for gram in &seen {
                // Positions arrive in increasing order, so each is appended.
                let list = grams.entry(*gram).or_default();
                if list.try_push(position).is_err() {
                    list.insert(position);
                }
            }
            let [f0, f1, f2, f3, f4, f5, f6, f7, f8] = &fields;
            docs.push(Doc::new(row.id, row.sales, [f0, f1, f2, f3, f4, f5, f6, f7, f8, &row.name, &row.sccj]));
        }
        Snapshot { version, docs, grams, built_in: started.elapsed() }
    }

    /// Takes the goods' sales now, `(id, sales)` in any order; goods not in the index are
    /// left out.
    fn set_sales(&self, sales: &[(i64, i64)]) {
        for (id, value) in sales {
            if let Ok(position) = self.docs.binary_search_by_key(id, |doc| doc.id) {
                self.docs[position].sales.store(*value, Ordering::Relaxed);
            }
        }
    }

    /// Goods in the index.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// Distinct grams (posting lists) in the index.
    pub fn grams(&self) -> usize {
        self.grams.len()
    }

    /// Every goods holding `term` in some field, and perhaps a few more (checked after).
    fn candidates(&self, term: &str) -> RoaringBitmap {
        let chars: Vec<char> = term.chars().collect();
        if let [c] = chars[..] {
            return self.grams.get(&unigram(c)).cloned().unwrap_or_default();
        }
        let mut lists: Vec<&RoaringBitmap> = Vec::new();
        for pair in chars.windows(2) {
            match self.grams.get(&bigram(pair[0], pair[1])) {
                Some(list) => lists.push(list),
                None => return RoaringBitmap::new(),
            }
        }
        lists.sort_by_key(|list| list.len());
        let mut found = lists[0].clone();
        for list in &lists[1..] {
            found &= *list;
            if found.is_empty() {
                break;
            }
        }
        found
    }

    /// Every goods matching every term of `query` within `scope`, unordered. An empty query
    /// matches nothing.
    pub fn find(&self, query: &str, scope: Scope) -> Vec<Hit> {
        let terms = terms(query);
        if terms.is_empty() {
            return Vec::new();
        }
        let mut candidates: Option<RoaringBitmap> = None;
        for term in &terms {
            let found = self.candidates(term);
            let narrowed = match candidates {
                None => found,
                Some(mut so_far) => {
                    so_far &= found;
                    so_far
                }
            };
            if narrowed.is_empty() {
                return Vec::new();
            }
            candidates = Some(narrowed);
        }
        let mut hits = Vec::new();
        for position in candidates.unwrap_or_default() {
            let doc = &self.docs[position as usize];
            let total = terms.iter().try_fold(0, |sum, term| quality(doc, term, scope).map(|q| sum + q));
            if let Some(quality) = total {
                hits.push(Hit { id: doc.id, quality, sales: doc.sales.load(Ordering::Relaxed), position });
            }
        }
        hits
    }

    /// The goods matching `query`, best first: by quality, then sales, then id.
    pub fn ranked(&self, query: &str, scope: Scope) -> Vec<Hit> {
        let mut hits = self.find(query, scope);
        rank(&mut hits);
        hits
    }

    /// Up to `limit` distinct names (`Scope::Name`) or manufacturers (`Scope::Manufacturer`)
    /// of the goods matching `query`, each ranked by its best goods.
    pub fn suggest(&self, query: &str, scope: Scope, limit: usize) -> Vec<String> {
        let hits = self.ranked(query, scope);
        let mut suggestions: Vec<&str> = Vec::new();
        for hit in hits {
            let doc = &self.docs[hit.position as usize];
            let text: &str = doc.segment(if scope == Scope::Manufacturer { WRITTEN_SCCJ } else { WRITTEN_NAME });
            // At most `limit` to look through.
            if !suggestions.contains(&text) {
                suggestions.push(text);
                if suggestions.len() == limit {
                    break;
                }
            }
        }
        suggestions.into_iter().map(str::to_owned).collect()
    }
}

fn better(a: &Hit, b: &Hit) -> std::cmp::Ordering {
    a.quality.cmp(&b.quality).then(b.sales.cmp(&a.sales)).then(a.id.cmp(&b.id))
}

/// Orders hits best first: by quality, then sales (most first), then id.
pub fn rank(hits: &mut [Hit]) {
    hits.sort_unstable_by(better);
}

/// Puts the best `count` hits first, in order (the rest after them, unordered): a page needs
/// only its own and those before it sorted.
pub fn rank_top(hits: &mut [Hit], count: usize) {
    if count < hits.len() {
        hits.select_nth_unstable_by(count, better);
        hits[..count].sort_unstable_by(better);
    } else {
        rank(hits);
    }
}

/// The origin's search index: the current snapshot, and the one rebuild that may be running.
#[derive(Clone)]
pub struct SearchIndex {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    current: watch::Sender<Option<Arc<Snapshot>>>,
    building: Mutex<()>,
}

/// The catalogue's version (`catalogue_version`).
pub async fn catalogue_version(db: &Db) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT version FROM catalogue_version WHERE id = 1").fetch_one(&db.pool).await
}

impl SearchIndex {
    /// An index with no snapshot yet; `start` builds the first.
    pub fn new(db: Db) -> SearchIndex {
        let (current, _) = watch::channel(None);
        SearchIndex { inner: Arc::new(Inner { db, current, building: Mutex::new(()) }) }
    }

    /// Builds the first snapshot in the background, and reads the sales again every
    /// `SALES_REFRESH` while the index lives.
    pub fn start(&self) {
        self.spawn_build();
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(SALES_REFRESH);
            every.tick().await;
            loop {
                every.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                let index = SearchIndex { inner };
                if let Err(error) = index.refresh_sales().await {
                    tracing::warn!(%error, "the search index could not read the sales");
                }
            }
        });
    }

    /// Reads the sales of the goods sold (or given back) in the last `SOLD_LATELY` seconds, in
    /// one row (a JSON array of `[id, sales]`), into the current snapshot.
    pub async fn refresh_sales(&self) -> anyhow::Result<()> {
        let Some(snapshot) = self.current() else { return Ok(()) };
        let db = &self.inner.db;
        let sql = match db.kind {
            crate::db::Kind::Sqlite => "SELECT COALESCE(json_group_array(json_array(id, sales)), '[]') FROM goods WHERE sold_at >= $1",
            crate::db::Kind::Postgres => {
                "SELECT COALESCE(CAST(json_agg(json_build_array(id, sales)) AS TEXT), '[]') FROM goods WHERE sold_at >= $1"
            }
        };
        let text: String = sqlx::query_scalar(sql).bind(crate::now() - SOLD_LATELY).fetch_one(&db.pool).await?;
        let sales: Vec<(i64, i64)> = serde_json::from_str(&text)?;
        snapshot.set_sales(&sales);
        Ok(())
    }

    /// The current snapshot, if one has been built.
    pub fn current(&self) -> Option<Arc<Snapshot>> {
        self.inner.current.borrow().clone()
    }

    /// A snapshot at the catalogue's current version: the current one when it is, else after
    /// a rebuild (waiting up to `FRESH_WAIT`, then the previous one). `None` when no index
    /// could be built in `FIRST_WAIT`.
    pub async fn snapshot(&self) -> sqlx::Result<Option<Arc<Snapshot>>> {
        let latest = catalogue_version(&self.inner.db).await?;
        let current = self.current();
        if let Some(snapshot) = &current
            && snapshot.version >= latest
        {
            return Ok(current);
        }
        self.spawn_build();
        let mut receiver = self.inner.current.subscribe();
        let wait = if current.is_some() { FRESH_WAIT } else { FIRST_WAIT };
        let fresh = tokio::time::timeout(wait, receiver.wait_for(|s| s.as_ref().is_some_and(|s| s.version >= latest))).await;
        match fresh {
            Ok(Ok(snapshot)) => Ok(snapshot.clone()),
            _ => Ok(self.current()),
        }
    }

    /// Starts a rebuild unless the running one will see the latest version; rebuilds run one
    /// at a time, and each first checks whether it is still needed.
    fn spawn_build(&self) {
        let index = self.clone();
        tokio::spawn(async move {
            let _building = index.inner.building.lock().await;
            if let Err(error) = index.build_if_stale().await {
                tracing::error!(%error, "the search index could not be rebuilt");
            }
        });
    }

    async fn build_if_stale(&self) -> anyhow::Result<()> {
        let started = Instant::now();
        let version = catalogue_version(&self.inner.db).await?;
        if self.current().is_some_and(|snapshot| snapshot.version >= version) {
            return Ok(());
        }
        // Read after the version: a change committed in between makes the next search rebuild
        // again, so the index never claims a version newer than its rows.
        let rows: Vec<GoodsRow> = sqlx::query_as(
            "SELECT g.id, CASE WHEN g.common_name = '' THEN g.name ELSE g.name || ' ' || g.common_name END AS name, g.sccj, g.ypgg, \
             g.pzwh, COALESCE(b.name, '') AS brand, g.sales \
             FROM goods g LEFT JOIN brands b ON b.id = g.brand_id ORDER BY g.id",
        )
        .fetch_all(&self.inner.db.pool)
        .await?;
        let snapshot = tokio::task::spawn_blocking(move || Snapshot::build(version, rows, started)).await?;
        tracing::info!(
            version,
            goods = snapshot.len(),
            grams = snapshot.grams(),
            millis = snapshot.built_in.as_millis() as u64,
            "search index built"
        );
        metrics::counter!("search_index_builds_total").increment(1);
        metrics::histogram!("search_index_build_seconds").record(snapshot.built_in.as_secs_f64());
        self.inner.current.send_replace(Some(Arc::new(snapshot)));
        Ok(())
    }
}
