// Goods as a compact table (the zones' list view, activity templates, 优医汇's list): name with
// tags, 规格, 生产厂家, the batch's expiry when asked, price, stock and a quantity to add.
import { Link } from 'react-router';
import { Table } from 'antd';
import type { Card } from '@/api/types';
import { currentPrice, stockClass } from './goods';
import { Price } from './price';
import { QuantityAdd } from './goods-card';
import { DispensingMark, GoodsTags } from './tags';
import { PackFacts } from './pack-facts';

export function GoodsTable({ goods, expiry = false }: { goods: Card[]; expiry?: boolean }) {
  return (
    <Table<Card>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={goods}
      columns={[
        {
          title: '商品名称',
          dataIndex: 'name',
          render: (_, item) => (
            <>
              <Link to={`/list/info/${item.id}`}>
                <DispensingMark goods={item} />
                {item.name}
              </Link>{' '}
              <GoodsTags tags={item.tags} />
              <PackFacts goods={item} inline />
            </>
          ),
        },
        { title: '规格', dataIndex: 'ypgg', width: 130 },
        { title: '生产厂家', dataIndex: 'sccj', width: 200 },
        ...(expiry ? [{ title: '效期至', dataIndex: 'expires_on', width: 110 }] : []),
        {
          title: '价格',
          key: 'price',
          width: 90,
          align: 'right',
          render: (_, item) => <Price price={currentPrice(item)} text={item.price_text} className="price money" />,
        },
        { title: '库存', key: 'stock', width: 80, render: (_, item) => <span className={stockClass(item)}>{item.stock_state}</span> },
        { title: '采购', key: 'buy', width: 260, render: (_, item) => <QuantityAdd goods={item} compact /> },
      ]}
    />
  );
}
