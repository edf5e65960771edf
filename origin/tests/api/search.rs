//! Goods search over HTTP on a generated catalogue: the keyword list finds exactly what a plain
//! substring scan of the goods finds, pinyin finds what its characters find, suggestions come
//! from their own field, and the index follows the catalogue when it changes.

use std::collections::{BTreeSet, HashSet};

use crate::common::{App, admin, on_both, urlencode};
use origin::search::{normalize, pinyin};
use reqwest::Client;

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    name: String,
    sccj: String,
    ypgg: String,
    pzwh: String,
    brand: String,
    #[sqlx(rename = "type")]
    goods_type: i64,
}

/// The goods a plain scan finds: every term of the query a substring of one of the fields.
fn scan(rows: &[Row], query: &str, fields: impl Fn(&Row) -> Vec<String>) -> BTreeSet<i64> {
    let terms: Vec<String> = normalize(query).split_whitespace().map(str::to_owned).collect();
    if terms.is_empty() {
        return BTreeSet::new();
    }
    rows.iter()
        .filter(|row| {
            let fields = fields(row);
            terms.iter().all(|term| fields.iter().any(|field| field.contains(term.as_str())))
        })
        .map(|row| row.id)
        .collect()
}

fn all_fields(row: &Row) -> Vec<String> {
    let (name_full, name_initials) = pinyin(&row.name);
    let (sccj_full, sccj_initials) = pinyin(&row.sccj);
    vec![
        normalize(&row.name),
        name_full,
        name_initials,
        normalize(&row.sccj),
        sccj_full,
        sccj_initials,
        normalize(&row.brand),
        normalize(&row.ypgg),
        normalize(&row.pzwh),
    ]
}

fn name_fields(row: &Row) -> Vec<String> {
    let (full, initials) = pinyin(&row.name);
    vec![normalize(&row.name), full, initials]
}

/// Every goods the keyword list finds, over all its pages.
async fn listed(app: &App, client: &Client, query: &str, extra: &str) -> Vec<serde_json::Value> {
    let mut goods = Vec::new();
    for page in 1.. {
        let (_, body) = app.get(client, &format!("/api/goods/list?keyword={}&page_size=100&page={page}{extra}", urlencode(query))).await;
        let data = &body["data"];
        goods.extend(data["list"].as_array().unwrap_or_else(|| panic!("{query}: {body}")).iter().cloned());
        if page >= data["last_page"].as_i64().unwrap() {
            assert_eq!(goods.len() as i64, data["total"].as_i64().unwrap(), "{query}: the total counts what the pages hold");
            break;
        }
    }
    goods
}

fn ids(goods: &[serde_json::Value]) -> BTreeSet<i64> {
    goods.iter().map(|goods| goods["id"].as_i64().unwrap()).collect()
}

const QUERIES: &[&str] = &[
    "阿莫西林",
    "阿莫",
    "莫西林胶",
    "胶囊",
    "片",
    "感冒 颗粒",
    "布洛芬",
    "维生素c",
    "维生素Ｃ",
    "华北制药",
    "制药有限公司",
    "国药准字h",
    "h1302",
    "0.25g",
    "*24",
    "同仁堂",
    "云南白药",
    "amxl",
    "AMXL",
    "amoxilin",
    "blf",
    "ganmao",
    "bjzy",
    "zhiyao",
    "100%",
    "a_b",
    "林西",
    "没有这种药",
];

