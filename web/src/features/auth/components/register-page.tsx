// 注册会员, in the standard flow (/register/step1-3) and the multi-store flow
// (/register/dd/step1-3): 1 phone and code; 2 the account, the company and its kind of business
// (企业类型; a chain's stores, and the code of the company a further store joins); 3 the numbers
// of the licences its kind must hold (docs/compliance.md). Step 2 creates the member and logs
// them in.
import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Radio, Result, Steps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { isEmail, isPhone } from '@/lib/engine';
import { phoneFreeQuery, useRegisterStep } from '../api';
import { usernameRule } from '../rules';
import { useFormStep } from '../use-form-step';
import { NewPasswordFields, SmsCodeField } from './form-parts';

interface Progress {
  phone: string;
  code: string;
  /** 企业类型, once step 2 is done. */
  buyerType?: number;
}

/** 企业类型 a single account chooses from (a chain registers in the multi-store flow). */
const BUYER_TYPES = [
  { value: 1, label: '单体药店' },
  { value: 3, label: '诊所' },
  { value: 4, label: '医院/卫生院' },
  { value: 5, label: '批发企业' },
];
const CHAIN = 2;

/** Clinics and hospitals hold a 医疗机构执业许可证 instead of a 药品经营许可证. */
const isMedical = (buyerType: number | undefined) => buyerType === 3 || buyerType === 4;

const STEPS = [{ title: '验证手机' }, { title: '填写信息' }, { title: '上传资质' }];

