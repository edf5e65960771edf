//! The index held to a plain substring scan, and its text rules: normalising, pinyin, terms,
//! ranking.

use super::*;

fn row(id: i64, name: &str, sccj: &str, ypgg: &str, pzwh: &str, brand: &str, sales: i64) -> GoodsRow {
    GoodsRow { id, name: name.into(), sccj: sccj.into(), ypgg: ypgg.into(), pzwh: pzwh.into(), brand: brand.into(), sales }
}

fn sample() -> Snapshot {
    Snapshot::build(1, sample_rows(), Instant::now())
}

fn sample_rows() -> Vec<GoodsRow> {
    vec![
        row(1, "阿莫西林胶囊", "华北制药股份有限公司", "0.25g*24粒", "国药准字H13023964", "", 10),
        row(2, "阿莫西林克拉维酸钾片", "珠海联邦制药股份有限公司", "0.375g*12片", "国药准字H10983151", "", 50),
        row(3, "阿莫西林", "石药集团", "0.5g*20粒", "国药准字H1", "", 1),
        row(4, "维生素C片", "东北制药", "0.1g*100片", "国药准字H2", "养生堂", 5),
        row(5, "绿茶", "绿叶", "", "", "", 0),
        row(6, "西林瓶", "阿莫公司", "", "", "", 0),
    ]
}

fn ids(hits: &[Hit]) -> Vec<i64> {
    hits.iter().map(|hit| hit.id).collect()
}

#[test]
fn pinyin_spells_and_initials() {
    assert_eq!(pinyin("阿莫西林"), ("amoxilin".into(), "amxl".into()));
    assert_eq!(pinyin("维生素C片"), ("weishengsucpian".into(), "wsscp".into()));
    assert_eq!(pinyin("绿"), ("lv".into(), "l".into()));
}

#[test]
fn ranks_by_quality_then_sales() {
    let index = sample();
    // 3 is the name, 1 starts with it, 2 starts with it and sells more than 1.
    assert_eq!(ids(&index.ranked("阿莫西林", Scope::All)), vec![3, 2, 1]);
    assert_eq!(ids(&index.ranked("amxl", Scope::All)), vec![3, 2, 1]);
    // 6 holds 阿莫 in its manufacturer only: last.
    assert_eq!(ids(&index.ranked("阿莫", Scope::All)), vec![2, 1, 3, 6]);
    assert_eq!(ids(&index.ranked("ＡＭＸＬ", Scope::All)), vec![3, 2, 1]);
    let mut top = index.find("阿莫", Scope::All);
    rank_top(&mut top, 2);
    assert_eq!(ids(&top[..2]), vec![2, 1]);
    // Sales read again rank again.
    index.set_sales(&[(1, 100), (99, 7)]);
    assert_eq!(ids(&index.ranked("阿莫西林", Scope::All)), vec![3, 1, 2]);
}

#[test]
fn finds_substrings_not_scattered_bigrams() {
    let index = sample();
    // 西林 and 林瓶 are both in 6, and 西林 in 1–3, but 西林瓶 only in 6.
    assert_eq!(ids(&index.ranked("西林瓶", Scope::All)), vec![6]);
    // The bigrams of 莫西林胶 are all in 1, in that order.
    assert_eq!(ids(&index.ranked("莫西林胶", Scope::All)), vec![1]);
    assert!(index.find("林西", Scope::All).is_empty());
    assert!(index.find("", Scope::All).is_empty());
    assert!(index.find("   ", Scope::All).is_empty());
    // Every term must match.
    assert_eq!(ids(&index.ranked("阿莫西林 华北", Scope::All)), vec![1]);
    assert_eq!(ids(&index.ranked("h13023964", Scope::All)), vec![1]);
    assert_eq!(ids(&index.ranked("养生堂", Scope::All)), vec![4]);
    assert_eq!(ids(&index.ranked("lv", Scope::All)), vec![5]);
}

