// 操作日志: every operator write (and sign-in), newest first, filtered by operator, action, what
// it concerned (an order's number finds its rows) and days; each row opens to its values
// before and after. Read only: nothing in the console or the API changes it.
import { Button, DatePicker, Form, Input, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { formatTime } from '@/lib/time';
import { useAudit, type AuditRow } from './api';
import { pager, useFilters } from './filters';

function Values({ text }: { text: string }) {
  if (text === 'null') return <Typography.Text type="secondary">—</Typography.Text>;
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Kept as stored.
  }
  return <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{shown}</pre>;
}

interface FilterFields {
  operator?: string;
  action?: string;
  search?: string;
  days?: [dayjs.Dayjs, dayjs.Dayjs] | null;
}

export function AuditPage() {
  const [params, setParams] = useFilters(['operator', 'action', 'search', 'from', 'to', 'page']);
  const { data, isFetching } = useAudit({ ...params, size: 20 });
  const initial: FilterFields = {
    operator: params.operator as string | undefined,
    action: params.action as string | undefined,
    search: params.search as string | undefined,
    days: params.from && params.to ? [dayjs(String(params.from)), dayjs(String(params.to))] : null,
  };
  return (
    <div data-testid="admin-audit">
      <Form
        layout="inline"
        className="console-filters"
        key={JSON.stringify(params)}
        initialValues={initial}
        onFinish={(fields: FilterFields) =>
          setParams({
            operator: fields.operator?.trim(),
            action: fields.action?.trim(),
            search: fields.search?.trim(),
            from: fields.days?.[0]?.format('YYYY-MM-DD'),
            to: fields.days?.[1]?.format('YYYY-MM-DD'),
          })
        }
      >
        <Form.Item name="operator" label="员工">
          <Input allowClear placeholder="账号" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="action" label="操作">
          <Input allowClear placeholder="如 order.ship" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="search" label="对象">
          <Input allowClear placeholder="订单号、发票号码等" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="days" label="日期">
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
        </Space>
      </Form>
      <Table<AuditRow>
        rowKey="id"
        size="middle"
        loading={isFetching}
        dataSource={data?.list ?? []}
        expandable={{
          expandedRowRender: (row) => (
            <Space align="start" size={48}>
              <div>
                <Typography.Text strong>之前</Typography.Text>
                <Values text={row.before} />
              </div>
              <div>
                <Typography.Text strong>之后</Typography.Text>
                <Values text={row.after} />
              </div>
            </Space>
          ),
        }}
        pagination={pager(data, '条', (page) => setParams({ ...params, page }))}
        columns={[
          { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
          { title: '员工', dataIndex: 'operator', render: (name: string, row) => (row.operator_id === null ? `${name}（命令行）` : name) },
          { title: '来源', dataIndex: 'address' },
          { title: '操作', dataIndex: 'action' },
          { title: '内容', dataIndex: 'summary' },
        ]}
      />
    </div>
  );
}
