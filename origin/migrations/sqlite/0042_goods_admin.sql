-- Goods kept in the console (docs/backoffice.md, "The catalogue"): the common name (通用名)
-- beside the name, searched too; and every price a goods has had, with who set it and when.
ALTER TABLE goods ADD COLUMN common_name TEXT NOT NULL DEFAULT '';

DROP TRIGGER goods_search_update;
CREATE TRIGGER goods_search_update AFTER UPDATE OF name, common_name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
END;

-- A goods' prices from `changed_at` on: price, base price, and its ladder as
-- `number:price,…` (stored money, by number), with its type.
CREATE TABLE goods_price_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    goods_id INTEGER NOT NULL REFERENCES goods(id) ON DELETE CASCADE,
    price INTEGER NOT NULL,
    base_price INTEGER NOT NULL,
    ladder_price_type INTEGER NOT NULL,
    ladder TEXT NOT NULL,
    operator TEXT NOT NULL,
    changed_at INTEGER NOT NULL
);
CREATE INDEX goods_price_history_goods ON goods_price_history(goods_id, id);

-- The prices goods have now are their first.
INSERT INTO goods_price_history (goods_id, price, base_price, ladder_price_type, ladder, operator, changed_at)
SELECT g.id, g.price, g.base_price, g.ladder_price_type,
       COALESCE((SELECT group_concat(l.number || ':' || l.price, ',') FROM (SELECT number, price FROM goods_ladders WHERE goods_id = g.id ORDER BY number) l), ''),
       '', g.created_at
FROM goods g;
