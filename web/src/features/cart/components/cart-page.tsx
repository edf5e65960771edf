// 购物车 (cart_step1): the lines with goods facts, quantity steppers, selection (one, all,
// batch), delete with confirmation, ladder and minimum-quantity hints, full-reduction tiers
// (reached first), the free-shipping hint and every total — each recalculated in the browser
// by the engine on the keystroke; beside the totals the server's next-tier hint (cart/next_hint)
// while it agrees with the engine; 复制到其他门店 copies the chosen lines into the carts of the
// company's other store accounts.
import { memo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Checkbox, Empty, Skeleton, Steps, Tag } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { nextHintQuery, type CartLine } from '@/api/cart';
import { ladderHint, manjianTitle, tierHint, type LineQuote, type TierStatus } from '@/lib/engine';
import { positive, yuan } from '@/lib/money';
import { sameJson } from '@/lib/same-json';
import { DispensingMark, GoodsTags } from '@/components/tags';
import { cartLineFacts } from '@/components/line-facts';
import { PackFacts } from '@/components/pack-facts';
import { QuantityStepper } from '@/components/quantity-stepper';
import { priceReason } from '../model';
import { nextHints } from '../next-hint';
import { useCart } from '../use-cart';
import { CopyToStores } from './copy-to-stores';
import { useUi } from '@/lib/ui';

export const DELETE_CONFIRM = '确定删除这件商品吗?';
export const EMPTY_CART = '购物车空空如也~';

export function CartSteps({ current }: { current: number }) {
  return (
    <Steps
      className="cart-steps"
      current={current}
      size="small"
      items={[{ title: '我的购物车' }, { title: '核对订单信息' }, { title: '支付订单' }, { title: '支付完成' }]}
    />
  );
}

/** The next ladder price and how many more units reach it (the engine's sentence). */
function nextLadderHint(line: CartLine, quote: LineQuote): string | null {
  const next = quote.ladder.find((row) => !row.reached && row.need > 0);
  return next ? ladderHint(next.need, line.goods.bzdw, next.price) : null;
}

interface RowProps {
  line: CartLine;
  quote: LineQuote;
  onNumber: (id: number, number: number) => void;
  onSelect: (ids: number[], selected: boolean) => void;
  onDelete: (id: number) => void;
}

const CartRow = memo(
  function CartRow({ line, quote, onNumber, onSelect, onDelete }: RowProps) {
    const goods = line.combination ?? line.goods;
    const facts = cartLineFacts(line);
    const reason = priceReason(quote.price_kind);
    const hint = nextLadderHint(line, quote);
    const shipping = quote.free_shipping_hint;
    return (
      <div className={quote.sellable ? 'cart-row' : 'cart-row unbuyable'} data-line-id={line.id} data-testid="cart-row">
        <div className="cell check">
          <Checkbox
            checked={quote.is_selected === 1}
            disabled={!quote.sellable}
            onChange={(event) => onSelect([line.id], event.target.checked)}
            aria-label={`选择 ${facts.name}`}
          />
        </div>
        <div className="cell goods">
          <img src={facts.image} alt="" />
          <div>
            <Link to={facts.href} className="cart-goods-name">
              {facts.isSet && (
                <Tag color="purple" className="set-tag">
                  组合
                </Tag>
              )}
              {!facts.isSet && <DispensingMark goods={line.goods} />}
              {facts.name}
            </Link>
            {!facts.isSet && <GoodsTags tags={line.goods.tags} />}
            {!facts.isSet && <PackFacts goods={line.goods} inline />}
            <div className="muted" data-testid={facts.isSet ? 'set-contents' : undefined}>
              {facts.isSet ? `含：${facts.spec}` : `${facts.spec} · ${facts.maker}`}
            </div>
            {!quote.sellable && (
              <div className="warn" data-testid="unsellable-reason">
                {line.goods.refusal || '暂不可购买'}
              </div>
            )}
            {quote.over_stock && <div className="warn">库存不足（库存 {goods.number}）</div>}
            {shipping && (
              <div className={shipping.reached ? 'hint ok' : 'hint'} data-testid="shipping-line-hint">
                {shipping.reached ? `已满 ${shipping.qg_number} ${goods.bzdw}，本品包邮` : `满 ${shipping.qg_number} ${goods.bzdw} 包邮`}
              </div>
            )}
          </div>
        </div>
        <div className="cell unit money">
          <span data-testid="unit-price">{yuan(quote.unit_price)}</span>
          {reason && <span className="reason">{reason}</span>}
          {hint && (
            <div className="hint" data-testid="ladder-hint">
              {hint}
            </div>
          )}
        </div>
        <div className="cell number">
          <QuantityStepper
            value={line.number}
            step={facts.isSet ? 1 : line.goods.zbz}
            onChange={(value) => onNumber(line.id, value)}
            label={facts.name}
          />
        </div>
        <div className="cell amount money">
          <strong className="price" data-testid="line-amount">
            {yuan(quote.amount)}
          </strong>
          {positive(quote.savings) && <div className="muted">省 {yuan(quote.savings)}</div>}
        </div>
        <div className="cell actions">
          <Button type="link" icon={<DeleteOutlined />} onClick={() => onDelete(line.id)}>
            删除
          </Button>
        </div>
      </div>
    );
  },
  (before, after) =>
    before.line === after.line &&
    sameJson(before.quote, after.quote) &&
    before.onNumber === after.onNumber &&
    before.onSelect === after.onSelect,
);

