-- Lists' totals are kept per `counted_version` (`CountCache`, `crate::http::goods::list`): the
-- catalogue version of the last change that can move a list's count — a goods added or
-- removed, a change to a field the lists filter by (brand, category, shop, 优选, 单品包邮, 满减
-- activity, 控销, expiry), a goods put in or taken out of the daily specials. A rename, a new
-- specification or approval number makes a new catalogue version for the search index but
-- leaves every count as it was, so the totals are not counted again for it.
ALTER TABLE catalogue_version ADD COLUMN counted_version INTEGER NOT NULL DEFAULT 0;
UPDATE catalogue_version SET counted_version = version WHERE id = 1;

DROP TRIGGER goods_search_insert;
DROP TRIGGER goods_search_delete;
DROP TRIGGER goods_search_update;
DROP TRIGGER everyday_specials_insert;
DROP TRIGGER everyday_specials_delete;

CREATE TRIGGER goods_search_insert AFTER INSERT ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER goods_search_delete AFTER DELETE ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, OLD.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER goods_search_update AFTER UPDATE OF name, common_name, sccj, ypgg, pzwh, brand_id, category_id, type, is_youx, is_dpby, manjian_id, is_kx, expires_on ON goods
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version
        WHERE id = 1
          AND (OLD.brand_id IS NOT NEW.brand_id OR OLD.category_id IS NOT NEW.category_id OR OLD.type IS NOT NEW.type
               OR OLD.is_youx IS NOT NEW.is_youx OR OLD.is_dpby IS NOT NEW.is_dpby OR OLD.manjian_id IS NOT NEW.manjian_id
               OR OLD.is_kx IS NOT NEW.is_kx OR OLD.expires_on IS NOT NEW.expires_on);
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER everyday_specials_insert AFTER INSERT ON everyday_specials
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.goods_id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER everyday_specials_delete AFTER DELETE ON everyday_specials
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    UPDATE catalogue_version SET counted_version = version WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, OLD.goods_id FROM catalogue_version WHERE id = 1;
END;
