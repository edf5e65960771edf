// 电子发票 (/zzfw/dzfp): the member's invoice requests and issued invoices (the PDF to
// download), and a request for a paid order (`?order=` from the order's actions): 普票, or 专票
// with the company's registered address, phone, bank and account.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Radio, Skeleton, Table, Tag } from 'antd';
import { yuan } from '@/lib/money';
import { formatTime } from '@/lib/time';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import type { Invoice, InvoiceForm } from '@/api/types';
import { Pager } from '@/components/pager';
import { invoicesQuery, useRequestInvoice } from '../api';
import { useUi } from '@/lib/ui';

const PAGE_SIZE = 20;

function RequestForm({ order, done }: { order: number; done: () => Promise<unknown> }) {
  const [form] = Form.useForm();
  const kind = Form.useWatch('kind', form) ?? 1;
  const { message } = useUi();
  const request = useRequestInvoice();
  const sending = request.isPending;
  const send = async (values: InvoiceForm) => {
    try {
      await request.mutateAsync({ order, form: values });
      message.success('已提交开票申请');
      form.resetFields();
      await done();
    } catch (error) {
      form.setFields(fieldErrors(error));
    }
  };
  return (
    <Card size="small" title={`申请开票（订单 ${order}）`} className="member-card" data-testid="invoice-form">
      <Form form={form} layout="vertical" initialValues={{ kind: 1 }} onFinish={(values) => void send(values)}>
        <Form.Item label="发票类型" name="kind">
          <Radio.Group
            options={[
              { value: 1, label: '增值税普通发票' },
              { value: 2, label: '增值税专用发票' },
            ]}
          />
        </Form.Item>
        <div className="form-row">
          <Form.Item label="发票抬头" name="title" rules={[{ required: true, message: '请填写发票抬头' }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item label="纳税人识别号" name="tax_no" rules={[{ required: true, message: '请填写纳税人识别号' }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item label="接收邮箱" name="email" rules={[{ required: true, message: '请填写接收邮箱' }]}>
            <Input maxLength={100} />
          </Form.Item>
        </div>
        {kind === 2 && (
          <div className="form-row">
            <Form.Item label="注册地址" name="registered_address" rules={[{ required: true, message: '请填写注册地址' }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Form.Item label="注册电话" name="registered_phone" rules={[{ required: true, message: '请填写注册电话' }]}>
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item label="开户银行" name="bank" rules={[{ required: true, message: '请填写开户银行' }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item label="银行账号" name="bank_account" rules={[{ required: true, message: '请填写银行账号' }]}>
              <Input maxLength={40} />
            </Form.Item>
          </div>
        )}
        <Button type="primary" htmlType="submit" loading={sending}>
          提交申请
        </Button>
      </Form>
    </Card>
  );
}

export function InvoicesPage() {
  const [search] = useSearchParams();
  const order = Number(search.get('order') ?? 0);
  const [page, setPage] = useState(1);
  const invoices = useQuery(invoicesQuery(page));
  // A request or an invoice in force stops a second; one reversed whole (红冲) does not.
  const requested = invoices.data?.list.some(
    (invoice) => invoice.order_id === order && invoice.red_of_no === null && invoice.reversed_at === null,
  );
  return (
    <MemberLayout title="电子发票">
      {order > 0 && !requested && invoices.data && <RequestForm order={order} done={() => invoices.refetch()} />}
      {!invoices.data ? (
        <Skeleton active />
      ) : (
        <Table<Invoice>
          rowKey="id"
          size="middle"
          pagination={false}
          dataSource={invoices.data.list}
          data-testid="invoice-table"
          locale={{ emptyText: '还没有开票申请，可在订单中申请开票' }}
          columns={[
            { title: '订单号', dataIndex: 'order_no' },
            {
              title: '发票类型',
              dataIndex: 'kind_name',
              render: (name: string, row) =>
                row.red_of_no ? (
                  <span data-testid="invoice-red">
                    <Tag color="red">红字</Tag>
                    {name}
                    <div className="muted">冲红：{row.red_of_no}</div>
                  </span>
                ) : (
                  name
                ),
            },
            { title: '发票抬头', dataIndex: 'title' },
            { title: '申请时间', dataIndex: 'created_at', render: (seconds: number) => formatTime(seconds) },
            {
              title: '状态',
              dataIndex: 'status_name',
              render: (name: string, row) => (
                <Tag color={row.reversed_at !== null ? 'default' : row.status === 1 ? 'green' : 'orange'}>{name}</Tag>
              ),
            },
            { title: '发票号码', dataIndex: 'invoice_no', render: (no: string | null) => no ?? '—' },
            { title: '金额', dataIndex: 'amount', render: (amount: string | null) => (amount ? yuan(amount) : '—') },
            {
              title: '下载',
              dataIndex: 'pdf',
              render: (pdf: string | null) =>
                pdf ? (
                  <a href={pdf} target="_blank" rel="noopener">
                    下载PDF
                  </a>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      )}
      {invoices.data && <Pager total={invoices.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />}
    </MemberLayout>
  );
}
