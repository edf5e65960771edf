// 秒杀 sessions (docs/backoffice.md, "Promotions"): the list with where each stands and the units
// ordered in it, and a session's form — the goods found by name, the price, the per-member limit
// and the time — with the engine's preview of the limit's quantity at the sale's price beside
// the goods' own, before anything is saved.
import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Descriptions, Form, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { PERIOD, showOnFields, wholeRefusal } from './form-refusals';
import { useGoodsChoices, withPrice } from './goods-choices';
import { ListCard, ScheduledActions } from './scheduled';
import { periodColumn, stateColumn } from './scheduled-columns';
import { can, useEndFlash, useFlashSales, usePreviewFlash, useSaveFlash, type FlashDraft, type FlashRow, type OperatorMe } from './api';
import { Money } from './console';

interface FormValues {
  goods_id?: number;
  price?: string;
  limit_number?: number;
  period?: [Dayjs, Dayjs];
}

/** The form's values as the origin takes them. */
function draftOf(values: FormValues): FlashDraft {
  const [start, end] = values.period ?? [];
  return {
    goods_id: values.goods_id ?? 0,
    price: (values.price ?? '').trim(),
    limit_number: values.limit_number ?? 0,
    starts_at: start ? start.unix() : 0,
    ends_at: end ? end.unix() : 0,
  };
}

export function FlashSalesPage({ me }: { me: OperatorMe }) {
  const sessions = useFlashSales(null);
  const end = useEndFlash();
  const mayChange = can(me, 'promotions');
  // The session being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<FlashRow | 0 | null>(null);
  return (
    <ListCard title="秒杀" testId="admin-flash" addLabel="新增秒杀" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<FlashRow>
        rowKey="id"
        size="small"
        loading={sessions.isFetching}
        dataSource={sessions.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '场次', dataIndex: 'id', width: 70 },
          { title: '商品', dataIndex: 'goods_name', render: (name: string, row) => `${row.goods_id} ${name} ${row.ypgg}` },
          { title: '原价', dataIndex: 'goods_price', render: (value: string) => <Money value={value} /> },
          { title: '秒杀价', dataIndex: 'price', render: (value: string) => <Money value={value} /> },
          { title: '每人限购', dataIndex: 'limit_number' },
          { title: '已售', dataIndex: 'sold' },
          periodColumn<FlashRow>('时间'),
          stateColumn<FlashRow>(),
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <ScheduledActions
                  state={row.state}
                  ask="结束后买家不能再以秒杀价购买，确定结束？"
                  onEdit={() => setEditing(row)}
                  onEnd={() => end.mutateAsync(row.id)}
                />
              ),
          },
        ]}
      />
      {editing !== null && <FlashDialog session={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

function FlashDialog({ session, onClose }: { session: FlashRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveFlash();
  const preview = usePreviewFlash();
  const own = useMemo(
    () => new Map(session ? [[session.goods_id, `${session.goods_id} ${session.goods_name} ${session.ypgg}`] as const] : []),
    [session],
  );
  const choices = useGoodsChoices(own, withPrice);
  const initial: FormValues = session
    ? {
        goods_id: session.goods_id,
        price: session.price,
        limit_number: session.limit_number,
        period: [dayjs.unix(session.starts_at), dayjs.unix(session.ends_at)],
      }
    : { limit_number: 1, period: [dayjs().startOf('minute'), dayjs().add(1, 'day').startOf('hour')] };

  const showFieldErrors = (error: unknown) => showOnFields(form, error, PERIOD);
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
      await save.mutateAsync({ ...draftOf(values), id: session?.id ?? null });
      onClose();
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const refusal = wholeRefusal(save.error);
  const quote = preview.data?.quote;
  return (
    <Modal
      open
      title={session ? `修改秒杀场次 ${session.id}` : '新增秒杀'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={640}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="flash-refused" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Form.Item name="goods_id" label="秒杀商品" rules={[{ required: true, message: '请选择秒杀商品' }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={choices.setSearch}
            onChange={choices.remember}
            loading={choices.loading}
            options={choices.options}
            placeholder="输入商品ID或名称查找"
          />
        </Form.Item>
        <Space size="large" align="start">
          <Form.Item name="price" label="秒杀价" rules={[{ required: true, message: '请填写秒杀价' }]}>
            <Input prefix="¥" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="limit_number" label="每人限购">
            <InputNumber min={1} max={9999} style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <Form.Item name="period" label="场次时间" rules={[{ required: true, message: '请选择场次时间' }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
        </Form.Item>
      </Form>
      <Button onClick={() => void runPreview()} loading={preview.isPending}>
        试算
      </Button>
      {quote && preview.data && (
        <Descriptions size="small" column={2} style={{ marginTop: 12 }} data-testid="flash-preview" bordered>
          <Descriptions.Item label={`秒杀价买${preview.data.quantity}件`}>
            <Money value={quote.lines[0]?.amount} />
          </Descriptions.Item>
          <Descriptions.Item label={`原价买${preview.data.quantity}件`}>
            <Money value={quote.lines[1]?.amount} />
          </Descriptions.Item>
          <Descriptions.Item label="秒杀单价">
            <Money value={quote.lines[0]?.unit_price} />
          </Descriptions.Item>
          <Descriptions.Item label="原价单价（含阶梯价）">
            <Money value={quote.lines[1]?.unit_price} />
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
