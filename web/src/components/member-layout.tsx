// The frame of every member page: the member menu on the left (member centre, orders, wallet,
// account centre, favourites), the page on the right under its title.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Menu } from 'antd';
import type { MenuProps } from 'antd';

type Item = Required<MenuProps>['items'][number];

const link = (path: string, label: string): Item => ({ key: path, label: <Link to={path}>{label}</Link> });

const MEMBER_MENU: Item[] = [
  link('/user', '会员中心'),
  { key: 'orders', type: 'group', label: '订单中心', children: [link('/order', '我的订单'), link('/jfdd', '积分订单')] },
  {
    key: 'wallet',
    type: 'group',
    label: '我的钱包',
    children: [
      link('/wdqb', '钱包总览'),
      link('/wdqb/yegl', '余额管理'),
      link('/wdqb/zhhb', '账户红包'),
      link('/wdqb/jfgl', '积分管理'),
      link('/wdqb/yhq', '优惠券'),
      link('/wdqb/xjq', '现金券'),
    ],
  },
  {
    key: 'account',
    type: 'group',
    label: '账户中心',
    children: [
      link('/zhzx/basic', '基础信息'),
      link('/zhzx/zzzj', '资质证件'),
      link('/zhzx/ddgl', '多店管理'),
      link('/zhzx/addr', '收货地址'),
      link('/zhzx/wdxx', '我的消息'),
      link('/dzht', '电子合同'),
      link('/register/wechat', '绑定微信'),
    ],
  },
  {
    key: 'service',
    type: 'group',
    label: '自助服务',
    children: [
      link('/zzfw/kjcg', '快速采购'),
      link('/zzfw/pzqg', '品种求购'),
      link('/zzfw/yjfk', '意见反馈'),
      link('/zzfw/star', '我的收藏'),
      link('/zzfw/dzfp', '电子发票'),
    ],
  },
];

export function MemberLayout({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <div className="container member-layout">
      <aside className="member-menu">
        <Menu mode="inline" selectedKeys={[pathname]} items={MEMBER_MENU} />
      </aside>
      <section className="member-main">
        <div className="member-title">
          <h1 className="page-title">{title}</h1>
          {extra}
        </div>
        {children}
      </section>
    </div>
  );
}
