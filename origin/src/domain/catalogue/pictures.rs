//! Where a goods' pictures are served (`/api/images/pictures/{id}/…`) and which one its card
//! shows. The pictures themselves are kept by the console (`domain::staff::pictures`).

/// The address of picture `id` at `size`.
pub fn url(id: i64, size: Size) -> String {
    format!("/api/images/pictures/{id}/{}", size.file())
}

/// The picture a goods' card shows: its main picture's thumbnail, or the package drawn for it.
pub fn card_image(goods: i64, main: Option<i64>) -> String {
    match main {
        Some(picture) => url(picture, Size::Thumb),
        None => format!("/api/images/goods/{goods}.svg"),
    }
}

/// The two sizes kept of each picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Large,
    Thumb,
}

impl Size {
    pub fn file(self) -> &'static str {
        match self {
            Size::Large => "large.jpg",
            Size::Thumb => "thumb.jpg",
        }
    }

    /// The size a file name asks for (`large.jpg`, `thumb.jpg`).
    pub fn of_file(file: &str) -> Option<Size> {
        [Size::Large, Size::Thumb].into_iter().find(|size| size.file() == file)
    }
}
