// 优惠券 (docs/backoffice.md, "Promotions"): coupon and cash-voucher templates — what each takes
// off, from what threshold, on which goods, for how many days, and the coupon centre's numbers —
// each previewed by the engine on sample goods amounts before it is saved, and granted to every
// approved member or one buyer type with a reason.
import { useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Modal, Radio, Select, Space, Table, Tag } from 'antd';
import { showOnFields, wholeRefusal } from './form-refusals';
import {
  BUYER_TYPES,
  can,
  useCouponTemplates,
  useGrantTemplate,
  usePreviewTemplate,
  useSaveTemplate,
  type OperatorMe,
  type TemplateDraft,
  type TemplateRow,
} from './api';
import { Money } from './console';

type Editing = { template: 'coupon' | 'voucher'; row: TemplateRow | null };

export function CouponsPage({ me }: { me: OperatorMe }) {
  const templates = useCouponTemplates();
  const mayChange = can(me, 'promotions');
  const mayGrant = can(me, 'grant_benefits');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [granting, setGranting] = useState<TemplateRow | null>(null);
  return (
    <Card
      className="console-card"
      title="优惠券与现金券"
      data-testid="admin-coupons"
      extra={
        mayChange && (
          <Space>
            <Button type="primary" onClick={() => setEditing({ template: 'coupon', row: null })}>
              新增优惠券
            </Button>
            <Button onClick={() => setEditing({ template: 'voucher', row: null })}>新增现金券</Button>
          </Space>
        )
      }
    >
      <Table<TemplateRow>
        rowKey={(row) => `${row.template}-${row.id}`}
        size="small"
        loading={templates.isFetching}
        dataSource={templates.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '名称', dataIndex: 'title' },
          { title: '类型', dataIndex: 'kind_name', render: (name: string) => <Tag>{name}</Tag> },
          { title: '规则', dataIndex: 'rule' },
          { title: '适用范围', dataIndex: 'scope_name' },
          { title: '有效天数', dataIndex: 'days' },
          {
            title: '领券中心',
            key: 'centre',
            render: (_, row) =>
              row.template === 'coupon' && row.centre_stock > 0
                ? `${row.centre_claimed}/${row.centre_stock}，每人${row.per_member}张`
                : '—',
          },
          { title: '已发放/已使用', key: 'held', render: (_, row) => `${row.held}/${row.used}` },
          {
            title: '操作',
            key: 'actions',
            render: (_, row) => (
              <Space>
                {mayChange && (
                  <Button size="small" onClick={() => setEditing({ template: row.template as 'coupon' | 'voucher', row })}>
                    修改
                  </Button>
                )}
                {mayGrant && (
                  <Button size="small" onClick={() => setGranting(row)}>
                    发放
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && <TemplateDialog editing={editing} onClose={() => setEditing(null)} />}
      {granting && <GrantDialog row={granting} onClose={() => setGranting(null)} />}
    </Card>
  );
}

interface FormValues {
  title?: string;
  kind?: number;
  scope?: number;
  amount?: string;
  min_amount?: string;
  rate?: string;
  max_reduce?: string;
  days?: number;
  centre_stock?: number;
  per_member?: number;
}

function draftOf(template: string, values: FormValues): TemplateDraft {
  const text = (value: string | number | undefined) => (value === undefined || value === null ? '' : String(value).trim());
  return {
    template,
    title: text(values.title),
    kind: values.kind ?? 1,
    scope: values.scope ?? 0,
    amount: text(values.amount),
    min_amount: text(values.min_amount),
    rate: text(values.rate),
    max_reduce: text(values.max_reduce),
    days: values.days ?? 0,
    centre_stock: values.centre_stock ?? 0,
    per_member: values.per_member ?? 1,
  };
}

function TemplateDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { template, row } = editing;
  const [form] = Form.useForm<FormValues>();
  const save = useSaveTemplate();
  const preview = usePreviewTemplate();
  const [amounts, setAmounts] = useState('');
  const kind = Form.useWatch('kind', form) ?? row?.kind ?? 1;
  const isCoupon = template === 'coupon';
  const initial: FormValues = row
    ? {
        title: row.title,
        kind: row.kind,
        scope: row.scope,
        amount: row.amount,
        min_amount: row.min_amount === '0.00' ? '' : row.min_amount,
        rate: row.rate,
        max_reduce: row.max_reduce,
        days: row.days,
        centre_stock: row.centre_stock,
        per_member: row.per_member,
      }
    : { kind: 1, scope: 0, days: 30, centre_stock: 0, per_member: 1 };
  const showFieldErrors = (error: unknown) => showOnFields(form, error);
  const runPreview = async () => {
    preview.reset();
    try {
      await preview.mutateAsync({ ...draftOf(template, form.getFieldsValue(true) as FormValues), amounts });
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const submit = async (values: FormValues) => {
    try {
      await save.mutateAsync({ id: row?.id ?? null, form: draftOf(template, values) });
      onClose();
    } catch (error) {
      showFieldErrors(error);
    }
  };
  const refusal = wholeRefusal(save.error);
  const noun = isCoupon ? '优惠券' : '现金券';
  return (
    <Modal
      open
      title={row ? `修改${noun} ${row.id}` : `新增${noun}`}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={680}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} data-testid="template-refused" />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Form.Item name="title" label="名称" rules={[{ required: true, message: '请填写名称' }]}>
          <Input maxLength={30} />
        </Form.Item>
        {isCoupon && (
          <Space size="large" align="start">
            <Form.Item name="kind" label="券类型">
              <Radio.Group
                options={[
                  { value: 1, label: '满减券' },
                  { value: 2, label: '折扣券' },
                ]}
              />
            </Form.Item>
            <Form.Item name="scope" label="适用范围">
              <Select
                style={{ width: 160 }}
                options={[
                  { value: 0, label: '全场通用' },
                  { value: 1, label: '优选商品' },
                  { value: 2, label: '中药饮片' },
                  { value: 3, label: '医疗器械' },
                ]}
              />
            </Form.Item>
          </Space>
        )}
        <Space size="large" align="start" wrap>
          <Form.Item name="min_amount" label="使用门槛" extra="不填为无门槛">
            <Input prefix="满¥" style={{ width: 150 }} />
          </Form.Item>
          {isCoupon && kind === 2 ? (
            <>
              <Form.Item name="rate" label="折扣" extra="如 0.95 为95折">
                <Input style={{ width: 120 }} />
              </Form.Item>
              <Form.Item name="max_reduce" label="最多优惠" extra="不填为不封顶">
                <Input prefix="¥" style={{ width: 130 }} />
              </Form.Item>
            </>
          ) : (
            <Form.Item name="amount" label="面额">
              <Input prefix="减¥" style={{ width: 140 }} />
            </Form.Item>
          )}
          <Form.Item name="days" label="有效天数">
            <InputNumber min={1} max={365} style={{ width: 100 }} />
          </Form.Item>
        </Space>
        {isCoupon && (
          <Space size="large" align="start">
            <Form.Item name="centre_stock" label="领券中心发放总量" extra="0为不在领券中心发放">
              <InputNumber min={0} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="per_member" label="每人限领">
              <InputNumber min={1} max={99} style={{ width: 100 }} />
            </Form.Item>
          </Space>
        )}
      </Form>
      <Space>
        <Input
          aria-label="试算金额"
          placeholder="试算金额，如 299.99,300,600（不填按门槛）"
          value={amounts}
          onChange={(event) => setAmounts(event.target.value)}
          style={{ width: 300 }}
        />
        <Button onClick={() => void runPreview()} loading={preview.isPending}>
          试算
        </Button>
      </Space>
      {wholeRefusal(preview.error) && <Alert type="error" showIcon message={wholeRefusal(preview.error)} style={{ marginTop: 12 }} />}
      {preview.data && (
        <Table
          data-testid="template-preview"
          rowKey="goods"
          size="small"
          pagination={false}
          style={{ marginTop: 12 }}
          dataSource={preview.data}
          columns={[
            { title: '商品金额', dataIndex: 'goods', render: (value: string) => <Money value={value} /> },
            { title: '可用', dataIndex: 'usable', render: (usable: boolean) => (usable ? '可用' : '不可用') },
            { title: '优惠', dataIndex: 'value', render: (value: string) => <Money value={value} /> },
            { title: '还差', dataIndex: 'need', render: (value: string) => <Money value={value} /> },
            { title: '实付（含运费）', dataIndex: 'due', render: (value: string) => <Money value={value} /> },
          ]}
        />
      )}
    </Modal>
  );
}

function GrantDialog({ row, onClose }: { row: TemplateRow; onClose: () => void }) {
  const [form] = Form.useForm<{ group: string; buyer_type?: number; count: number; reason: string }>();
  const grant = useGrantTemplate();
  const group = Form.useWatch('group', form);
  const submit = async (values: { group: string; buyer_type?: number; count: number; reason: string }) => {
    try {
      await grant.mutateAsync({ template: row.template, id: row.id, form: { ...values, buyer_type: values.buyer_type ?? 0 } });
    } catch (error) {
      showOnFields(form, error);
    }
  };
  return (
    <Modal
      open
      title={`发放「${row.title}」`}
      onCancel={onClose}
      okText="发放"
      cancelText="关闭"
      confirmLoading={grant.isPending}
      okButtonProps={{ disabled: grant.isSuccess }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {grant.isSuccess && (
        <Alert
          type="success"
          showIcon
          data-testid="grant-done"
          message={`已发放给${grant.data.members}位会员`}
          style={{ marginBottom: 12 }}
        />
      )}
      {wholeRefusal(grant.error) && <Alert type="error" showIcon message={wholeRefusal(grant.error)} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" initialValues={{ group: 'approved', count: 1 }} onFinish={(values) => void submit(values)}>
        <Form.Item name="group" label="发放对象">
          <Radio.Group
            options={[
              { value: 'approved', label: '全部已审核会员' },
              { value: 'buyer_type', label: '按客户类型' },
            ]}
          />
        </Form.Item>
        {group === 'buyer_type' && (
          <Form.Item name="buyer_type" label="客户类型" rules={[{ required: true, message: '请选择客户类型' }]}>
            <Select
              options={Object.entries(BUYER_TYPES).map(([value, label]) => ({ value: Number(value), label }))}
              style={{ width: 200 }}
            />
          </Form.Item>
        )}
        <Form.Item name="count" label="每人张数">
          <InputNumber min={1} max={100} />
        </Form.Item>
        <Form.Item name="reason" label="发放原因" rules={[{ required: true, message: '请填写发放原因' }]}>
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
