-- After-sales cases (售后, `/order/afterSalesInfo/{id}`): a member's quality or delivery problem
-- with one of their paid orders, a thread of messages between the member and the shop with
-- photos, open until it is resolved. `members` with an open case show `is_AfterSale` "1".

CREATE TABLE after_sales (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    case_no TEXT NOT NULL UNIQUE,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    member_id INTEGER NOT NULL REFERENCES members(id),
    -- 1 质量问题, 2 配送问题, 3 其他
    kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3)),
    -- 0 处理中, 1 已解决
    status INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    closed_at INTEGER
);
CREATE INDEX after_sales_member ON after_sales(member_id, status, created_at);
CREATE INDEX after_sales_order ON after_sales(order_id);

CREATE TABLE after_sale_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id INTEGER NOT NULL REFERENCES after_sales(id) ON DELETE CASCADE,
    -- member or operator
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX after_sale_messages_case ON after_sale_messages(case_id, id);

CREATE TABLE after_sale_photos (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL REFERENCES after_sale_messages(id) ON DELETE CASCADE,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    file_size INTEGER NOT NULL
);
CREATE INDEX after_sale_photos_message ON after_sale_photos(message_id);
