-- The shop's schema. Money columns hold ten-thousandths of a yuan (an exact integer:
-- 12.30 yuan is 123000), so that SQL can compare and add them, and a balance or a stock can
-- be decremented atomically with a guard (`... WHERE balance >= $1`). Times are Unix seconds.
-- Flags are 0/1 integers. The PostgreSQL schema (../postgres) is the same, table for table.

CREATE TABLE members (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL UNIQUE,
    email TEXT,
    password_hash TEXT NOT NULL,
    company TEXT NOT NULL,
    name TEXT NOT NULL,
    face TEXT NOT NULL DEFAULT '',
    rank INTEGER NOT NULL DEFAULT 1,
    is_passed INTEGER NOT NULL DEFAULT 0,
    is_special INTEGER NOT NULL DEFAULT 0,
    is_show_youx INTEGER NOT NULL DEFAULT 1,
    is_can_chat INTEGER NOT NULL DEFAULT 1,
    is_dd INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0,
    balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    manager_name TEXT NOT NULL DEFAULT '',
    manager_phone TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);

CREATE TABLE member_stores (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT ''
);
CREATE INDEX member_stores_member ON member_stores(member_id);

CREATE TABLE addresses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    contact TEXT NOT NULL,
    phone TEXT NOT NULL,
    province TEXT NOT NULL,
    city TEXT NOT NULL,
    district TEXT NOT NULL,
    detail TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX addresses_member ON addresses(member_id);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_member ON sessions(member_id);

CREATE TABLE sms_codes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    phone TEXT NOT NULL,
    scene TEXT NOT NULL,
    code TEXT NOT NULL,
    sent_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sms_codes_phone ON sms_codes(phone, scene, sent_at);

CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    failures INTEGER NOT NULL
);

CREATE TABLE categories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent_id INTEGER REFERENCES categories(id),
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    shop TEXT NOT NULL,
    logo TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX categories_parent ON categories(parent_id, sort);

CREATE TABLE brands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    manufacturer TEXT NOT NULL,
    logo TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE goods (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories(id),
    brand_id INTEGER REFERENCES brands(id),
    sccj TEXT NOT NULL,
    ypgg TEXT NOT NULL,
    bzdw TEXT NOT NULL,
    pzwh TEXT NOT NULL DEFAULT '',
    origin TEXT NOT NULL DEFAULT '',
    jzl INTEGER NOT NULL DEFAULT 0,
    validity TEXT NOT NULL DEFAULT '',
    rx INTEGER NOT NULL DEFAULT 0,
    price INTEGER NOT NULL CHECK (price >= 0),
    base_price INTEGER NOT NULL CHECK (base_price >= 0),
    stock INTEGER NOT NULL CHECK (stock >= 0),
    type INTEGER NOT NULL DEFAULT 1,
    is_youx INTEGER NOT NULL DEFAULT 0,
    is_buy INTEGER NOT NULL DEFAULT 1,
    is_dpby INTEGER NOT NULL DEFAULT 0,
    qg_number INTEGER NOT NULL DEFAULT 0,
    ladder_price_type INTEGER NOT NULL DEFAULT 0,
    manjian_id INTEGER NOT NULL DEFAULT 0,
    tags TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    -- name, manufacturer, specification and approval number, for substring search
    search_text TEXT NOT NULL,
    sales INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX goods_category ON goods(category_id);
CREATE INDEX goods_brand ON goods(brand_id);
CREATE INDEX goods_sccj ON goods(sccj);
CREATE INDEX goods_price ON goods(price);
CREATE INDEX goods_sales ON goods(sales);
CREATE INDEX goods_type ON goods(type, is_youx);

CREATE TABLE goods_ladders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    goods_id INTEGER NOT NULL REFERENCES goods(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    price INTEGER NOT NULL CHECK (price >= 0)
);
CREATE INDEX goods_ladders_goods ON goods_ladders(goods_id, number);

CREATE TABLE manjian_activities (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL
);

CREATE TABLE manjian_tiers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    activity_id INTEGER NOT NULL REFERENCES manjian_activities(id) ON DELETE CASCADE,
    amount INTEGER NOT NULL,
    reduce INTEGER NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX manjian_tiers_activity ON manjian_tiers(activity_id, sort);

CREATE TABLE flash_sales (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    goods_id INTEGER NOT NULL REFERENCES goods(id) ON DELETE CASCADE,
    price INTEGER NOT NULL,
    limit_number INTEGER NOT NULL,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL
);
CREATE INDEX flash_sales_time ON flash_sales(ends_at);

CREATE TABLE combinations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    price INTEGER NOT NULL,
    stock INTEGER NOT NULL CHECK (stock >= 0)
);

