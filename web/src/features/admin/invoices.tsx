// 发票: requests waiting and invoices issued (red-letter ones naming the blue one they reverse);
// finance issues a request here, and the buyer is told and can download it at once. An issued
// invoice with a wrong title or tax number is reversed whole (红冲) with a reason; the buyer is
// told and may request the order's invoice again.
import { useState } from 'react';
import { Button, Form, Input, Modal, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { formatTime } from '@/lib/time';
import { can, useInvoices, useIssueInvoice, useReverseInvoice, type InvoiceRow, type OperatorMe } from './api';
import { Money } from './console';
import { pager, useFilters } from './filters';

function ReverseModal({ row, close }: { row: InvoiceRow | null; close: () => void }) {
  const [reason, setReason] = useState('');
  const reverse = useReverseInvoice();
  return (
    <Modal
      title="红冲发票"
      open={row !== null}
      okText="确认红冲"
      cancelText="返回"
      destroyOnHidden
      okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: reverse.isPending }}
      onCancel={close}
      afterClose={() => setReason('')}
      onOk={async () => {
        if (row) await reverse.mutateAsync({ id: row.id, reason: reason.trim() });
        close();
      }}
    >
      <Typography.Paragraph>
        将为发票 {row?.invoice_no} 开具金额相反的红字发票，原发票作废。红冲原因会告知会员，会员可重新申请开票。
      </Typography.Paragraph>
      <Input.TextArea aria-label="红冲原因" rows={3} maxLength={100} value={reason} onChange={(event) => setReason(event.target.value)} />
    </Modal>
  );
}

export function InvoicesPage({ me }: { me: OperatorMe }) {
  const [reversing, setReversing] = useState<InvoiceRow | null>(null);
  const [params, setParams] = useFilters(['pending', 'search', 'page']);
  const { data, isFetching } = useInvoices({ ...params, size: 20 });
  const issue = useIssueInvoice();
  const mayIssue = can(me, 'invoices');
  const confirm = (row: InvoiceRow) =>
    Modal.confirm({
      title: '开具发票',
      content: `为订单 ${row.order_no} 开具${row.kind === 2 ? '增值税专用发票' : '增值税普通发票'}，抬头“${row.title}”。金额按订单商品实付计算，开具后不能修改。`,
      okText: '开具',
      cancelText: '取消',
      onOk: () => issue.mutateAsync(row.id),
    });
  return (
    <div data-testid="admin-invoices">
      <ReverseModal row={reversing} close={() => setReversing(null)} />
      <Form
        layout="inline"
        className="console-filters"
        key={JSON.stringify(params)}
        initialValues={{ pending: params.pending === '1', search: params.search }}
        onFinish={(fields: { pending: boolean; search?: string }) =>
          setParams({ pending: fields.pending ? '1' : undefined, search: fields.search?.trim() })
        }
      >
        <Form.Item name="pending" label="只看待开票" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="search" label="搜索">
          <Input allowClear placeholder="订单号、发票号码、抬头或企业" style={{ width: 260 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
        </Space>
      </Form>
      <Table<InvoiceRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        pagination={pager(data, '张', (page) => setParams({ ...params, page }))}
        columns={[
          { title: '订单号', dataIndex: 'order_no', render: (no: string) => <Link to={`/admin/orders/${no}`}>{no}</Link> },
          { title: '类型', dataIndex: 'kind', render: (kind: number) => (kind === 2 ? '专票' : '普票') },
          { title: '抬头', dataIndex: 'title' },
          { title: '税号', dataIndex: 'tax_no' },
          {
            title: '状态',
            render: (_, row) =>
              row.red_of_no ? (
                <Tag color="red">红字 冲红：{row.red_of_no}</Tag>
              ) : row.reversed_at !== null ? (
                <Tooltip title={row.reversal_reason}>
                  <Tag color="default">已红冲</Tag>
                </Tooltip>
              ) : row.status === 1 ? (
                <Tag color="green">已开票</Tag>
              ) : (
                <Tag color="orange">待开票</Tag>
              ),
          },
          { title: '发票号码', dataIndex: 'invoice_no', render: (no: string | null) => no ?? '—' },
          { title: '金额', dataIndex: 'amount', align: 'right', render: (value: string | null) => <Money value={value} /> },
          { title: '申请时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
          {
            title: '操作',
            render: (_, row) =>
              !mayIssue ? null : row.status === 0 ? (
                <Button type="link" onClick={() => confirm(row)}>
                  开具
                </Button>
              ) : row.red_of_no === null && row.reversed_at === null ? (
                <Button type="link" danger onClick={() => setReversing(row)}>
                  红冲
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
