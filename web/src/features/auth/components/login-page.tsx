// 会员登录: account and password, or (second tab) phone and SMS code; after a login the page
// reloads once (session flag login=1).
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Form, Input, Tabs } from 'antd';
import { LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { isPhone } from '@/lib/engine';
import type { LoginForm } from '@/api/types';
import { useLogin } from '../api';
import { SmsCodeField } from './form-parts';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useLogin();
  const busy = login.isPending;
  const [codeForm] = Form.useForm();
  const signIn = async (credentials: LoginForm) => {
    try {
      await login.mutateAsync(credentials);
      sessionStorage.setItem('login', '1');
      const back = params.get('redirect');
      navigate(back && back.startsWith('/') && !back.startsWith('//') ? back : '/', { replace: true });
    } catch {
      // Told by the API client.
    }
  };
  const byPassword = (
    <Form
      layout="vertical"
      onFinish={({ username, password }: { username: string; password: string }) => signIn({ username: username.trim(), password })}
      requiredMark={false}
      size="large"
    >
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
  );
  const byCode = (
    <Form
      form={codeForm}
      layout="vertical"
      onFinish={({ phone, code }: { phone: string; code: string }) => signIn({ phone: phone.trim(), code: code.trim() })}
      requiredMark={false}
      size="large"
    >
      <Form.Item
        name="phone"
        label="手机号码"
        rules={[
          { required: true, message: '请输入手机号码' },
          {
            validator: async (_, value?: string) => {
              if (value && !isPhone(value.trim())) throw new Error('手机号码格式不正确');
            },
          },
        ]}
      >
        <Input prefix={<MobileOutlined />} placeholder="注册时的手机号码" autoComplete="tel" />
      </Form.Item>
      <SmsCodeField form={codeForm} scene="login" />
      <Button type="primary" htmlType="submit" block loading={busy}>
        登录
      </Button>
    </Form>
  );
  return (
    <div className="auth-page">
      <div className="auth-card">
        <h1>会员登录</h1>
        <Tabs
          centered
          items={[
            { key: 'password', label: '密码登录', children: byPassword },
            { key: 'code', label: '短信验证码登录', children: byCode },
          ]}
        />
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
