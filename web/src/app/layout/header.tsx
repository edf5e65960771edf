// The top bar (welcome, company, account manager, hotline, links; fixed from 205 px of scroll,
// carrying the search box then) and the header (logo, search, hot terms, cart button).
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { SearchBox } from '@/features/search/components/search-box';
import { useCommonData } from '@/api/common';
import { badge, useCartTotal } from '@/api/cart';
import { useLogout } from '@/api/user';
import type { UserState } from '@/api/user';
import { SITE_TITLE } from '../routes';
import { CountBadge } from './count-badge';
import { useUi } from '@/lib/ui';

/** §9: the top bar is fixed from this scroll offset. */
export const FIXED_FROM_PX = 205;

function useScrolledPast(offset: number): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY >= offset);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [offset]);
  return past;
}

/** The shop's name as the origin's settings hold it; the built-in one until the common data comes. */
function useShopName(): string {
  return useCommonData().data?.shop.name || SITE_TITLE;
}

export function Logo() {
  const name = useShopName();
  return (
    <Link to="/" className="logo" aria-label={`${name}首页`}>
      <span className="logo-mark">药</span>
      <span className="logo-text">
        <strong>{name}</strong>
        <small>药店 · 诊所 一站式采购</small>
      </span>
    </Link>
  );
}

export function TopBar({ user }: { user?: UserState }) {
  const { modal } = useUi();
  const logout = useLogout();
  const member = user?.login ? user : undefined;
  const inspection = user?.quality_inspection;
  const name = useShopName();
  const openInspection = () => {
    if (inspection?.quality_inspection_url) window.open(inspection.quality_inspection_url, '_blank', 'noopener');
    else modal.info({ title: '温馨提示', content: inspection?.msg || '暂无质检报告', okText: '确定' });
  };
  return (
    <div className="top-bar">
      <div className="container top-bar-inner">
        <div className="top-bar-left">
          {member ? (
            <>
              <span>
                您好，<strong>{member.company || member.username}</strong>
              </span>
              <a onClick={() => logout.mutate()}>退出</a>
            </>
          ) : (
            <>
              <span>您好，欢迎来到{name}！</span>
              <Link to="/login">请登录</Link>
              <Link to="/register">免费注册</Link>
            </>
          )}
        </div>
        <div className="top-bar-right">
          <Link to="/order">我的订单</Link>
          <Link to="/user">会员中心</Link>
          {member?.admin && (
            <span>
              专属客服：{member.admin.name} {member.admin.phone}
            </span>
          )}
          <a onClick={openInspection}>质检报告</a>
          {user?.common_config?.hot_line && <span>投诉电话：{user.common_config.hot_line}</span>}
          <Link to="/help/xrzn/hyzc?id=66">帮助中心</Link>
        </div>
      </div>
    </div>
  );
}

export function CartButton({ user }: { user?: UserState }) {
  const total = useCartTotal(!!user?.login);
  const count = user?.login ? (total.data ?? user.cart ?? 0) : 0;
  return (
    <Link to="/cart" className="cart-button" aria-label="购物车">
      <ShoppingCartOutlined />
      <span>购物车</span>
      <CountBadge count={badge(count)} className="cart-badge" />
    </Link>
  );
}

export function Header({ user }: { user?: UserState }) {
  const common = useCommonData();
  const fixed = useScrolledPast(FIXED_FROM_PX);
  return (
    <header className="header">
      <TopBar user={user} />
      <div className={fixed ? 'header-main fixed' : 'header-main'} data-testid="header-main">
        <div className="container header-inner">
          <Logo />
          <SearchBox hot={common.data?.rnss} />
          <CartButton user={user} />
        </div>
      </div>
      {fixed && <div className="header-spacer" />}
    </header>
  );
}
