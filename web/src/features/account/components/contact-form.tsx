// 联系人信息: the member's contact name and mobile. A new mobile needs the current password and a
// code sent to it; the shop then tells the old mobile, ends the member's other sessions and, for
// 24 hours, resets no password through the new one.
import { useEffect } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { CodeButton } from '@/components/code-button';
import type { UserInfoForm } from '@/api/types';
import { fieldErrors } from '@/lib/field-errors';
import { useUpdateContact } from '../api';
import { useUi } from '@/lib/ui';

export function ContactForm({ name, phone, onSaved }: { name: string; phone: string; onSaved: () => Promise<unknown> }) {
  const { message } = useUi();
  const [form] = Form.useForm();
  const updateContact = useUpdateContact();
  const typed = Form.useWatch('phone', form);
  const moving = Boolean(typed) && typed !== phone;
  useEffect(() => {
    form.setFieldsValue({ name, phone });
  }, [name, phone, form]);

  const save = async (values: UserInfoForm) => {
    try {
      await updateContact.mutateAsync(moving ? values : { name: values.name, phone: values.phone });
      message.success(moving ? '保存成功，其他设备上的登录已退出' : '保存成功');
      form.setFieldsValue({ password: undefined, code: undefined });
      await onSaved();
    } catch (error) {
      form.setFields(fieldErrors(error));
    }
  };

  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ span: 4 }}
      wrapperCol={{ span: 10 }}
      onFinish={(values: UserInfoForm) => void save(values)}
    >
      <Form.Item label="联系人" name="name" rules={[{ required: true, message: '请填写联系人' }]}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item label="手机号码" name="phone" rules={[{ required: true, message: '请填写手机号码' }]}>
        <Input maxLength={11} />
      </Form.Item>
      {moving && (
        <>
          <Form.Item
            label="登录密码"
            name="password"
            extra="更换手机号需验证当前登录密码；更换后原手机号将收到通知，24小时内不能通过新手机号找回密码。"
            rules={[{ required: true, message: '请填写登录密码' }]}
          >
            <Input.Password autoComplete="current-password" placeholder="当前登录密码" />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact>
              <Form.Item name="code" noStyle rules={[{ required: true, message: '请填写验证码' }]}>
                <Input maxLength={6} placeholder="发送到新手机号的验证码" />
              </Form.Item>
              <CodeButton form={form} scene="change_phone" />
            </Space.Compact>
          </Form.Item>
        </>
      )}
      <Form.Item wrapperCol={{ offset: 4 }}>
        <Button type="primary" htmlType="submit">
          保存
        </Button>
      </Form.Item>
    </Form>
  );
}
