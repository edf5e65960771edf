// 商品: the catalogue, searched by id, name, common name, manufacturer or approval number and
// filtered by shop, sale state and low stock (the filters live in the address); goods ticked in
// the list are put on sale or taken off, moved between shops, marked 优选 or repriced at a rate
// (the engine's rule), all at once. 新增商品 and each goods' page are `goods-form.tsx`.
import { useState } from 'react';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { can, useBulkGoods, useGoodsList, type GoodsRow, type OperatorMe } from './api';
import { Money } from './console';
import { exportHref, pager, useFilters } from './filters';
import { ImportButton } from './goods-import';

const SHOP_NAMES: Record<number, string> = { 1: '自营', 2: '中药饮片', 3: '器械' };

interface FilterFields {
  search?: string;
  shop?: string;
  on_sale?: string;
  stock_below?: number | null;
}

function RepriceButton({ ids, done }: { ids: number[]; done: () => void }) {
  const [open, setOpen] = useState(false);
  const [rate, setRate] = useState('');
  const bulk = useBulkGoods();
  return (
    <>
      <Button disabled={ids.length === 0} onClick={() => setOpen(true)}>
        按比例调价
      </Button>
      <Modal
        title="按比例调价"
        open={open}
        okText="确认调价"
        cancelText="返回"
        destroyOnHidden
        okButtonProps={{ disabled: rate.trim() === '', loading: bulk.isPending }}
        onCancel={() => setOpen(false)}
        afterClose={() => setRate('')}
        onOk={async () => {
          await bulk.mutateAsync({ ids: ids.join(','), action: 'reprice', value: rate.trim() });
          setOpen(false);
          done();
        }}
      >
        <Typography.Paragraph>
          所选 {ids.length} 个商品的价格和阶梯价乘以该比例（如 0.95 即降价5%），按分向下取整。调价记入价格历史。
        </Typography.Paragraph>
        <Input aria-label="调价比例" placeholder="0.95" value={rate} onChange={(event) => setRate(event.target.value)} />
      </Modal>
    </>
  );
}

export function GoodsPage({ me }: { me: OperatorMe }) {
  const [params, setParams] = useFilters(['search', 'shop', 'on_sale', 'stock_below', 'page']);
  const { data, isFetching } = useGoodsList({ ...params, size: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const bulk = useBulkGoods();
  const mayChange = can(me, 'catalogue');
  const apply = async (action: string, value?: string) => {
    await bulk.mutateAsync({ ids: selected.join(','), action, value });
    setSelected([]);
  };
  return (
    <div data-testid="admin-goods">
      <Form<FilterFields>
        layout="inline"
        className="console-filters"
        key={JSON.stringify(params)}
        initialValues={{
          search: params.search,
          shop: params.shop,
          on_sale: params.on_sale,
          stock_below: params.stock_below ? Number(params.stock_below) : null,
        }}
        onFinish={(fields) =>
          setParams({
            search: fields.search?.trim(),
            shop: fields.shop,
            on_sale: fields.on_sale,
            stock_below: fields.stock_below ?? undefined,
          })
        }
      >
        <Form.Item name="search" label="搜索">
          <Input allowClear placeholder="编号、名称、通用名、厂家或批准文号" style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="shop" label="店铺">
          <Select
            allowClear
            aria-label="店铺"
            style={{ width: 120 }}
            options={Object.entries(SHOP_NAMES).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <Form.Item name="on_sale" label="状态">
          <Select
            allowClear
            aria-label="状态"
            style={{ width: 100 }}
            options={[
              { value: '1', label: '在售' },
              { value: '0', label: '已下架' },
            ]}
          />
        </Form.Item>
        <Form.Item name="stock_below" label="库存不超过">
          <InputNumber min={0} aria-label="库存不超过" style={{ width: 110 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
          <Button href={exportHref('/api/admin/goods/export', params)} download>
            导出Excel
          </Button>
          {mayChange && <ImportButton />}
          {mayChange && (
            <Link to="/admin/goods/new">
              <Button>新增商品</Button>
            </Link>
          )}
        </Space>
      </Form>
      {mayChange && (
        <Space className="console-bulk" data-testid="goods-bulk">
          <span>已选 {selected.length} 个</span>
          <Button disabled={selected.length === 0} loading={bulk.isPending} onClick={() => void apply('on_sale')}>
            上架
          </Button>
          <Button disabled={selected.length === 0} loading={bulk.isPending} onClick={() => void apply('off_sale')}>
            下架
          </Button>
          <Select
            aria-label="移至店铺"
            placeholder="移至店铺"
            value={null}
            disabled={selected.length === 0}
            style={{ width: 130 }}
            options={Object.entries(SHOP_NAMES).map(([value, label]) => ({ value, label }))}
            onChange={(value: string) => void apply('shop', value)}
          />
          <Button disabled={selected.length === 0} onClick={() => void apply('youx')}>
            设为优选
          </Button>
          <Button disabled={selected.length === 0} onClick={() => void apply('not_youx')}>
            取消优选
          </Button>
          <RepriceButton ids={selected} done={() => setSelected([])} />
        </Space>
      )}
      <Table<GoodsRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        rowSelection={mayChange ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        pagination={pager(data, '个商品', (page) => setParams({ ...params, page }))}
        columns={[
          { title: '编号', dataIndex: 'id', width: 80 },
          {
            title: '商品',
            render: (_, row) => (
              <Link to={`/admin/goods/${row.id}`}>
                {row.name}
                {row.common_name && row.common_name !== row.name ? `（${row.common_name}）` : ''}
              </Link>
            ),
          },
          { title: '规格', dataIndex: 'ypgg' },
          { title: '生产厂家', dataIndex: 'sccj' },
          { title: '分类', dataIndex: 'category' },
          {
            title: '店铺',
            render: (_, row) => (
              <Space size={4}>
                {SHOP_NAMES[row.type] ?? row.type}
                {row.is_youx === 1 && <Tag color="gold">优选</Tag>}
              </Space>
            ),
          },
          { title: '价格', dataIndex: 'price', align: 'right', render: (value: string) => <Money value={value} /> },
          { title: '库存', dataIndex: 'stock', align: 'right' },
          { title: '近效期', dataIndex: 'expires_on', render: (day: string) => day || '—' },
          {
            title: '状态',
            dataIndex: 'is_buy',
            render: (onSale: number) => (onSale === 1 ? <Tag color="green">在售</Tag> : <Tag>已下架</Tag>),
          },
        ]}
      />
    </div>
  );
}
