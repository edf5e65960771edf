// How long an unpaid order has left before the shop cancels it, counting down on the server's
// clock (step 3 and the order detail).
import { Alert } from 'antd';
import { countdown, useServerNow } from '@/lib/server-clock';

export function PayCountdown({ deadline }: { deadline: number | null | undefined }) {
  const now = useServerNow();
  if (!deadline) return null;
  const left = deadline - now;
  return (
    <Alert
      type={left > 0 ? 'warning' : 'error'}
      showIcon
      className="pay-countdown"
      data-testid="pay-countdown"
      message={left > 0 ? `请在 ${countdown(left)} 内完成支付，超时订单将自动取消` : '支付已超时，订单即将自动取消'}
    />
  );
}
