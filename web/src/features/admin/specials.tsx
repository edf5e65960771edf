// 天天特价 (docs/backoffice.md, "Promotions"): the goods of the daily specials in the order buyers
// see them on /mrtj and the home floor. The operator adds goods found by name, moves and takes
// them out, and saves the list whole; until then 撤销修改 brings back what is saved.
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Select, Space, Table, Tag } from 'antd';
import { can, useSaveSpecials, useSpecials, type OperatorMe } from './api';
import { Money } from './console';
import { useGoodsChoices, withPrice } from './goods-choices';

/** A goods of the list being written: as saved, or as found when added. */
interface Entry {
  goods_id: number;
  name: string;
  ypgg: string;
  sccj: string;
  price: string;
  stock: number;
  is_buy: number;
}

export function SpecialsPage({ me }: { me: OperatorMe }) {
  const saved = useSpecials();
  const save = useSaveSpecials();
  const mayChange = can(me, 'promotions');
  // The list being written; null while it is the saved one.
  const [draft, setDraft] = useState<Entry[] | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const choices = useGoodsChoices(undefined, withPrice);
  const entries: Entry[] = useMemo(() => draft ?? saved.data ?? [], [draft, saved.data]);
  // Goods already in the list are not offered again.
  const options = choices.options.filter((option) => !entries.some((entry) => entry.goods_id === option.value));
  const change = (next: Entry[] | null) => {
    save.reset();
    setDraft(next);
  };
  const move = (index: number, by: number) => {
    const next = [...entries];
    const [entry] = next.splice(index, 1);
    next.splice(index + by, 0, entry);
    change(next);
  };
  const add = () => {
    const goods = choices.found.find((row) => row.id === picked);
    if (!goods) return;
    const entry: Entry = {
      goods_id: goods.id,
      name: goods.name,
      ypgg: goods.ypgg,
      sccj: goods.sccj,
      price: goods.price,
      stock: goods.stock,
      is_buy: goods.is_buy,
    };
    change([...entries, entry]);
    setPicked(null);
  };
  // A refusal of the list (a goods twice or gone) is shown whole: the list is the one field.
  const refusal = save.error?.message ?? null;
  return (
    <Card className="console-card" title="天天特价" data-testid="admin-specials">
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="specials-refusal" />}
      {save.isSuccess && draft === null && (
        <Alert
          type="success"
          showIcon
          message={`已保存：${save.data.count}个商品`}
          style={{ marginBottom: 12 }}
          data-testid="specials-saved"
        />
      )}
      {draft !== null && <Alert type="warning" showIcon message="有未保存的修改" style={{ marginBottom: 12 }} />}
      {mayChange && (
        <Space style={{ marginBottom: 12 }} wrap>
          <Select
            showSearch
            filterOption={false}
            onSearch={choices.setSearch}
            value={picked}
            onChange={setPicked}
            options={options}
            loading={choices.loading}
            placeholder="输入商品ID或名称查找"
            aria-label="加入商品"
            style={{ width: 420 }}
          />
          <Button onClick={add} disabled={picked === null}>
            加入特价
          </Button>
          <Button
            type="primary"
            disabled={draft === null}
            loading={save.isPending}
            onClick={() =>
              save.mutate(
                entries.map((entry) => entry.goods_id),
                { onSuccess: () => setDraft(null) },
              )
            }
          >
            保存
          </Button>
          <Button disabled={draft === null} onClick={() => change(null)}>
            撤销修改
          </Button>
        </Space>
      )}
      <Table<Entry>
        rowKey="goods_id"
        size="small"
        loading={saved.isFetching}
        dataSource={entries}
        pagination={false}
        columns={[
          { title: '顺序', key: 'sort', width: 60, render: (_, __, index) => index + 1 },
          { title: '商品编号', dataIndex: 'goods_id', width: 90 },
          { title: '商品名称', dataIndex: 'name' },
          { title: '规格', dataIndex: 'ypgg' },
          { title: '生产厂家', dataIndex: 'sccj' },
          { title: '价格', dataIndex: 'price', render: (value: string) => <Money value={value} /> },
          {
            title: '状态',
            key: 'state',
            render: (_, row) =>
              row.is_buy !== 1 ? <Tag>已下架</Tag> : row.stock <= 0 ? <Tag color="orange">无库存</Tag> : <Tag color="green">在售</Tag>,
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, row, index) =>
              mayChange && (
                <Space size={0}>
                  <Button type="link" size="small" disabled={index === 0} onClick={() => move(index, -1)}>
                    上移
                  </Button>
                  <Button type="link" size="small" disabled={index === entries.length - 1} onClick={() => move(index, 1)}>
                    下移
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => change(entries.filter((entry) => entry.goods_id !== row.goods_id))}
                  >
                    移出
                  </Button>
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
