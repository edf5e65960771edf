-- A goods' pictures (商品图片), uploaded in the console and kept with the data they belong to,
-- so that every origin serves them: each as the shop re-encoded it, large (the detail page) and
-- as a thumbnail (cards and lists), with the large one's size. `sort` orders them, the first
-- is the goods' main picture; `digest` (SHA-256 of the file uploaded) keeps one goods from
-- holding the same picture twice.
CREATE TABLE goods_pictures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    goods_id INTEGER NOT NULL REFERENCES goods(id) ON DELETE CASCADE,
    sort INTEGER NOT NULL,
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    large BLOB NOT NULL,
    thumb BLOB NOT NULL,
    digest TEXT NOT NULL,
    file_name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (goods_id, digest)
);
CREATE INDEX goods_pictures_goods ON goods_pictures(goods_id, sort, id);