CREATE TABLE combination_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    combination_id INTEGER NOT NULL REFERENCES combinations(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    number INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX combination_items_combination ON combination_items(combination_id);

CREATE TABLE everyday_specials (
    goods_id INTEGER PRIMARY KEY REFERENCES goods(id) ON DELETE CASCADE,
    sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE coupons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    amount INTEGER NOT NULL,
    min_amount INTEGER NOT NULL,
    days INTEGER NOT NULL
);

CREATE TABLE member_coupons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    coupon_id INTEGER NOT NULL REFERENCES coupons(id),
    status INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL
);
CREATE INDEX member_coupons_member ON member_coupons(member_id, status);

CREATE TABLE hot_terms (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    term TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
);

-- Banners, brand-zone banners and right-hand ads: `position` is 'focus', 'brand:<id>' or a
-- right-hand ad key (xrtj, top, ppzq, ...).
CREATE TABLE ads (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    position TEXT NOT NULL,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    url TEXT NOT NULL,
    image TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX ads_position ON ads(position, sort);

CREATE TABLE nav (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    image TEXT NOT NULL DEFAULT '',
    is_open INTEGER NOT NULL DEFAULT 0,
    sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE links (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0
);

-- Help articles (kind 'help', grouped) and news (kind 'news', category hy/company).
CREATE TABLE articles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    group_name TEXT NOT NULL DEFAULT '',
    category TEXT NOT NULL DEFAULT '',
    path TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL,
    published_on TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX articles_kind ON articles(kind, group_name, sort);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE cart_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    -- 0 normal, 1 flash sale, 3 combination
    type INTEGER NOT NULL DEFAULT 0,
    -- the flash sale or combination the line is for, 0 otherwise
    activity_id INTEGER NOT NULL DEFAULT 0,
    number INTEGER NOT NULL CHECK (number >= 1),
    price INTEGER NOT NULL,
    is_selected INTEGER NOT NULL DEFAULT 1,
    with_coupon INTEGER NOT NULL DEFAULT 1,
    goods_price_id INTEGER NOT NULL DEFAULT 0,
    ladder_price_id INTEGER NOT NULL DEFAULT 0,
    goods_manjian_id INTEGER NOT NULL DEFAULT 0,
    is_yj INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    UNIQUE (member_id, goods_id, type, activity_id)
);
CREATE INDEX cart_items_member ON cart_items(member_id);

CREATE TABLE favorites (
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, goods_id)
);

CREATE TABLE orders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    order_no TEXT NOT NULL UNIQUE,
    -- 0 待付款, 1 待发货, 2 待收货, 3 已完成, 4 已取消
    status INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL,
    discount INTEGER NOT NULL,
    payable INTEGER NOT NULL,
    address TEXT NOT NULL,
    remark TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    paid_at INTEGER
);
CREATE INDEX orders_member ON orders(member_id, status, created_at);

CREATE TABLE order_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    goods_id INTEGER NOT NULL REFERENCES goods(id),
    type INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    ypgg TEXT NOT NULL,
    sccj TEXT NOT NULL,
    bzdw TEXT NOT NULL,
    number INTEGER NOT NULL,
    price INTEGER NOT NULL,
    amount INTEGER NOT NULL
);
CREATE INDEX order_items_order ON order_items(order_id);

CREATE TABLE balance_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- signed: negative when money leaves the wallet
    amount INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    use_type INTEGER NOT NULL,
    order_id INTEGER REFERENCES orders(id),
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
CREATE INDEX balance_logs_member ON balance_logs(member_id, created_at);

CREATE TABLE idempotency (
    member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (member_id, key)
);

CREATE TABLE page_views (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    member_id INTEGER,
    route TEXT NOT NULL,
    path TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL
);
