// The buttons an order's state allows its member: pay, cancel, confirm receipt, invoice, return,
// after-sales, buy again.
import { Link, useNavigate } from 'react-router';
import { Button, Space } from 'antd';
import type { OrderDetail } from '@/api/types';
import { useBuyAgain, useCancelOrder, useReceiveOrder } from '@/api/orders';
import { useUi } from '@/lib/ui';

export function OrderActions({ order, detail = true }: { order: OrderDetail; detail?: boolean }) {
  const { modal, message } = useUi();
  const navigate = useNavigate();
  const cancel = useCancelOrder();
  const receive = useReceiveOrder();
  const buyAgainOrder = useBuyAgain();
  const confirm = (content: string, run: () => Promise<unknown>) =>
    modal.confirm({
      title: '温馨提示',
      content,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await run();
        } catch {
          // Told by the API client.
        }
      },
    });
  const buyAgain = async () => {
    try {
      const bought = await buyAgainOrder.mutateAsync(order.id);
      if (bought.skipped.length || bought.notes.length) {
        // Each line that did not come back as it was bought, and why.
        modal.info({
          title: bought.skipped.length ? '部分商品未能加入购物车' : `已将${bought.added}种商品加入购物车`,
          content: (
            <div data-testid="buy-again-notes">
              {[...bought.skipped, ...bought.notes].map((line) => (
                <p key={line.name}>
                  {line.name}：{line.reason}
                </p>
              ))}
            </div>
          ),
          okText: '去购物车',
          onOk: () => navigate('/cart'),
        });
      } else {
        message.success(`已将${bought.added}种商品加入购物车`);
        navigate('/cart');
      }
    } catch {
      // Told by the API client.
    }
  };
  return (
    <Space wrap>
      {order.actions.includes('pay') && (
        <Link to={`/cart/step3/${order.id}`}>
          <Button type="primary" danger size="small">
            去支付
          </Button>
        </Link>
      )}
      {order.actions.includes('receive') && (
        <Button type="primary" size="small" onClick={() => confirm('确认已收到全部商品吗?', () => receive.mutateAsync(order.id))}>
          确认收货
        </Button>
      )}
      {order.actions.includes('cancel') && (
        <Button size="small" onClick={() => confirm('确定取消该订单吗？', () => cancel.mutateAsync(order.id))}>
          取消订单
        </Button>
      )}
      {order.actions.includes('invoice') && (
        <Link to={`/zzfw/dzfp?order=${order.id}`}>
          <Button size="small">申请发票</Button>
        </Link>
      )}
      {(order.actions.includes('return') || order.actions.includes('return_info')) && (
        <Link to={`/order/returnInfo/${order.id}`}>
          <Button size="small">{order.actions.includes('return') ? '申请退货' : '退货详情'}</Button>
        </Link>
      )}
      {order.actions.includes('after_sales') && (
        <Link to={`/order/afterSalesInfo/${order.id}`}>
          <Button size="small">申请售后</Button>
        </Link>
      )}
      {order.actions.includes('buy_again') && (
        <Button size="small" onClick={() => void buyAgain()}>
          再次购买
        </Button>
      )}
      {detail && (
        <Link to={`/order/info/${order.id}`}>
          <Button size="small" type="link">
            订单详情
          </Button>
        </Link>
      )}
    </Space>
  );
}