#[tokio::test]
async fn search_finds_what_a_substring_scan_finds() {
    on_both(|app| async move {
        admin(&app, &["seed", "--goods", "3000"]).await.unwrap();
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT g.id, g.name, g.sccj, g.ypgg, g.pzwh, COALESCE(b.name, '') AS brand, g.type \
             FROM goods g LEFT JOIN brands b ON b.id = g.brand_id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert!(rows.len() >= 3000, "{}", rows.len());
        let client = app.demo().await;
        let mut matched = 0;
        for query in QUERIES {
            let found = listed(&app, &client, query, "").await;
            let expected = scan(&rows, query, all_fields);
            assert_eq!(ids(&found), expected, "{} {query}: the list finds what a scan finds", app.database);
            matched += usize::from(!expected.is_empty());
        }
        assert!(matched >= QUERIES.len() - 4, "most queries of the list find something: {matched}");

        // Pinyin finds what its characters find (and perhaps more: other words spelt alike).
        for (characters, spellings) in
            [("阿莫西林", &["amxl", "amoxilin"][..]), ("布洛芬", &["blf", "buluofen"]), ("感冒", &["gm", "ganmao"])]
        {
            let by_characters = scan(&rows, characters, all_fields);
            assert!(!by_characters.is_empty(), "{characters}");
            for spelling in spellings {
                let by_pinyin = ids(&listed(&app, &client, spelling, "").await);
                assert!(by_pinyin.is_superset(&by_characters), "{spelling} finds what {characters} finds");
            }
        }

        // Filters and sorting apply to what is found.
        let herbs = listed(&app, &client, "片", "&shop=zy").await;
        let expected: BTreeSet<i64> =
            scan(&rows, "片", all_fields).into_iter().filter(|id| rows.iter().any(|row| row.id == *id && row.goods_type == 2)).collect();
        assert_eq!(ids(&herbs), expected);
        let by_price = listed(&app, &client, "胶囊", "&sort=price&order=asc").await;
        let prices: Vec<f64> = by_price.iter().map(|goods| goods["price"].as_str().unwrap().parse().unwrap()).collect();
        assert!(prices.windows(2).all(|pair| pair[0] <= pair[1]));
        assert_eq!(ids(&by_price), scan(&rows, "胶囊", all_fields));

        // By relevance: goods named by the query come before those only holding it elsewhere.
        let ranked = listed(&app, &client, "阿莫西林", "").await;
        let named = ranked.iter().take_while(|goods| goods["name"].as_str().unwrap().contains("阿莫西林")).count();
        assert!(ranked[named..].iter().all(|goods| !goods["name"].as_str().unwrap().contains("阿莫西林")));

        // Name suggestions: names of goods the name scope finds, best first, at most 10.
        for query in ["阿莫", "amxl", "片", "gm"] {
            let (_, body) = app.get(&client, &format!("/api/goods/search?keywords={}&type=0", urlencode(query))).await;
            let suggestions: Vec<String> = serde_json::from_value(body["data"].clone()).unwrap();
            let names: HashSet<&str> =
                scan(&rows, query, name_fields).iter().map(|id| rows.iter().find(|row| row.id == *id).unwrap().name.as_str()).collect();
            assert_eq!(suggestions.len(), names.len().min(10), "{query}");
            assert!(suggestions.iter().all(|name| names.contains(name.as_str())), "{query}: {suggestions:?}");
        }
        let (_, body) = app.get(&client, "/api/goods/search?keywords=%E5%8D%8E%E5%8C%97&type=1").await;
        assert_eq!(body["data"][0], "华北制药股份有限公司");

        // The index follows the catalogue: new goods are found by the next searches. Each waits
        // up to `FRESH_WAIT` (2 s) for the rebuild and is answered from the previous index
        // after that, so on a loaded machine a few may come before the rebuild is done.
        let before = ids(&listed(&app, &client, "阿莫西林", "").await);
        admin(&app, &["seed", "--goods", "500", "--seed", "7"]).await.unwrap();
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT g.id, g.name, g.sccj, g.ypgg, g.pzwh, COALESCE(b.name, '') AS brand, g.type \
             FROM goods g LEFT JOIN brands b ON b.id = g.brand_id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let expected = scan(&rows, "阿莫西林", all_fields);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let mut after = ids(&listed(&app, &client, "阿莫西林", "").await);
        while after != expected && std::time::Instant::now() < deadline {
            after = ids(&listed(&app, &client, "阿莫西林", "").await);
        }
        assert_eq!(after, expected);
        assert!(after.len() > before.len());
        // A change the triggers cannot see (made with the triggers off, as a bulk load might),
        // then the operator's reindex.
        let renamed = *after.iter().next().unwrap();
        sqlx::query("DROP TRIGGER IF EXISTS goods_search_update").execute(&app.db.pool).await.ok();
        if app.database == "postgres" {
            sqlx::query("ALTER TABLE goods DISABLE TRIGGER goods_search_change").execute(&app.db.pool).await.unwrap();
        }
        sqlx::query("UPDATE goods SET name = '罕见新药' WHERE id = $1").bind(renamed).execute(&app.db.pool).await.unwrap();
        assert!(listed(&app, &client, "罕见新药", "").await.is_empty(), "not seen without a new version");
        let said = admin(&app, &["reindex"]).await.unwrap();
        assert!(said.starts_with("catalogue version"), "{said}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let mut found = ids(&listed(&app, &client, "罕见新药", "").await);
        while found.is_empty() && std::time::Instant::now() < deadline {
            found = ids(&listed(&app, &client, "罕见新药", "").await);
        }
        assert_eq!(found, BTreeSet::from([renamed]));
    })
    .await;
}

#[tokio::test]
async fn the_catalogue_generator_writes_realistic_goods() {
    on_both(|app| async move {
        let before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        let said = admin(&app, &["seed", "--goods", "1200"]).await.unwrap();
        assert!(said.contains("generated 1200 goods"), "{said}");
        let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        assert_eq!(after, before + 1200);
        let makers: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT sccj) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        assert!(makers > 500, "many manufacturers: {makers}");
        let laddered: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT goods_id) FROM goods_ladders").fetch_one(&app.db.pool).await.unwrap();
        assert!(laddered > 100, "ladders on some: {laddered}");
        // As the goods form would take them: a goods shipped free has its least quantity.
        let (free, without): (i64, i64) =
            sqlx::query_as("SELECT COUNT(*), COALESCE(SUM(CASE WHEN qg_number < 1 THEN 1 ELSE 0 END), 0) FROM goods WHERE is_dpby = 1")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert!(free > 20 && without == 0, "{free} shipped free, {without} without a least quantity");
        let client = app.client();
        let (_, page) = app.get(&client, "/api/goods/list?sort=new&page_size=1").await;
        assert_eq!(page["data"]["total"], after);
    })
    .await;
}

