-- 满减 activities kept in the console (docs/backoffice.md, "Promotions"): each runs from
-- starts_at until before ends_at (Unix seconds); buyers see it only then. The activities
-- there were run from the beginning until 2100.
ALTER TABLE manjian_activities ADD COLUMN starts_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE manjian_activities ADD COLUMN ends_at BIGINT NOT NULL DEFAULT 4102444800;
ALTER TABLE manjian_activities ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;

-- An activity's goods, read by the console and on every save.
CREATE INDEX goods_manjian ON goods(manjian_id);
