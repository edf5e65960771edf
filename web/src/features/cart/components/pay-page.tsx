// 支付订单 (cart_step3 /cart/step3/{id}, and cart_hm /cart/hm?id=): the order to pay, what its
// settlement took off, and the balance; 余额支付 pays the amount due and goes to step 4, 在线支付
// pays it at the payment provider and goes there when the provider confirms it; 取消订单 cancels
// it (its stock, coupon, cash voucher, red packets and points go back).
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Descriptions, Radio, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { canPay, positive, yuan } from '@/lib/money';
import type { PaymentStarted, PaymentState } from '@/api/types';
import { OnlinePayment } from '@/components/online-payment';
import { orderQuery, useCancelOrder } from '@/api/orders';
import { walletQuery } from '@/api/wallet';
import { usePayByBalance, usePayOnline } from '../api';
import { CartSteps } from './cart-page';
import { PayCountdown } from '@/components/pay-countdown';
import { keys } from '@/lib/query-keys';
import { useUi } from '@/lib/ui';

export function PayPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(params.id ?? search.get('id'));
  // Back from the provider's cashier (`?payment=`): its notify may come a moment after the buyer,
  // so the order is asked again every 2 s until it is paid.
  const returned = search.get('payment');
  const order = useQuery({
    ...orderQuery(id),
    refetchInterval: (query) => (returned && query.state.data?.status === 0 ? 2000 : false),
  });
  const balance = useQuery(walletQuery());
  const payByBalance = usePayByBalance();
  const payOnline = usePayOnline();
  const cancelOrder = useCancelOrder();
  const paying = payByBalance.isPending || payOnline.isPending;
  const [method, setMethod] = useState<'balance' | 'online'>('balance');
  const [online, setOnline] = useState<PaymentStarted>();
  const { modal, message } = useUi();
  const client = useQueryClient();

  if (!(id > 0) || order.isError) return <Result status="404" title="订单不存在" extra={<Link to="/order">查看我的订单</Link>} />;
  if (!order.data)
    return (
      <div className="container">
        <CartSteps current={2} />
        <Skeleton active />
      </div>
    );
  const data = order.data;
  // Paid (here, in another tab, or at the cashier this tab came back from): the result page.
  if (data.status !== 0 && data.status !== 4) return <Navigate to={`/cart/step4?id=${id}`} replace />;
  const enough = balance.data ? canPay(balance.data.balance, data.due) : false;
  const pay = async () => {
    try {
      if (method === 'online') {
        setOnline(await payOnline.mutateAsync(id));
        return;
      }
      await payByBalance.mutateAsync(id);
      navigate(`/cart/step4?id=${id}`, { replace: true });
    } catch {
      // Told by the API client.
    }
  };
  const settled = async (state: PaymentState) => {
    if (state.status === 1) {
      await client.invalidateQueries({ queryKey: keys.orders.all });
      navigate(`/cart/step4?id=${id}`, { replace: true });
      return;
    }
    if (state.status === 3) message.warning('订单已取消，支付款已退回账户余额');
    setOnline(undefined);
    await order.refetch();
  };
  const cancel = () =>
    modal.confirm({
      title: '温馨提示',
      content: '确定取消该订单吗？',
      okText: '确定',
      cancelText: '再想想',
      onOk: async () => {
        try {
          await cancelOrder.mutateAsync(id);
        } catch {
          // Told by the API client (already paid or cancelled: 409).
        }
        await order.refetch();
      },
    });
  return (
    <div className="container pay-page">
      <CartSteps current={2} />
      <Result
        status={data.status === 4 ? 'info' : 'success'}
        title={data.status === 4 ? '订单已取消' : '订单提交成功，请尽快支付'}
        subTitle={`订单号：${data.order_no}`}
      />
      {data.status === 0 && returned && !online && (
        <Alert type="info" showIcon className="pay-countdown" message="正在确认支付结果…" data-testid="payment-confirming" />
      )}
      {data.status === 0 && <PayCountdown deadline={data.pay_deadline} />}
      <Descriptions bordered size="small" column={1} className="pay-facts">
        <Descriptions.Item label="订单状态">{data.status_name}</Descriptions.Item>
        <Descriptions.Item label="商品金额">
          <span className="money" data-testid="order-total">
            {yuan(data.total)}
          </span>
        </Descriptions.Item>
        {positive(data.discount) && (
          <Descriptions.Item label="满减优惠">
            <span className="money">-{yuan(data.discount)}</span>
          </Descriptions.Item>
        )}
        {positive(data.coupon) && (
          <Descriptions.Item label="优惠券">
            <span className="money" data-testid="order-coupon">
              -{yuan(data.coupon)}
            </span>
          </Descriptions.Item>
        )}
        {positive(data.cash_voucher) && (
          <Descriptions.Item label="现金券">
            <span className="money" data-testid="order-voucher">
              -{yuan(data.cash_voucher)}
            </span>
          </Descriptions.Item>
        )}
        {positive(data.red_packet) && (
          <Descriptions.Item label="红包">
            <span className="money" data-testid="order-red-packet">
              -{yuan(data.red_packet)}
            </span>
          </Descriptions.Item>
        )}
        {data.points_used > 0 && (
          <Descriptions.Item label="积分抵扣">
            <span className="money" data-testid="order-points">
              -{yuan(data.points_value)}
            </span>
            <span className="muted">（{data.points_used} 积分）</span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="运费">
          <span className="money">{positive(data.shipping_fee) ? `+${yuan(data.shipping_fee)}` : '包邮'}</span>
        </Descriptions.Item>
        <Descriptions.Item label="应付金额">
          <strong className="price big" data-testid="order-payable">
            {yuan(data.due)}
          </strong>
        </Descriptions.Item>
        <Descriptions.Item label="支付方式">
          <Radio.Group value={method} onChange={(event) => setMethod(event.target.value)} disabled={!!online}>
            <Radio value="balance">余额支付（可用余额 {balance.data ? yuan(balance.data.balance) : '…'}）</Radio>
            <Radio value="online">在线支付</Radio>
          </Radio.Group>
        </Descriptions.Item>
      </Descriptions>
      {online && data.status === 0 && (
        <OnlinePayment payment={online} onSettled={(state) => void settled(state)} onCancel={() => setOnline(undefined)} />
      )}
      <div className="pay-actions">
        {online ? null : data.status === 0 ? (
          <Space size="middle">
            <Button
              type="primary"
              danger
              size="large"
              onClick={() => void pay()}
              loading={paying}
              disabled={method === 'balance' && !enough}
            >
              {method === 'online' || enough || !balance.data ? '确认支付' : '余额不足'}
            </Button>
            <Button size="large" onClick={cancel} disabled={paying}>
              取消订单
            </Button>
          </Space>
        ) : data.status === 4 ? (
          <Link to="/cart">
            <Button type="primary">返回购物车</Button>
          </Link>
        ) : (
          <Link to={`/cart/step4?id=${id}`}>
            <Button type="primary">查看支付结果</Button>
          </Link>
        )}
      </div>
    </div>
  );
}
