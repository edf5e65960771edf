// One account's movements (balance, red packets or points): filtered by direction and date,
// paged 20 at a time, newest first.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DatePicker, Empty, Segmented, Table } from 'antd';
// The date pickers' calendar in Chinese (ConfigProvider's zh_CN names dayjs's zh-cn).
import 'dayjs/locale/zh-cn';
import type { LogEntry } from '@/api/types';
import { logQuery, type LogAccount, type LogFilter } from '../api';
import { dateRange, formatTime } from '@/lib/time';

const PAGE_SIZE = 20;

const DIRECTIONS: { label: string; value: LogFilter['useType'] }[] = [
  { label: '全部', value: 0 },
  { label: '收入', value: 1 },
  { label: '支出', value: 2 },
];

export function LogTable({ account, unit }: { account: LogAccount; unit: string }) {
  const [filter, setFilter] = useState<LogFilter>({ page: 1, useType: 0 });
  const log = useQuery(logQuery(account, filter));
  const amountTitle = account === 'points' ? '积分' : `金额（${unit}）`;
  return (
    <div className="wallet-log" data-testid={`log-${account}`}>
      <div className="member-filters">
        <Segmented options={DIRECTIONS} value={filter.useType} onChange={(useType) => setFilter({ ...filter, page: 1, useType })} />
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          onChange={(range) => setFilter({ ...filter, page: 1, ...dateRange(range) })}
          placeholder={['开始日期', '结束日期']}
        />
      </div>
      <Table<LogEntry>
        rowKey="id"
        size="middle"
        loading={log.isFetching && !log.data}
        dataSource={log.data?.list ?? []}
        locale={{ emptyText: <Empty description="暂无记录" /> }}
        pagination={{
          current: filter.page,
          pageSize: PAGE_SIZE,
          total: log.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: (page) => setFilter({ ...filter, page }),
        }}
        columns={[
          { title: '时间', dataIndex: 'created_at', render: (seconds: number) => formatTime(seconds) },
          { title: '类型', dataIndex: 'use_type', render: (useType: number) => (useType === 1 ? '收入' : '支出') },
          {
            title: amountTitle,
            dataIndex: 'amount',
            render: (amount: string) => <span className={amount.startsWith('-') ? 'money-out' : 'money-in'}>{amount}</span>,
          },
          { title: '余额', dataIndex: 'balance' },
          { title: '说明', dataIndex: 'note' },
          { title: '订单', dataIndex: 'order_id', render: (id: number | null) => (id ? `#${id}` : '—') },
        ]}
      />
    </div>
  );
}
