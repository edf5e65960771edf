// 后台登录: account and password, and the authenticator's code when the role uses one (the
// server asks for it: the field appears then). Back to where the operator was headed.
import { useState } from 'react';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { useLogin } from './api';
import { afterLogin } from './redirect';

interface Fields {
  username: string;
  password: string;
  code?: string;
}

export function LoginPage() {
  const [form] = Form.useForm<Fields>();
  const [needsCode, setNeedsCode] = useState(false);
  const login = useLogin();
  const navigate = useNavigate();
  const [search] = useSearchParams();

  const submit = async (fields: Fields) => {
    try {
      await login.mutateAsync({ username: fields.username.trim(), password: fields.password, code: fields.code?.trim() || undefined });
      navigate(afterLogin(search.get('redirect')), { replace: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const errors = error.fieldErrors;
      if (errors.code) setNeedsCode(true);
      const fieldsWithErrors = Object.entries(errors).map(([name, messages]) => ({ name: name as keyof Fields, errors: messages }));
      if (fieldsWithErrors.length > 0 && !(errors.code && !fields.code)) form.setFields(fieldsWithErrors);
      else if (fieldsWithErrors.length === 0) form.setFields([{ name: 'password', errors: [error.message] }]);
    }
  };

  return (
    <div className="console-login">
      <Card title="药品批发商城 · 后台登录">
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" label="账号" rules={[{ required: true, message: '请输入账号' }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {needsCode && (
            <Form.Item
              name="code"
              label="动态验证码"
              extra="打开身份验证器应用，输入6位动态验证码"
              rules={[{ required: true, message: '请输入动态验证码' }]}
            >
              <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" autoFocus />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            登录
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          员工账号由超级管理员在“员工与权限”中添加。
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
