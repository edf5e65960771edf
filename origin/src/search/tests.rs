//! The index held to a plain substring scan, and its text rules: normalising, pinyin, terms,
//! ranking.

use super::*;

fn row(id: i64, name: &str, sccj: &str, ypgg: &str, pzwh: &str, brand: &str, sales: i64) -> GoodsRow {
    GoodsRow { id, name: name.into(), sccj: sccj.into(), ypgg: ypgg.into(), pzwh: pzwh.into(), brand: brand.into(), sales }
}

fn sample() -> Snapshot {
    Snapshot::build(
        1,
        vec![
            row(1, "阿莫西林胶囊", "华北制药股份有限公司", "0.25g*24粒", "国药准字H13023964", "", 10),
            row(2, "阿莫西林克拉维酸钾片", "珠海联邦制药股份有限公司", "0.375g*12片", "国药准字H10983151", "", 50),
            row(3, "阿莫西林", "石药集团", "0.5g*20粒", "国药准字H1", "", 1),
            row(4, "维生素C片", "东北制药", "0.1g*100片", "国药准字H2", "养生堂", 5),
            row(5, "绿茶", "绿叶", "", "", "", 0),
            row(6, "西林瓶", "阿莫公司", "", "", "", 0),
        ],
        Instant::now(),
    )
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
