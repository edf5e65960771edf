// 意见反馈 (/zzfw/yjfk): the member writes a suggestion or complaint with photos, and reads the
// shop's replies to what they wrote.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Image, Input, Pagination, Radio, Skeleton, Tag } from 'antd';
import type { UploadFile } from 'antd';
import { PhotoPicker } from '@/components/photo-picker';
import { messageForm, pickedFiles } from '@/lib/files';
import { formatTime } from '@/lib/time';
import { fieldErrors } from '@/lib/field-errors';
import { MemberLayout } from '@/components/member-layout';
import { feedbackQuery, useSendFeedback } from '../api';
import { useUi } from '@/lib/ui';

const KINDS = [
  { value: 1, label: '功能建议' },
  { value: 2, label: '商品问题' },
  { value: 3, label: '服务投诉' },
  { value: 4, label: '其他' },
];

export function FeedbackPage() {
  const [page, setPage] = useState(1);
  const feedback = useQuery(feedbackQuery(page));
  const [form] = Form.useForm();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const sendFeedback = useSendFeedback();
  const sending = sendFeedback.isPending;
  const { message } = useUi();
  const send = async (values: { kind: number; body: string }) => {
    try {
      const photos = pickedFiles(files);
      await sendFeedback.mutateAsync(messageForm(values.body, photos, values.kind));
      message.success('感谢您的反馈，我们会尽快处理');
      form.resetFields();
      setFiles([]);
      setPage(1);
    } catch (error) {
      form.setFields(fieldErrors(error).filter((field) => field.name !== 'photos'));
    }
  };
  return (
    <MemberLayout title="意见反馈">
      <Card size="small" className="member-card">
        <Form form={form} layout="vertical" onFinish={(values) => void send(values)} data-testid="feedback-form">
          <Form.Item label="反馈类型" name="kind" rules={[{ required: true, message: '请选择反馈类型' }]}>
            <Radio.Group options={KINDS} />
          </Form.Item>
          <Form.Item label="反馈内容" name="body" rules={[{ required: true, whitespace: true, message: '请填写反馈内容' }]}>
            <Input.TextArea rows={4} maxLength={1000} showCount />
          </Form.Item>
          <PhotoPicker files={files} onChange={setFiles} label="图片（最多5张，JPG或PNG）" />
          <Button type="primary" htmlType="submit" loading={sending}>
            提交反馈
          </Button>
        </Form>
      </Card>
      <h2 className="section-title">我的反馈</h2>
      {!feedback.data ? (
        <Skeleton active />
      ) : feedback.data.list.length === 0 ? (
        <Empty description="暂无反馈" />
      ) : (
        <>
          {feedback.data.list.map((item) => (
            <Card
              key={item.id}
              size="small"
              className="member-card"
              data-testid="feedback-item"
              title={
                <>
                  {item.kind_name} · {formatTime(item.created_at)}
                </>
              }
              extra={<Tag color={item.status === 1 ? 'green' : 'orange'}>{item.status_name}</Tag>}
            >
              <p className="pre-wrap">{item.body}</p>
              {item.photos.length > 0 && (
                <Image.PreviewGroup>
                  {item.photos.map((photo) => (
                    <Image key={photo} src={photo} width={72} height={72} alt="反馈图片" />
                  ))}
                </Image.PreviewGroup>
              )}
              {item.reply && (
                <p className="feedback-reply">
                  商城回复：{item.reply}
                  {item.replied_at ? `（${formatTime(item.replied_at)}）` : ''}
                </p>
              )}
            </Card>
          ))}
          <Pagination
            current={page}
            pageSize={10}
            total={feedback.data.total}
            onChange={setPage}
            hideOnSinglePage
            showSizeChanger={false}
          />
        </>
      )}
    </MemberLayout>
  );
}
