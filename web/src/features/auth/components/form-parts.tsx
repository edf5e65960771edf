// What the registration and password forms share: the SMS code with its send button, and a new
// password with its confirmation.
import { Form, Input, type FormInstance } from 'antd';
import type { CodeScene } from '@/api/codes';
import { passwordRule } from '../rules';
import { CodeButton } from '@/components/code-button';

/** 短信验证码 (`code`, six digits) beside the button that sends it to the form's `phone`. */
export function SmsCodeField({ form, scene }: { form: FormInstance; scene: CodeScene }) {
  return (
    <Form.Item label="短信验证码" required>
      <div className="code-row">
        <Form.Item
          name="code"
          noStyle
          rules={[
            { required: true, message: '请输入验证码' },
            { pattern: /^\d{6}$/, message: '验证码为6位数字' },
          ]}
        >
          <Input placeholder="6位验证码" maxLength={6} />
        </Form.Item>
        <CodeButton form={form} scene={scene} />
      </div>
    </Form.Item>
  );
}

/** 密码 + 确认密码 (`password`, `password_confirmation`); `prefix` is e.g. "新". */
export function NewPasswordFields({ prefix = '' }: { prefix?: string }) {
  return (
    <>
      <Form.Item name="password" label={`${prefix}密码`} rules={[passwordRule]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="password_confirmation"
        label={`确认${prefix}密码`}
        dependencies={['password']}
        rules={[
          { required: true, message: `请再次输入${prefix}密码` },
          ({ getFieldValue }) => ({
            validator: async (_, value) => {
              if (value && value !== getFieldValue('password')) throw new Error('两次输入的密码不一致');
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
