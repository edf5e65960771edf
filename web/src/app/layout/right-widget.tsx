// The right-side widget (§4, §9): a 40 px rail (cart, favourites, service, back to top) whose
// cart panel slides out to 310 px; it opens by itself on cart step 1.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, Empty } from 'antd';
import { ShoppingCartOutlined, StarOutlined, CustomerServiceOutlined, VerticalAlignTopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { badge, cartListQuery, useCartTotal } from '@/api/cart';
import { yuan } from '@/lib/money';
import type { UserState } from '@/api/user';
import { cartLineFacts } from '@/components/line-facts';
import { CountBadge } from './count-badge';

export const PANEL_COLLAPSED_PX = 40;
export const PANEL_EXPANDED_PX = 310;

function CartPanel({ loggedIn }: { loggedIn: boolean }) {
  const cart = useQuery({ ...cartListQuery(), enabled: loggedIn });
  if (!loggedIn) {
    return (
      <div className="panel-body">
        <Empty description="登录后查看购物车" />
        <Link to="/login" className="panel-login">
          <Button type="primary" block>
            立即登录
          </Button>
        </Link>
      </div>
    );
  }
  const list = cart.data;
  if (!list) return <div className="panel-body muted">加载中…</div>;
  if (list.data.length === 0)
    return (
      <div className="panel-body">
        <Empty description="购物车空空如也~" />
      </div>
    );
  return (
    <div className="panel-body">
      <ul className="panel-lines">
        {list.data.map((line) => (
          <li key={line.id}>
            <span className="panel-line-name">{cartLineFacts(line).isSet ? `【组合】${cartLineFacts(line).name}` : line.goods.name}</span>
            <span className="panel-line-number">×{line.number}</span>
          </li>
        ))}
      </ul>
      <div className="panel-total">
        已选 {list.quote.counts.selected} 种 · 应付 <strong className="price">{yuan(list.quote.totals.payable)}</strong>
      </div>
      <Link to="/cart" className="panel-go">
        <Button type="primary" block>
          去购物车结算
        </Button>
      </Link>
    </div>
  );
}

export function RightWidget({
  user,
  openOnStart,
  onToggle,
}: {
  user?: UserState;
  openOnStart: boolean;
  onToggle?: (open: boolean) => void;
}) {
  const [open, setOpen] = useState(openOnStart);
  // A page that opens the panel (the cart) opens it again when the buyer comes to it: the state
  // follows the prop during render, not in an effect a second render later.
  const [startedOpen, setStartedOpen] = useState(openOnStart);
  if (openOnStart !== startedOpen) {
    setStartedOpen(openOnStart);
    setOpen(openOnStart);
  }
  useEffect(() => onToggle?.(open), [open, onToggle]);
  const total = useCartTotal(!!user?.login);
  return (
    <aside
      className="right-widget"
      style={{ width: open ? PANEL_EXPANDED_PX : PANEL_COLLAPSED_PX }}
      data-testid="right-widget"
      data-open={open ? '1' : '0'}
    >
      <div className="rail">
        <button type="button" className="rail-cart" onClick={() => setOpen(!open)} aria-label="购物车面板">
          <ShoppingCartOutlined />
          <span>购物车</span>
          <CountBadge count={badge(user?.login ? total.data : 0)} small />
        </button>
        <Link to="/zzfw/star" aria-label="我的收藏">
          <StarOutlined />
        </Link>
        <a aria-label="专属客服" title={user?.admin ? `${user.admin.name} ${user.admin.phone}` : user?.common_config?.hot_line}>
          <CustomerServiceOutlined />
        </a>
        <a aria-label="返回顶部" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}>
          <VerticalAlignTopOutlined />
        </a>
      </div>
      {open && (
        <div className="panel">
          <div className="panel-title">我的购物车</div>
          <CartPanel loggedIn={!!user?.login} />
        </div>
      )}
    </aside>
  );
}
