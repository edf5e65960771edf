// 店铺设置: the shop's identity, stated wherever the shop names itself (footer, agreement, help
// articles, invoices, cashier), who sees prices (super), and the store-wide discount (全场折扣)
// started and ended (operations).
import { useEffect } from 'react';
import { Button, Card, Form, Input, InputNumber, Popconfirm, Radio, Space, Table, Tag, Typography } from 'antd';
import { formatTime } from '@/lib/time';
import {
  can,
  useChangeSettings,
  useEndWelfare,
  useSetPrices,
  useSettings,
  useStartWelfare,
  useWelfare,
  type OperatorMe,
  type Welfare,
} from './api';

export function SettingsPage({ me }: { me: OperatorMe }) {
  const settings = useSettings();
  const change = useChangeSettings();
  const prices = useSetPrices();
  const [form] = Form.useForm<Record<string, string>>();
  const mayChange = can(me, 'settings');
  useEffect(() => {
    if (settings.data) form.setFieldsValue(Object.fromEntries(settings.data.fields.map((field) => [field.name, field.value])));
  }, [settings.data, form]);
  return (
    <div data-testid="admin-settings">
      <Card title="店铺信息" loading={settings.isPending} className="console-card">
        <Form
          form={form}
          layout="horizontal"
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 14 }}
          disabled={!mayChange}
          onFinish={(values) =>
            change.mutateAsync(values).then((changed) => {
              form.setFields(changed.map((field) => ({ name: field.name, value: field.after })));
              return changed;
            })
          }
        >
          {settings.data?.fields.map((field) => (
            <Form.Item
              key={field.name}
              name={field.name}
              label={field.label}
              rules={field.optional ? [] : [{ required: true, whitespace: true, message: `请填写${field.label}` }]}
            >
              <Input maxLength={field.max} aria-label={field.label} />
            </Form.Item>
          ))}
          {mayChange && (
            <Form.Item wrapperCol={{ offset: 6 }}>
              <Space>
                <Button type="primary" htmlType="submit" loading={change.isPending}>
                  保存店铺信息
                </Button>
                {change.data && (
                  <span data-testid="settings-changed">{change.data.length ? `已修改${change.data.length}项` : '没有修改'}</span>
                )}
              </Space>
            </Form.Item>
          )}
        </Form>
      </Card>
      <Card title="价格显示" className="console-card">
        <Radio.Group
          aria-label="价格显示"
          disabled={!mayChange || prices.isPending}
          value={settings.data?.prices_public ? 'all' : 'approved'}
          onChange={(event) => prices.mutate(event.target.value === 'all')}
          options={[
            { value: 'approved', label: '资质认证通过的会员可见（游客显示登录可见）' },
            { value: 'all', label: '所有人可见' },
          ]}
        />
      </Card>
      <WelfareCard me={me} />
    </div>
  );
}

function WelfareCard({ me }: { me: OperatorMe }) {
  const welfare = useWelfare();
  const start = useStartWelfare();
  const end = useEndWelfare();
  const [form] = Form.useForm<{ title: string; rate: string; days: number }>();
  const mayChange = can(me, 'promotions');
  const running = welfare.data?.some((row) => row.running);
  return (
    <Card
      title="全场折扣"
      className="console-card"
      extra={
        mayChange && running ? (
          <Popconfirm title="结束正在进行的全场折扣？" onConfirm={() => end.mutateAsync()}>
            <Button danger loading={end.isPending}>
              结束全场折扣
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      {mayChange && (
        <Form
          form={form}
          layout="inline"
          initialValues={{ title: '全场94折', rate: '0.94', days: 7 }}
          onFinish={(values) => start.mutateAsync(values).then(() => form.resetFields())}
          className="console-filters"
        >
          <Form.Item name="title" label="活动名称" rules={[{ required: true, whitespace: true, message: '请填写活动名称' }]}>
            <Input maxLength={30} />
          </Form.Item>
          <Form.Item name="rate" label="折扣" rules={[{ required: true, message: '请填写折扣，如0.94' }]} extra="0.94即94折">
            <Input style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="days" label="天数" rules={[{ required: true, message: '请填写天数' }]}>
            <InputNumber min={1} max={366} precision={0} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={start.isPending}>
              开始全场折扣
            </Button>
          </Form.Item>
        </Form>
      )}
      <Table<Welfare>
        rowKey="id"
        size="small"
        loading={welfare.isFetching}
        dataSource={welfare.data ?? []}
        pagination={false}
        columns={[
          { title: '活动名称', dataIndex: 'title' },
          { title: '折扣', dataIndex: 'name' },
          { title: '开始', dataIndex: 'starts_at', render: (at: number) => formatTime(at) },
          { title: '结束', dataIndex: 'ends_at', render: (at: number) => formatTime(at) },
          {
            title: '状态',
            dataIndex: 'running',
            render: (isRunning: boolean) =>
              isRunning ? <Tag color="green">进行中</Tag> : <Typography.Text type="secondary">未进行</Typography.Text>,
          },
        ]}
      />
    </Card>
  );
}
