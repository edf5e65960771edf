// 积分商品 (docs/backoffice.md, "Promotions"): the points mall's items in its order, those off
// sale too, with what each gives, its points (and money beside them), the stock left and the
// units redeemed; an item's form — a goods found by name, a coupon template or red packets —
// with its limit per member, its place and whether the mall shows it.
import { useMemo, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { showOnFields, wholeRefusal } from './form-refusals';
import { useGoodsChoices } from './goods-choices';
import {
  can,
  useCouponTemplates,
  usePointsGoods,
  useSavePointsGoods,
  type OperatorMe,
  type PointsGoodsDraft,
  type PointsGoodsRow,
} from './api';
import { ListCard } from './scheduled';

const KINDS = [
  { value: 1, label: '实物商品' },
  { value: 2, label: '优惠券' },
  { value: 3, label: '账户红包' },
];

/** What an item gives, as the list says it. */
function gives(row: PointsGoodsRow): string {
  if (row.kind === 1) return `商品：${row.goods_name ?? row.goods_id}`;
  if (row.kind === 2) return `优惠券：${row.coupon_title ?? row.coupon_id}`;
  return `红包¥${row.red_packet}`;
}

export function PointsGoodsPage({ me }: { me: OperatorMe }) {
  const items = usePointsGoods();
  const mayChange = can(me, 'promotions');
  // The item being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<PointsGoodsRow | 0 | null>(null);
  return (
    <ListCard title="积分商品" testId="admin-points-goods" addLabel="新增积分商品" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<PointsGoodsRow>
        rowKey="id"
        size="small"
        loading={items.isFetching}
        dataSource={items.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '商品名称', dataIndex: 'name' },
          { title: '兑换内容', key: 'gives', render: (_, row) => gives(row) },
          {
            title: '所需积分',
            key: 'points',
            render: (_, row) => (row.price === '0.00' ? `${row.points}积分` : `${row.points}积分+¥${row.price}`),
          },
          { title: '库存', dataIndex: 'stock' },
          { title: '已兑换', dataIndex: 'redeemed' },
          { title: '每人限兑', dataIndex: 'per_member', render: (limit: number) => (limit === 0 ? '不限' : limit) },
          { title: '排序', dataIndex: 'sort' },
          {
            title: '状态',
            dataIndex: 'is_on',
            render: (on: number) => (on === 1 ? <Tag color="green">上架</Tag> : <Tag>下架</Tag>),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <Button size="small" onClick={() => setEditing(row)}>
                  修改
                </Button>
              ),
          },
        ]}
      />
      {editing !== null && <ItemDialog item={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

interface FormValues {
  name?: string;
  description?: string;
  kind?: number;
  goods_id?: number;
  coupon_id?: number;
  red_packet?: string;
  points?: number;
  price?: string;
  stock?: number;
  per_member?: number;
  sort?: number;
  is_on?: boolean;
}

function draftOf(values: FormValues): PointsGoodsDraft {
  const kind = values.kind ?? 0;
  return {
    name: (values.name ?? '').trim(),
    description: (values.description ?? '').trim(),
    kind,
    ...(kind === 1 && values.goods_id !== undefined ? { goods_id: values.goods_id } : {}),
    ...(kind === 2 && values.coupon_id !== undefined ? { coupon_id: values.coupon_id } : {}),
    ...(kind === 3 ? { red_packet: (values.red_packet ?? '').trim() } : {}),
    points: values.points ?? 0,
    price: (values.price ?? '').trim() || '0',
    stock: values.stock ?? 0,
    per_member: values.per_member ?? 0,
    sort: values.sort ?? 0,
    is_on: values.is_on === false ? 0 : 1,
  };
}

function ItemDialog({ item, onClose }: { item: PointsGoodsRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSavePointsGoods();
  const coupons = useCouponTemplates();
  const kind = Form.useWatch('kind', form) ?? item?.kind ?? 1;
  const own = useMemo(() => new Map(item?.goods_id ? [[item.goods_id, `${item.goods_id} ${item.goods_name ?? ''}`] as const] : []), [item]);
  const goods = useGoodsChoices(own);
  const couponOptions = (coupons.data ?? [])
    .filter((template) => template.template === 'coupon')
    .map((template) => ({ value: template.id, label: `${template.id} ${template.title}（${template.rule}）` }));
  const initial: FormValues = item
    ? {
        name: item.name,
        description: item.description,
        kind: item.kind,
        goods_id: item.goods_id ?? undefined,
        coupon_id: item.coupon_id ?? undefined,
        red_packet: item.red_packet,
        points: item.points,
        price: item.price,
        stock: item.stock,
        per_member: item.per_member,
        sort: item.sort,
        is_on: item.is_on === 1,
      }
    : { kind: 1, price: '0', stock: 100, per_member: 1, sort: 0, is_on: true };
  const submit = async (values: FormValues) => {
    try {
      await save.mutateAsync({ id: item?.id ?? null, form: draftOf(values) });
      onClose();
    } catch (error) {
      showOnFields(form, error);
    }
  };
  const refusal = wholeRefusal(save.error);
  return (
    <Modal
      open
      title={item ? `修改积分商品 ${item.id}` : '新增积分商品'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={640}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Form.Item name="name" label="商品名称" rules={[{ required: true, message: '请填写商品名称' }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="kind" label="商品类型">
          <Select options={KINDS} aria-label="商品类型" style={{ width: 200 }} />
        </Form.Item>
        {kind === 1 && (
          <Form.Item name="goods_id" label="兑换的商品" extra="发货给会员，商城中显示该商品的图片">
            <Select
              showSearch
              filterOption={false}
              onSearch={goods.setSearch}
              onChange={goods.remember}
              options={goods.options}
              loading={goods.loading}
              placeholder="输入商品ID或名称查找"
              aria-label="兑换的商品"
            />
          </Form.Item>
        )}
        {kind === 2 && (
          <Form.Item name="coupon_id" label="兑换的优惠券" extra="兑换后立即放入会员的优惠券">
            <Select options={couponOptions} loading={coupons.isFetching} aria-label="兑换的优惠券" />
          </Form.Item>
        )}
        {kind === 3 && (
          <Form.Item name="red_packet" label="红包金额" extra="兑换后立即存入会员的账户红包">
            <Input prefix="¥" style={{ width: 160 }} />
          </Form.Item>
        )}
        <Space size="large" align="start" wrap>
          <Form.Item name="points" label="兑换积分">
            <InputNumber min={1} style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="price" label="加价" extra="积分+现金，从余额支付；0为纯积分">
            <Input prefix="¥" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="stock" label="库存">
            <InputNumber min={0} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="per_member" label="每人限兑" extra="0为不限">
            <InputNumber min={0} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="sort" label="排序" extra="数字小的在前">
            <InputNumber min={0} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="is_on" label="上架" valuePropName="checked">
            <Switch aria-label="上架" />
          </Form.Item>
        </Space>
        <Form.Item name="description" label="商品说明">
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
