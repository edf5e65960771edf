// 售后详情 (/order/afterSalesInfo/{id}, the order's id): the order's after-sales cases with their
// threads (the member's and the shop's messages, photos), a reply or 已解决 on an open one, and a
// new case (problem type, description, photos) while the order allows it.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Image, Input, Radio, Skeleton, Space, Tag } from 'antd';
import type { UploadFile } from 'antd';
import { PhotoPicker } from '@/components/photo-picker';
import { messageForm, pickedFiles } from '@/lib/files';
import { formatTime } from '@/lib/time';
import type { AfterSale } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { orderQuery } from '@/api/orders';
import { afterSalesQuery, useOpenAfterSale, useReplyAfterSale, useResolveAfterSale } from '../api';
import { useUi } from '@/lib/ui';

const KINDS = [
  { value: 1, label: '质量问题' },
  { value: 2, label: '配送问题' },
  { value: 3, label: '其他' },
];

/** Text and up to five photos: a new case's description, or a reply. */
function MessageForm({ submit, withKind, label }: { submit: (form: FormData) => Promise<unknown>; withKind?: boolean; label: string }) {
  const [form] = Form.useForm();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [sending, setSending] = useState(false);
  const send = async (values: { kind?: number; body: string }) => {
    setSending(true);
    try {
      const photos = pickedFiles(files);
      await submit(messageForm(values.body, photos, values.kind));
      form.resetFields();
      setFiles([]);
    } catch (error) {
      form.setFields(fieldErrors(error).filter((field) => field.name !== 'photos'));
    } finally {
      setSending(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={(values) => void send(values)} data-testid={withKind ? 'after-sales-form' : 'reply-form'}>
      {withKind && (
        <Form.Item label="问题类型" name="kind" rules={[{ required: true, message: '请选择问题类型' }]}>
          <Radio.Group options={KINDS} />
        </Form.Item>
      )}
      <Form.Item label={label} name="body" rules={[{ required: true, message: '请描述遇到的问题' }]}>
        <Input.TextArea rows={3} maxLength={1000} showCount />
      </Form.Item>
      <PhotoPicker files={files} onChange={setFiles} />
      <Button type="primary" htmlType="submit" loading={sending}>
        提交
      </Button>
    </Form>
  );
}

function CaseCard({ item, refresh }: { item: AfterSale; refresh: () => Promise<unknown> }) {
  const { message } = useUi();
  const resolveCase = useResolveAfterSale();
  const reply = useReplyAfterSale();
  const resolve = async () => {
    try {
      await resolveCase.mutateAsync(item.id);
      message.success('售后单已解决');
      await refresh();
    } catch {
      // Told by the API client.
    }
  };
  return (
    <Card
      size="small"
      className="member-card"
      data-testid="after-sales-case"
      title={
        <Space>
          <span>售后单 {item.case_no}</span>
          <Tag>{item.kind_name}</Tag>
          <Tag color={item.status === 0 ? 'orange' : 'green'}>{item.status_name}</Tag>
        </Space>
      }
      extra={item.status === 0 && <Button onClick={() => void resolve()}>问题已解决</Button>}
    >
      <div className="thread">
        {item.messages.map((entry) => (
          <div key={entry.id} className={entry.author === 'member' ? 'thread-message mine' : 'thread-message shop'}>
            <div className="muted">
              {entry.author === 'member' ? '我' : '商城客服'} · {formatTime(entry.created_at)}
            </div>
            <p>{entry.body}</p>
            {entry.photos.length > 0 && (
              <Image.PreviewGroup>
                <Space>
                  {entry.photos.map((photo) => (
                    <Image key={photo} src={photo} width={72} height={72} />
                  ))}
                </Space>
              </Image.PreviewGroup>
            )}
          </div>
        ))}
      </div>
      {item.status === 0 && (
        <MessageForm
          label="补充说明"
          submit={async (form) => {
            await reply.mutateAsync({ id: item.id, form });
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

export function AfterSalesPage() {
  const id = Number(useParams().id);
  const order = useQuery(orderQuery(id));
  const cases = useQuery(afterSalesQuery(id));
  const openCase = useOpenAfterSale();
  const { message } = useUi();
  const refresh = () => Promise.all([cases.refetch(), order.refetch()]);
  const allowed = order.data?.actions.includes('after_sales');
  return (
    <MemberLayout title="售后详情" extra={<Link to={`/order/info/${id}`}>返回订单详情</Link>}>
      {!order.data || !cases.data ? (
        <Skeleton active />
      ) : (
        <>
          <p className="hint">
            订单号 {order.data.order_no} · {order.data.status_name}
          </p>
          {cases.data.list.length === 0 && <Empty description="该订单还没有售后申请" />}
          {cases.data.list.map((item) => (
            <CaseCard key={item.id} item={item} refresh={refresh} />
          ))}
          {allowed && (
            <Card size="small" title="申请售后" className="member-card">
              <MessageForm
                withKind
                label="问题描述"
                submit={async (form) => {
                  await openCase.mutateAsync({ order: id, form });
                  message.success('已提交售后申请');
                  await refresh();
                }}
              />
            </Card>
          )}
        </>
      )}
    </MemberLayout>
  );
}
