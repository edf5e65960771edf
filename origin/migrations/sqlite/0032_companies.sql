-- Companies (企业): a chain's stores are member accounts of one company, linked by
-- `members.company_id`, never by the company name typed at registration (two pharmacies may
-- share a name). A company is made at multi-store registration, or for an account registered
-- otherwise the first time it is asked for (`GET /api/user/company`); its code (企业编码) is
-- what the chain's other stores give at multi-store registration to join it. Cart lines are
-- copied only between approved accounts of one company (`POST /api/cart/copy`).
CREATE TABLE companies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    code TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);
ALTER TABLE members ADD COLUMN company_id INTEGER REFERENCES companies(id);
CREATE INDEX members_company ON members(company_id);
