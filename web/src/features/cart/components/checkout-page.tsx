// 核对订单信息 (cart_step2): the chosen lines and their quote, the delivery address, the
// settlement (优惠券, 现金券, 红包, 积分: each choice settled at once in the browser by the engine,
// settlement.ts; 查看全部可用优惠券 pages through the member's coupons usable now beside the
// engine's value of each), a remark; 提交订单 places the order with an Idempotency-Key, the explicit
// choices, the payable and the amount due the buyer sees; after a refusal the next 提交订单 sends
// a fresh key (order-key.ts), and after a refused choice or amount due the preview is read again.
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert, Button, Checkbox, Input, Radio, Result, Skeleton, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { MemberCoupon, MemberVoucher } from '@/api/types';
import { cartLineFacts } from '@/components/line-facts';
import { LineGoodsName } from '@/components/line-goods';
import { thresholdText, wholeAmount } from '@/lib/coupon-text';
import { ApiError } from '@/lib/api-client';
import { shippingHint, type CouponValue, type Settlement, type VoucherValue } from '@/lib/engine';
import { positive, yuan } from '@/lib/money';
import { reportAnomaly } from '@/lib/report';
import { checkoutPreviewQuery, usePlaceOrder, type Chosen, type Preview } from '../api';
import { useOrderKey } from '../order-key';
import { CheckoutSettlement, explicitChoices, refusedChoice, type Choices, type Offer } from '../settlement';
import { AvailableCoupons } from './available-coupons';
import { CartSteps } from './cart-page';
import { useUi } from '@/lib/ui';

/** The refusals after which the preview is read again: the member's accounts or the amounts changed. */
const STALE_FIELDS = ['coupon_id', 'cash_voucher_id', 'expected_due'];

export function CheckoutPage() {
  const location = useLocation();
  const chosen = location.state as Chosen;
  const preview = useQuery(checkoutPreviewQuery(chosen));

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
  if (!preview.data) {
    return (
      <div className="container">
        <CartSteps current={1} />
        <Skeleton active />
      </div>
    );
  }
  // A preview read again starts over: its accounts and the engine's choices are new.
  return <CheckoutForm key={preview.dataUpdatedAt} data={preview.data} onStale={() => void preview.refetch()} />;
}

/** A moment as the coupon cards show it. */
function moment(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY.MM.DD HH:mm');
}

/** Whether a card is not valid yet at the server's `now` (the moment the preview was settled at). */
function notYet(startsAt: number, now: number | null | undefined): boolean {
  return now !== null && now !== undefined && startsAt > now;
}

/** A coupon's terms: what it takes off from which amount. */
function couponTerms(coupon: MemberCoupon): string {
  const from = positive(coupon.min_amount) ? `满${wholeAmount(coupon.min_amount)}` : '无门槛';
  if (coupon.kind === 1) return `${from}减${wholeAmount(coupon.reduce)}`;
  return `${thresholdText(coupon.min_amount)}${coupon.max_reduce ? `，最高减 ${yuan(coupon.max_reduce)}` : ''}`;
}

function CouponCard({ coupon, value, now }: { coupon: MemberCoupon; value: CouponValue | undefined; now: number | null | undefined }) {
  const usable = value?.usable === true;
  let state: string;
  if (usable) state = `可减 ${yuan(value.value)}`;
  else if (notYet(coupon.starts_at, now)) state = `有效期 ${moment(coupon.starts_at)} 至 ${moment(coupon.expires_at)}`;
  else if (value && positive(value.need)) state = `还差 ${yuan(value.need)} 可用`;
  else state = '不满足使用条件';
  return (
    <Radio value={coupon.id} disabled={!usable} className={usable ? 'choice-card' : 'choice-card unusable'}>
      <span className="choice-title">{coupon.title}</span>
      <span className="choice-terms">
        {coupon.kind_name} · {coupon.scope_name} · {couponTerms(coupon)}
      </span>
      <span className={usable ? 'choice-state price' : 'choice-state'} data-testid="coupon-state">
        {state}
      </span>
      {usable && <span className="choice-terms">{moment(coupon.expires_at)} 到期</span>}
    </Radio>
  );
}

function VoucherCard({ voucher, value, now }: { voucher: MemberVoucher; value: VoucherValue | undefined; now: number | null | undefined }) {
  const usable = value?.usable === true;
  let state: string;
  if (usable) state = `可减 ${yuan(value.value)}`;
  else if (notYet(voucher.starts_at, now)) state = `有效期 ${moment(voucher.starts_at)} 至 ${moment(voucher.expires_at)}`;
  else state = '不满足使用条件';
  return (
    <Radio value={voucher.id} disabled={!usable} className={usable ? 'choice-card' : 'choice-card unusable'}>
      <span className="choice-title">{voucher.title}</span>
      <span className="choice-terms">
        {yuan(voucher.amount)} · {positive(voucher.min_amount) ? `优惠券后满${wholeAmount(voucher.min_amount)}可用` : '无门槛'}
      </span>
      <span className={usable ? 'choice-state price' : 'choice-state'} data-testid="voucher-state">
        {state}
      </span>
      {usable && <span className="choice-terms">{moment(voucher.expires_at)} 到期</span>}
    </Radio>
  );
}

