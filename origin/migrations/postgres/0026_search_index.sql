-- The catalogue's version. Goods search runs on an index each origin keeps in memory
-- (`crate::search`), and goods lists' totals are cached per version: every change to the
-- catalogue (goods added or removed; a goods' name, manufacturer, specification, approval
-- number, brand, category, shop, zone flags or expiry; a brand's name) bumps it in the same
-- transaction, and an origin that sees a newer version rebuilds its index from the database.
-- Orders change only stock and sales, which are neither searched nor counted: they never bump it. Statement-level triggers: a bulk
-- import bumps it once per statement, not once per row.
CREATE TABLE catalogue_version (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO catalogue_version (id, version) VALUES (1, 1);

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER goods_search_change AFTER INSERT OR DELETE OR UPDATE OF name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();
CREATE TRIGGER brands_search_change AFTER UPDATE OF name ON brands
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();

-- The default list's order (buyable, then in stock, then oldest first), so that page 1 and
-- page 200 walk this index alone instead of sorting the catalogue: `stock` at the end makes it
-- covering (the order's expression reads it).
CREATE INDEX goods_default_order ON goods (is_buy DESC, (stock > 0) DESC, id, stock);
