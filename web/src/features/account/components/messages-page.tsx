// 我的消息 (/zhzx/wdxx): the member's messages by kind, the unread first in bold; opening one
// marks it read, and the header's count follows.
import { useState } from 'react';
import { Badge, Button, Checkbox, Collapse, Empty, Skeleton, Tabs } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Pager } from '@/components/pager';
import type { MessagePage } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { messagesQuery, useReadAllMessages, useReadMessage, useRefresh, withRead } from '../api';
import { keys } from '@/lib/query-keys';

const KINDS = ['全部', '系统消息', '订单消息', '资产消息', '资质消息'];
const PAGE_SIZE = 20;

export function MessagesPage() {
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState(0);
  const [unread, setUnread] = useState(false);
  const messages = useQuery(messagesQuery(page, kind, unread));
  const refresh = useRefresh();
  const client = useQueryClient();
  const readMessage = useReadMessage();
  const readAllMessages = useReadAllMessages();

  // The opened message stays on this page, now read (even under 只看未读); the other pages are
  // fetched again when shown, the header's and the member centre's unread counts at once.
  const read = async (id: number) => {
    const message = messages.data?.list.find((item) => item.id === id);
    if (!message || message.read_at !== null) return;
    try {
      const left = await readMessage.mutateAsync(id);
      client.setQueryData<MessagePage>(
        keys.account.messagesPage(page, kind, unread),
        (shown) => shown && withRead(shown, id, left.unread, dayjs().unix()),
      );
      await Promise.all([
        client.invalidateQueries({ queryKey: keys.account.messages(), refetchType: 'none' }),
        client.invalidateQueries({ queryKey: keys.user.all }),
        client.invalidateQueries({ queryKey: keys.centre.all }),
      ]);
    } catch {
      // Told by the API client.
    }
  };
  const readAll = async () => {
    try {
      await readAllMessages.mutateAsync();
      await refresh();
    } catch {
      // Told by the API client.
    }
  };

  return (
    <MemberLayout
      title="我的消息"
      extra={
        <Button onClick={() => void readAll()} disabled={!messages.data?.unread}>
          全部标为已读
        </Button>
      }
    >
      <Tabs
        activeKey={String(kind)}
        onChange={(key) => {
          setKind(Number(key));
          setPage(1);
        }}
        items={KINDS.map((label, key) => ({ key: String(key), label }))}
        tabBarExtraContent={
          <Checkbox
            checked={unread}
            onChange={(event) => {
              setUnread(event.target.checked);
              setPage(1);
            }}
          >
            只看未读（{messages.data?.unread ?? 0}）
          </Checkbox>
        }
      />
      {!messages.data ? (
        <Skeleton active />
      ) : messages.data.list.length === 0 ? (
        <Empty description="暂无消息" />
      ) : (
        <Collapse
          data-testid="message-list"
          onChange={(keys) => {
            for (const key of Array.isArray(keys) ? keys : [keys]) void read(Number(key));
          }}
          items={messages.data.list.map((message) => ({
            key: String(message.id),
            label: (
              <span className={message.read_at === null ? 'message-title unread' : 'message-title'}>
                {message.read_at === null && <Badge status="error" />} [{message.kind_name}] {message.title}
              </span>
            ),
            extra: <span className="muted">{dayjs.unix(message.created_at).format('YYYY-MM-DD HH:mm')}</span>,
            children: <p className="message-body">{message.body}</p>,
          }))}
        />
      )}
      {messages.data && <Pager total={messages.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />}
    </MemberLayout>
  );
}