function Tiers({ tiers }: { tiers: TierStatus[] }) {
  if (!tiers.length) return null;
  return (
    <div className="tiers" data-testid="tiers">
      <span className="label">满减</span>
      {tiers.map((tier) => (
        <span key={tier.amount} className={tier.status === 1 ? 'tier reached' : 'tier'} data-status={tier.status}>
          {manjianTitle(tier.amount, tier.reduce)}
          {tier.status === 1 ? '（已满足）' : `（${tierHint(tier.need, tier.reduce)}）`}
        </span>
      ))}
    </div>
  );
}

export function CartPage() {
  const { model, loading, setNumber, select, remove } = useCart();
  const { modal } = useUi();
  const navigate = useNavigate();
  const [copying, setCopying] = useState<number[] | null>(null);
  const hasLines = !!model && model.lines.length > 0;
  // Read again with the cart (refreshCart invalidates every cart key) after each edit settles.
  const nextHint = useQuery({ ...nextHintQuery(), enabled: hasLines });

  if (loading || !model) {
    return (
      <div className="container">
        <CartSteps current={0} />
        <Skeleton active />
      </div>
    );
  }
  const quote = model.quote;
  const lines = model.lines;
  if (lines.length === 0) {
    return (
      <div className="container">
        <CartSteps current={0} />
        <Empty className="cart-empty" description={EMPTY_CART}>
          <Link to="/list">
            <Button type="primary">去逛逛</Button>
          </Link>
        </Empty>
      </div>
    );
  }
  const byId = new Map(quote.lines.map((line) => [line.id, line]));
  // 全选 covers every line that could be bought, ticked or not; unsellable lines stay out.
  const sellableIds = quote.lines.filter((line) => line.sellable).map((line) => line.id);
  const selectedIds = model.selectedIds();
  const allSelected = sellableIds.length > 0 && selectedIds.length === sellableIds.length;
  const someSelected = selectedIds.length > 0 && !allSelected;
  const selectAll = (
    <Checkbox
      checked={allSelected}
      indeterminate={someSelected}
      disabled={sellableIds.length === 0}
      onChange={(event) => select(sellableIds, event.target.checked)}
      data-testid="select-all"
    >
      全选
    </Checkbox>
  );
  const confirmDelete = (ids: number[]) =>
    modal.confirm({ title: '温馨提示', content: DELETE_CONFIRM, okText: '确定', cancelText: '取消', onOk: () => remove(ids) });
  const totals = quote.totals;
  const hints = nextHints(quote, nextHint.data);

  return (
    <div className="container cart-page">
      <CartSteps current={0} />
      <Tiers tiers={quote.manjian_tiers} />
      <div className="cart-table">
        <div className="cart-head">
          <div className="cell check">{selectAll}</div>
          <div className="cell goods">商品信息</div>
          <div className="cell unit">单价</div>
          <div className="cell number">数量</div>
          <div className="cell amount">小计</div>
          <div className="cell actions">操作</div>
        </div>
        {lines.map((line) => {
          const lineQuote = byId.get(line.id);
          return lineQuote ? (
            <CartRow
              key={line.id}
              line={line}
              quote={lineQuote}
              onNumber={setNumber}
              onSelect={select}
              onDelete={(id) => confirmDelete([id])}
            />
          ) : null;
        })}
      </div>
      <div className="cart-kinds" data-testid="total-kinds">
        <span>全部商品 {quote.counts.items} 种</span>
        <span>已选 {quote.counts.units} 件</span>
        <span>可用券商品 {yuan(totals.coupon)}</span>
        <span>不可用券商品 {yuan(totals.non_coupon)}</span>
        <span>优选 {yuan(totals.youx)}</span>
        <span>中药饮片 {yuan(totals.zy)}</span>
        <span>器械 {yuan(totals.qx)}</span>
        <span>满减商品 {yuan(totals.manjian)}</span>
      </div>
      <div className="cart-bar" data-testid="cart-bar">
        {selectAll}
        <a onClick={() => selectedIds.length && confirmDelete(selectedIds)}>删除选中</a>
        <a onClick={() => selectedIds.length && setCopying(selectedIds)} aria-disabled={selectedIds.length === 0}>
          复制到其他门店
        </a>
        <span>
          已选 <strong data-testid="selected-count">{quote.counts.selected}</strong> 种商品
        </span>
        <span className="bar-spacer" />
        <span className="bar-figures">
          {hints.tier && (
            <span className="hint" data-testid="next-tier-hint" data-source={hints.tier.source}>
              {hints.tier.text}
            </span>
          )}
          {hints.shipping ? (
            <span className="hint" data-testid="shipping-hint" data-source={hints.shipping.source}>
              {hints.shipping.text}
            </span>
          ) : hints.freeShipping ? (
            <span className="hint ok" data-testid="shipping-hint">
              已免运费
            </span>
          ) : null}
          <span>
            商品合计：
            <span className="money" data-testid="total">
              {yuan(totals.total)}
            </span>
          </span>
          <span>
            满减优惠：
            <span className="money" data-testid="discount">
              -{yuan(totals.discount)}
            </span>
          </span>
          <span className="payable">
            应付：
            <strong className="price big" data-testid="payable">
              {yuan(totals.payable)}
            </strong>
          </span>
        </span>
        <Button
          type="primary"
          danger
          size="large"
          disabled={selectedIds.length === 0}
          onClick={() => navigate('/cart/step2', { state: { ids: selectedIds, payable: totals.payable } })}
        >
          去结算
        </Button>
      </div>
      <CopyToStores open={copying !== null} ids={copying ?? []} onClose={() => setCopying(null)} />
    </div>
  );
}
