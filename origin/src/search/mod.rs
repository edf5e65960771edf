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
//! transaction of every change to a searched field, and `catalogue_changes` (migration 0044)
//! says which goods each version changed. Each search reads the version (one primary-key
//! read); when it is newer than the index, the index catches up (`SearchIndex::refresh`): it
//! reads the goods changed since its version and makes a new snapshot that shares the last
//! full build (`Base`) and holds the changed goods beside it (`Overlay`: the base's copies
//! hidden, the new ones checked one by one). Searches wait for it up to `FRESH_WAIT` and are
//! then answered from the previous snapshot. Once `OVERLAY_REBUILD` goods have changed, a full
//! build of the snapshot's own goods (no database read, no text spelt again) runs in the
//! background while searches go on, and the changes made meanwhile are laid over it in turn; a reindex, more than `OVERLAY_MAX` changes at once, or an index older than
//! the changes kept (`prune_changes`) rebuilds in full. Every origin on one PostgreSQL keeps
//! its own copy, built from the same rows at the same version, so all of them find the same
//! goods.

#[cfg(test)]
mod tests;
mod text;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use roaring::RoaringBitmap;
use tokio::sync::{Mutex, watch};

use self::text::{bigram, terms, unigram};
pub use self::text::{normalize, pinyin};
use crate::db::Db;

/// How long a search waits for a rebuild after a catalogue change before it is answered from
/// the previous index.
const FRESH_WAIT: Duration = Duration::from_secs(2);

/// Goods changed since the last full build past which a new one starts in the background:
/// each search checks the overlay's goods one by one (about half a millisecond for 2,000).
const OVERLAY_REBUILD: usize = 2_000;

/// Goods changed since the last full build past which the index is built again in full before
/// it is current (a large import): the overlay is not made so long.
const OVERLAY_MAX: usize = 20_000;

