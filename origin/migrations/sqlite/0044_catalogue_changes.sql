-- Which goods each catalogue version changed, so that an origin's search index takes those
-- goods alone instead of rebuilding (`crate::search`, "Freshness"). A change to a searched or
-- counted field of a goods (or a goods added or removed) writes one row per goods at the
-- version it made; a brand's new name, one row per goods of the brand; the operator's
-- reindex, goods 0 (every goods). Old rows are deleted (`search::prune_changes`);
-- `pruned_through` is the last version deleted, and an index older than it rebuilds.
CREATE TABLE catalogue_changes (
    version INTEGER NOT NULL,
    goods_id INTEGER NOT NULL
);
CREATE INDEX catalogue_changes_version ON catalogue_changes(version);
ALTER TABLE catalogue_version ADD COLUMN pruned_through INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER goods_search_insert;
DROP TRIGGER goods_search_delete;
DROP TRIGGER goods_search_update;
DROP TRIGGER brands_search_update;

CREATE TRIGGER goods_search_insert AFTER INSERT ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER goods_search_delete AFTER DELETE ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, OLD.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER goods_search_update AFTER UPDATE OF name, common_name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER brands_search_update AFTER UPDATE OF name ON brands
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id)
        SELECT v.version, g.id FROM catalogue_version v JOIN goods g ON g.brand_id = NEW.id WHERE v.id = 1 AND NEW.name IS NOT OLD.name;
END;
