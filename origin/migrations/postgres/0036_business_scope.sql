-- Business scope (经营范围, docs/compliance.md): every goods has a scope class and a dispensing
-- class, every member a buyer type and an approved scope (a set of classes), every certificate
-- the dates it is valid between and the scope it states. Codes are those of
-- `domain::compliance` (ScopeClass, Dispensing, BuyerType).

-- The goods' class: 1 化学药制剂, 2 抗生素制剂, 3 中成药, 4 中药饮片, 5 生化药品, 6 生物制品,
-- 7 第一类医疗器械, 8 第二类医疗器械, 9 第三类医疗器械, 10 保健食品, 11 食品, 12 消毒产品,
-- 13 日用品. Its dispensing: 0 not a medicine, 1 处方药, 2 甲类OTC, 3 乙类OTC (replaces `rx`).
-- Its VAT rate in percent (13 medicines and devices, 9 中药饮片).
ALTER TABLE goods ADD COLUMN scope_class BIGINT NOT NULL DEFAULT 1 CHECK (scope_class BETWEEN 1 AND 13);
ALTER TABLE goods ADD COLUMN dispensing BIGINT NOT NULL DEFAULT 0 CHECK (dispensing BETWEEN 0 AND 3);
ALTER TABLE goods ADD COLUMN vat_rate BIGINT NOT NULL DEFAULT 13 CHECK (vat_rate BETWEEN 0 AND 100);

-- The catalogue's top categories name the class of what they hold; antibiotics are 抗生素制剂.
UPDATE goods SET scope_class = CASE
    WHEN c.key LIKE 'xy-kgr-qms%' OR c.key LIKE 'xy-kgr-tbjs%' OR c.key LIKE 'xy-kgr-dhzl%' OR c.key LIKE 'xy-kgr-kny%' THEN 2
    WHEN c.key LIKE 'zcy%' THEN 3
    WHEN c.key LIKE 'zyyp%' THEN 4
    WHEN c.key LIKE 'qx-kf%' OR c.key LIKE 'qx-jt%' OR c.key LIKE 'yyhc-fl%' THEN 7
    WHEN c.key LIKE 'qx%' OR c.key LIKE 'yyhc-fh%' OR c.key LIKE 'jsyp-byt%' OR c.key LIKE 'jsyp-sz%' THEN 8
    WHEN c.key LIKE 'yyhc-zs%' THEN 9
    WHEN c.key LIKE 'bjp%' THEN 10
    WHEN c.key LIKE 'yyhc-xd%' THEN 12
    WHEN c.key LIKE 'grhl%' THEN 13
    ELSE 1 END
FROM categories c WHERE c.id = goods.category_id;
UPDATE goods SET dispensing = CASE WHEN rx = 1 THEN 1 WHEN scope_class IN (1, 2, 3) THEN 2 ELSE 0 END;
UPDATE goods SET vat_rate = 9 WHERE scope_class = 4;
ALTER TABLE goods DROP COLUMN rx;

-- The member's kind of business: 1 单体药店, 2 连锁药店, 3 诊所, 4 医院/卫生院, 5 批发企业.
ALTER TABLE members ADD COLUMN buyer_type BIGINT NOT NULL DEFAULT 1 CHECK (buyer_type BETWEEN 1 AND 5);
UPDATE members SET buyer_type = 2 WHERE is_dd = 1;

-- The member's approved scope: the classes it may buy, set by the operator from its licences.
-- Members approved before scopes were classes keep buying what they could: every class.
CREATE TABLE member_scopes (
    member_id BIGINT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    class BIGINT NOT NULL CHECK (class BETWEEN 1 AND 13),
    PRIMARY KEY (member_id, class)
);
WITH RECURSIVE classes(class) AS (SELECT 1 UNION ALL SELECT class + 1 FROM classes WHERE class < 13)
INSERT INTO member_scopes (member_id, class) SELECT m.id, classes.class FROM members m, classes WHERE m.is_passed = 1;
ALTER TABLE members DROP COLUMN business_scope;

-- A certificate's first valid day (YYYY-MM-DD, '' when not given) and the scope it states, as
-- printed on it; and which reminders of its expiry were sent (days before: 30, 7, 0 = expired).
ALTER TABLE qualifications ADD COLUMN valid_from TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN scope TEXT NOT NULL DEFAULT '';
ALTER TABLE qualifications ADD COLUMN reminded BIGINT;

-- Goods under special control (含麻黄碱类复方制剂 …): the most one member may buy of it in one
-- order and in one calendar month of the shop's (UTC+8), in its unit; 0 for no limit.
ALTER TABLE goods ADD COLUMN control_per_order BIGINT NOT NULL DEFAULT 0 CHECK (control_per_order >= 0);
ALTER TABLE goods ADD COLUMN control_per_month BIGINT NOT NULL DEFAULT 0 CHECK (control_per_month >= 0);
UPDATE goods SET control_per_order = 50, control_per_month = 200 WHERE name LIKE '%麻黄碱%';
