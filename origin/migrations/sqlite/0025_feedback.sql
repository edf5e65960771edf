-- Feedback (意见反馈, `/zzfw/yjfk`): a member's suggestion or complaint with photos, and the
-- shop's reply (`origin admin reply-feedback`): 0 待回复, 1 已回复.
CREATE TABLE feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- 1 功能建议, 2 商品问题, 3 服务投诉, 4 其他
    kind INTEGER NOT NULL CHECK (kind BETWEEN 1 AND 4),
    body TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    reply TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    replied_at INTEGER
);
CREATE INDEX feedback_member ON feedback(member_id, created_at);

CREATE TABLE feedback_photos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    feedback_id INTEGER NOT NULL REFERENCES feedback(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    file_size INTEGER NOT NULL
);
