// 退货: returns by state, found by the return's or order's number or the company. Customer
// service approves one (saying where to send the goods) or rejects it (saying why); once the
// goods are back, the warehouse receives it, which refunds what the request quoted.
import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { formatTime } from '@/lib/time';
import { can, RETURN_REASONS, RETURN_STATUS, useReturns, useReturnStep, type OperatorMe, type ReturnListRow } from './api';
import { Money } from './console';
import { pager, useFilters } from './filters';

const COLORS = ['orange', 'blue', 'default', 'green', 'default'];

type Asking = { row: ReturnListRow; step: 'approve' | 'reject' } | null;

export function ReturnsPage({ me }: { me: OperatorMe }) {
  const [params, setParams] = useFilters(['status', 'search', 'page']);
  const { data, isFetching } = useReturns({ ...params, size: 20 });
  const move = useReturnStep();
  const [asking, setAsking] = useState<Asking>(null);
  const [note, setNote] = useState('');
  const review = can(me, 'review_returns');
  const receive = can(me, 'receive_returns');
  const confirmReceive = (row: ReturnListRow) =>
    Modal.confirm({
      title: '确认收货并退款',
      content: `退货单 ${row.return_no} 的商品已收到？确认后 ¥${row.refund} 将退回会员余额，不能撤回。`,
      okText: '确认退款',
      cancelText: '取消',
      onOk: () => move.mutateAsync({ id: row.id, step: 'receive' }),
    });
  return (
    <div data-testid="admin-returns">
      <Form
        layout="inline"
        className="console-filters"
        key={JSON.stringify(params)}
        initialValues={{ status: params.status, search: params.search }}
        onFinish={(fields: { status?: string; search?: string }) => setParams({ status: fields.status, search: fields.search?.trim() })}
      >
        <Form.Item name="status" label="状态">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={RETURN_STATUS.map((name, code) => ({ value: String(code), label: name }))}
          />
        </Form.Item>
        <Form.Item name="search" label="搜索">
          <Input allowClear placeholder="退货单号、订单号或企业" style={{ width: 240 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
        </Space>
      </Form>
      <Table<ReturnListRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        pagination={pager(data, '单', (page) => setParams({ ...params, page }))}
        columns={[
          { title: '退货单号', dataIndex: 'return_no' },
          { title: '订单号', dataIndex: 'order_no', render: (no: string) => <Link to={`/admin/orders/${no}`}>{no}</Link> },
          { title: '会员', dataIndex: 'company' },
          { title: '商品', dataIndex: 'units', render: (units: string[]) => units.map((unit) => <div key={unit}>{unit}</div>) },
          {
            title: '原因',
            render: (_, row) => (
              <>
                {RETURN_REASONS[row.reason]}
                {row.description && <Typography.Text type="secondary">：{row.description}</Typography.Text>}
              </>
            ),
          },
          { title: '退款', dataIndex: 'refund', align: 'right', render: (value: string) => <Money value={value} /> },
          { title: '状态', dataIndex: 'status', render: (status: number) => <Tag color={COLORS[status]}>{RETURN_STATUS[status]}</Tag> },
          { title: '申请时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
          {
            title: '操作',
            render: (_, row) => (
              <Space size={0}>
                {review && row.status === 0 && (
                  <Button type="link" onClick={() => setAsking({ row, step: 'approve' })}>
                    同意
                  </Button>
                )}
                {review && (row.status === 0 || row.status === 1) && (
                  <Button type="link" danger onClick={() => setAsking({ row, step: 'reject' })}>
                    拒绝
                  </Button>
                )}
                {receive && row.status === 1 && (
                  <Button type="link" onClick={() => confirmReceive(row)}>
                    确认收货退款
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={asking?.step === 'approve' ? '同意退货' : '拒绝退货'}
        open={!!asking}
        okText={asking?.step === 'approve' ? '同意' : '拒绝'}
        cancelText="取消"
        okButtonProps={{
          danger: asking?.step === 'reject',
          disabled: asking?.step === 'reject' && note.trim() === '',
          loading: move.isPending,
        }}
        onCancel={() => setAsking(null)}
        onOk={async () => {
          if (!asking) return;
          await move.mutateAsync({ id: asking.row.id, step: asking.step, note: note.trim() });
          setAsking(null);
          setNote('');
        }}
      >
        <Typography.Paragraph>
          {asking?.step === 'approve' ? '请告知会员寄回地址等说明（可不填）：' : '请填写拒绝原因，会员将看到：'}
        </Typography.Paragraph>
        <Input.TextArea
          aria-label={asking?.step === 'approve' ? '寄回说明' : '拒绝原因'}
          rows={3}
          maxLength={200}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </Modal>
    </div>
  );
}
