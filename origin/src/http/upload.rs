//! Files members upload (certificate scans, feedback, after-sales and return photos): read from
//! a multipart form, refused unless their content is of an allowed type (whatever the name or
//! declared type says), small enough and plainly named, within the member's quota of the day
//! and while the disk has room, stored under `DATA_DIR/uploads/<member>/` with a random name of
//! the shop's, and served back to their member only.

use std::collections::HashMap;
use std::path::Path;

use axum::body::{Body, Bytes};
use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use sqlx::{AnyConnection, Connection};

use super::ApiContext;
use super::error::{Error, Refusal, Result};
use super::extract::{FormFields, Member, checked};
use crate::now;
use crate::security::Text;

/// The largest file, in bytes.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// The largest multipart body: a few files and their fields.
pub const BODY_LIMIT: usize = 6 * MAX_BYTES;

/// The kinds of file a member may upload, told by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Jpeg,
    Png,
    Pdf,
}

impl Kind {
    pub fn of(bytes: &[u8]) -> Option<Kind> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Kind::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Kind::Png)
        } else if bytes.starts_with(b"%PDF-") {
            Some(Kind::Pdf)
        } else {
            None
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Kind::Jpeg => "image/jpeg",
            Kind::Png => "image/png",
            Kind::Pdf => "application/pdf",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Kind::Jpeg => "jpg",
            Kind::Png => "png",
            Kind::Pdf => "pdf",
        }
    }
}

/// A file name as the browser sends it: a plain name, no folder, no `..`, no control character.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 200
        && !name.contains(['/', '\\', ':'])
        && name != "."
        && !name.contains("..")
        && !name.chars().any(char::is_control)
}

fn too_large(field: &str) -> Error {
    Error::field(field, format!("文件不能超过{}MB", MAX_BYTES / 1024 / 1024))
}

/// A multipart form: its text fields (the last value of each), and its files under `file_field`.
#[derive(Default)]
pub struct Form {
    pub fields: HashMap<String, String>,
    pub files: Vec<(String, Bytes)>,
}

impl Form {
    /// Reads the form; at most `max_files` files named `file_field` (or `file_field[]`).
    pub async fn read(mut multipart: Multipart, file_field: &str, max_files: usize) -> Result<Form> {
        let unreadable = || Error::field(file_field, "上传内容无法读取");
        let refused = |error: MultipartError| match error.status() {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(file_field),
            _ => unreadable(),
        };
        let mut form = Form::default();
        while let Some(field) = multipart.next_field().await.map_err(refused)? {
            let name = field.name().unwrap_or_default().trim_end_matches("[]").to_owned();
            if name == file_field {
                if form.files.len() == max_files {
                    return Err(Error::field(file_field, format!("最多上传{max_files}个文件")));
                }
                let file_name = field.file_name().unwrap_or_default().to_owned();
                let bytes = field.bytes().await.map_err(refused)?;
                form.files.push((file_name, bytes));
            } else {
                let value = field.text().await.map_err(|_| unreadable())?.trim().to_owned();
                if !value.is_empty() && !value.contains('\0') {
                    form.fields.insert(name, value);
                }
            }
        }
        Ok(form)
    }

    /// Reads a multipart form (`multipart/form-data`), or a form-encoded body — the way every
    /// other call sends its fields (§7) — which has no files. `file_field` and `max_files` as
    /// [`Form::read`].
    pub async fn read_any(request: Request, file_field: &str, max_files: usize) -> Result<Form> {
        let multipart = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.trim_start().to_ascii_lowercase().starts_with("multipart/form-data"));
        if multipart {
            let multipart = Multipart::from_request(request, &()).await.map_err(|_| Error::field(file_field, "上传内容无法读取"))?;
            return Form::read(multipart, file_field, max_files).await;
        }
        let FormFields(fields) = FormFields::from_request(request, &()).await?;
        let fields = fields.texts().filter(|(name, _)| *name != file_field).map(|(name, value)| (name.to_owned(), value)).collect();
        Ok(Form { fields, files: Vec::new() })
    }

    pub fn text(&self, name: &str) -> Option<String> {
        self.fields.get(name).cloned()
    }

    /// A free-text field within its limit, as [`Fields::bounded`](super::extract::Fields::bounded).
    pub fn bounded(&self, spec: Text) -> Result<Option<String>> {
        checked(spec, self.text(spec.field))
    }
}

