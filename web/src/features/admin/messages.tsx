// 留言: members' feedback (意见反馈) and wanted varieties (品种求购), waiting ones by default;
// customer service replies to each once (a wanted variety as sourced, 已上架, or not, 暂无货源).
import { useState } from 'react';
import { Button, Input, Modal, Radio, Space, Switch, Table, Tabs, Tag } from 'antd';
import { formatTime } from '@/lib/time';
import { can, useFeedback, useReply, useWanted, type FeedbackRow, type OperatorMe, type WantedRow } from './api';

const FEEDBACK_KINDS: Record<number, string> = { 1: '功能建议', 2: '商品问题', 3: '服务投诉', 4: '其他' };
const WANTED_STATUS = ['待处理', '已上架', '暂无货源'];

type Replying = { what: 'feedback'; row: FeedbackRow } | { what: 'wanted'; row: WantedRow } | null;

export function MessagesPage({ me }: { me: OperatorMe }) {
  const [all, setAll] = useState(false);
  const feedback = useFeedback(!all);
  const wanted = useWanted(!all);
  const reply = useReply();
  const [replying, setReplying] = useState<Replying>(null);
  const [text, setText] = useState('');
  const [status, setStatus] = useState(1);
  const mayReply = can(me, 'feedback');
  const close = () => {
    setReplying(null);
    setText('');
    setStatus(1);
  };
  return (
    <div data-testid="admin-messages">
      <Space className="console-filters">
        <span>显示已处理</span>
        <Switch aria-label="显示已处理" checked={all} onChange={setAll} />
      </Space>
      <Tabs
        items={[
          {
            key: 'feedback',
            label: '意见反馈',
            children: (
              <Table<FeedbackRow>
                rowKey="id"
                loading={feedback.isFetching}
                dataSource={feedback.data ?? []}
                pagination={{ pageSize: 20 }}
                columns={[
                  { title: '会员', dataIndex: 'company' },
                  { title: '类型', dataIndex: 'kind', render: (kind: number) => FEEDBACK_KINDS[kind] },
                  { title: '内容', dataIndex: 'body' },
                  {
                    title: '回复',
                    dataIndex: 'reply',
                    render: (text: string, row) => (row.status === 1 ? text : <Tag color="orange">待回复</Tag>),
                  },
                  { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
                  {
                    title: '操作',
                    render: (_, row) =>
                      row.status === 0 && mayReply ? (
                        <Button type="link" onClick={() => setReplying({ what: 'feedback', row })}>
                          回复
                        </Button>
                      ) : null,
                  },
                ]}
              />
            ),
          },
          {
            key: 'wanted',
            label: '品种求购',
            children: (
              <Table<WantedRow>
                rowKey="id"
                loading={wanted.isFetching}
                dataSource={wanted.data ?? []}
                pagination={{ pageSize: 20 }}
                columns={[
                  { title: '会员', dataIndex: 'company' },
                  { title: '品种', render: (_, row) => [row.name, row.ypgg, row.sccj].filter(Boolean).join(' ') },
                  { title: '数量', dataIndex: 'number', align: 'right' },
                  { title: '备注', dataIndex: 'remark' },
                  {
                    title: '状态',
                    dataIndex: 'status',
                    render: (code: number, row) => (code === 0 ? <Tag color="orange">待处理</Tag> : `${WANTED_STATUS[code]}：${row.reply}`),
                  },
                  { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
                  {
                    title: '操作',
                    render: (_, row) =>
                      row.status === 0 && mayReply ? (
                        <Button type="link" onClick={() => setReplying({ what: 'wanted', row })}>
                          答复
                        </Button>
                      ) : null,
                  },
                ]}
              />
            ),
          },
        ]}
      />
      <Modal
        title={replying?.what === 'wanted' ? `答复求购：${replying.row.name}` : '回复意见反馈'}
        open={!!replying}
        okText="提交"
        cancelText="取消"
        okButtonProps={{ disabled: text.trim() === '', loading: reply.isPending }}
        onCancel={close}
        onOk={async () => {
          if (!replying) return;
          await reply.mutateAsync({
            what: replying.what,
            id: replying.row.id,
            reply: text.trim(),
            status: replying.what === 'wanted' ? status : undefined,
          });
          close();
        }}
      >
        {replying?.what === 'wanted' && (
          <Radio.Group
            style={{ marginBottom: 12 }}
            value={status}
            onChange={(event) => setStatus(event.target.value)}
            options={[
              { value: 1, label: '已上架' },
              { value: 2, label: '暂无货源' },
            ]}
          />
        )}
        <Input.TextArea aria-label="回复内容" rows={3} maxLength={500} value={text} onChange={(event) => setText(event.target.value)} />
      </Modal>
    </div>
  );
}
