// 核对订单信息 (cart_step2): the chosen lines and their quote, the delivery address, a remark;
// 提交订单 places the order with an Idempotency-Key and the payable the buyer sees; after a
// refusal the next 提交订单 sends a fresh key (order-key.ts).
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, Button, Input, Radio, Result, Skeleton, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchCart } from '@/api/cart';
import { ApiError } from '@/lib/api-client';
import { manjianTitle, shippingHint } from '@/lib/engine';
import { positive, yuan } from '@/lib/money';
import { previewCheckout, placeOrder, type Preview } from '../api';
import { useOrderKey } from '../order-key';
import { CartSteps } from './cart-page';

/** What step 2 checks out: the lines chosen on step 1, or after a reload the selected lines. */
async function loadPreview(chosen: { ids: number[]; payable: string } | null): Promise<Preview> {
  if (chosen?.ids.length) return previewCheckout(chosen.ids, chosen.payable);
  const list = await fetchCart();
  const ids = list.quote.lines.filter((line) => line.is_selected === 1 && line.buyable).map((line) => line.id);
  return previewCheckout(ids, list.quote.totals.payable);
}

export function CheckoutPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const chosen = location.state as { ids: number[]; payable: string } | null;
  const preview = useQuery({ queryKey: ['checkout', chosen], queryFn: () => loadPreview(chosen), retry: false, staleTime: Infinity });
  const [address, setAddress] = useState<number | null>(null);
  const [remark, setRemark] = useState('');
  const [placing, setPlacing] = useState(false);
  const { key, failed } = useOrderKey();

  if (preview.isError) {
    // A refusal of the member (资质审核通过后方可下单) says so; anything else is a changed cart.
    const refused = preview.error instanceof ApiError && preview.error.kind === 'refused' ? preview.error.message : null;
    return (
      <div className="container">
        <CartSteps current={1} />
        <Result
          status="warning"
          title={refused ?? '订单信息有变化'}
          subTitle={refused ? '如有疑问请联系您的专属客服' : '请返回购物车确认后重新结算'}
          extra={
            <Link to="/cart">
              <Button type="primary">返回购物车</Button>
            </Link>
          }
        />
      </div>
    );
  }
  const data = preview.data;
  if (!data) {
    return (
      <div className="container">
        <CartSteps current={1} />
        <Skeleton active />
      </div>
    );
  }
  const chosenAddress = address ?? data.addresses.find((item) => item.is_default)?.id ?? data.addresses[0]?.id ?? null;
  const byId = new Map(data.quote.lines.map((line) => [line.id, line]));
  const submit = async () => {
    if (!chosenAddress) return;
    setPlacing(true);
    try {
      const order = await placeOrder(key, {
        ids: data.lines.map((line) => line.id),
        address_id: chosenAddress,
        remark: remark.trim(),
        expected_payable: data.quote.totals.payable,
      });
      navigate(`/cart/step3/${order.id}`, { replace: true });
    } catch (error) {
      // Told by the API client (a changed price: the 422's message). A refusal ends this
      // attempt: the next submit, after the buyer fixed the cart, is a new order.
      failed(error);
    } finally {
      setPlacing(false);
    }
  };

  return (
    <div className="container checkout-page">
      <CartSteps current={1} />
      <section className="checkout-section">
        <h2>收货地址</h2>
        {data.addresses.length === 0 ? (
          <Alert type="warning" message="您还没有收货地址，请先在账户中心添加收货地址" />
        ) : (
          <Radio.Group value={chosenAddress} onChange={(event) => setAddress(event.target.value)} className="addresses">
            {data.addresses.map((item) => (
              <Radio key={item.id} value={item.id} className="address">
                <strong>{item.contact}</strong> {item.phone} {item.province}
                {item.city}
                {item.district}
                {item.detail}
                {item.is_default === 1 && <span className="default-tag">默认</span>}
              </Radio>
            ))}
          </Radio.Group>
        )}
      </section>
      <section className="checkout-section">
        <h2>商品清单</h2>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={data.lines}
          columns={[
            {
              title: '商品',
              key: 'name',
              render: (_, line) => (
                <>
                  {line.combination?.name ?? line.goods.name} <span className="muted">{line.goods.ypgg}</span>
                </>
              ),
            },
            { title: '生产厂家', key: 'sccj', render: (_, line) => line.goods.sccj },
            {
              title: '单价',
              key: 'unit',
              align: 'right',
              render: (_, line) => <span className="money">{yuan(byId.get(line.id)?.unit_price)}</span>,
            },
            { title: '数量', dataIndex: 'number', align: 'right' },
            {
              title: '小计',
              key: 'amount',
              align: 'right',
              render: (_, line) => <span className="money">{yuan(byId.get(line.id)?.amount)}</span>,
            },
          ]}
        />
      </section>
      {data.coupons.length > 0 && (
        <section className="checkout-section">
          <h2>可用优惠券</h2>
          <div className="coupons">
            {data.coupons.map((coupon) => (
              <span key={coupon.id} className="coupon">
                {coupon.title}（{manjianTitle(coupon.min_amount, coupon.amount)}）
              </span>
            ))}
          </div>
          <p className="muted">优惠券暂不支持在线抵扣，请联系专属客服</p>
        </section>
      )}
      <section className="checkout-section">
        <h2>订单备注</h2>
        <Input.TextArea
          value={remark}
          onChange={(event) => setRemark(event.target.value)}
          maxLength={200}
          showCount
          placeholder="选填：送货时间等要求"
        />
      </section>
      <div className="checkout-bar">
        <span>
          商品合计 <span className="money">{yuan(data.quote.totals.total)}</span>
        </span>
        <span>
          满减优惠 <span className="money">-{yuan(data.quote.totals.discount)}</span>
        </span>
        <span>
          {data.quote.shipping.free_shipping
            ? '运费：包邮'
            : data.quote.shipping.need && positive(data.quote.shipping.need)
              ? shippingHint(data.quote.shipping.need)
              : null}
        </span>
        <span className="payable">
          应付总额：
          <strong className="price big" data-testid="checkout-payable">
            {yuan(data.quote.totals.payable)}
          </strong>
        </span>
        <Button type="primary" danger size="large" onClick={() => void submit()} loading={placing} disabled={!chosenAddress}>
          提交订单
        </Button>
      </div>
    </div>
  );
}
