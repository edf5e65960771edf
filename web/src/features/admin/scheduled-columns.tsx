// The columns the scheduled promotions' lists share (满减, 秒杀, 满额返现, 抽奖).
import type { ColumnType } from 'antd/es/table';
import { formatTime } from '@/lib/time';
import { StateTag } from './scheduled';

/** The 状态 column of a scheduled promotion. */
export function stateColumn<T extends { state: string }>(): ColumnType<T> {
  return { title: '状态', dataIndex: 'state', render: (state: string) => <StateTag state={state} /> };
}

/** When a scheduled promotion runs: `2026-11-29 10:00 至 2026-12-06 23:59`. */
export function periodColumn<T extends { starts_at: number; ends_at: number }>(title = '活动时间'): ColumnType<T> {
  return { title, key: 'period', render: (_, row) => `${formatTime(row.starts_at)} 至 ${formatTime(row.ends_at)}` };
}
