-- Which goods each catalogue version changed, so that an origin's search index takes those
-- goods alone instead of rebuilding (`crate::search`, "Freshness"). A change to a searched or
-- counted field of a goods (or a goods added or removed) writes one row per goods at the
-- version its statement made; a brand's new name, one row per goods of the brand; the
-- operator's reindex, goods 0 (every goods). Old rows are deleted (`search::prune_changes`);
-- `pruned_through` is the last version deleted, and an index older than it rebuilds.
CREATE TABLE catalogue_changes (
    version BIGINT NOT NULL,
    goods_id BIGINT NOT NULL
);
CREATE INDEX catalogue_changes_version ON catalogue_changes (version);
ALTER TABLE catalogue_version ADD COLUMN pruned_through BIGINT NOT NULL DEFAULT 0;

-- The version is now bumped before the statement's rows change, which also takes the version's
-- row lock before any goods' (two writers queue at the first statement instead of after it),
-- and each row then reads the version it belongs to.
DROP TRIGGER goods_search_change ON goods;
DROP TRIGGER brands_search_change ON brands;
DROP FUNCTION catalogue_changed();

CREATE FUNCTION catalogue_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE FUNCTION goods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_changes (version, goods_id)
        SELECT version, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END FROM catalogue_version WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE FUNCTION brand_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.name IS DISTINCT FROM OLD.name THEN
        INSERT INTO catalogue_changes (version, goods_id)
            SELECT v.version, g.id FROM catalogue_version v JOIN goods g ON g.brand_id = NEW.id WHERE v.id = 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER goods_search_change BEFORE INSERT OR DELETE OR UPDATE OF name, common_name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_bump();
CREATE TRIGGER goods_search_log AFTER INSERT OR DELETE OR UPDATE OF name, common_name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
    FOR EACH ROW EXECUTE FUNCTION goods_changed();
CREATE TRIGGER brands_search_change BEFORE UPDATE OF name ON brands
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_bump();
CREATE TRIGGER brands_search_log AFTER UPDATE OF name ON brands
    FOR EACH ROW EXECUTE FUNCTION brand_renamed();
