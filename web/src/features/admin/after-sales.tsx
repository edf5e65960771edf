// 售后: cases, the most recently written to first (only open ones by default); a case opens in a
// drawer with its whole thread, where customer service answers it, and may close it.
import { useState } from 'react';
import { Button, Checkbox, Drawer, Input, List, Space, Switch, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { formatTime } from '@/lib/time';
import { can, CASE_KINDS, useAnswerCase, useCase, useCases, type CaseRow, type OperatorMe } from './api';
import { pager, useFilters } from './filters';

function Thread({ id, mayAnswer, onClose }: { id: number; mayAnswer: boolean; onClose: () => void }) {
  const { data } = useCase(id);
  const answer = useAnswerCase();
  const [body, setBody] = useState('');
  const [resolve, setResolve] = useState(false);
  const open = data?.case.status === 0;
  return (
    <Drawer title={data ? `售后单 ${data.case.case_no}` : '售后单'} open width={560} onClose={onClose}>
      {data && (
        <>
          <Typography.Paragraph>
            订单 <Link to={`/admin/orders/${data.case.order_no}`}>{data.case.order_no}</Link> · {data.case.company} ·{' '}
            {CASE_KINDS[data.case.kind]} · {open ? <Tag color="orange">处理中</Tag> : <Tag color="green">已解决</Tag>}
          </Typography.Paragraph>
          <List
            data-testid="case-thread"
            dataSource={data.messages}
            renderItem={(message) => (
              <List.Item>
                <List.Item.Meta
                  title={`${message.author === 'operator' ? '商城' : '会员'} · ${formatTime(message.created_at)}`}
                  description={message.body}
                />
              </List.Item>
            )}
          />
          {open && mayAnswer && (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                aria-label="回复内容"
                rows={3}
                maxLength={1000}
                value={body}
                onChange={(event) => setBody(event.target.value)}
              />
              <Checkbox checked={resolve} onChange={(event) => setResolve(event.target.checked)}>
                回复后标记为已解决
              </Checkbox>
              <Button
                type="primary"
                disabled={body.trim() === ''}
                loading={answer.isPending}
                onClick={async () => {
                  await answer.mutateAsync({ id, body: body.trim(), resolve });
                  setBody('');
                  setResolve(false);
                }}
              >
                回复
              </Button>
            </Space>
          )}
        </>
      )}
    </Drawer>
  );
}

export function AfterSalesPage({ me }: { me: OperatorMe }) {
  const [params, setParams] = useFilters(['all', 'page', 'case']);
  const showAll = params.all === '1';
  const { data, isFetching } = useCases({ open: showAll ? undefined : 1, page: params.page, size: 20 });
  const opened = params.case ? Number(params.case) : null;
  return (
    <div data-testid="admin-after-sales">
      <Space className="console-filters">
        <span>显示已解决</span>
        <Switch aria-label="显示已解决" checked={showAll} onChange={(checked) => setParams({ all: checked ? '1' : undefined })} />
      </Space>
      <Table<CaseRow>
        rowKey="id"
        loading={isFetching}
        dataSource={data?.list ?? []}
        pagination={pager(data, '单', (page) => setParams({ ...params, page }))}
        columns={[
          {
            title: '售后单号',
            dataIndex: 'case_no',
            render: (no: string, row) => (
              <Button type="link" onClick={() => setParams({ ...params, case: row.id })}>
                {no}
              </Button>
            ),
          },
          { title: '订单号', dataIndex: 'order_no', render: (no: string) => <Link to={`/admin/orders/${no}`}>{no}</Link> },
          { title: '会员', dataIndex: 'company' },
          { title: '类型', dataIndex: 'kind', render: (kind: number) => CASE_KINDS[kind] },
          { title: '最新留言', render: (_, row) => `${row.last_author === 'operator' ? '商城' : '会员'}：${row.last}` },
          {
            title: '状态',
            dataIndex: 'status',
            render: (status: number) => (status === 0 ? <Tag color="orange">处理中</Tag> : <Tag color="green">已解决</Tag>),
          },
          { title: '更新时间', dataIndex: 'updated_at', render: (at: number) => formatTime(at) },
        ]}
      />
      {opened !== null && (
        <Thread id={opened} mayAnswer={can(me, 'after_sales')} onClose={() => setParams({ ...params, case: undefined })} />
      )}
    </div>
  );
}
