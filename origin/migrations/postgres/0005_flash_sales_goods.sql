-- Goods cards read each goods' running flash sale by goods id.
CREATE INDEX flash_sales_goods ON flash_sales(goods_id, ends_at);