/// Changes kept in `catalogue_changes` (`prune_changes`): far more than an index takes one by
/// one (`OVERLAY_MAX`); an index older than those left builds in full.
pub const CHANGES_KEPT: i64 = 100_000;

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

    /// A copy with the sales as they are now.
    fn copy(&self) -> Doc {
        Doc { id: self.id, sales: AtomicI64::new(self.sales.load(Ordering::Relaxed)), text: self.text.clone(), ends: self.ends }
    }

    /// The goods' fields, normalised, with their pinyin.
    fn of(row: GoodsRow) -> (Doc, [String; FIELDS]) {
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
        let [f0, f1, f2, f3, f4, f5, f6, f7, f8] = &fields;
        let doc = Doc::new(row.id, row.sales, [f0, f1, f2, f3, f4, f5, f6, f7, f8, &row.name, &row.sccj]);
        (doc, fields)
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

/// A full build: every goods at one catalogue version, and the postings of their grams.
struct Base {
    version: i64,
    docs: Vec<Doc>,
    grams: HashMap<u64, RoaringBitmap>,
    built_in: Duration,
}

/// The goods changed since the base was built: the base's copies hidden, and the goods as they
/// are now (those still in the catalogue), by id.
#[derive(Default)]
struct Overlay {
    hidden: RoaringBitmap,
    docs: Vec<Doc>,
}

/// The index at one catalogue version: a base, and what changed since. Immutable: a change
/// makes a new one, which shares the base.
pub struct Snapshot {
    pub version: i64,
    base: Arc<Base>,
    overlay: Overlay,
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

impl Base {
    fn build(version: i64, rows: Vec<GoodsRow>, started: Instant) -> Base {
        Base::of_docs(version, rows.into_iter().map(|row| Doc::of(row).0).collect(), started)
    }

    /// The postings of `docs`, ordered by id.
    fn of_docs(version: i64, docs: Vec<Doc>, started: Instant) -> Base {
        let mut grams: HashMap<u64, RoaringBitmap> = HashMap::new();
        let mut seen: HashSet<u64> = HashSet::new();
        for (position, doc) in docs.iter().enumerate() {
            seen.clear();
            for field in 0..FIELDS {
                let mut previous = None;
                for c in doc.segment(field).chars() {
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
        }
        Base { version, docs, grams, built_in: started.elapsed() }
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

    /// The positions of the goods of every term, and perhaps a few more.
    fn candidates_of_all(&self, terms: &[String]) -> RoaringBitmap {
        let mut candidates: Option<RoaringBitmap> = None;
        for term in terms {
            let found = self.candidates(term);
            let narrowed = match candidates {
                None => found,
                Some(mut so_far) => {
                    so_far &= found;
                    so_far
                }
            };
            if narrowed.is_empty() {
                return narrowed;
            }
            candidates = Some(narrowed);
        }
        candidates.unwrap_or_default()
    }
}

/// The goods `doc` at `position` when every term matches it within `scope`.
fn hit(doc: &Doc, position: u32, terms: &[String], scope: Scope) -> Option<Hit> {
    let quality = terms.iter().try_fold(0, |sum, term| quality(doc, term, scope).map(|q| sum + q))?;
    Some(Hit { id: doc.id, quality, sales: doc.sales.load(Ordering::Relaxed), position })
}

impl Snapshot {
    /// A full build of `rows` (ordered by id) at `version`.
    fn build(version: i64, rows: Vec<GoodsRow>, started: Instant) -> Snapshot {
        Snapshot { version, base: Arc::new(Base::build(version, rows, started)), overlay: Overlay::default() }
    }

    /// This index at `version`, where the goods `changed` (any order) are now `rows` (ordered
    /// by id): a changed goods not among the rows has left the catalogue.
    fn with_changes(&self, version: i64, changed: &[i64], rows: Vec<GoodsRow>) -> Snapshot {
        let changed: HashSet<i64> = changed.iter().copied().collect();
        let mut hidden = self.overlay.hidden.clone();
        for id in &changed {
            if let Ok(position) = self.base.docs.binary_search_by_key(id, |doc| doc.id) {
                hidden.insert(position as u32);
            }
        }
        let mut docs: Vec<Doc> = self.overlay.docs.iter().filter(|doc| !changed.contains(&doc.id)).map(Doc::copy).collect();
        docs.extend(rows.into_iter().map(|row| Doc::of(row).0));
        docs.sort_by_key(|doc| doc.id);
        docs.dedup_by_key(|doc| doc.id);
        Snapshot { version, base: self.base.clone(), overlay: Overlay { hidden, docs } }
    }

    /// A full build of this snapshot's own goods, at its version, without reading the
    /// database or spelling any text again: the base's goods not hidden and the overlay's,
    /// merged by id.
    fn compacted(&self, started: Instant) -> Snapshot {
        let mut docs = Vec::with_capacity(self.len());
        let mut overlay = self.overlay.docs.iter().peekable();
        for (position, doc) in self.base.docs.iter().enumerate() {
            while let Some(changed) = overlay.next_if(|changed| changed.id < doc.id) {
                docs.push(changed.copy());
            }
            if !self.overlay.hidden.contains(position as u32) {
                docs.push(doc.copy());
            }
        }
        docs.extend(overlay.map(Doc::copy));
        Snapshot { version: self.version, base: Arc::new(Base::of_docs(self.version, docs, started)), overlay: Overlay::default() }
    }

    /// The goods at `position` (`Hit::position`).
    fn doc(&self, position: u32) -> &Doc {
        let position = position as usize;
        match position.checked_sub(self.base.docs.len()) {
            None => &self.base.docs[position],
            Some(beyond) => &self.overlay.docs[beyond],
        }
    }

    /// Takes the goods' sales now, `(id, sales)` in any order; goods not in the index are
    /// left out.
    fn set_sales(&self, sales: &[(i64, i64)]) {
        for (id, value) in sales {
            for docs in [&self.base.docs, &self.overlay.docs] {
                if let Ok(position) = docs.binary_search_by_key(id, |doc| doc.id) {
                    docs[position].sales.store(*value, Ordering::Relaxed);
                }
            }
        }
    }

    /// Goods in the index.
    pub fn len(&self) -> usize {
        self.base.docs.len() - self.overlay.hidden.len() as usize + self.overlay.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Distinct grams (posting lists) in the last full build.
    pub fn grams(&self) -> usize {
        self.base.grams.len()
    }

    /// The version of the last full build.
    pub fn base_version(&self) -> i64 {
        self.base.version
    }

    /// How long the last full build took (loading the rows included).
    pub fn built_in(&self) -> Duration {
        self.base.built_in
    }

    /// Goods changed since the last full build, held beside it.
    pub fn changed(&self) -> usize {
        self.overlay.docs.len()
    }

    /// Every goods matching every term of `query` within `scope`, unordered. An empty query
    /// matches nothing.
    pub fn find(&self, query: &str, scope: Scope) -> Vec<Hit> {
        let terms = terms(query);
        if terms.is_empty() {
            return Vec::new();
        }
        let mut candidates = self.base.candidates_of_all(&terms);
        candidates -= &self.overlay.hidden;
        let mut hits: Vec<Hit> =
            candidates.into_iter().filter_map(|position| hit(&self.base.docs[position as usize], position, &terms, scope)).collect();
        let beyond = self.base.docs.len() as u32;
        hits.extend(self.overlay.docs.iter().enumerate().filter_map(|(index, doc)| hit(doc, beyond + index as u32, &terms, scope)));
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
            let doc = self.doc(hit.position);
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

/// The origin's search index: the current snapshot, and the refresh that may be running.
#[derive(Clone)]
pub struct SearchIndex {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    current: watch::Sender<Option<Arc<Snapshot>>>,
    /// One refresh at a time: catching up, or putting a new full build in place.
    refreshing: Mutex<()>,
    /// Whether a full build runs in the background.
    rebuilding: AtomicBool,
}

/// The catalogue's version (`catalogue_version`).
pub async fn catalogue_version(db: &Db) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT version FROM catalogue_version WHERE id = 1").fetch_one(&db.pool).await
}

/// Deletes the changes of every version before those of the last `kept` changes
/// (`CHANGES_KEPT` every hour), in one transaction with the last version deleted
/// (`pruned_through`), so that an index reading changes it then finds deleted learns it is too
/// old. Answers the rows deleted.
pub async fn prune_changes(db: &Db, kept: i64) -> sqlx::Result<u64> {
    let mut tx = db.pool.begin().await?;
    let oldest_kept: Option<i64> = sqlx::query_scalar("SELECT version FROM catalogue_changes ORDER BY version DESC LIMIT 1 OFFSET $1")
        .bind(kept.max(1) - 1)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(oldest_kept) = oldest_kept else { return Ok(0) };
    let through = oldest_kept - 1;
    let deleted = sqlx::query("DELETE FROM catalogue_changes WHERE version <= $1").bind(through).execute(&mut *tx).await?;
    sqlx::query("UPDATE catalogue_version SET pruned_through = $1 WHERE id = 1 AND pruned_through < $1")
        .bind(through)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(deleted.rows_affected())
}

/// What the index reads of a goods: its searched fields, its brand's name and its sales.
const GOODS_ROWS: &str = "SELECT g.id, CASE WHEN g.common_name = '' THEN g.name ELSE g.name || ' ' || g.common_name END AS name, \
     g.sccj, g.ypgg, g.pzwh, COALESCE(b.name, '') AS brand, g.sales FROM goods g LEFT JOIN brands b ON b.id = g.brand_id";

impl SearchIndex {
    /// An index with no snapshot yet; `start` builds the first.
    pub fn new(db: Db) -> SearchIndex {
        let (current, _) = watch::channel(None);
        SearchIndex { inner: Arc::new(Inner { db, current, refreshing: Mutex::new(()), rebuilding: AtomicBool::new(false) }) }
    }

    /// Builds the first snapshot in the background, and reads the sales again every
    /// `SALES_REFRESH` while the index lives.
    pub fn start(&self) {
        self.spawn_refresh();
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
    /// catching up (waiting up to `FRESH_WAIT`, then the previous one). `None` when no index
    /// could be built in `FIRST_WAIT`.
    pub async fn snapshot(&self) -> sqlx::Result<Option<Arc<Snapshot>>> {
        let latest = catalogue_version(&self.inner.db).await?;
        let current = self.current();
        if let Some(snapshot) = &current
            && snapshot.version >= latest
        {
            return Ok(current);
        }
        self.spawn_refresh();
        let mut receiver = self.inner.current.subscribe();
        let wait = if current.is_some() { FRESH_WAIT } else { FIRST_WAIT };
        let fresh = tokio::time::timeout(wait, receiver.wait_for(|s| s.as_ref().is_some_and(|s| s.version >= latest))).await;
        match fresh {
            Ok(Ok(snapshot)) => Ok(snapshot.clone()),
            _ => Ok(self.current()),
        }
    }

    /// Starts a refresh; refreshes run one at a time, and each first checks whether it is
    /// still needed.
    fn spawn_refresh(&self) {
        let index = self.clone();
        tokio::spawn(async move {
            let _one = index.inner.refreshing.lock().await;
            if let Err(error) = index.refresh().await {
                tracing::error!(%error, "the search index could not catch up with the catalogue");
            }
        });
    }

    /// Brings the index to the catalogue's version: the changed goods laid over the current
    /// snapshot, or a full build when that cannot be. Called under `refreshing`.
    async fn refresh(&self) -> anyhow::Result<()> {
        let latest = catalogue_version(&self.inner.db).await?;
        let current = self.current();
        if let Some(current) = &current {
            if current.version >= latest {
                return Ok(());
            }
            let started = Instant::now();
            if let Some(next) = self.catch_up(current.clone(), latest).await? {
                tracing::debug!(
                    version = next.version,
                    changed = next.changed(),
                    millis = started.elapsed().as_millis() as u64,
                    "search index caught up"
                );
                metrics::counter!("search_index_catch_ups_total").increment(1);
                let rebuild = next.changed() >= OVERLAY_REBUILD;
                self.inner.current.send_replace(Some(Arc::new(next)));
                if rebuild {
                    self.spawn_rebuild();
                }
                return Ok(());
            }
        }
        let snapshot = self.build().await?;
        self.inner.current.send_replace(Some(Arc::new(snapshot)));
        Ok(())
    }

    /// `current` at `latest`, with the goods changed in between: `None` when it must be built
    /// in full instead (a reindex, more than `OVERLAY_MAX` goods changed since its full build,
    /// or changes it needs already pruned).
    async fn catch_up(&self, current: Arc<Snapshot>, latest: i64) -> anyhow::Result<Option<Snapshot>> {
        let db = &self.inner.db;
        let room = OVERLAY_MAX.saturating_sub(current.changed());
        let changed: Vec<i64> = sqlx::query_scalar(
            "SELECT DISTINCT goods_id FROM catalogue_changes WHERE version > $1 AND version <= $2 ORDER BY goods_id LIMIT $3",
        )
        .bind(current.version)
        .bind(latest)
        .bind(room as i64 + 1)
        .fetch_all(&db.pool)
        .await?;
        // Read after the changes: a prune between the two is seen here.
        let pruned: i64 = sqlx::query_scalar("SELECT pruned_through FROM catalogue_version WHERE id = 1").fetch_one(&db.pool).await?;
        if pruned > current.version || changed.len() > room || changed.first() == Some(&0) {
            return Ok(None);
        }
        let rows: Vec<GoodsRow> = if changed.is_empty() {
            Vec::new()
        } else {
            let condition = crate::db::id_set(db.kind, "g.id", 1);
            let list = crate::db::id_list(db.kind, changed.iter().copied());
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{GOODS_ROWS} WHERE {condition} ORDER BY g.id")))
                .bind(list)
                .fetch_all(&db.pool)
                .await?
        };
        let next = tokio::task::spawn_blocking(move || current.with_changes(latest, &changed, rows)).await?;
        Ok(Some(next))
    }

    /// A full build in the background, once `OVERLAY_REBUILD` goods have changed, from the
    /// current snapshot's own goods (`Snapshot::compacted`); the changes made while it runs are
    /// laid over it before it takes the current snapshot's place.
    fn spawn_rebuild(&self) {
        if self.inner.rebuilding.swap(true, Ordering::AcqRel) {
            return;
        }
        let index = self.clone();
        tokio::spawn(async move {
            let result = async {
                let Some(current) = index.current() else { return anyhow::Ok(()) };
                let started = Instant::now();
                let built = Arc::new(tokio::task::spawn_blocking(move || current.compacted(started)).await?);
                recorded(&built, "search index built again from its own goods");
                let _one = index.inner.refreshing.lock().await;
                let latest = catalogue_version(&index.inner.db).await?;
                let next = match built.version < latest {
                    true => index.catch_up(built.clone(), latest).await?.map_or(built, Arc::new),
                    false => built,
                };
                if index.current().is_none_or(|current| current.version <= next.version) {
                    index.inner.current.send_replace(Some(next));
                }
                anyhow::Ok(())
            }
            .await;
            index.inner.rebuilding.store(false, Ordering::Release);
            if let Err(error) = result {
                tracing::error!(%error, "the search index could not be rebuilt");
            }
        });
    }

    /// Every goods at the catalogue's version, built in full.
    async fn build(&self) -> anyhow::Result<Snapshot> {
        let started = Instant::now();
        let version = catalogue_version(&self.inner.db).await?;
        // Read after the version: a change committed in between is read again by the next
        // catch-up, so the index never claims a version newer than its rows.
        let rows: Vec<GoodsRow> =
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{GOODS_ROWS} ORDER BY g.id"))).fetch_all(&self.inner.db.pool).await?;
        let snapshot = tokio::task::spawn_blocking(move || Snapshot::build(version, rows, started)).await?;
        recorded(&snapshot, "search index built");
        Ok(snapshot)
    }
}

/// Logs a full build and counts it in the metrics.
fn recorded(snapshot: &Snapshot, what: &'static str) {
    tracing::info!(
        version = snapshot.version,
        goods = snapshot.len(),
        grams = snapshot.grams(),
        millis = snapshot.built_in().as_millis() as u64,
        "{what}"
    );
    metrics::counter!("search_index_builds_total").increment(1);
    metrics::histogram!("search_index_build_seconds").record(snapshot.built_in().as_secs_f64());
}
