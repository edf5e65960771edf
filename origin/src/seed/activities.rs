//! The demo promotions: banners, full-reduction activities, flash sales, combinations, coupons
//! and cash vouchers, the points mall, near-expiry batches, the store-wide discount, cash back,
//! activity pages, controlled sales and the lucky draw.

use anyhow::Context;
use std::collections::HashMap;

use sqlx::{Any, Transaction};

use super::goods::Categories;
use super::{Catalogue, coupon_values, stored};
use crate::now;

pub(super) async fn insert_activities(
    tx: &mut Transaction<'_, Any>,
    catalogue: &Catalogue,
    categories: &Categories,
    goods: &HashMap<String, Vec<i64>>,
) -> anyhow::Result<()> {
    for activity in &catalogue.manjian_activities {
        let id: i64 = sqlx::query_scalar("INSERT INTO manjian_activities (title) VALUES ($1) RETURNING id")
            .bind(&activity.title)
            .fetch_one(&mut **tx)
            .await?;
        for (sort, tier) in activity.tiers.iter().enumerate() {
            sqlx::query("INSERT INTO manjian_tiers (activity_id, amount, reduce, sort) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(stored(&tier.amount)?)
                .bind(stored(&tier.reduce)?)
                .bind(sort as i64)
                .execute(&mut **tx)
                .await?;
        }
        for key in &activity.categories {
            let (_, subtree) = categories.get(key).with_context(|| format!("activity: no category {key}"))?;
            for category in subtree {
                sqlx::query("UPDATE goods SET manjian_id = $1 WHERE category_id = $2 AND manjian_id = 0")
                    .bind(id)
                    .bind(category)
                    .execute(&mut **tx)
                    .await?;
            }
        }
    }
    let first = |name: &str| -> anyhow::Result<i64> {
        goods.get(name).and_then(|ids| ids.first().copied()).with_context(|| format!("no goods named {name}"))
    };
    let start = now() - 3600;
    for (index, sale) in catalogue.flash_sales.iter().enumerate() {
        sqlx::query("INSERT INTO flash_sales (goods_id, price, limit_number, starts_at, ends_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(first(&sale.goods)?)
            .bind(stored(&sale.price)?)
            .bind(sale.limit)
            .bind(start)
            // Staggered ends, days ahead, so the home page always counts down.
            .bind(start + 3 * 86_400 + index as i64 * 5_400)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, name) in catalogue.everyday_specials.iter().enumerate() {
        sqlx::query("INSERT INTO everyday_specials (goods_id, sort) VALUES ($1, $2)")
            .bind(first(name)?)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for combination in &catalogue.combinations {
        let id: i64 = sqlx::query_scalar("INSERT INTO combinations (name, price, stock) VALUES ($1, $2, $3) RETURNING id")
            .bind(&combination.name)
            .bind(stored(&combination.price)?)
            .bind(200i64)
            .fetch_one(&mut **tx)
            .await?;
        for name in &combination.goods {
            sqlx::query("INSERT INTO combination_items (combination_id, goods_id, number) VALUES ($1, $2, 1)")
                .bind(id)
                .bind(first(name)?)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, coupon) in catalogue.coupons.iter().enumerate() {
        let (amount, min_amount, rate, max_reduce) = coupon_values(coupon)?;
        sqlx::query(
            "INSERT INTO coupons (title, amount, min_amount, days, kind, scope, rate, max_reduce, centre_stock, per_member, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&coupon.title)
        .bind(amount)
        .bind(min_amount)
        .bind(coupon.days)
        .bind(coupon.kind)
        .bind(coupon.scope)
        .bind(rate)
        .bind(max_reduce)
        .bind(coupon.centre_stock)
        .bind(coupon.per_member)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    for voucher in &catalogue.cash_vouchers {
        sqlx::query("INSERT INTO cash_vouchers (title, amount, min_amount, days) VALUES ($1, $2, $3, $4)")
            .bind(&voucher.title)
            .bind(stored(&voucher.amount)?)
            .bind(stored(&voucher.min_amount)?)
            .bind(voucher.days)
            .execute(&mut **tx)
            .await?;
    }
    for welfare in &catalogue.welfare {
        engine::Money::parse(&welfare.rate).map_err(|error| anyhow::anyhow!("welfare {}: rate {error}", welfare.title))?;
        sqlx::query("INSERT INTO welfare_activities (title, rate, starts_at, ends_at) VALUES ($1, $2, $3, $4)")
            .bind(&welfare.title)
            .bind(&welfare.rate)
            .bind(now() - 86_400)
            .bind(now() + welfare.days * 86_400)
            .execute(&mut **tx)
            .await?;
    }
    for cashback in &catalogue.cashback {
        let activity: i64 =
            sqlx::query_scalar("INSERT INTO cashback_activities (title, starts_at, ends_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(&cashback.title)
                .bind(now() - 86_400)
                .bind(now() + cashback.days * 86_400)
                .fetch_one(&mut **tx)
                .await?;
        for tier in &cashback.tiers {
            sqlx::query("INSERT INTO cashback_tiers (activity_id, amount, back) VALUES ($1, $2, $3)")
                .bind(activity)
                .bind(stored(&tier.amount)?)
                .bind(stored(&tier.back)?)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, activity) in catalogue.activities.iter().enumerate() {
        let starts = now() + activity.starts_in * 86_400;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO activities (url, title, subtitle, template, color, note, starts_at, ends_at, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(&activity.url)
        .bind(&activity.title)
        .bind(&activity.subtitle)
        .bind(&activity.template)
        .bind(&activity.color)
        .bind(&activity.note)
        .bind(starts)
        .bind(starts + activity.days * 86_400)
        .bind(sort as i64)
        .fetch_one(&mut **tx)
        .await?;
        for (place, section) in activity.sections.iter().enumerate() {
            let section_id: i64 =
                sqlx::query_scalar("INSERT INTO activity_sections (activity_id, title, sort) VALUES ($1, $2, $3) RETURNING id")
                    .bind(id)
                    .bind(&section.title)
                    .bind(place as i64)
                    .fetch_one(&mut **tx)
                    .await?;
            for (order, name) in section.goods.iter().enumerate() {
                sqlx::query("INSERT INTO activity_goods (section_id, goods_id, sort) VALUES ($1, $2, $3)")
                    .bind(section_id)
                    .bind(first(name)?)
                    .bind(order as i64)
                    .execute(&mut **tx)
                    .await?;
            }
        }
    }
    let controlled = &catalogue.controlled;
    for item in &controlled.goods {
        sqlx::query("UPDATE goods SET is_kx = 1, kx_listed_at = $1 WHERE id = $2")
            .bind(now() - item.listed_days_ago * 86_400)
            .bind(first(&item.goods)?)
            .execute(&mut **tx)
            .await?;
    }
    for (sort, programme) in controlled.programmes.iter().enumerate() {
        let id: i64 =
            sqlx::query_scalar("INSERT INTO kx_programmes (url, title, subtitle, color, sort) VALUES ($1, $2, $3, $4, $5) RETURNING id")
                .bind(&programme.url)
                .bind(&programme.title)
                .bind(&programme.subtitle)
                .bind(&programme.color)
                .bind(sort as i64)
                .fetch_one(&mut **tx)
                .await?;
        for (place, name) in programme.goods.iter().enumerate() {
            sqlx::query("INSERT INTO kx_programme_goods (programme_id, goods_id, sort) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(first(name)?)
                .bind(place as i64)
                .execute(&mut **tx)
                .await?;
        }
    }
    for (sort, ad) in controlled.ads.iter().enumerate() {
        sqlx::query("INSERT INTO kx_ads (title, subtitle, color, url, sort) VALUES ($1, $2, $3, $4, $5)")
            .bind(&ad.title)
            .bind(&ad.subtitle)
            .bind(&ad.color)
            .bind(&ad.url)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
    }
    for draw in &catalogue.draws {
        let today = now();
        let activity: i64 =
            sqlx::query_scalar("INSERT INTO draw_activities (title, description, starts_at, ends_at) VALUES ($1, $2, $3, $4) RETURNING id")
                .bind(&draw.title)
                .bind(&draw.description)
                .bind(today - 86_400)
                .bind(today + draw.days * 86_400)
                .fetch_one(&mut **tx)
                .await?;
        for (sort, prize) in draw.prizes.iter().enumerate() {
            let coupon: Option<i64> = match &prize.coupon {
                Some(title) => Some(
                    sqlx::query_scalar("SELECT id FROM coupons WHERE title = $1")
                        .bind(title)
                        .fetch_optional(&mut **tx)
                        .await?
                        .ok_or_else(|| anyhow::anyhow!("draw prize {}: no coupon {title}", prize.name))?,
                ),
                None => None,
            };
            sqlx::query(
                "INSERT INTO draw_prizes (activity_id, name, remarks, kind, coupon_id, points, red_packet, weight, stock, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(activity)
            .bind(&prize.name)
            .bind(&prize.remarks)
            .bind(prize.kind)
            .bind(coupon)
            .bind(prize.points)
            .bind(prize.red_packet.as_deref().map(stored).transpose()?.unwrap_or(0))
            .bind(prize.weight)
            .bind(prize.stock)
            .bind(sort as i64)
            .execute(&mut **tx)
            .await?;
        }
    }
    for (sort, item) in catalogue.points_goods.iter().enumerate() {
        let goods = match &item.goods {
            Some(name) => Some(first(name)?),
            None => None,
        };
        let coupon: Option<i64> = match &item.coupon {
            Some(title) => Some(
                sqlx::query_scalar("SELECT id FROM coupons WHERE title = $1")
                    .bind(title)
                    .fetch_optional(&mut **tx)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("points goods {}: no coupon {title}", item.name))?,
            ),
            None => None,
        };
        sqlx::query(
            "INSERT INTO points_goods (name, description, kind, goods_id, coupon_id, red_packet, points, price, stock, per_member, sort) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&item.name)
        .bind(&item.description)
        .bind(item.kind)
        .bind(goods)
        .bind(coupon)
        .bind(item.red_packet.as_deref().map(stored).transpose()?.unwrap_or(0))
        .bind(item.points)
        .bind(stored(&item.price)?)
        .bind(item.stock)
        .bind(item.per_member)
        .bind(sort as i64)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
