//! Files members upload (certificate scans, after-sales photos): read from a multipart form,
//! refused unless their content is of an allowed type (whatever the name or declared type
//! says), small enough and plainly named, stored under `DATA_DIR/uploads/<member>/` with a
//! random name of the shop's, and served back to their member only.

use std::collections::HashMap;

use axum::body::{Body, Bytes};
use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ApiContext;
use super::error::{Error, Result};
use super::extract::{FormFields, Member};

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

/// Stores a checked file under the member's folder; answers its stored name.
pub async fn store(context: &ApiContext, member: Member, file: &Checked) -> Result<String> {
    let folder = context.uploads.join(member.id.to_string());
    let stored = format!("{}.{}", hex::encode(rand::random::<[u8; 16]>()), file.kind.extension());
    tokio::fs::create_dir_all(&folder).await.map_err(anyhow::Error::from)?;
    tokio::fs::write(folder.join(&stored), &file.bytes).await.map_err(anyhow::Error::from)?;
    Ok(stored)
}

/// Serves one of the member's stored files as `content_type` (private, never sniffed); 404 when
/// it is gone.
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
            (header::CONTENT_DISPOSITION, "inline".to_owned()),
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
    fn file_names_are_plain() {
        assert!(is_plain_name("营业执照.jpg"));
        for bad in ["../etc/passwd", "a/b.png", "a\\b.png", "C:x.pdf", "..", "", "a\nb.png"] {
            assert!(!is_plain_name(bad), "{bad:?}");
        }
    }
}
