// What the console's promotion lists show alike: a card with its 新增 button, and for the
// scheduled ones (满减, 秒杀, 满额返现, 抽奖) where each stands, when it runs, and 修改 and 结束
// on one not ended.
import type { ReactNode } from 'react';
import { Button, Card, Popconfirm, Space, Tag } from 'antd';

const STATE_COLOURS: Record<string, string> = { 未开始: 'blue', 进行中: 'green', 已结束: 'default' };

/** 未开始, 进行中 or 已结束, coloured. */
export function StateTag({ state }: { state: string }) {
  return <Tag color={STATE_COLOURS[state]}>{state}</Tag>;
}

/** 修改 (when `onEdit` is given) and 结束, asked first, on a promotion not ended. */
export function ScheduledActions({
  state,
  ask,
  onEdit,
  onEnd,
}: {
  state: string;
  ask: string;
  onEdit?: () => void;
  onEnd: () => Promise<unknown>;
}) {
  if (state === '已结束') return null;
  return (
    <Space>
      {onEdit && (
        <Button size="small" onClick={onEdit}>
          修改
        </Button>
      )}
      <Popconfirm title={ask} onConfirm={onEnd}>
        <Button size="small" danger>
          结束
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** A promotion list's card: its title and, for an operator who may, the button adding one. */
export function ListCard({
  title,
  testId,
  addLabel,
  onAdd,
  children,
}: {
  title: string;
  testId: string;
  addLabel: string;
  /** Absent: the operator may not add. */
  onAdd?: () => void;
  children: ReactNode;
}) {
  return (
    <Card
      className="console-card"
      title={title}
      data-testid={testId}
      extra={
        onAdd && (
          <Button type="primary" onClick={onAdd}>
            {addLabel}
          </Button>
        )
      }
    >
      {children}
    </Card>
  );
}
