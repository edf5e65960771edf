//! The demo content: help and news articles, and the adverts.

use anyhow::bail;
use sqlx::{Any, Transaction};

use super::{Catalogue, HELP_FIRST_ID};

pub(super) async fn insert_content(tx: &mut Transaction<'_, Any>, catalogue: &Catalogue) -> anyhow::Result<()> {
    for (sort, term) in catalogue.hot_terms.iter().enumerate() {
        sqlx::query("INSERT INTO hot_terms (term, sort) VALUES ($1, $2)").bind(term).bind(sort as i64).execute(&mut **tx).await?;
    }
    for (sort, link) in catalogue.nav.iter().enumerate() {
        sqlx::query("INSERT INTO nav (name, url, is_open, sort) VALUES ($1, $2, 0, $3)")
            .bind(link.name.as_deref().or(link.title.as_deref()).unwrap_or_default())
            .bind(&link.url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, banner) in catalogue.banners.iter().enumerate() {
        insert_ad(tx, "focus", &banner.title, &banner.subtitle, &banner.url, &banner.color, sort).await?;
    }
    for (position, ads) in &catalogue.right_ads {
        for (sort, ad) in ads.iter().enumerate() {
            let title = ad.title.as_deref().or(ad.name.as_deref()).unwrap_or_default();
            insert_ad(tx, position, title, "", &ad.url, "", sort).await?;
        }
    }
    // Help articles keep fixed ids from 66 on: the footer links the first, 会员注册, as
    // `/help/xrzn/hyzc?id=66` (spec §2).
    let mut help_id = HELP_FIRST_ID;
    for (sort, group) in catalogue.help.iter().enumerate() {
        for (item_sort, item) in group.items.iter().enumerate() {
            sqlx::query("INSERT INTO articles (id, kind, group_name, path, title, body, sort) VALUES ($1, 'help', $2, $3, $4, $5, $6)")
                .bind(help_id)
                .bind(&group.group)
                .bind(&item.path)
                .bind(&item.title)
                .bind(&item.body)
                .bind((sort * 100 + item_sort) as i64)
                .execute(&mut **tx)
                .await?;
            help_id += 1;
        }
    }
    for (sort, news) in catalogue.news.iter().enumerate() {
        sqlx::query(
            "INSERT INTO articles (kind, category, title, summary, body, published_on, sort) \
             VALUES ('news', $1, $2, $3, $4, $5, $6)",
        )
        .bind(&news.category)
        .bind(&news.title)
        .bind(&news.summary)
        .bind(&news.body)
        .bind(&news.date)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    let links = [("国家药品监督管理局", "https://www.nmpa.gov.cn"), ("中国医药商业协会", "https://www.cacpc.org.cn")];
    for (sort, (name, url)) in links.iter().enumerate() {
        sqlx::query("INSERT INTO links (name, url, sort) VALUES ($1, $2, $3)")
            .bind(*name)
            .bind(*url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    // The shop's identity, each value as `origin admin settings` would take it.
    for field in &crate::domain::shop::FIELDS {
        let value = catalogue.shop.get(field.name).unwrap_or_default();
        match crate::domain::shop::check(field, value) {
            Ok(kept) if kept == value => {}
            Ok(kept) => bail!("the catalogue's shop.{} must be written as {kept:?}", field.name),
            Err(why) => bail!("the catalogue's shop.{}: {why}", field.name),
        }
    }
    let mut settings = catalogue.shop.rows();
    settings.extend([
        ("quality_inspection_msg", "质检报告请联系您的专属客服索取"),
        // Settlement (docs/pricing.md, rules 15–17), as migration 0009 writes them.
        ("shipping_fee", "10.00"),
        ("red_packet_max_rate", "0.1"),
        ("points_max_rate", "0.1"),
        ("points_per_yuan", "100"),
        ("points_earned_per_yuan", "1"),
    ]);
    for (key, value) in settings {
        sqlx::query("INSERT INTO settings (key, value) VALUES ($1, $2)").bind(key).bind(value).execute(&mut **tx).await?;
    }
    Ok(())
}

async fn insert_ad(
    tx: &mut Transaction<'_, Any>,
    position: &str,
    title: &str,
    subtitle: &str,
    url: &str,
    color: &str,
    sort: usize,
) -> anyhow::Result<()> {
    sqlx::query("INSERT INTO ads (position, title, subtitle, url, image, color, sort) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(position)
        .bind(title)
        .bind(subtitle)
        .bind(url)
        .bind(format!("/api/images/ad/{position}/{sort}.svg"))
        .bind(color)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
