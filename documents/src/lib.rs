//! The shop's printed documents — the delivery note (随货同行单) and invoices — as PDF, laid out
//! by typst used as a library (docs/compliance.md, "Printed documents").
//!
//! Each document is a typst template (`templates/*.typ`) that reads its data from a virtual
//! `/data.json`; typst lays out the tables (their header repeated on every page), and embeds a
//! subset of the Noto Sans CJK SC face with only the glyphs used, digits included (set as
//! the font's own Latin figures). The fonts are read once, from the paths in `PDF_FONTS`
//! (colon-separated) or the distribution's `fonts-noto-cjk`.

use std::sync::OnceLock;

use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};
use typst_layout::PagedDocument;

mod words;

pub use self::words::capitalised;

/// A document the shop prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// 随货同行单: one shipment's goods with their lots.
    DeliveryNote,
    /// An invoice, blue or red-letter (红字).
    Invoice,
}

impl Template {
    fn source(self) -> &'static str {
        match self {
            Template::DeliveryNote => include_str!("../templates/delivery-note.typ"),
            Template::Invoice => include_str!("../templates/invoice.typ"),
        }
    }
}

/// Where the CJK fonts are looked for when `PDF_FONTS` does not say.
const FONT_PATHS: &[&str] =
    &["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"];

/// The typst library and the fonts, loaded once and shared by every rendering.
pub struct Printer {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

impl Printer {
    /// Loads the fonts at `paths` (every face of each file).
    pub fn load(paths: &[std::path::PathBuf]) -> Result<Printer, String> {
        let mut fonts = Vec::new();
        for path in paths {
            let data = std::fs::read(path).map_err(|error| format!("font {}: {error}", path.display()))?;
            fonts.extend(Font::iter(Bytes::new(data)));
        }
        if !fonts.iter().any(|font| font.info().family == "Noto Sans CJK SC") {
            return Err(format!("no Noto Sans CJK SC face in {paths:?} (install fonts-noto-cjk, or set PDF_FONTS)"));
        }
        Ok(Printer { library: LazyHash::new(Library::default()), book: LazyHash::new(FontBook::from_fonts(&fonts)), fonts })
    }

    /// The printer of the process: fonts from `PDF_FONTS` or the usual place, loaded at first use.
    pub fn shared() -> Result<&'static Printer, String> {
        static PRINTER: OnceLock<Result<Printer, String>> = OnceLock::new();
        PRINTER
            .get_or_init(|| {
                let paths: Vec<std::path::PathBuf> = match std::env::var("PDF_FONTS") {
                    Ok(paths) if !paths.is_empty() => std::env::split_paths(&paths).collect(),
                    _ => FONT_PATHS.iter().map(Into::into).collect(),
                };
                Printer::load(&paths)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// `template` laid out with `data` (serialised as its `/data.json`), as PDF bytes.
    pub fn render(&self, template: Template, data: &impl serde::Serialize) -> Result<Vec<u8>, String> {
        let data = serde_json::to_vec(data).map_err(|error| format!("document data: {error}"))?;
        let world = Job::new(self, template, data);
        let document: PagedDocument = typst::compile(&world)
            .output
            .map_err(|errors| errors.iter().map(|error| error.message.to_string()).collect::<Vec<_>>().join("; "))?;
        let pdf = typst_pdf::pdf(&document, &typst_pdf::PdfOptions::default())
            .map_err(|errors| errors.iter().map(|error| error.message.to_string()).collect::<Vec<_>>().join("; "));
        // typst memoises layouts; documents differ each time, so keep its cache small.
        typst::comemo::evict(10);
        pdf
    }
}

/// One rendering: the template as `/main.typ`, its data as `/data.json`.
struct Job<'a> {
    printer: &'a Printer,
    main: FileId,
    data_id: FileId,
    source: Source,
    data: Bytes,
}

impl<'a> Job<'a> {
    fn new(printer: &'a Printer, template: Template, data: Vec<u8>) -> Job<'a> {
        let file = |path: &str| {
            let path = VirtualPath::new(path).unwrap_or_else(|_| unreachable!("a fixed absolute path"));
            FileId::new(RootedPath::new(VirtualRoot::Project, path))
        };
        let main = file("/main.typ");
        Job { printer, main, data_id: file("/data.json"), source: Source::new(main, template.source().to_owned()), data: Bytes::new(data) }
    }
}

impl World for Job<'_> {
    fn library(&self) -> &LazyHash<Library> {
        &self.printer.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.printer.book
    }

    fn main(&self) -> FileId {
        self.main
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main { Ok(self.source.clone()) } else { Err(FileError::AccessDenied) }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id { Ok(self.data.clone()) } else { Err(FileError::AccessDenied) }
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.printer.fonts.get(index).cloned()
    }

    /// The documents print their own dates; `datetime.today()` is not used.
    fn today(&self, _offset: Option<typst::foundations::Duration>) -> Option<Datetime> {
        None
    }
}

#[cfg(test)]
mod tests;
