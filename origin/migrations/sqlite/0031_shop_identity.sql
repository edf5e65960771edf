-- The shop's identity (origin/src/shop.rs) is kept in settings as plain values, read by the
-- footer, the agreement, help articles, invoices and the cashier, and changed with `origin
-- admin settings`. Databases seeded before kept the licences with their labels in front and the
-- credit code inside a business-licence sentence: the labels go, the credit code gets its own
-- key, and the shop's name and its device licence, which lived only in the web app, are added.
UPDATE settings SET value = trim(replace(value, '药品经营许可证：', '')) WHERE key = 'drug_licence';
UPDATE settings SET value = trim(replace(value, '互联网药品信息服务资格证书：', '')) WHERE key = 'internet_drug_licence';
INSERT INTO settings (key, value)
    SELECT 'credit_code', trim(replace(replace(value, '营业执照：', ''), '统一社会信用代码', '')) FROM settings WHERE key = 'business_licence'
    ON CONFLICT (key) DO NOTHING;
DELETE FROM settings WHERE key = 'business_licence';
INSERT INTO settings (key, value) VALUES
    ('shop_name', '医药批发商城'),
    ('device_licence', '浙杭食药监械经营许20190215号')
ON CONFLICT (key) DO NOTHING;

-- An issued invoice keeps its seller as it was when issued (the seller entity, its tax number,
-- address and hotline); invoices issued before show the shop's identity as it is now.
ALTER TABLE invoices ADD COLUMN seller TEXT NOT NULL DEFAULT '';
ALTER TABLE invoices ADD COLUMN seller_tax_no TEXT NOT NULL DEFAULT '';
ALTER TABLE invoices ADD COLUMN seller_contact TEXT NOT NULL DEFAULT '';
