// 会员: members by account, company, contact, phone or id, by approval, and those with
// certificates waiting; a row opens the member's page.
import { Button, Form, Input, Select, Space, Switch, Table, Tag } from 'antd';
import { Link } from 'react-router';
import { formatTime } from '@/lib/time';
import { BUYER_TYPES, useMembers, type MemberRow } from './api';
import { Money } from './console';
import { exportHref, pager, useFilters } from './filters';

export function MembersPage() {
  const [params, setParams] = useFilters(['search', 'approved', 'pending', 'page']);
  const { data, isFetching } = useMembers({ ...params, size: 20 });
  return (
    <div data-testid="admin-members">
      <Form
        layout="inline"
        className="console-filters"
        key={JSON.stringify(params)}
        initialValues={{ search: params.search, approved: params.approved, pending: params.pending === '1' }}
        onFinish={(fields: { search?: string; approved?: string; pending?: boolean }) =>
          setParams({ search: fields.search?.trim(), approved: fields.approved, pending: fields.pending ? '1' : undefined })
        }
      >
        <Form.Item name="search" label="搜索">
          <Input allowClear placeholder="账号、企业、联系人、手机号或 id" style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="approved" label="审核">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={[
              { value: '1', label: '已通过' },
              { value: '0', label: '未通过' },
            ]}
          />
        </Form.Item>
        <Form.Item name="pending" label="有待审资质" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          <Button onClick={() => setParams({})}>重置</Button>
          <Button href={exportHref('/api/admin/members/export', params)} download>
            导出Excel
          </Button>
        </Space>
      </Form>
      <Table<MemberRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        pagination={pager(data, '位', (page) => setParams({ ...params, page }))}
        columns={[
          {
            title: '企业',
            dataIndex: 'company',
            render: (company: string, row) => <Link to={`/admin/members/${row.id}`}>{company || row.username}</Link>,
          },
          { title: '账号', dataIndex: 'username' },
          { title: '联系人', render: (_, row) => `${row.name} ${row.phone}` },
          { title: '类型', dataIndex: 'buyer_type', render: (type: number) => BUYER_TYPES[type] ?? '—' },
          {
            title: '审核',
            render: (_, row) => (
              <Space size={4}>
                {row.is_passed === 1 ? <Tag color="green">已通过</Tag> : <Tag>未通过</Tag>}
                {row.pending > 0 && <Tag color="orange">待审资质 {row.pending}</Tag>}
              </Space>
            ),
          },
          { title: '余额', dataIndex: 'balance', align: 'right', render: (value: string) => <Money value={value} /> },
          { title: '积分', dataIndex: 'points', align: 'right' },
          { title: '注册时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
        ]}
      />
    </div>
  );
}