#[test]
fn suggestions_look_in_their_field_only() {
    let index = sample();
    // All three start with 阿莫: by sales.
    assert_eq!(index.suggest("阿莫", Scope::Name, 10), vec!["阿莫西林克拉维酸钾片", "阿莫西林胶囊", "阿莫西林"]);
    assert_eq!(index.suggest("阿莫西林", Scope::Name, 10), vec!["阿莫西林", "阿莫西林克拉维酸钾片", "阿莫西林胶囊"]);
    assert_eq!(index.suggest("阿莫", Scope::Manufacturer, 10), vec!["阿莫公司"]);
    assert_eq!(index.suggest("zyjt", Scope::Manufacturer, 10), Vec::<String>::new());
    assert_eq!(index.suggest("sy", Scope::Manufacturer, 10), vec!["石药集团"]);
    assert_eq!(index.suggest("阿莫", Scope::Name, 1), vec!["阿莫西林克拉维酸钾片"]);
}

#[test]
fn changes_laid_over_a_build_answer_what_a_build_of_the_result_answers() {
    let index = sample();
    // Version 2: 2 renamed, 5 removed, 7 added. Version 3: 6 changed, 7 changed again, 8 added.
    let two = index.with_changes(
        2,
        &[7, 2, 5],
        vec![
            row(2, "布洛芬缓释胶囊", "中美史克", "0.3g*20粒", "国药准字H10900089", "芬必得", 80),
            row(7, "阿莫西林颗粒", "华北制药股份有限公司", "0.125g*12袋", "国药准字H7", "", 3),
        ],
    );
    let three = two.with_changes(
        3,
        &[6, 7, 8],
        vec![
            row(6, "阿莫西林分散片", "阿莫公司", "0.25g*12片", "", "", 2),
            row(7, "阿莫西林干混悬剂", "华北制药股份有限公司", "", "", "", 3),
            row(8, "感冒灵颗粒", "华润三九", "10g*9袋", "国药准字Z44021940", "999", 40),
        ],
    );
    let mut rows = sample_rows();
    rows.retain(|row| ![2, 5, 6].contains(&row.id));
    rows.extend([
        row(2, "布洛芬缓释胶囊", "中美史克", "0.3g*20粒", "国药准字H10900089", "芬必得", 80),
        row(6, "阿莫西林分散片", "阿莫公司", "0.25g*12片", "", "", 2),
        row(7, "阿莫西林干混悬剂", "华北制药股份有限公司", "", "", "", 3),
        row(8, "感冒灵颗粒", "华润三九", "10g*9袋", "国药准字Z44021940", "999", 40),
    ]);
    rows.sort_by_key(|row| row.id);
    let rebuilt = Snapshot::build(3, rows, Instant::now());
    assert_eq!((three.len(), three.changed(), three.base_version(), three.version), (7, 4, 1, 3));
    for query in
        ["阿莫西林", "amxl", "阿莫", "布洛芬", "blf", "西林", "华北", "片", "颗粒", "芬必得", "绿茶", "lv", "999", "h7", "干混", "没有"]
    {
        for scope in [Scope::All, Scope::Name, Scope::Manufacturer] {
            assert_eq!(ids(&three.ranked(query, scope)), ids(&rebuilt.ranked(query, scope)), "{query} {scope:?}");
            assert_eq!(three.suggest(query, scope, 10), rebuilt.suggest(query, scope, 10), "{query} {scope:?}");
        }
    }
    assert_eq!(ids(&three.ranked("阿莫西林", Scope::All)), vec![3, 1, 7, 6]);
    // The snapshots before are as they were.
    assert_eq!(ids(&index.ranked("阿莫西林", Scope::All)), vec![3, 2, 1]);
    assert_eq!(ids(&two.ranked("阿莫西林", Scope::All)), vec![3, 1, 7]);
    assert!(two.find("绿茶", Scope::All).is_empty());
    // Built again from its own goods: the same answers, with nothing laid over.
    let compacted = three.compacted(Instant::now());
    assert_eq!((compacted.len(), compacted.changed(), compacted.base_version(), compacted.version), (7, 0, 3, 3));
    for query in ["阿莫西林", "amxl", "阿莫", "布洛芬", "华北", "片", "颗粒", "999", "lv"] {
        for scope in [Scope::All, Scope::Name, Scope::Manufacturer] {
            assert_eq!(ids(&compacted.ranked(query, scope)), ids(&rebuilt.ranked(query, scope)), "{query} {scope:?}");
            assert_eq!(compacted.suggest(query, scope, 10), rebuilt.suggest(query, scope, 10), "{query} {scope:?}");
        }
    }
    // Sales reach the changed goods too.
    three.set_sales(&[(6, 100), (3, 200)]);
    assert_eq!(ids(&three.ranked("阿莫西林", Scope::All)), vec![3, 6, 1, 7]);
}