/// A call's typed multipart request, read from its text fields and files ([`Form`]) with the
/// same Chinese 422 messages as every form.
pub trait FromUpload: Sized {
    /// The field the files come in, and how many it takes.
    const FILES: (&'static str, usize);
    /// Whether a form-encoded body (fields, no files) does as well as a multipart one.
    const FORM_ENCODED_TOO: bool = false;

    fn from_upload(form: Form) -> Result<Self>;
}

/// A multipart body (`multipart/form-data`) read as the call's request `T`; its schema is the
/// operation's `request_body`.
pub struct Upload<T>(pub T);

impl<S: Send + Sync, T: FromUpload> FromRequest<S> for Upload<T> {
    /// axum's own refusal of a body that is not multipart, enveloped like every other
    /// (`http::envelope_rejections`); or the field's 422.
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> std::result::Result<Upload<T>, Response> {
        let (field, max) = T::FILES;
        let form = if T::FORM_ENCODED_TOO {
            Form::read_any(request, field, max).await
        } else {
            let multipart = Multipart::from_request(request, state).await.map_err(IntoResponse::into_response)?;
            Form::read(multipart, field, max).await
        };
        form.and_then(T::from_upload).map(Upload).map_err(IntoResponse::into_response)
    }
}

/// A file checked: its kind and content.
pub struct Checked {
    pub kind: Kind,
    pub bytes: Bytes,
}

/// Checks an uploaded file: a plain name, at most [`MAX_BYTES`], and content of one of `allowed`
/// (422 on `field` with what is wrong).
pub fn check(field: &str, name: &str, bytes: Bytes, allowed: &[Kind], allowed_text: &str) -> Result<Checked> {
    if !is_plain_name(name) {
        return Err(Error::field(field, "文件名不正确"));
    }
    if bytes.len() > MAX_BYTES {
        return Err(too_large(field));
    }
    match Kind::of(&bytes) {
        Some(kind) if allowed.contains(&kind) => Ok(Checked { kind, bytes }),
        _ => Err(Error::field(field, format!("只能上传{allowed_text}文件"))),
    }
}

/// Photos of a message (after-sales, returns, feedback): each checked as JPEG or PNG, on the
/// field `photos`.
pub fn photos(files: Vec<(String, Bytes)>) -> Result<Vec<Checked>> {
    files.into_iter().map(|(name, bytes)| check("photos", &name, bytes, &[Kind::Jpeg, Kind::Png], "JPG或PNG")).collect()
}

/// Stores checked files under the member's folder; answers their stored names, in order.
/// Nothing is written when the disk is low (507, [`disk_has_room`]) or the files would take
/// the member over the day's quota (429, [`take_quota`]).
pub async fn store(context: &ApiContext, member: Member, files: &[Checked]) -> Result<Vec<String>> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let bytes: i64 = files.iter().map(|file| file.bytes.len() as i64).sum();
    if !disk_has_room(&context.uploads, context.security.upload_min_free_bytes, bytes)? {
        return Err(Error::Refused(Refusal::NoSpace, DISK_LOW.into()));
    }
    take_quota(context, member, files.len() as i64, bytes).await?;
    let folder = context.uploads.join(member.id.to_string());
    tokio::fs::create_dir_all(&folder).await.map_err(anyhow::Error::from)?;
    let mut stored = Vec::with_capacity(files.len());
    for file in files {
        let name = format!("{}.{}", hex::encode(rand::random::<[u8; 16]>()), file.kind.extension());
        tokio::fs::write(folder.join(&name), &file.bytes).await.map_err(anyhow::Error::from)?;
        stored.push(name);
    }
    Ok(stored)
}