#[tokio::test]
async fn the_index_reads_sales_again_for_ranking() {
    on_both(|app| async move {
        let index = origin::search::SearchIndex::new(app.db.clone());
        let snapshot = index.snapshot().await.unwrap().expect("built");
        let before = snapshot.ranked("阿莫西林胶囊", origin::search::Scope::All);
        assert!(before.len() >= 2, "{before:?}");
        // The last becomes the best seller: after the index reads the sales, it comes first.
        let last = before.last().unwrap().id;
        // As an order would: the sales and when they moved.
        sqlx::query("UPDATE goods SET sales = 10000000, sold_at = $2 WHERE id = $1")
            .bind(last)
            .bind(origin::now())
            .execute(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(snapshot.ranked("阿莫西林胶囊", origin::search::Scope::All).last().unwrap().id, last);
        index.refresh_sales().await.unwrap();
        let after = snapshot.ranked("阿莫西林胶囊", origin::search::Scope::All);
        assert_eq!(after[0].id, last);
        assert_eq!(after[0].sales, 10_000_000);
    })
    .await;
}

fn maker_fields(row: &Row) -> Vec<String> {
    let (full, initials) = pinyin(&row.sccj);
    vec![normalize(&row.sccj), full, initials]
}

#[tokio::test]
async fn the_manufacturer_search_finds_part_of_the_name_and_its_pinyin() {
    on_both(|app| async move {
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT g.id, g.name, g.sccj, g.ypgg, g.pzwh, COALESCE(b.name, '') AS brand, g.type \
             FROM goods g LEFT JOIN brands b ON b.id = g.brand_id",
        )
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        let huabei: BTreeSet<i64> = rows.iter().filter(|row| row.sccj == "华北制药股份有限公司").map(|row| row.id).collect();
        assert!(huabei.len() >= 2, "{huabei:?}");
        let client = app.client();
        // The header's 厂家 search: `keyword` with `type=1`, part of the name or its pinyin.
        for query in ["华北", "华北制药", "hbzy", "HBZY", "huabeizhiyao", "华北制药股份有限公司", "华北 股份"] {
            let found = ids(&listed(&app, &client, query, "&type=1").await);
            assert_eq!(found, scan(&rows, query, maker_fields), "{} {query}", app.database);
            assert_eq!(found, huabei, "{} {query}: 华北制药's goods", app.database);
        }
        // Only the manufacturer is searched: a goods name finds nothing there.
        assert!(scan(&rows, "阿莫西林", maker_fields).is_empty());
        let by_maker = listed(&app, &client, "阿莫西林", "&type=1").await;
        assert!(by_maker.is_empty(), "{by_maker:?}");
        // `sccj` is the same search, and narrows a keyword search.
        let (_, body) = app.get(&client, "/api/goods/list?sccj=hbzy&page_size=100").await;
        assert_eq!(ids(body["data"]["list"].as_array().unwrap()), huabei);
        let tablets: BTreeSet<i64> = scan(&rows, "片", all_fields).intersection(&huabei).copied().collect();
        assert_eq!(ids(&listed(&app, &client, "片", "&sccj=%E5%8D%8E%E5%8C%97").await), tablets);
        // What the suggestions offer for type 1 is what the search finds.
        let (_, body) = app.get(&client, "/api/goods/search?keywords=hbzy&type=1").await;
        assert_eq!(body["data"], serde_json::json!(["华北制药股份有限公司"]));
        let (_, body) = app.get(&client, "/api/goods/search?keywords=%E5%8D%8E%E5%8C%97&type=1").await;
        assert_eq!(body["data"][0], "华北制药股份有限公司");
        // A search type that is neither.
        for path in ["/api/goods/list?keyword=hbzy&type=2", "/api/goods/search?keywords=hbzy&type=2"] {
            let (status, body) = app.get(&client, path).await;
            assert_eq!((status.as_u16(), body["msg"].as_str()), (422, Some("搜索类型不正确")), "{path}");
        }
        let long = "华".repeat(101);
        let (status, body) = app.get(&client, &format!("/api/goods/list?sccj={}", urlencode(&long))).await;
        assert_eq!((status.as_u16(), body["data"]["errors"]["sccj"][0].as_str()), (422, Some("关键词不能超过100字")));
    })
    .await;
}

