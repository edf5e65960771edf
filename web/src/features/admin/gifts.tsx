// Gifts to a member, each with a reason the member's log and the audit trail keep: coupons and
// cash vouchers from a template, red packets and points (运营), balance (财务). A balance gift
// above the set amount waits for a second operator's approval (余额审批).
import { useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Select, Space, Table, Tag } from 'antd';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { formatTime } from '@/lib/time';
import {
  can,
  useBalanceRequests,
  useDecideBalance,
  useGive,
  useGrantTemplates,
  type BalanceRequest,
  type GiftForm,
  type OperatorMe,
} from './api';
import { Money } from './console';

type Kind = GiftForm['kind'];

interface Fields {
  kind: Kind;
  template?: number;
  count?: number;
  amount?: string;
  points?: number;
  reason: string;
}

export function GiftCard({ member, me }: { member: number; me: OperatorMe }) {
  const [form] = Form.useForm<Fields>();
  const kind = Form.useWatch('kind', form);
  const templates = useGrantTemplates();
  const give = useGive(member);
  const [done, setDone] = useState<string | null>(null);
  const kinds: { value: Kind; label: string }[] = [
    ...(can(me, 'grant_benefits')
      ? ([
          { value: 'coupon', label: '优惠券' },
          { value: 'voucher', label: '现金券' },
          { value: 'red_packet', label: '红包' },
          { value: 'points', label: '积分' },
        ] as const)
      : []),
    ...(can(me, 'grant_balance') ? ([{ value: 'balance', label: '余额' }] as const) : []),
  ];
  if (kinds.length === 0) return null;
  const submit = async (fields: Fields) => {
    const reason = fields.reason.trim();
    const gift: GiftForm =
      fields.kind === 'coupon' || fields.kind === 'voucher'
        ? { kind: fields.kind, template: fields.template!, count: fields.count ?? 1, reason }
        : fields.kind === 'points'
          ? { kind: 'points', points: fields.points!, reason }
          : { kind: fields.kind, amount: String(fields.amount), reason };
    try {
      const given = await give.mutateAsync(gift);
      setDone(given.request ? `${given.summary}（申请 ${given.request}）` : given.summary);
      form.resetFields(['amount', 'points', 'reason']);
    } catch (error) {
      if (error instanceof ApiError)
        form.setFields(Object.entries(error.fieldErrors).map(([name, errors]) => ({ name: name as keyof Fields, errors })));
    }
  };
  const options = kind === 'voucher' ? templates.data?.vouchers : templates.data?.coupons;
  return (
    <Card title="赠送" className="console-cards" data-testid="gift-card">
      {done && <Alert type="success" showIcon message={done} closable onClose={() => setDone(null)} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="inline" initialValues={{ kind: kinds[0].value, count: 1 }} onFinish={submit}>
        <Form.Item name="kind">
          <Radio.Group options={kinds.map((entry) => ({ ...entry }))} optionType="button" onChange={() => setDone(null)} />
        </Form.Item>
        {(kind === 'coupon' || kind === 'voucher') && (
          <>
            <Form.Item name="template" rules={[{ required: true, message: '请选择券模板' }]}>
              <Select
                aria-label="券模板"
                placeholder="选择券"
                style={{ width: 220 }}
                options={(options ?? []).map((entry) => ({ value: entry.id, label: `${entry.title}（${entry.days}天）` }))}
              />
            </Form.Item>
            <Form.Item name="count" label="数量">
              <InputNumber min={1} max={100} precision={0} />
            </Form.Item>
          </>
        )}
        {(kind === 'red_packet' || kind === 'balance') && (
          <Form.Item name="amount" label="金额" rules={[{ required: true, message: '请填写金额' }]}>
            <Input prefix="¥" style={{ width: 140 }} />
          </Form.Item>
        )}
        {kind === 'points' && (
          <Form.Item name="points" label="积分" rules={[{ required: true, message: '请填写积分' }]}>
            <InputNumber precision={0} style={{ width: 140 }} />
          </Form.Item>
        )}
        <Form.Item name="reason" label="原因" rules={[{ required: true, whitespace: true, message: '请填写赠送原因' }]}>
          <Input maxLength={100} style={{ width: 220 }} placeholder="会员可在明细中看到" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={give.isPending}>
          赠送
        </Button>
      </Form>
      {kind === 'balance' && templates.data && (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          message={`余额单笔超过 ¥${templates.data.second_operator_above} 时，须由另一位员工在“余额审批”中通过后到账。`}
        />
      )}
    </Card>
  );
}

const STATUS = [<Tag color="orange">待审批</Tag>, <Tag color="green">已通过</Tag>, <Tag>已驳回</Tag>];

export function BalanceRequestsPage({ me }: { me: OperatorMe }) {
  const [pending, setPending] = useState(true);
  const { data, isFetching } = useBalanceRequests(pending);
  const decide = useDecideBalance();
  const mayDecide = can(me, 'grant_balance');
  return (
    <div data-testid="admin-balance-requests">
      <Space className="console-filters">
        <Radio.Group
          optionType="button"
          value={pending ? 'pending' : 'all'}
          onChange={(event) => setPending(event.target.value === 'pending')}
          options={[
            { value: 'pending', label: '待审批' },
            { value: 'all', label: '全部' },
          ]}
        />
      </Space>
      <Table<BalanceRequest>
        rowKey="id"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: '会员', render: (_, row) => <Link to={`/admin/members/${row.member_id}`}>{row.company}</Link> },
          { title: '金额', dataIndex: 'amount', align: 'right', render: (value: string) => <Money value={value} /> },
          { title: '原因', dataIndex: 'reason' },
          { title: '申请人', dataIndex: 'requested_name' },
          { title: '申请时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: number, row) => (
              <>
                {STATUS[status]}
                {row.decided_name && ` ${row.decided_name}`}
              </>
            ),
          },
          {
            title: '操作',
            render: (_, row) =>
              row.status === 0 && mayDecide && row.requested_name !== me.operator.username ? (
                <Space size={0}>
                  <Button type="link" onClick={() => decide.mutate({ id: row.id, approve: true })}>
                    通过
                  </Button>
                  <Button type="link" danger onClick={() => decide.mutate({ id: row.id, approve: false })}>
                    驳回
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