/** The settlement without its lines, for a report. */
function brief(settlement: Settlement | undefined) {
  return settlement && { ...settlement, lines: settlement.lines.length };
}

function CheckoutForm({ data, onStale }: { data: Preview; onStale: () => void }) {
  const navigate = useNavigate();
  const { message } = useUi();
  const [address, setAddress] = useState<number | null>(null);
  const [remark, setRemark] = useState('');
  const placeOrder = usePlaceOrder();
  const placing = placeOrder.isPending;
  const { key, failed } = useOrderKey();
  const [model] = useState(() => new CheckoutSettlement(data.input, data.settlement_input));
  const [start] = useState(() => model.first(data.quote.settlement));
  const [offer, setOffer] = useState<Offer>(start.offer);

  useEffect(() => () => model.dispose(), [model]);
  useEffect(() => {
    // The server settled the preview with the same accounts and choices: a difference is a bug
    // on one side. The server's settlement is shown until the buyer changes a choice.
    if (!start.agrees) {
      console.error('checkout settlement mismatch: the server settled', data.quote.settlement, 'the browser', start.browser);
      reportAnomaly('checkout_settlement_mismatch', { server: brief(data.quote.settlement), browser: brief(start.browser) });
    }
  }, [start, data]);

  /** Settles with a changed choice at once; the server hears of it only with the order. */
  const choose = (change: Partial<Choices>) => {
    const choices = { ...offer.choices, ...change };
    try {
      setOffer(model.offer(choices));
    } catch (error) {
      const field = refusedChoice(error);
      if (field === 'cash_voucher_id' && !('cash_voucher_id' in change)) {
        // A coupon that leaves less than the chosen voucher asks for: the engine's best voucher.
        setOffer(model.offer({ ...choices, cash_voucher_id: undefined }));
        message.warning('所选现金券不可用，已为您重新选择');
        return;
      }
      console.error('checkout choice refused by the engine', choices, error);
      message.error(field === 'cash_voucher_id' ? '所选现金券不可用，请重新选择' : '所选优惠券不可用，请重新选择');
    }
  };

  const settlement = offer.settlement;
  const accounts = data.settlement_input;
  const couponValues = new Map(settlement.coupons.map((value) => [value.id, value]));
  const voucherValues = new Map(settlement.cash_vouchers.map((value) => [value.id, value]));
  const usableCoupons = settlement.coupons.filter((value) => value.usable).length;
  const usableVouchers = settlement.cash_vouchers.filter((value) => value.usable).length;
  const chosenAddress = address ?? data.addresses.find((item) => item.is_default)?.id ?? data.addresses[0]?.id ?? null;
  const byId = new Map(data.quote.lines.map((line) => [line.id, line]));
  const totals = data.quote.totals;
  const redPacketOn = offer.choices.use_red_packet === 1;
  const pointsOn = offer.choices.use_points === 1;

  const submit = async () => {
    if (!chosenAddress) return;
    try {
      const order = await placeOrder.mutateAsync({
        key,
        fields: {
          ids: data.lines.map((line) => line.id),
          address_id: chosenAddress,
          remark: remark.trim(),
          expected_payable: totals.payable,
          expected_due: settlement.due,
          ...explicitChoices(offer),
        },
      });
      navigate(`/cart/step3/${order.id}`, { replace: true });
    } catch (error) {
      // Told by the API client (a changed price or amount due: the 422's message). A refusal
      // ends this attempt: the next submit, after the buyer fixed the cart, is a new order.
      failed(error);
      if (error instanceof ApiError && STALE_FIELDS.some((field) => field in error.fieldErrors)) onStale();
    }
  };

  return (
    <div className="container checkout-page">
      <CartSteps current={1} />
      <section className="checkout-section">
        <h2>收货地址</h2>
        {data.store && (
          <Alert type="info" showIcon className="store-note" message={`本单送往当前门店：${data.store}（可在账户中心的多店管理中切换）`} />
        )}
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
              render: (_, line) => <LineGoodsName facts={cartLineFacts(line)} />,
            },
            { title: '生产厂家', key: 'sccj', render: (_, line) => cartLineFacts(line).maker },
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
      <section className="checkout-section" data-testid="checkout-coupons">
        <h2>
          优惠券 <span className="muted">（{usableCoupons} 张可用）</span>
          <AvailableCoupons
            values={couponValues}
            chosen={settlement.coupon?.id}
            onUse={(id) => choose({ coupon_id: id })}
            terms={couponTerms}
          />
        </h2>
        <Radio.Group
          value={settlement.coupon?.id ?? 0}
          onChange={(event) => choose({ coupon_id: Number(event.target.value) })}
          className="choice-cards"
          aria-label="优惠券"
        >
          {data.coupons.map((coupon) => (
            <CouponCard key={coupon.id} coupon={coupon} value={couponValues.get(coupon.id)} now={accounts.now} />
          ))}
          <Radio value={0} className="choice-card none">
            <span className="choice-title">不使用优惠券</span>
          </Radio>
        </Radio.Group>
      </section>
      <section className="checkout-section" data-testid="checkout-vouchers">
        <h2>
          现金券 <span className="muted">（{usableVouchers} 张可用）</span>
        </h2>
        <Radio.Group
          value={settlement.cash_voucher?.id ?? 0}
          onChange={(event) => choose({ cash_voucher_id: Number(event.target.value) })}
          className="choice-cards"
          aria-label="现金券"
        >
          {data.cash_vouchers.map((voucher) => (
            <VoucherCard key={voucher.id} voucher={voucher} value={voucherValues.get(voucher.id)} now={accounts.now} />
          ))}
          <Radio value={0} className="choice-card none">
            <span className="choice-title">不使用现金券</span>
          </Radio>
        </Radio.Group>
      </section>
      <section className="checkout-section accounts">
        <h2>红包与积分</h2>
        <div className="account-row">
          <Checkbox
            checked={redPacketOn}
            disabled={!redPacketOn && !positive(offer.redPacket)}
            onChange={(event) => choose({ use_red_packet: event.target.checked ? 1 : 0 })}
          >
            使用红包
          </Checkbox>
          <span className="muted">余额 {yuan(accounts.red_packet_balance)}</span>
          <span className="money" data-testid="red-packet-offer">
            {redPacketOn ? `抵扣 ${yuan(settlement.red_packet)}` : `可抵扣 ${yuan(offer.redPacket)}`}
          </span>
        </div>
        <div className="account-row">
          <Checkbox
            checked={pointsOn}
            disabled={!pointsOn && !positive(offer.points.value)}
            onChange={(event) => choose({ use_points: event.target.checked ? 1 : 0 })}
          >
            使用积分
          </Checkbox>
          <span className="muted">
            共 {accounts.points_balance ?? 0} 积分{accounts.points_per_yuan ? `（${accounts.points_per_yuan} 积分抵 ¥1.00）` : ''}
          </span>
          <span className="money" data-testid="points-offer">
            {pointsOn
              ? `使用 ${settlement.points_used} 积分，抵扣 ${yuan(settlement.points_value)}`
              : `可用 ${offer.points.used} 积分抵扣 ${yuan(offer.points.value)}`}
          </span>
        </div>
      </section>
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
      <div className="checkout-bar" data-testid="checkout-bar">
        <div className="checkout-figures">
          <span>
            商品合计{' '}
            <span className="money" data-testid="checkout-total">
              {yuan(totals.total)}
            </span>
          </span>
          <span>
            满减优惠{' '}
            <span className="money" data-testid="checkout-discount">
              -{yuan(totals.discount)}
            </span>
          </span>
          <span>
            优惠券{' '}
            <span className="money" data-testid="checkout-coupon">
              -{yuan(settlement.coupon?.value)}
            </span>
          </span>
          <span>
            现金券{' '}
            <span className="money" data-testid="checkout-voucher">
              -{yuan(settlement.cash_voucher?.value)}
            </span>
          </span>
          <span>
            红包{' '}
            <span className="money" data-testid="checkout-red-packet">
              -{yuan(settlement.red_packet)}
            </span>
          </span>
          <span>
            积分{' '}
            <span className="money" data-testid="checkout-points">
              -{yuan(settlement.points_value)}
            </span>
          </span>
          <span>
            运费{' '}
            <span className="money" data-testid="checkout-shipping">
              {positive(settlement.shipping_fee) ? `+${yuan(settlement.shipping_fee)}` : '包邮'}
            </span>
            {positive(settlement.shipping_fee) && data.quote.shipping.need && positive(data.quote.shipping.need) && (
              <span className="hint">（{shippingHint(data.quote.shipping.need)}）</span>
            )}
          </span>
        </div>
        <div className="checkout-due-row">
          <span className="payable">
            应付总额：
            <strong className="price big" data-testid="checkout-due">
              {yuan(settlement.due)}
            </strong>
          </span>
          <Button type="primary" danger size="large" onClick={() => void submit()} loading={placing} disabled={!chosenAddress}>
            提交订单
          </Button>
        </div>
      </div>
    </div>
  );
}