/// The search index's gauges as `/metrics` states them: (catalogue version, last full build's
/// version, goods laid over it).
async fn index_state(app: &App) -> (i64, i64, i64) {
    let text = reqwest::get(app.direct("/metrics")).await.unwrap().text().await.unwrap();
    let gauge = |name: &str| -> i64 {
        text.lines()
            .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("{name} in {text}"))
            .trim()
            .parse::<f64>()
            .unwrap() as i64
    };
    (gauge("search_index_catalogue_version"), gauge("search_index_base_version"), gauge("search_index_changed_goods"))
}

/// Searches `query` until the list's ids are `expected` (a search waits up to 2 s for the index
/// to catch up, and a loaded machine may take longer), for up to 30 s.
async fn until_listed(app: &App, client: &Client, query: &str, expected: &BTreeSet<i64>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut found = ids(&listed(app, client, query, "").await);
    while &found != expected && std::time::Instant::now() < deadline {
        found = ids(&listed(app, client, query, "").await);
    }
    assert_eq!(&found, expected, "{query}");
}

#[tokio::test]
async fn the_index_takes_changed_goods_without_building_again() {
    on_both(|app| async move {
        let client = app.demo().await;
        listed(&app, &client, "阿莫西林", "").await;
        let (_, base, changed) = index_state(&app).await;
        assert_eq!(changed, 0, "{}: a fresh index", app.database);

        // A rename, a goods added, a brand renamed: each found at the next search, laid over
        // the same full build.
        let renamed: i64 =
            sqlx::query_scalar("SELECT MIN(id) FROM goods WHERE name LIKE '%阿莫西林%'").fetch_one(&app.db.pool).await.unwrap();
        sqlx::query("UPDATE goods SET name = '鲜测一号胶囊' WHERE id = $1").bind(renamed).execute(&app.db.pool).await.unwrap();
        until_listed(&app, &client, "鲜测一号", &BTreeSet::from([renamed])).await;
        assert!(!ids(&listed(&app, &client, "阿莫西林", "").await).contains(&renamed), "the old name is gone");
        let last: i64 = sqlx::query_scalar("SELECT MAX(id) FROM goods").fetch_one(&app.db.pool).await.unwrap();
        admin(&app, &["seed", "--goods", "3", "--seed", "11"]).await.unwrap();
        let added: Vec<i64> = sqlx::query_scalar("SELECT id FROM goods WHERE id > $1").bind(last).fetch_all(&app.db.pool).await.unwrap();
        assert_eq!(added.len(), 3);
        let (brand, holders): (i64, i64) = sqlx::query_as(
            "SELECT brand_id, COUNT(*) FROM goods WHERE brand_id IS NOT NULL GROUP BY brand_id ORDER BY COUNT(*) DESC, brand_id LIMIT 1",
        )
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        sqlx::query("UPDATE brands SET name = '鲜测品牌' WHERE id = $1").bind(brand).execute(&app.db.pool).await.unwrap();
        let branded: BTreeSet<i64> = sqlx::query_scalar("SELECT id FROM goods WHERE brand_id = $1")
            .bind(brand)
            .fetch_all(&app.db.pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(branded.len() as i64, holders);
        until_listed(&app, &client, "鲜测品牌", &branded).await;
        let (version, same_base, changed) = index_state(&app).await;
        assert_eq!(same_base, base, "{}: no full build", app.database);
        assert!(version > base);
        let touched: BTreeSet<i64> = branded.iter().chain(&added).chain([&renamed]).copied().collect();
        assert_eq!(changed, touched.len() as i64, "the renamed, the added and the brand's goods");

        // Another origin on the database finds the same, from its own full build.
        let (other, stop) = app.another_origin().await;
        let other_client = other.demo().await;
        assert_eq!(ids(&listed(&other, &other_client, "鲜测品牌", "").await), branded);
        assert_eq!(ids(&listed(&other, &other_client, "鲜测一号", "").await), BTreeSet::from([renamed]));
        drop(stop);

        // The changes kept are pruned; an index older than what was pruned builds in full.
        let before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM catalogue_changes").fetch_one(&app.db.pool).await.unwrap();
        let pruned = origin::search::prune_changes(&app.db, 1).await.unwrap();
        let (left, through, latest): (i64, i64, i64) =
            sqlx::query_as("SELECT (SELECT COUNT(*) FROM catalogue_changes), pruned_through, version FROM catalogue_version WHERE id = 1")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert_eq!(pruned as i64, before - left);
        // The last change's version is the brand's: all its goods are kept.
        assert_eq!((left, through), (holders, latest - 1), "{}", app.database);
        assert!(through > base);
        // A rename whose change is pruned with it, before the index could read it.
        let mut tx = app.db.pool.begin().await.unwrap();
        sqlx::query("UPDATE goods SET name = '鲜测二号胶囊' WHERE id = $1").bind(renamed).execute(&mut *tx).await.unwrap();
        sqlx::query("DELETE FROM catalogue_changes").execute(&mut *tx).await.unwrap();
        sqlx::query("UPDATE catalogue_version SET pruned_through = version").execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
        until_listed(&app, &client, "鲜测二号", &BTreeSet::from([renamed])).await;
        let (version, rebuilt, changed) = index_state(&app).await;
        assert_eq!((rebuilt, changed), (version, 0), "{}: built in full", app.database);
    })
    .await;
}

/// The catalogue version and the counted version (migration 0047).
async fn versions(app: &App) -> (i64, i64) {
    sqlx::query_as("SELECT version, counted_version FROM catalogue_version WHERE id = 1").fetch_one(&app.db.pool).await.unwrap()
}

async fn total(app: &App, client: &Client, query: &str) -> i64 {
    let (_, body) = app.get(client, &format!("/api/goods/list?page_size=1&{query}")).await;
    body["data"]["total"].as_i64().unwrap_or_else(|| panic!("{query}: {body}"))
}

/// A list's total is kept until a change that can move it: a rename makes a new catalogue
/// version (the search index takes it) but not a new counted version, so the totals are not
/// counted again; a goods moved to a brand and a goods added to the daily specials each make one, and the totals follow at once.
#[tokio::test]
async fn list_totals_are_counted_again_only_for_changes_that_move_them() {
    on_both(|app| async move {
        let client = app.client();
        let counted = |sql: &'static str| {
            let app = app.clone();
            async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&app.db.pool).await.unwrap() }
        };
        let brand: i64 = counted("SELECT brand_id FROM goods WHERE brand_id > 0 GROUP BY brand_id ORDER BY COUNT(*) DESC LIMIT 1").await;
        let outside: i64 = sqlx::query_scalar("SELECT id FROM goods WHERE brand_id <> $1 ORDER BY id LIMIT 1")
            .bind(brand)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let in_brand = |app: App| async move {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM goods WHERE brand_id = $1").bind(brand).fetch_one(&app.db.pool).await.unwrap()
        };
        let brand_list = format!("brand={brand}");
        let all = counted("SELECT COUNT(*) FROM goods").await;
        assert_eq!(total(&app, &client, "").await, all);
        assert_eq!(total(&app, &client, &brand_list).await, in_brand(app.clone()).await);

        // Renamed, given a new specification and approval number, in one statement and then in
        // another: new catalogue versions, the counted one as it was.
        let (version, counted_before) = versions(&app).await;
        sqlx::query("UPDATE goods SET name = name || '（新包装）', ypgg = ypgg || '*2' WHERE id IN (SELECT id FROM goods ORDER BY id LIMIT 5)")
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE goods SET pzwh = '国药准字H20269999' WHERE id = $1").bind(outside).execute(&app.db.pool).await.unwrap();
        let (renamed, counted_after) = versions(&app).await;
        assert!(renamed > version, "the index sees the renames: {version} → {renamed}");
        assert_eq!(counted_after, counted_before, "no total can move");
        // A statement that sets a counted field to what it holds moves nothing either.
        sqlx::query("UPDATE goods SET brand_id = brand_id, name = name || '·' WHERE id = $1").bind(outside).execute(&app.db.pool).await.unwrap();
        assert_eq!(versions(&app).await.1, counted_before);
        assert_eq!(total(&app, &client, "").await, all);

        // Moved into the brand: the brand's list counts it at once.
        sqlx::query("UPDATE goods SET brand_id = $1 WHERE id = $2").bind(brand).bind(outside).execute(&app.db.pool).await.unwrap();
        let (version, moved) = versions(&app).await;
        assert_eq!(moved, version, "a counted change makes the version counted");
        assert_eq!(total(&app, &client, &brand_list).await, in_brand(app.clone()).await);

        // Several goods moved in one statement: one counted version, the statement's.
        sqlx::query("UPDATE goods SET brand_id = $1 WHERE id IN (SELECT id FROM goods WHERE brand_id <> $1 ORDER BY id LIMIT 3)")
            .bind(brand)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let (version, moved) = versions(&app).await;
        assert_eq!(moved, version);
        assert_eq!(total(&app, &client, &brand_list).await, in_brand(app.clone()).await);

        // The daily specials' list.
        let specials = counted("SELECT COUNT(*) FROM everyday_specials").await;
        assert_eq!(total(&app, &client, "everyday=1").await, specials);
        sqlx::query("INSERT INTO everyday_specials (goods_id, sort) SELECT id, 99 FROM goods WHERE id NOT IN (SELECT goods_id FROM everyday_specials) ORDER BY id LIMIT 2")
            .execute(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(versions(&app).await.1, versions(&app).await.0);
        assert_eq!(total(&app, &client, "everyday=1").await, specials + 2);

        // Goods added (by the catalogue generator, in its batches): every list counts them.
        let said = admin(&app, &["seed", "--goods", "3"]).await.unwrap();
        assert!(said.contains("generated 3 goods"), "{said}");
        assert_eq!(versions(&app).await.1, versions(&app).await.0);
        assert_eq!(total(&app, &client, "").await, all + 3);
    })
    .await;
}
