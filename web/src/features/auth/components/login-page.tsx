// 会员登录: account and password; after a login the page reloads once (session flag login=1).
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Form, Input } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { login } from '../api';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const submit = async ({ username, password }: { username: string; password: string }) => {
    setBusy(true);
    try {
      await login(username.trim(), password);
      sessionStorage.setItem('login', '1');
      const back = params.get('redirect');
      navigate(back && back.startsWith('/') && !back.startsWith('//') ? back : '/', { replace: true });
    } catch {
      // Told by the API client.
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="auth-page">
      <div className="auth-card">
        <h1>会员登录</h1>
        <Form layout="vertical" onFinish={submit} requiredMark={false} size="large">
          <Form.Item name="username" label="账号" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
            <Input prefix={<UserOutlined />} placeholder="用户名或手机号" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            登录
          </Button>
        </Form>
        <div className="auth-links">
          <Link to="/forget">忘记密码？</Link>
          <span>
            还没有账号？<Link to="/register">免费注册</Link> · <Link to="/register_dd">多店注册</Link>
          </span>
        </div>
      </div>
    </div>
  );
}
