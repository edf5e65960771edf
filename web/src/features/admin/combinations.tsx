// 组合购 (docs/backoffice.md, "Promotions"): the sets, each with its goods, its price against them
// bought apart, its stock and the sets ordered; a set's form — name, goods × quantities found by
// name, price and stock — with the engine's preview of one set against its goods bought apart.
import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import { showOnFields, wholeRefusal } from './form-refusals';
import { useGoodsChoices, withPrice } from './goods-choices';
import { can, useCombinations, usePreviewSet, useSaveSet, type OperatorMe, type SetDraft, type SetRow } from './api';
import { Money } from './console';
import { ListCard } from './scheduled';

export function CombinationsPage({ me }: { me: OperatorMe }) {
  const sets = useCombinations();
  const mayChange = can(me, 'promotions');
  // The set being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<SetRow | 0 | null>(null);
  return (
    <ListCard title="组合购" testId="admin-combinations" addLabel="新增组合" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<SetRow>
        rowKey="id"
        size="small"
        loading={sets.isFetching}
        dataSource={sets.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '组合名称', dataIndex: 'name' },
          {
            title: '商品',
            key: 'items',
            render: (_, row) => row.items.map((item) => `${item.name}×${item.quantity}`).join('、'),
          },
          { title: '组合价', dataIndex: 'price', render: (value: string) => <Money value={value} /> },
          { title: '单买合计', dataIndex: 'apart', render: (value: string) => <Money value={value} /> },
          { title: '库存', dataIndex: 'stock' },
          { title: '已售', dataIndex: 'sold' },
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
      {editing !== null && <SetDialog set={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

interface FormValues {
  name?: string;
  price?: string;
  stock?: number;
  items?: { goods?: number; quantity?: number }[];
}

function draftOf(values: FormValues): SetDraft {
  return {
    name: (values.name ?? '').trim(),
    price: (values.price ?? '').trim(),
    stock: values.stock ?? 0,
    items: (values.items ?? [])
      .filter((item) => item.goods !== undefined && item.goods !== null)
      .map((item) => `${item.goods}:${item.quantity ?? 1}`)
      .join(','),
  };
}

function SetDialog({ set, onClose }: { set: SetRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveSet();
  const preview = usePreviewSet();
  const own = useMemo(
    () => new Map((set?.items ?? []).map((item) => [item.goods_id, `${item.goods_id} ${item.name}（¥${item.price}）`] as const)),
    [set],
  );
  const choices = useGoodsChoices(own, withPrice);
  const initial: FormValues = set
    ? {
        name: set.name,
        price: set.price,
        stock: set.stock,
        items: set.items.map((item) => ({ goods: item.goods_id, quantity: item.quantity })),
      }
    : { stock: 100, items: [{ quantity: 1 }, { quantity: 1 }] };
  const showFieldErrors = (error: unknown) => showOnFields(form, error);
  const runPreview = async () => {
    preview.reset();
    try {
      await preview.mutateAsync(draftOf(form.getFieldsValue(true) as FormValues));
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const submit = async (values: FormValues) => {
    try {
      await save.mutateAsync({ id: set?.id ?? null, form: draftOf(values) });
      onClose();
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const refusal = wholeRefusal(save.error);
  return (
    <Modal
      open
      title={set ? `修改组合 ${set.id}` : '新增组合'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={680}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Form.Item name="name" label="组合名称" rules={[{ required: true, message: '请填写组合名称' }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.List name="items">
          {(rows, { add, remove }, { errors }) => (
            <Form.Item label="商品" required>
              {rows.map((row, index) => (
                <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item name={[row.name, 'goods']} noStyle>
                    <Select
                      showSearch
                      filterOption={false}
                      onSearch={choices.setSearch}
                      onChange={choices.remember}
                      options={choices.options}
                      loading={choices.loading}
                      placeholder="输入商品ID或名称查找"
                      aria-label={`第${index + 1}个商品`}
                      style={{ width: 380 }}
                    />
                  </Form.Item>
                  <Form.Item name={[row.name, 'quantity']} noStyle>
                    <InputNumber min={1} max={999} aria-label={`第${index + 1}个商品数量`} />
                  </Form.Item>
                  {rows.length > 2 && (
                    <Button type="link" onClick={() => remove(row.name)}>
                      删除
                    </Button>
                  )}
                </Space>
              ))}
              {rows.length < 10 && (
                <Button type="dashed" onClick={() => add({ quantity: 1 })} style={{ marginTop: 8 }}>
                  添加商品
                </Button>
              )}
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
        <Space size="large" align="start">
          <Form.Item name="price" label="组合价" rules={[{ required: true, message: '请填写组合价' }]}>
            <Input prefix="¥" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="stock" label="组合库存" extra="0为停售">
            <InputNumber min={0} style={{ width: 140 }} />
          </Form.Item>
        </Space>
      </Form>
      <Button onClick={() => void runPreview()} loading={preview.isPending}>
        试算
      </Button>
      {preview.data && (
        <Descriptions size="small" column={2} bordered style={{ marginTop: 12 }} data-testid="set-preview">
          <Descriptions.Item label="买一套">
            <Money value={preview.data.set} />
          </Descriptions.Item>
          <Descriptions.Item label="单买合计（含阶梯价）">
            <Money value={preview.data.apart} />
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
