//! A goods' pictures (商品图片), kept in the console. An operator uploads JPEG or PNG files; each
//! is decoded whole to be checked (a file that only begins like a picture is refused), turned
//! upright by its EXIF orientation, laid on white where it is transparent, and encoded again by
//! the shop at two sizes: large for the detail page, at most [`LARGE`] pixels a side, and a
//! thumbnail for cards, lists and the cart, at most [`THUMB`]. What the camera wrote into the
//! file (place, device) is not kept. Both are stored in the database, so that every origin
//! serves them, at addresses that never change meaning (a new picture is a new id).
//!
//! A goods holds at most [`MAX_PER_GOODS`], in the operator's order; the first is its main
//! picture. A goods without any shows the package the shop draws for it
//! (`/api/images/goods/{id}.svg`). Each write is one transaction with its audit row.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits, Rgb, RgbImage};
use serde::Serialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::audit::{self, Actor, Entry};
use super::orders::begin_write;
pub use crate::domain::catalogue::pictures::{Size, card_image, url};
use crate::domain::{Error, Result};

/// The most pictures one goods holds.
pub const MAX_PER_GOODS: usize = 10;
/// The longest side of a large picture, in pixels.
pub const LARGE: u32 = 800;
/// The longest side of a thumbnail, in pixels.
pub const THUMB: u32 = 360;
/// The shortest side a picture may have, in pixels: smaller ones are too coarse to show.
pub const MIN_SIDE: u32 = 200;
/// The longest side a picture may have, in pixels (a file that claims more is not decoded).
pub const MAX_SIDE: u32 = 8000;
/// The JPEG quality the shop encodes at.
const QUALITY: u8 = 85;

/// A picture decoded, checked and encoded again, not yet stored.
#[derive(Debug)]
pub struct Prepared {
    pub file_name: String,
    pub width: u32,
    pub height: u32,
    pub large: Vec<u8>,
    pub thumb: Vec<u8>,
    /// SHA-256 of the file as uploaded, in hex.
    pub digest: String,
}

/// Why a file is not a picture the shop takes: the message the operator reads.
fn unreadable() -> String {
    "图片无法读取，请上传完整的JPG或PNG图片".to_owned()
}

/// Decodes `bytes` (a file named `file_name`, JPEG or PNG by its content) and encodes it again
/// large and as a thumbnail. Takes time in proportion to the picture: run it off the server's
/// threads (`spawn_blocking`). The refusal is the operator's message.
pub fn prepare(file_name: &str, bytes: &[u8]) -> std::result::Result<Prepared, String> {
    let format = match bytes {
        [0xFF, 0xD8, 0xFF, ..] => ImageFormat::Jpeg,
        [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n', ..] => ImageFormat::Png,
        _ => return Err("只能上传JPG或PNG图片".to_owned()),
    };
    let mut reader = ImageReader::new(Cursor::new(bytes));
    reader.set_format(format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(u64::from(MAX_SIDE) * u64::from(MAX_SIDE) * 4);
    reader.limits(limits);
    let too_large = || format!("图片不能超过{MAX_SIDE}×{MAX_SIDE}像素");
    let refusal = |error: ImageError| match error {
        ImageError::Limits(_) => too_large(),
        _ => unreadable(),
    };
    let mut decoder = reader.into_decoder().map_err(refusal)?;
    let orientation = decoder.orientation().map_err(refusal)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(refusal)?;
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(format!("图片至少{MIN_SIDE}×{MIN_SIDE}像素，这张为{width}×{height}"));
    }
    let upright = on_white(&image);
    let large = fit(&upright, LARGE);
    let thumb = fit(&large, THUMB);
    Ok(Prepared {
        file_name: file_name.to_owned(),
        width: large.width(),
        height: large.height(),
        large: jpeg(&large)?,
        thumb: jpeg(&thumb)?,
        digest: hex::encode(Sha256::digest(bytes)),
    })
}

/// `image` as RGB, its transparent parts laid on white (a page's background).
fn on_white(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let blend = |channel: u8| ((u32::from(channel) * u32::from(a) + 255 * (255 - u32::from(a)) + 127) / 255) as u8;
        Rgb([blend(r), blend(g), blend(b)])
    })
}