export function RegisterPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const dd = location.pathname.startsWith('/register/dd');
  const step = Number(location.pathname.slice(-1));
  const base = dd ? '/register/dd' : '/register';
  const progress = location.state as Progress | null;
  const [form] = Form.useForm();
  const { busy, run } = useFormStep(form);
  const client = useQueryClient();
  const { mutateAsync: register } = useRegisterStep();
  const [done, setDone] = useState(false);

  if (step === 2 && !progress?.phone) return <Navigate to={`${base}/step1`} replace />;

  const stepOne = (values: { phone: string; code: string }) =>
    run(async () => {
      const phone = values.phone.trim();
      await register({ step: 1, phone, code: values.code.trim() });
      navigate(`${base}/step2`, { state: { phone, code: values.code.trim() } });
    });

  const stepTwo = (values: Record<string, string> & { stores?: string[]; buyer_type?: number }) =>
    run(async () => {
      const buyerType = dd ? CHAIN : values.buyer_type;
      await register({
        step: 2,
        phone: progress!.phone,
        code: progress!.code,
        username: values.username.trim(),
        password: values.password,
        password_confirmation: values.password_confirmation,
        company: values.company.trim(),
        name: values.name.trim(),
        email: values.email?.trim() || undefined,
        dd: dd ? 1 : 0,
        stores: dd ? (values.stores ?? []).map((store) => store.trim()).filter(Boolean) : undefined,
        company_code: dd ? values.company_code?.trim() || undefined : undefined,
        buyer_type: buyerType,
      });
      navigate(`${base}/step3`, { replace: true, state: { buyerType } });
    });

  const stepThree = (values: Record<string, string>) =>
    run(async () => {
      await register({
        step: 3,
        licence: values.licence?.trim() || undefined,
        business: values.business?.trim() || undefined,
        gsp: values.gsp?.trim() || undefined,
        practice: values.practice?.trim() || undefined,
      });
      setDone(true);
    });

  return (
    <div className="auth-page wide">
      <div className="auth-card">
        <h1>{dd ? '多店会员注册' : '注册会员'}</h1>
        <Steps current={step - 1} items={STEPS} size="small" className="auth-steps" />
        {step === 1 && (
          <Form form={form} layout="vertical" onFinish={stepOne} size="large" requiredMark={false}>
            <Form.Item
              name="phone"
              label="手机号码"
              validateTrigger="onBlur"
              rules={[
                { required: true, message: '请输入手机号码' },
                {
                  validator: async (_, value: string) => {
                    if (!value) return;
                    if (!isPhone(value.trim())) throw new Error('手机号码格式不正确');
                    if (!(await client.fetchQuery(phoneFreeQuery(value.trim())).catch(() => true))) throw new Error('该手机号已注册');
                  },
                },
              ]}
            >
              <Input placeholder="请输入手机号码" maxLength={11} />
            </Form.Item>
            <SmsCodeField form={form} scene="register" />
            <Button type="primary" htmlType="submit" block loading={busy}>
              下一步
            </Button>
          </Form>
        )}
        {step === 2 && (
          <Form
            form={form}
            layout="vertical"
            onFinish={stepTwo}
            size="large"
            requiredMark={false}
            initialValues={{ stores: dd ? [''] : undefined }}
          >
            <Form.Item name="username" label="用户名" rules={[usernameRule]}>
              <Input placeholder="登录用的账号" autoComplete="username" />
            </Form.Item>
            <NewPasswordFields />
            <Form.Item name="company" label="企业名称" rules={[{ required: true, whitespace: true, message: '请输入企业名称' }]}>
              <Input placeholder="与营业执照一致" />
            </Form.Item>
            {dd ? (
              <Form.Item label="企业类型">
                <span data-testid="buyer-type">连锁药店</span>
              </Form.Item>
            ) : (
              <Form.Item
                name="buyer_type"
                label="企业类型"
                rules={[{ required: true, message: '请选择企业类型' }]}
                extra="决定需上传的资质证件：药店、批发企业为药品经营许可证，诊所、医院为医疗机构执业许可证"
              >
                <Radio.Group options={BUYER_TYPES} optionType="button" />
              </Form.Item>
            )}
            <Form.Item name="name" label="联系人" rules={[{ required: true, whitespace: true, message: '请输入联系人' }]}>
              <Input />
            </Form.Item>
            <Form.Item
              name="email"
              label="邮箱（选填）"
              rules={[
                {
                  validator: async (_, value?: string) => {
                    if (value && !isEmail(value.trim())) throw new Error('邮箱格式不正确');
                  },
                },
              ]}
            >
              <Input />
            </Form.Item>
            {dd && (
              <Form.Item
                name="company_code"
                label="企业编码（选填）"
                extra="连锁企业的其他门店：填写本企业已注册账号在“账户中心 › 多店管理”中的企业编码，注册后即关联为同一企业，可互相复制购物车；首家门店请留空。"
              >
                <Input placeholder="如 7KQ2MZ9DXH" maxLength={20} />
              </Form.Item>
            )}
            {dd && (
              <Form.List name="stores">
                {(fields, { add, remove }) => (
                  <div className="stores">
                    <div className="stores-title">门店</div>
                    {fields.map((field, index) => (
                      <div key={field.key} className="store-row">
                        <Form.Item {...field} noStyle rules={[{ required: true, whitespace: true, message: '请填写门店名称' }]}>
                          <Input placeholder={`门店${index + 1}名称`} />
                        </Form.Item>
                        {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(field.name)} aria-label="删除门店" />}
                      </div>
                    ))}
                    <Button type="dashed" onClick={() => add('')} icon={<PlusOutlined />} block>
                      添加门店
                    </Button>
                  </div>
                )}
              </Form.List>
            )}
            <Button type="primary" htmlType="submit" block loading={busy}>
              注册并下一步
            </Button>
          </Form>
        )}
        {step === 3 &&
          (done ? (
            <Result
              status="success"
              title="注册成功"
              subTitle="资质审核通过后即可采购，审核结果将通过短信通知您"
              extra={
                <Button
                  type="primary"
                  onClick={() => {
                    sessionStorage.setItem('login', '1');
                    navigate('/', { replace: true });
                  }}
                >
                  去首页逛逛
                </Button>
              }
            />
          ) : (
            <Form form={form} layout="vertical" onFinish={stepThree} size="large" requiredMark={false}>
              {isMedical(progress?.buyerType) ? (
                <Form.Item
                  name="practice"
                  label="医疗机构执业许可证登记号"
                  rules={[{ required: true, whitespace: true, message: '请填写医疗机构执业许可证登记号' }]}
                >
                  <Input />
                </Form.Item>
              ) : (
                <Form.Item
                  name="licence"
                  label="药品经营许可证编号"
                  rules={[{ required: true, whitespace: true, message: '请填写药品经营许可证编号' }]}
                >
                  <Input />
                </Form.Item>
              )}
              <Form.Item name="business" label="营业执照统一社会信用代码">
                <Input />
              </Form.Item>
              <Form.Item name="gsp" label="GSP证书编号（选填）">
                <Input />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={busy}>
                提交资质
              </Button>
            </Form>
          ))}
        <div className="auth-links">
          <span>
            已有账号？<Link to="/login">立即登录</Link>
          </span>
          {dd ? <Link to="/register">单店注册</Link> : <Link to="/register_dd">多店注册</Link>}
        </div>
      </div>
    </div>
  );
}
