-- Activities (活动): themed pages made from data — a banner and sections of goods — shown by
-- the activity templates (`/hdmb`, `/zqmb`), the activity zone (`/yjh`), the activity
-- centre (`/Hdzx`) and 优医汇 (`/yyh`), and reached by `/activity/{url}`. An activity
-- without a url has no page yet (its links say 活动暂未开始); one not yet started shows its
-- note, or 活动未开始. Off or ended, it is not found.
CREATE TABLE activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- The address (`/activity/{url}`); NULL while the activity has no page.
    url TEXT UNIQUE,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    -- hdmb (activity template) or zqmb (zone template)
    template TEXT NOT NULL CHECK (template IN ('hdmb', 'zqmb')),
    color TEXT NOT NULL DEFAULT '#1f8a5b',
    note TEXT NOT NULL DEFAULT '',
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    is_on INTEGER NOT NULL DEFAULT 1,
    sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE activity_sections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id INTEGER NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX activity_sections_activity ON activity_sections(activity_id, sort);

CREATE TABLE activity_goods (
    section_id INTEGER NOT NULL REFERENCES activity_sections(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    sort INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (section_id, goods_id)
);
