-- 天天特价 is kept in the console: a goods put in or taken out of the daily specials changes the
-- total of the `special` goods list, so it makes a new catalogue version and logs the goods
-- (`crate::search`, "Freshness"), as a change to the goods itself would (migration 0044).
CREATE FUNCTION special_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_changes (version, goods_id)
        SELECT version, CASE WHEN TG_OP = 'DELETE' THEN OLD.goods_id ELSE NEW.goods_id END FROM catalogue_version WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER everyday_specials_change BEFORE INSERT OR DELETE ON everyday_specials
    FOR EACH STATEMENT EXECUTE FUNCTION catalogue_bump();
CREATE TRIGGER everyday_specials_log AFTER INSERT OR DELETE ON everyday_specials
    FOR EACH ROW EXECUTE FUNCTION special_changed();
