// 获取验证码: sends a code to the phone in the form, then counts down 60 s.
import { useEffect, useState } from 'react';
import { Button, type FormInstance } from 'antd';
import { isPhone } from '@/lib/engine';
import { useSendCode, type CodeScene } from '@/api/codes';
import { useUi } from '@/lib/ui';

export const CODE_INTERVAL_S = 60;

export function CodeButton({ form, scene }: { form: FormInstance; scene: CodeScene }) {
  const { message } = useUi();
  const [left, setLeft] = useState(0);
  const sendCode = useSendCode();
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const send = async () => {
    const phone = String(form.getFieldValue('phone') ?? '').trim();
    if (!isPhone(phone)) {
      form.setFields([{ name: 'phone', errors: ['请输入正确的手机号码'] }]);
      return;
    }
    try {
      const sent = await sendCode.mutateAsync({ phone, scene });
      message.success('验证码已发送，请注意查收');
      setLeft(sent.interval || CODE_INTERVAL_S);
    } catch {
      // Told by the API client.
    }
  };
  return (
    <Button onClick={() => void send()} disabled={left > 0} loading={sendCode.isPending}>
      {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
    </Button>
  );
}
