// 满额返现 (docs/backoffice.md, "Promotions"): the activities, each with its tiers, where it
// stands, the orders placed under it and what they hold back; an activity's form — title,
// schedule, tiers as rows — with the engine's answer for sample order amounts before it is
// saved. One activity runs at a time, and a started one keeps its tiers and its start.
import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { PERIOD, showOnFields, wholeRefusal } from './form-refusals';
import { ListCard, ScheduledActions } from './scheduled';
import { periodColumn, stateColumn } from './scheduled-columns';
import {
  can,
  useCashbackList,
  useEndCashback,
  usePreviewCashback,
  useSaveCashback,
  type CashbackDraft,
  type CashbackRow,
  type CashbackSample,
  type OperatorMe,
} from './api';
import { Money } from './console';

export function CashbackPage({ me }: { me: OperatorMe }) {
  const list = useCashbackList();
  const end = useEndCashback();
  const mayChange = can(me, 'promotions');
  // The activity being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<CashbackRow | 0 | null>(null);
  return (
    <ListCard title="满额返现" testId="admin-cashback" addLabel="新增返现活动" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<CashbackRow>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '活动名称', dataIndex: 'title' },
          { title: '返现档位', key: 'tiers', render: (_, row) => row.tiers.map((tier) => tier.title).join('、') },
          periodColumn<CashbackRow>(),
          stateColumn<CashbackRow>(),
          { title: '参与订单', dataIndex: 'orders', width: 90 },
          { title: '已返现', dataIndex: 'paid_back', render: (value: string) => <Money value={value} /> },
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <ScheduledActions
                  state={row.state}
                  ask="结束后新下的订单不再返现，确定结束？"
                  onEdit={() => setEditing(row)}
                  onEnd={() => end.mutateAsync(row.id)}
                />
              ),
          },
        ]}
      />
      {editing !== null && <CashbackDialog activity={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

interface FormValues {
  title?: string;
  period?: [Dayjs, Dayjs];
  tiers?: { amount?: string; back?: string }[];
  sample?: string;
}

function draftOf(values: FormValues): CashbackDraft {
  const [start, end] = values.period ?? [];
  return {
    title: (values.title ?? '').trim(),
    starts_at: start ? start.unix() : 0,
    ends_at: end ? end.unix() : 0,
    tiers: (values.tiers ?? [])
      .filter((tier) => (tier.amount ?? '').trim() !== '' || (tier.back ?? '').trim() !== '')
      .map((tier) => `${(tier.amount ?? '').trim()}:${(tier.back ?? '').trim()}`)
      .join(','),
  };
}

function CashbackDialog({ activity, onClose }: { activity: CashbackRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveCashback();
  const preview = usePreviewCashback();
  // A started activity keeps its tiers and start: the orders placed under it were promised them.
  const started = activity !== null && activity.state === '进行中';
  const initial: FormValues = activity
    ? {
        title: activity.title,
        period: [dayjs.unix(activity.starts_at), dayjs.unix(activity.ends_at)],
        tiers: activity.tiers.map((tier) => ({ amount: tier.amount, back: tier.back })),
      }
    : { period: [dayjs().startOf('minute'), dayjs().add(30, 'day').endOf('day')], tiers: [{}] };
  const showFieldErrors = (error: unknown) => showOnFields(form, error, PERIOD);
  const runPreview = async () => {
    preview.reset();
    const values = form.getFieldsValue(true) as FormValues;
    try {
      await preview.mutateAsync({ ...draftOf(values), sample: (values.sample ?? '').trim() });
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const submit = async (values: FormValues) => {
    try {
      await save.mutateAsync({ id: activity?.id ?? null, form: draftOf(values) });
      onClose();
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const refusal = wholeRefusal(save.error);
  return (
    <Modal
      open
      title={activity ? `修改返现活动 ${activity.id}` : '新增返现活动'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={640}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="cashback-refusal" />}
      {started && (
        <Alert type="info" showIcon message="活动已开始：返现档位和开始时间不能修改，可改名称和结束时间" style={{ marginBottom: 12 }} />
      )}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Form.Item name="title" label="活动名称" rules={[{ required: true, message: '请填写活动名称' }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="period" label="活动时间" rules={[{ required: true, message: '请选择活动时间' }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabled={[started, false]} />
        </Form.Item>
        <Form.List name="tiers">
          {(rows, { add, remove }, { errors }) => (
            <Form.Item label="返现档位" required extra="订单商品实付满额，确认收货后返现到账户余额">
              {rows.map((row, index) => (
                <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item name={[row.name, 'amount']} noStyle>
                    <Input addonBefore="满" suffix="元" aria-label={`第${index + 1}档门槛`} style={{ width: 170 }} disabled={started} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'back']} noStyle>
                    <Input addonBefore="返" suffix="元" aria-label={`第${index + 1}档返现`} style={{ width: 170 }} disabled={started} />
                  </Form.Item>
                  {rows.length > 1 && !started && (
                    <Button type="link" onClick={() => remove(row.name)}>
                      删除
                    </Button>
                  )}
                </Space>
              ))}
              {rows.length < 5 && !started && (
                <Button type="dashed" onClick={() => add({})} style={{ marginTop: 8 }}>
                  添加一档
                </Button>
              )}
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
        <Form.Item name="sample" label="试算金额" extra="订单商品金额，多个用逗号分隔；不填则试算每档门槛及少一分的金额">
          <Input placeholder="如 800,1500,3200" aria-label="试算金额" />
        </Form.Item>
      </Form>
      <Button onClick={() => void runPreview()} loading={preview.isPending}>
        试算
      </Button>
      {preview.data && <SampleTable rows={preview.data} />}
    </Modal>
  );
}

function SampleTable({ rows }: { rows: CashbackSample[] }) {
  return (
    <Table<CashbackSample & { key: number }>
      data-testid="cashback-preview"
      size="small"
      style={{ marginTop: 12 }}
      pagination={false}
      dataSource={rows.map((row, key) => ({ ...row, key }))}
      columns={[
        { title: '订单商品金额', dataIndex: 'amount', render: (value: string) => <Money value={value} /> },
        { title: '达到档位', dataIndex: 'tier', render: (tier: string) => tier || '未达门槛' },
        { title: '返现', dataIndex: 'back', render: (value: string) => <Money value={value} /> },
      ]}
    />
  );
}