/// `image` scaled down to at most `side` pixels a side, its proportions kept; as it is when it
/// fits already (a picture is never blown up).
fn fit(image: &RgbImage, side: u32) -> RgbImage {
    let (width, height) = image.dimensions();
    if width <= side && height <= side {
        return image.clone();
    }
    let longest = u64::from(width.max(height));
    // `length × side / longest`, rounded half up, in whole numbers.
    let scaled = |length: u32| ((u64::from(length) * u64::from(side) + longest / 2) / longest).clamp(1, u64::from(side)) as u32;
    image::imageops::resize(image, scaled(width), scaled(height), FilterType::CatmullRom)
}

fn jpeg(image: &RgbImage) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, QUALITY).encode_image(image).map_err(|_| unreadable())?;
    Ok(out)
}

/// A goods' picture as the console and the detail page show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Picture {
    pub id: i64,
    /// The large picture's address.
    #[schema(example = "/api/images/pictures/3/large.jpg")]
    pub large: String,
    /// The thumbnail's address.
    #[schema(example = "/api/images/pictures/3/thumb.jpg")]
    pub thumb: String,
    /// The large picture's size, in pixels.
    pub width: i64,
    pub height: i64,
    /// The name of the file it was uploaded as.
    pub file_name: String,
    pub created_at: i64,
}

#[derive(sqlx::FromRow)]
struct PictureRow {
    id: i64,
    width: i64,
    height: i64,
    file_name: String,
    created_at: i64,
}

impl From<PictureRow> for Picture {
    fn from(row: PictureRow) -> Picture {
        Picture {
            id: row.id,
            large: url(row.id, Size::Large),
            thumb: url(row.id, Size::Thumb),
            width: row.width,
            height: row.height,
            file_name: row.file_name,
            created_at: row.created_at,
        }
    }
}

/// Goods `goods`' pictures, the main one first.
pub async fn list(conn: &mut AnyConnection, goods: i64) -> Result<Vec<Picture>> {
    let rows: Vec<PictureRow> =
        sqlx::query_as("SELECT id, width, height, file_name, created_at FROM goods_pictures WHERE goods_id = $1 ORDER BY sort, id")
            .bind(goods)
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.into_iter().map(Picture::from).collect())
}

/// Picture `id` at `size`: its JPEG bytes; `None` when there is no such picture.
pub async fn file(conn: &mut AnyConnection, id: i64, size: Size) -> Result<Option<Vec<u8>>> {
    let sql = match size {
        Size::Large => "SELECT large FROM goods_pictures WHERE id = $1",
        Size::Thumb => "SELECT thumb FROM goods_pictures WHERE id = $1",
    };
    Ok(sqlx::query_scalar(sql).bind(id).fetch_optional(&mut *conn).await?)
}

/// Locks goods `goods` for the write (404 when there is none).
async fn known_goods(conn: &mut AnyConnection, goods: i64) -> Result<String> {
    let name: Option<String> = sqlx::query_scalar("SELECT name FROM goods WHERE id = $1").bind(goods).fetch_optional(&mut *conn).await?;
    name.ok_or_else(|| Error::not_found("商品不存在"))
}

