-- 天天特价 is kept in the console: a goods put in or taken out of the daily specials changes the
-- total of the `special` goods list, so it makes a new catalogue version and logs the goods
-- (`crate::search`, "Freshness"), as a change to the goods itself would.
CREATE TRIGGER everyday_specials_insert AFTER INSERT ON everyday_specials
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, NEW.goods_id FROM catalogue_version WHERE id = 1;
END;
CREATE TRIGGER everyday_specials_delete AFTER DELETE ON everyday_specials
BEGIN
    UPDATE catalogue_version SET version = version + 1 WHERE id = 1;
    INSERT INTO catalogue_changes (version, goods_id) SELECT version, OLD.goods_id FROM catalogue_version WHERE id = 1;
END;
