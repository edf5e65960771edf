-- Anomalies the web app noticed, such as the browser's cart quote differing from the
-- server's (page views go to page_views).
CREATE TABLE client_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER REFERENCES members (id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    detail TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX client_reports_kind ON client_reports (kind, created_at);
