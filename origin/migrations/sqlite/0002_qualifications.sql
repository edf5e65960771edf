-- 资质证件: the qualification documents a member registers with (registration step 3);
-- `is_passed` on the member turns 1 once they are approved.
CREATE TABLE qualifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    number TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX qualifications_member ON qualifications(member_id);
