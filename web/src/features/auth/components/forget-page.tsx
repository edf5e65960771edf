// 忘记密码 (/forget/step1), 重置密码 (step2), 重置成功 (step3).
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Button, Form, Input, Result, Steps } from 'antd';
import { isPhone } from '@/lib/engine';
import { useForgetStep } from '../api';
import { useFormStep } from '../use-form-step';
import { NewPasswordFields, SmsCodeField } from './form-parts';

const STEPS = [{ title: '验证手机' }, { title: '重置密码' }, { title: '重置成功' }];

export function ForgetPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const step = Number(location.pathname.slice(-1));
  const progress = location.state as { phone: string; code: string } | null;
  const [form] = Form.useForm();
  const { busy, run } = useFormStep(form);
  const { mutateAsync: forget } = useForgetStep();

  if (step === 2 && !progress?.phone) return <Navigate to="/forget/step1" replace />;

  return (
    <div className="auth-page">
      <div className="auth-card">
        <h1>{step === 1 ? '忘记密码' : step === 2 ? '重置密码' : '重置成功'}</h1>
        <Steps current={step - 1} items={STEPS} size="small" className="auth-steps" />
        {step === 1 && (
          <Form
            form={form}
            layout="vertical"
            size="large"
            requiredMark={false}
            onFinish={(values: { phone: string; code: string }) =>
              run(async () => {
                const phone = values.phone.trim();
                await forget({ step: 1, phone, code: values.code.trim() });
                navigate('/forget/step2', { state: { phone, code: values.code.trim() } });
              })
            }
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
              <Input maxLength={11} placeholder="注册时使用的手机号码" />
            </Form.Item>
            <SmsCodeField form={form} scene="forget" />
            <Button type="primary" htmlType="submit" block loading={busy}>
              下一步
            </Button>
          </Form>
        )}
        {step === 2 && (
          <Form
            form={form}
            layout="vertical"
            size="large"
            requiredMark={false}
            onFinish={(values: { password: string; password_confirmation: string }) =>
              run(async () => {
                await forget({ step: 2, phone: progress!.phone, code: progress!.code, ...values });
                navigate('/forget/step3', { replace: true });
              })
            }
          >
            <NewPasswordFields prefix="新" />
            <Button type="primary" htmlType="submit" block loading={busy}>
              确认重置
            </Button>
          </Form>
        )}
        {step === 3 && (
          <Result
            status="success"
            title="密码重置成功"
            subTitle="请使用新密码登录"
            extra={
              <Link to="/login">
                <Button type="primary">去登录</Button>
              </Link>
            }
          />
        )}
      </div>
    </div>
  );
}
