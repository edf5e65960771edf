// 支付完成 (cart_step4): what was paid (the amount due) and the points the payment earned.
import { Link, Navigate, useSearchParams } from 'react-router';
import { Button, Result, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { yuan } from '@/lib/money';
import { CartSteps } from './cart-page';
import { orderQuery } from '@/api/orders';

export function PaidPage() {
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const order = useQuery(orderQuery(id));
  // Without an order of the member's there is nothing paid to show: back to the cart; an order
  // not paid yet goes to its payment.
  if (!(id > 0) || order.isError) return <Navigate to="/cart" replace />;
  // (An unpaid order read from the cache is asked again first: it was paid a moment ago.)
  const unpaid = order.data?.status === 0;
  if (unpaid && !order.isFetching) return <Navigate to={`/cart/step3/${id}`} replace />;
  return (
    <div className="container">
      <CartSteps current={3} />
      {!order.data || unpaid ? (
        <Skeleton active />
      ) : (
        <Result
          status="success"
          title="支付成功"
          subTitle={`订单号：${order.data.order_no}，实付 ${yuan(order.data.due)}，${
            order.data.points_earned > 0 ? `本单获得积分 ${order.data.points_earned}，` : ''
          }状态：${order.data.status_name}`}
          extra={[
            <Link key="home" to="/">
              <Button type="primary">继续采购</Button>
            </Link>,
            <Link key="orders" to="/order">
              <Button>查看订单</Button>
            </Link>,
          ]}
        />
      )}
    </div>
  );
}