/// Deletes stored files of the member (a replaced scan, files whose row was never written); a
/// file already gone is no fault, and any other failure is logged, not answered: the member's
/// request has succeeded.
pub async fn remove(context: &ApiContext, member: Member, stored: &[String]) {
    let folder = context.uploads.join(member.id.to_string());
    for name in stored.iter().filter(|name| is_plain_name(name)) {
        match tokio::fs::remove_file(folder.join(name)).await {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => tracing::warn!(member = member.id, file = %name, %error, "an uploaded file could not be deleted"),
        }
    }
}

/// The 507 of an upload refused for want of disk space.
pub const DISK_LOW: &str = "服务器存储空间不足，暂时无法上传，请稍后再试";

/// Whether the disk of `folder` (or of its nearest existing parent: the folder is made at the
/// first upload) keeps at least `min_free` bytes free for other users once `bytes` more are
/// written. Unprivileged free space (`f_bavail`), as the origin's own writes see it.
fn disk_has_room(folder: &Path, min_free: i64, bytes: i64) -> Result<bool> {
    let existing = folder.ancestors().find(|path| path.exists()).unwrap_or(Path::new("."));
    let stat = rustix::fs::statvfs(existing).map_err(|error| anyhow::anyhow!("statvfs {}: {error}", existing.display()))?;
    let free = i64::try_from(stat.f_bavail.saturating_mul(stat.f_frsize)).unwrap_or(i64::MAX);
    let room = free.saturating_sub(bytes) >= min_free;
    if !room {
        tracing::warn!(free, min_free, bytes, folder = %folder.display(), "an upload was refused: the disk is low");
    }
    Ok(room)
}

/// Takes `files` files of `bytes` bytes from the member's quotas of the shop's day
/// (`UPLOADS_PER_DAY`, `UPLOAD_BYTES_PER_DAY`), both or neither; 429 `今日上传已达上限…` when
/// either would be exceeded.
async fn take_quota(context: &ApiContext, member: Member, files: i64, bytes: i64) -> Result<()> {
    let security = &context.security;
    let mut conn = context.db.pool.acquire().await?;
    let mut tx = conn.begin().await?;
    let taken = take(&mut tx, &format!("upload-files:{}", member.id), files, security.uploads_per_day).await?
        && take(&mut tx, &format!("upload-bytes:{}", member.id), bytes, security.upload_bytes_per_day).await?;
    if !taken {
        tx.rollback().await?;
        return Err(Error::too_many(format!(
            "今日上传已达上限（每天最多{}个文件、共{}），请明天再试",
            security.uploads_per_day,
            size_text(security.upload_bytes_per_day)
        )));
    }
    tx.commit().await?;
    Ok(())
}

/// A size for the buyer: `50MB`, `512KB`, or `1000字节`.
fn size_text(bytes: i64) -> String {
    const KB: i64 = 1024;
    match bytes {
        _ if bytes >= KB * KB && bytes % (KB * KB) == 0 => format!("{}MB", bytes / KB / KB),
        _ if bytes >= KB && bytes % KB == 0 => format!("{}KB", bytes / KB),
        _ => format!("{bytes}字节"),
    }
}

