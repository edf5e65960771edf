// 抽奖活动 (docs/backoffice.md, "Promotions"): the activities with where each stands, the members
// who drew and each prize's chance now; an activity's form — title, schedule, description and
// its prizes as rows (谢谢参与, a coupon, points or red packets, each with a weight and a stock) —
// with each prize's chance on the first draw before it is saved. One activity runs at a time.
import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { PERIOD, showOnFields, wholeRefusal } from './form-refusals';
import { ListCard, ScheduledActions } from './scheduled';
import { periodColumn, stateColumn } from './scheduled-columns';
import {
  can,
  useCouponTemplates,
  useDraws,
  useEndDraw,
  usePreviewDraw,
  useSaveDraw,
  type DrawDraft,
  type DrawRow,
  type OperatorMe,
} from './api';

const KINDS = [
  { value: 0, label: '谢谢参与' },
  { value: 1, label: '优惠券' },
  { value: 2, label: '积分' },
  { value: 3, label: '账户红包' },
];

export function DrawsPage({ me }: { me: OperatorMe }) {
  const list = useDraws();
  const end = useEndDraw();
  const mayChange = can(me, 'promotions');
  // The activity being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<DrawRow | 0 | null>(null);
  return (
    <ListCard title="抽奖活动" testId="admin-draws" addLabel="新增抽奖活动" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<DrawRow>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '活动名称', dataIndex: 'title' },
          {
            title: '奖品（当前中奖概率）',
            key: 'prizes',
            render: (_, row) => row.prizes.map((prize) => `${prize.name} ${prize.chance}%`).join('、'),
          },
          periodColumn<DrawRow>(),
          stateColumn<DrawRow>(),
          { title: '参与人数', dataIndex: 'draws', width: 90 },
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <ScheduledActions
                  state={row.state}
                  ask="结束后会员不能再抽奖，确定结束？"
                  onEdit={() => setEditing(row)}
                  onEnd={() => end.mutateAsync(row.id)}
                />
              ),
          },
        ]}
      />
      {editing !== null && <DrawDialog activity={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

interface PrizeValues {
  id?: number;
  name?: string;
  kind?: number;
  coupon_id?: number;
  points?: number;
  red_packet?: string;
  weight?: number;
  stock?: number;
  /** Handed out so far: what a saved prize's stock cannot go below. */
  handed?: number;
}

interface FormValues {
  title?: string;
  description?: string;
  period?: [Dayjs, Dayjs];
  prizes?: PrizeValues[];
}

function draftOf(values: FormValues): DrawDraft {
  const [start, end] = values.period ?? [];
  const prizes = (values.prizes ?? []).map((prize) => ({
    ...(prize.id ? { id: prize.id } : {}),
    name: (prize.name ?? '').trim(),
    kind: prize.kind ?? 0,
    ...(prize.kind === 1 ? { coupon_id: prize.coupon_id ?? null } : {}),
    ...(prize.kind === 2 ? { points: prize.points ?? 0 } : {}),
    ...(prize.kind === 3 ? { red_packet: (prize.red_packet ?? '').trim() } : {}),
    weight: prize.weight ?? 0,
    stock: prize.kind === 0 ? 0 : (prize.stock ?? 0),
  }));
  return {
    title: (values.title ?? '').trim(),
    description: (values.description ?? '').trim(),
    starts_at: start ? start.unix() : 0,
    ends_at: end ? end.unix() : 0,
    prizes: JSON.stringify(prizes),
  };
}

function DrawDialog({ activity, onClose }: { activity: DrawRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveDraw();
  const preview = usePreviewDraw();
  const coupons = useCouponTemplates();
  const couponOptions = (coupons.data ?? [])
    .filter((template) => template.template === 'coupon')
    .map((template) => ({ value: template.id, label: `${template.title}（${template.rule}）` }));
  // `preserve`: a prize's `id` and `handed` have no field of their own but are the form's values.
  const prizes = Form.useWatch('prizes', { form, preserve: true }) ?? [];
  const initial: FormValues = activity
    ? {
        title: activity.title,
        description: activity.description,
        period: [dayjs.unix(activity.starts_at), dayjs.unix(activity.ends_at)],
        prizes: activity.prizes.map((prize) => ({
          id: prize.id,
          name: prize.name,
          kind: prize.kind,
          coupon_id: prize.coupon_id ?? undefined,
          points: prize.points,
          red_packet: prize.red_packet,
          weight: prize.weight,
          stock: prize.stock,
          handed: prize.handed,
        })),
      }
    : {
        period: [dayjs().startOf('minute'), dayjs().add(7, 'day').endOf('day')],
        prizes: [
          { name: '谢谢参与', kind: 0, weight: 50 },
          { kind: 2, weight: 50, stock: 100 },
        ],
      };
  const showFieldErrors = (error: unknown) => showOnFields(form, error, PERIOD);
  const runPreview = async () => {
    preview.reset();
    try {
      await preview.mutateAsync(draftOf(form.getFieldsValue(true) as FormValues));
    } catch (error) {
      showFieldErrors(error);
    }
  };
  // Every value, not only those of fields: a saved prize is sent with its `id`.
  const submit = async () => {
    try {
      await save.mutateAsync({ id: activity?.id ?? null, form: draftOf(form.getFieldsValue(true) as FormValues) });
      onClose();
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const refusal = wholeRefusal(save.error);
  return (
    <Modal
      open
      title={activity ? `修改抽奖活动 ${activity.id}` : '新增抽奖活动'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={860}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="draw-refusal" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={() => void submit()}>
        <Space size="large" align="start" wrap>
          <Form.Item name="title" label="活动名称" rules={[{ required: true, message: '请填写活动名称' }]}>
            <Input maxLength={30} style={{ width: 280 }} />
          </Form.Item>
          <Form.Item name="period" label="活动时间" rules={[{ required: true, message: '请选择活动时间' }]}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
        </Space>
        <Form.Item name="description" label="活动说明">
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
        <Form.List name="prizes">
          {(rows, { add, remove }, { errors }) => (
            <Form.Item
              label="奖品"
              required
              extra="按权重在还有数量的奖品中抽取；奖品抽完后均为“谢谢参与”。已有人抽中的奖品不能删除或改类型"
            >
              {rows.map((row, index) => {
                const kind = prizes[index]?.kind ?? 0;
                const handed = prizes[index]?.handed ?? 0;
                const n = index + 1;
                return (
                  <Space key={row.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }} wrap>
                    <Form.Item name={[row.name, 'name']} noStyle>
                      <Input placeholder="奖品名称" aria-label={`第${n}个奖品名称`} style={{ width: 150 }} maxLength={20} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'kind']} noStyle>
                      <Select options={KINDS} aria-label={`第${n}个奖品类型`} style={{ width: 110 }} disabled={handed > 0} />
                    </Form.Item>
                    {kind === 1 && (
                      <Form.Item name={[row.name, 'coupon_id']} noStyle>
                        <Select options={couponOptions} aria-label={`第${n}个奖品优惠券`} style={{ width: 220 }} placeholder="选择优惠券" />
                      </Form.Item>
                    )}
                    {kind === 2 && (
                      <Form.Item name={[row.name, 'points']} noStyle>
                        <InputNumber min={1} addonAfter="积分" aria-label={`第${n}个奖品积分`} style={{ width: 140 }} />
                      </Form.Item>
                    )}
                    {kind === 3 && (
                      <Form.Item name={[row.name, 'red_packet']} noStyle>
                        <Input prefix="¥" aria-label={`第${n}个奖品红包金额`} style={{ width: 120 }} />
                      </Form.Item>
                    )}
                    <Form.Item name={[row.name, 'weight']} noStyle>
                      <InputNumber min={1} addonBefore="权重" aria-label={`第${n}个奖品权重`} style={{ width: 150 }} />
                    </Form.Item>
                    {kind !== 0 && (
                      <Form.Item name={[row.name, 'stock']} noStyle>
                        <InputNumber min={handed} addonBefore="数量" aria-label={`第${n}个奖品数量`} style={{ width: 150 }} />
                      </Form.Item>
                    )}
                    {handed > 0 && <span className="muted">已发{handed}</span>}
                    {rows.length > 2 && handed === 0 && (
                      <Button type="link" onClick={() => remove(row.name)}>
                        删除
                      </Button>
                    )}
                  </Space>
                );
              })}
              {rows.length < 12 && (
                <Button type="dashed" onClick={() => add({ kind: 2, weight: 10, stock: 10 })} style={{ marginTop: 8 }}>
                  添加奖品
                </Button>
              )}
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
      </Form>
      <Button onClick={() => void runPreview()} loading={preview.isPending}>
        试算中奖概率
      </Button>
      {preview.data && (
        <Table
          data-testid="draw-preview"
          size="small"
          style={{ marginTop: 12 }}
          pagination={false}
          dataSource={preview.data.map((row, key) => ({ ...row, key }))}
          columns={[
            { title: '奖品', dataIndex: 'name' },
            { title: '首次抽奖中奖概率', dataIndex: 'chance', render: (chance: string) => `${chance}%` },
          ]}
        />
      )}
    </Modal>
  );
}
