// 订单: every order, by state, number, member and day, newest first; a row opens the order.
import { Button, DatePicker, Form, Input, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { Link, useNavigate } from 'react-router';
import { formatTime } from '@/lib/time';
import { ORDER_STATUS, useOrders, type OrderRow } from './api';
import { Money } from './console';
import { exportHref, pager, useFilters } from './filters';

const STATUS_COLORS = ['orange', 'blue', 'cyan', 'green', 'default'];

export function StatusTag({ status }: { status: number }) {
  return <Tag color={STATUS_COLORS[status]}>{ORDER_STATUS[status]}</Tag>;
}

interface FilterFields {
  status?: string;
  number?: string;
  member?: string;
  days?: [dayjs.Dayjs, dayjs.Dayjs] | null;
}

export function OrdersPage() {
  const [params, setParams] = useFilters(['status', 'number', 'member', 'from', 'to', 'page']);
  const { data, isFetching } = useOrders({ ...params, size: 20 });
  const navigate = useNavigate();
  const initial: FilterFields = {
    status: params.status as string | undefined,
    number: params.number as string | undefined,
    member: params.member as string | undefined,
    days: params.from && params.to ? [dayjs(String(params.from)), dayjs(String(params.to))] : null,
  };
  const apply = (fields: FilterFields) =>
    setParams({
      status: fields.status,
      number: fields.number?.trim(),
      member: fields.member?.trim(),
      from: fields.days?.[0]?.format('YYYY-MM-DD'),
      to: fields.days?.[1]?.format('YYYY-MM-DD'),
    });
  return (
    <div data-testid="admin-orders">
      <Form layout="inline" className="console-filters" initialValues={initial} onFinish={apply} key={JSON.stringify(params)}>
        <Form.Item name="status" label="状态">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={ORDER_STATUS.map((name, code) => ({ value: String(code), label: name }))}
          />
        </Form.Item>
        <Form.Item name="number" label="订单号">
          <Input allowClear placeholder="订单号或其开头" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="member" label="会员">
          <Input allowClear placeholder="账号、企业名称或手机号" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="days" label="下单日期">
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
          <Button href={exportHref('/api/admin/orders/export', params)} download>
            导出Excel
          </Button>
        </Space>
      </Form>
      <Table<OrderRow>
        rowKey="id"
        size="middle"
        loading={isFetching}
        dataSource={data?.list ?? []}
        onRow={(row) => ({ onDoubleClick: () => navigate(`/admin/orders/${row.order_no}`) })}
        pagination={pager(data, '单', (page) => setParams({ ...params, page }))}
        columns={[
          { title: '订单号', dataIndex: 'order_no', render: (no: string) => <Link to={`/admin/orders/${no}`}>{no}</Link> },
          { title: '会员', render: (_, row) => `${row.company || row.username}（${row.username}）` },
          { title: '状态', dataIndex: 'status', render: (status: number) => <StatusTag status={status} /> },
          { title: '应付金额', dataIndex: 'payable', align: 'right', render: (value: string) => <Money value={value} /> },
          { title: '待发件数', dataIndex: 'unshipped', align: 'right' },
          { title: '下单时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
        ]}
      />
    </div>
  );
}
