// 在线支付: the provider's cashier page as a QR code to scan and a link to open, while the page
// asks the shop every two seconds whether the provider confirmed the payment.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space, Spin } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import type { PaymentStarted, PaymentState } from '@/api/types';
import { yuan } from '@/lib/money';
import { paymentStateQuery } from '@/api/payment';

interface Props {
  payment: Pick<PaymentStarted, 'payment_no' | 'pay_url' | 'amount'>;
  /** Once, when the provider confirmed it (or its order could not take it: the state says which). */
  onSettled: (state: PaymentState) => void;
  onCancel?: () => void;
}

export function OnlinePayment({ payment, onSettled, onCancel }: Props) {
  const state = useQuery(paymentStateQuery(payment.payment_no));
  const settled = state.data && state.data.status !== 0 ? state.data : undefined;
  useEffect(() => {
    if (settled) onSettled(settled);
    // `onSettled` is the caller's; the payment settles once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled?.status]);
  return (
    <div className="online-payment" data-testid="online-payment">
      <QRCodeSVG value={payment.pay_url} size={148} />
      <div className="online-payment-body">
        <p>
          应付金额 <strong className="price big">{yuan(payment.amount)}</strong>
        </p>
        <p className="muted">请扫码或点击“前往支付”，在支付页面完成付款；付款成功后本页自动更新。</p>
        <Space>
          <Button type="primary" href={payment.pay_url} target="_blank" rel="noopener">
            前往支付
          </Button>
          {onCancel && <Button onClick={onCancel}>返回</Button>}
        </Space>
        <div className="online-payment-state">
          {settled ? (
            <Alert type={settled.status === 1 ? 'success' : 'warning'} showIcon message={settled.status_name} />
          ) : (
            <span className="muted">
              <Spin size="small" /> 等待支付结果…
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