/// Adds `amount` to the counter `key` of the shop's day unless that takes it over `limit`;
/// answers whether it was added. The counter is a `rate_limits` row whose window ends with the
/// day (UTC+8), so the hourly purge deletes it after; one statement, so that parallel uploads
/// cannot all slip under the limit.
async fn take(conn: &mut AnyConnection, key: &str, amount: i64, limit: i64) -> std::result::Result<bool, sqlx::Error> {
    if amount > limit {
        return Ok(false);
    }
    let time = now();
    let added: Option<i64> = sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_end, hits) VALUES ($1, $2, $3) \
         ON CONFLICT (key) DO UPDATE SET \
           hits = CASE WHEN rate_limits.window_end > $4 THEN rate_limits.hits + $3 ELSE $3 END, \
           window_end = CASE WHEN rate_limits.window_end > $4 THEN rate_limits.window_end ELSE $2 END \
         WHERE rate_limits.window_end <= $4 OR rate_limits.hits + $3 <= $5 \
         RETURNING hits",
    )
    .bind(key)
    .bind(end_of_day(time))
    .bind(amount)
    .bind(time)
    .bind(limit)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(added.is_some())
}

/// The end of the shop's day (it begins at midnight UTC+8) that `time` falls in.
fn end_of_day(time: i64) -> i64 {
    const OFFSET: i64 = 8 * 3600;
    ((time + OFFSET).div_euclid(86_400) + 1) * 86_400 - OFFSET
}

/// Serves one of the member's stored files as `content_type` (private, never sniffed, shown in
/// the browser under its stored name); 404 when it is gone.
pub async fn serve(context: &ApiContext, member: Member, stored: &str, content_type: &str) -> Result<Response> {
    if !is_plain_name(stored) {
        return Err(Error::not_found("文件不存在"));
    }
    let path = context.uploads.join(member.id.to_string()).join(stored);
    let bytes = match tokio::fs::read(&path).await {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(Error::not_found("文件不存在")),
        Err(error) => return Err(anyhow::Error::from(error).into()),
    };
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            (header::CONTENT_DISPOSITION, format!("inline; filename=\"{stored}\"")),
        ],
        Body::from(bytes),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_told_by_their_content() {
        assert_eq!(Kind::of(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]), Some(Kind::Jpeg));
        assert_eq!(Kind::of(b"\x89PNG\r\n\x1a\nrest"), Some(Kind::Png));
        assert_eq!(Kind::of(b"%PDF-1.7\n"), Some(Kind::Pdf));
        assert_eq!(Kind::of(b"<html><script>"), None);
        assert_eq!(Kind::of(b"GIF89a"), None);
        let png = Bytes::from_static(b"\x89PNG\r\n\x1a\nrest");
        assert!(check("photos", "a.png", png.clone(), &[Kind::Jpeg, Kind::Png], "JPG或PNG").is_ok());
        let Err(Error::Validation(errors)) =
            check("photos", "a.pdf", Bytes::from_static(b"%PDF-1.4"), &[Kind::Jpeg, Kind::Png], "JPG或PNG")
        else {
            panic!()
        };
        assert_eq!(errors[0].1, "只能上传JPG或PNG文件");
    }

    #[test]
    fn the_day_ends_at_midnight_in_china() {
        let midnight = 20_596 * 86_400 - 8 * 3600;
        assert_eq!(end_of_day(midnight), midnight + 86_400);
        assert_eq!(end_of_day(midnight - 1), midnight);
        assert_eq!(end_of_day(midnight + 86_399), midnight + 86_400);
    }

    #[test]
    fn sizes_are_written_for_the_buyer() {
        assert_eq!(size_text(50 * 1024 * 1024), "50MB");
        assert_eq!(size_text(512 * 1024), "512KB");
        assert_eq!(size_text(1000), "1000字节");
    }

    #[test]
    fn a_disk_without_room_is_told() {
        let folder = std::env::temp_dir().join("not-made-yet").join("uploads");
        assert!(disk_has_room(&folder, 0, 0).unwrap());
        assert!(!disk_has_room(&folder, i64::MAX, 1).unwrap());
    }

    #[test]
    fn file_names_are_plain() {
        assert!(is_plain_name("营业执照.jpg"));
        for bad in ["../etc/passwd", "a/b.png", "a\\b.png", "C:x.pdf", "..", "", "a\nb.png"] {
            assert!(!is_plain_name(bad), "{bad:?}");
        }
    }
}