/// Adds `pictures` after goods `goods`' own, in their order, all or none: refused (422 on
/// `pictures`) when the goods would hold more than [`MAX_PER_GOODS`] or already holds one of
/// them. Answers the goods' pictures now.
pub async fn add(conn: &mut AnyConnection, actor: &Actor, goods: i64, pictures: &[Prepared], now: i64) -> Result<Vec<Picture>> {
    if pictures.is_empty() {
        return Err(Error::field("pictures", "请选择要上传的图片"));
    }
    let mut tx = begin_write(conn).await?;
    let name = known_goods(&mut tx, goods).await?;
    let held: Vec<(String, i64)> =
        sqlx::query_as("SELECT digest, sort FROM goods_pictures WHERE goods_id = $1").bind(goods).fetch_all(&mut *tx).await?;
    if held.len() + pictures.len() > MAX_PER_GOODS {
        let room = MAX_PER_GOODS - held.len();
        return Err(Error::field("pictures", format!("每个商品最多{MAX_PER_GOODS}张图片，还可上传{room}张")));
    }
    for (at, picture) in pictures.iter().enumerate() {
        let again = held.iter().any(|(digest, _)| *digest == picture.digest)
            || pictures[..at].iter().any(|earlier| earlier.digest == picture.digest);
        if again {
            return Err(Error::field("pictures", format!("{}：这张图片已上传过", picture.file_name)));
        }
    }
    let mut sort = held.iter().map(|(_, sort)| *sort).max().unwrap_or(0);
    for picture in pictures {
        sort += 1;
        sqlx::query(
            "INSERT INTO goods_pictures (goods_id, sort, width, height, large, thumb, digest, file_name, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(goods)
        .bind(sort)
        .bind(i64::from(picture.width))
        .bind(i64::from(picture.height))
        .bind(picture.large.as_slice())
        .bind(picture.thumb.as_slice())
        .bind(&picture.digest)
        .bind(&picture.file_name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    let after = list(&mut tx, goods).await?;
    let files: Vec<&str> = pictures.iter().map(|picture| picture.file_name.as_str()).collect();
    let entry = Entry {
        action: "goods.pictures",
        target: format!("goods:{goods}"),
        member: None,
        summary: format!("上传商品图片 {goods} {name}：{}张（{}）", pictures.len(), files.join("、")),
        before: json!({ "pictures": held.len() }),
        after: json!({ "pictures": ids(&after), "added": files }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(after)
}

fn ids(pictures: &[Picture]) -> Vec<i64> {
    pictures.iter().map(|picture| picture.id).collect()
}

/// Deletes picture `picture` of goods `goods` (404 when the goods holds no such picture).
/// Answers the goods' pictures now: the next becomes the main one.
pub async fn remove(conn: &mut AnyConnection, actor: &Actor, goods: i64, picture: i64, now: i64) -> Result<Vec<Picture>> {
    let mut tx = begin_write(conn).await?;
    let name = known_goods(&mut tx, goods).await?;
    let before = list(&mut tx, goods).await?;
    let Some(gone) = before.iter().find(|held| held.id == picture) else {
        return Err(Error::not_found("图片不存在"));
    };
    sqlx::query("DELETE FROM goods_pictures WHERE id = $1 AND goods_id = $2").bind(picture).bind(goods).execute(&mut *tx).await?;
    let after = list(&mut tx, goods).await?;
    let entry = Entry {
        action: "goods.pictures",
        target: format!("goods:{goods}"),
        member: None,
        summary: format!("删除商品图片 {goods} {name}：{}", gone.file_name),
        before: json!({ "pictures": ids(&before) }),
        after: json!({ "pictures": ids(&after) }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(after)
}

/// Puts goods `goods`' pictures in `order` (each of its pictures once; the first becomes the
/// main one). The same order again changes and records nothing. Answers the pictures now.
pub async fn arrange(conn: &mut AnyConnection, actor: &Actor, goods: i64, order: &[i64], now: i64) -> Result<Vec<Picture>> {
    let mut tx = begin_write(conn).await?;
    let name = known_goods(&mut tx, goods).await?;
    let before = list(&mut tx, goods).await?;
    let held = ids(&before);
    let mut given = order.to_vec();
    given.sort_unstable();
    given.dedup();
    let mut sorted = held.clone();
    sorted.sort_unstable();
    if given.len() != order.len() || given != sorted {
        return Err(Error::field("order", "图片顺序须包含该商品的每张图片各一次"));
    }
    if held == order {
        return Ok(before);
    }
    for (at, picture) in order.iter().enumerate() {
        sqlx::query("UPDATE goods_pictures SET sort = $1 WHERE id = $2 AND goods_id = $3")
            .bind(at as i64 + 1)
            .bind(picture)
            .bind(goods)
            .execute(&mut *tx)
            .await?;
    }
    let after = list(&mut tx, goods).await?;
    let entry = Entry {
        action: "goods.pictures",
        target: format!("goods:{goods}"),
        member: None,
        summary: format!("调整商品图片顺序 {goods} {name}"),
        before: json!({ "pictures": held }),
        after: json!({ "pictures": ids(&after) }),
    };
    audit::record(&mut tx, actor, entry, now).await?;
    tx.commit().await?;
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{ImageEncoder, Rgba, RgbaImage};

    fn png(width: u32, height: u32, alpha: u8) -> Vec<u8> {
        let image = RgbaImage::from_fn(width, height, |x, y| Rgba([(x % 256) as u8, (y % 256) as u8, 40, alpha]));
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new(&mut out).write_image(&image, width, height, image::ExtendedColorType::Rgba8).unwrap();
        out
    }

    fn decoded(bytes: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(bytes, ImageFormat::Jpeg).unwrap()
    }

    #[test]
    fn a_picture_is_encoded_again_large_and_as_a_thumbnail_in_proportion() {
        let prepared = prepare("a.png", &png(1200, 600, 255)).unwrap();
        assert_eq!((prepared.width, prepared.height), (800, 400));
        let large = decoded(&prepared.large);
        assert_eq!((large.width(), large.height()), (800, 400));
        let thumb = decoded(&prepared.thumb);
        assert_eq!((thumb.width(), thumb.height()), (360, 180));
        assert_eq!(prepared.digest.len(), 64);
    }

    #[test]
    fn a_small_picture_is_never_blown_up_and_transparency_becomes_white() {
        let prepared = prepare("a.png", &png(300, 250, 0)).unwrap();
        assert_eq!((prepared.width, prepared.height), (300, 250));
        let large = decoded(&prepared.large).to_rgb8();
        let Rgb([r, g, b]) = *large.get_pixel(150, 120);
        assert!(r > 245 && g > 245 && b > 245, "{r} {g} {b}");
    }

    #[test]
    fn files_that_are_not_whole_pictures_are_refused_with_the_reason() {
        assert_eq!(prepare("a.gif", b"GIF89a....").unwrap_err(), "只能上传JPG或PNG图片");
        let whole = png(400, 400, 255);
        assert_eq!(prepare("a.png", &whole[..whole.len() / 2]).unwrap_err(), unreadable());
        assert_eq!(prepare("a.jpg", b"\xFF\xD8\xFF\xE0 not a jpeg at all").unwrap_err(), unreadable());
        assert_eq!(prepare("a.png", &png(150, 400, 255)).unwrap_err(), "图片至少200×200像素，这张为150×400");
    }

    #[test]
    fn a_picture_claiming_a_huge_size_is_refused_before_it_is_decoded() {
        // A PNG header claiming 9000×9000 pixels, and no pixels.
        let mut header = png(200, 200, 255);
        header[16..20].copy_from_slice(&9000_u32.to_be_bytes());
        header[20..24].copy_from_slice(&9000_u32.to_be_bytes());
        let crc = crc32(&header[12..29]);
        header[29..33].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(prepare("a.png", &header).unwrap_err(), format!("图片不能超过{MAX_SIDE}×{MAX_SIDE}像素"));
    }

    /// The CRC of a PNG chunk (ISO 3309), bit by bit.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0_u32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    #[test]
    fn addresses() {
        assert_eq!(card_image(7, None), "/api/images/goods/7.svg");
        assert_eq!(card_image(7, Some(3)), "/api/images/pictures/3/thumb.jpg");
        assert_eq!(Size::of_file("large.jpg"), Some(Size::Large));
        assert_eq!(Size::of_file("x.jpg"), None);
    }
}
