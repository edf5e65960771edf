// 员工与权限: a super adds operators (a super gets a TOTP secret, shown once, to enter into an
// authenticator app), changes their role, disables or enables them, and sets a new password.
// Nobody changes their own role or disables themselves.
import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { ApiError } from '@/lib/api-client';
import { formatTime } from '@/lib/time';
import {
  ROLE_NAMES,
  useAddOperator,
  useChangeOperator,
  useOperators,
  type Operator,
  type OperatorAdded,
  type OperatorMe,
  type Role,
} from './api';

const ROLE_OPTIONS = (Object.keys(ROLE_NAMES) as Role[]).map((role) => ({ value: role, label: ROLE_NAMES[role] }));

function Secret({ added }: { added: OperatorAdded }) {
  if (!added.totp_secret) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message="请将此密钥录入身份验证器应用（仅显示一次）"
      description={
        <>
          <Typography.Paragraph copyable={{ text: added.totp_secret }} data-testid="totp-secret">
            {added.totp_secret}
          </Typography.Paragraph>
          <Typography.Text type="secondary" copyable={{ text: added.totp_uri ?? '' }}>
            otpauth 地址
          </Typography.Text>
        </>
      }
    />
  );
}

function AddOperator() {
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<OperatorAdded | null>(null);
  const [form] = Form.useForm<{ username: string; name: string; role: Role; password: string }>();
  const add = useAddOperator();
  const close = () => {
    setOpen(false);
    setAdded(null);
    form.resetFields();
  };
  return (
    <>
      <Button type="primary" onClick={() => setOpen(true)}>
        添加员工
      </Button>
      <Modal
        title="添加员工"
        open={open}
        onCancel={close}
        footer={added ? <Button onClick={close}>完成</Button> : undefined}
        onOk={() => form.submit()}
        okText="添加"
        cancelText="取消"
        confirmLoading={add.isPending}
      >
        {added ? (
          <>
            <Typography.Paragraph>
              已添加员工 {added.operator.username}（{ROLE_NAMES[added.operator.role]}）。
            </Typography.Paragraph>
            <Secret added={added} />
          </>
        ) : (
          <Form
            form={form}
            layout="vertical"
            onFinish={async (fields) => {
              try {
                setAdded(await add.mutateAsync({ ...fields, name: fields.name ?? '' }));
              } catch (error) {
                if (error instanceof ApiError) {
                  form.setFields(Object.entries(error.fieldErrors).map(([name, errors]) => ({ name: name as 'username', errors })));
                }
              }
            }}
          >
            <Form.Item
              name="username"
              label="账号"
              rules={[{ required: true, message: '请填写账号' }]}
              extra="3到32位字母、数字、下划线、点或横线"
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="name" label="姓名">
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item name="role" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
              <Select options={ROLE_OPTIONS} />
            </Form.Item>
            <Form.Item
              name="password"
              label="初始密码"
              rules={[{ required: true, message: '请填写初始密码' }]}
              extra="至少10位，包含字母、数字或符号中的至少两种"
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}

export function OperatorsPage({ me }: { me: OperatorMe }) {
  const { data, isFetching } = useOperators();
  const change = useChangeOperator();
  const [secret, setSecret] = useState<OperatorAdded | null>(null);
  const [resetting, setResetting] = useState<Operator | null>(null);
  const [password, setPassword] = useState('');
  const changeRole = async (operator: Operator, role: Role) => {
    const changed = await change.mutateAsync({ id: operator.id, role });
    if (changed.totp_secret) setSecret(changed);
  };
  return (
    <div data-testid="admin-operators">
      <Space className="console-filters">
        <AddOperator />
      </Space>
      <Table<Operator>
        rowKey="id"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={false}
        columns={[
          { title: '账号', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'name' },
          {
            title: '角色',
            render: (_, operator) =>
              operator.id === me.operator.id ? (
                ROLE_NAMES[operator.role]
              ) : (
                <Select
                  aria-label={`${operator.username}的角色`}
                  value={operator.role}
                  options={ROLE_OPTIONS}
                  style={{ width: 130 }}
                  onChange={(role) => void changeRole(operator, role)}
                />
              ),
          },
          { title: '动态验证码', dataIndex: 'totp', render: (totp: boolean) => (totp ? '已启用' : '—') },
          {
            title: '状态',
            dataIndex: 'disabled',
            render: (disabled: boolean) => (disabled ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>),
          },
          { title: '最近登录', dataIndex: 'last_login_at', render: (at: number | null) => (at ? formatTime(at) : '—') },
          {
            title: '操作',
            render: (_, operator) =>
              operator.id === me.operator.id ? null : (
                <Space>
                  <Button type="link" onClick={() => change.mutate({ id: operator.id, disabled: !operator.disabled })}>
                    {operator.disabled ? '启用' : '停用'}
                  </Button>
                  <Button type="link" onClick={() => setResetting(operator)}>
                    重置密码
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <Modal
        title="动态验证码密钥"
        open={!!secret}
        onCancel={() => setSecret(null)}
        footer={<Button onClick={() => setSecret(null)}>完成</Button>}
      >
        {secret && <Secret added={secret} />}
      </Modal>
      <Modal
        title={`重置 ${resetting?.username ?? ''} 的密码`}
        open={!!resetting}
        okText="重置"
        cancelText="取消"
        okButtonProps={{ disabled: password.length === 0, loading: change.isPending }}
        onCancel={() => setResetting(null)}
        onOk={async () => {
          if (!resetting) return;
          await change.mutateAsync({ id: resetting.id, password });
          setResetting(null);
          setPassword('');
        }}
      >
        <Typography.Paragraph>重置后该员工的登录会话全部结束。</Typography.Paragraph>
        <Input.Password
          aria-label="新密码"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="new-password"
        />
      </Modal>
    </div>
  );
}
