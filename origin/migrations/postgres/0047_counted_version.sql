-- Lists' totals are kept per `counted_version` (`CountCache`, `crate::http::goods::list`): the
-- catalogue version of the last change that can move a list's count — a goods added or
-- removed, a change to a field the lists filter by (brand, category, shop, 优选, 单品包邮, 满减
-- activity, 控销, expiry), a goods put in or taken out of the daily specials. A rename, a new
-- specification or approval number makes a new catalogue version for the search index but
-- leaves every count as it was, so the totals are not counted again for it.
--
-- Set once per statement: the row triggers below update the row only while it does not yet
-- hold the statement's version (each statement that fires them has bumped the version first,
-- migration 0044), so a statement changing many goods writes the version's row once.
ALTER TABLE catalogue_version ADD COLUMN counted_version BIGINT NOT NULL DEFAULT 0;
UPDATE catalogue_version SET counted_version = version WHERE id = 1;

CREATE OR REPLACE FUNCTION goods_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_changes (version, goods_id)
        SELECT version, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END FROM catalogue_version WHERE id = 1;
    IF TG_OP <> 'UPDATE'
        OR (OLD.brand_id, OLD.category_id, OLD.type, OLD.is_youx, OLD.is_dpby, OLD.manjian_id, OLD.is_kx, OLD.expires_on)
            IS DISTINCT FROM (NEW.brand_id, NEW.category_id, NEW.type, NEW.is_youx, NEW.is_dpby, NEW.manjian_id, NEW.is_kx, NEW.expires_on)
    THEN
        UPDATE catalogue_version SET counted_version = version WHERE id = 1 AND counted_version <> version;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION special_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_changes (version, goods_id)
        SELECT version, CASE WHEN TG_OP = 'DELETE' THEN OLD.goods_id ELSE NEW.goods_id END FROM catalogue_version WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version WHERE id = 1 AND counted_version <> version;
    RETURN NULL;
END
$$;
