// The home page: banners beside the open category menu and a member panel; then the floors:
// 限时秒杀 with a live countdown from the server clock, 天天特价, 为您推荐 (their cards with 快速加购),
// brands.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button, Empty, Skeleton } from 'antd';
import { commonDataQuery } from '@/api/common';
import { useKnownUser } from '@/api/user';
import { GoodsCard } from '@/components/goods-card';
import { LazyImage } from '@/components/lazy-image';
import { countdown, useServerNow } from '@/lib/server-clock';
import { memberCentreQuery } from '@/api/member';
import { bannersQuery, everydayPriceQuery, recommendedQuery, spikeQuery } from '../api';
import type { Card, MemberCentre } from '@/api/types';
import { yuan } from '@/lib/money';
import { BannerCarousel } from './banner-carousel';

function Banners() {
  const banners = useQuery(bannersQuery());
  if (!banners.data) return <Skeleton.Node active className="banner-skeleton" />;
  return (
    <BannerCarousel className="banners" autoplaySpeed={5000}>
      {banners.data.map((banner, index) => (
        <Link key={banner.id} to={banner.url} className="banner" style={{ background: banner.color || '#11845b' }}>
          {/* The first banner at once; the others when the carousel brings them into view. */}
          <img src={banner.image} alt={banner.title} loading={index === 0 ? 'eager' : 'lazy'} />
        </Link>
      ))}
    </BannerCarousel>
  );
}

/** 资质 as the member centre says it: 已通过, 待审核, 未通过 or none sent. */
function approvalText(centre: MemberCentre): string {
  if (centre.is_passed === 1) return '资质已通过';
  if (centre.qualifications_rejected > 0) return '资质未通过';
  if (centre.qualifications_pending > 0) return '资质待审核';
  return '未提交资质';
}

function MemberPanel() {
  const user = useKnownUser();
  // The member centre's own answer, without a word on a failure.
  const summary = useQuery({ ...memberCentreQuery({ silent: true }), enabled: !!user?.login });
  const centre = summary.data;
  return (
    <aside className="member-panel" data-testid="member-panel">
      {user?.login ? (
        <>
          <p className="member-hello">您好，{user.name || user.username}</p>
          <p className="member-company">{user.company}</p>
          {user.admin && (
            <p className="member-admin">
              专属客服：{user.admin.name}
              <br />
              {user.admin.phone}
            </p>
          )}
          {centre && (
            <div className="member-figures">
              <Link to="/zhzx/zzzj" className={centre.is_passed === 1 ? 'ok' : 'warn'} data-testid="panel-approval">
                {approvalText(centre)}
              </Link>
              <Link to="/wdqb/yegl" data-testid="panel-balance">
                余额 <strong>{yuan(centre.balance)}</strong>
              </Link>
              <Link to="/wdqb/yhq" data-testid="panel-coupons">
                优惠券 <strong>{centre.coupons}</strong> 张
              </Link>
              <Link to="/zhzx/wdxx" data-testid="panel-messages">
                未读消息 <strong>{centre.unread_messages}</strong>
              </Link>
            </div>
          )}
          <div className="member-links">
            <Link to="/order">我的订单</Link>
            <Link to="/cart">购物车</Link>
            <Link to="/zzfw/star">我的收藏</Link>
          </div>
        </>
      ) : (
        <>
          <p className="member-hello">您好，欢迎来到医药批发商城</p>
          <div className="member-actions">
            <Link to="/login">
              <Button type="primary">登录</Button>
            </Link>
            <Link to="/register">
              <Button>注册</Button>
            </Link>
          </div>
        </>
      )}
      <div className="member-notice">
        <h4>商城公告</h4>
        <p>
          <Link to="/help/xrzn/gwzn">新会员采购指南</Link>
        </p>
        <p>
          <Link to="/help/zfps/hwps">秋冬季配送时效说明</Link>
        </p>
        <p>
          <Link to="/help/fwbz/wzzz">本站经营资质公示</Link>
        </p>
      </div>
    </aside>
  );
}

function Floor({ title, more, goods, extra }: { title: string; more?: string; goods: Card[] | undefined; extra?: React.ReactNode }) {
  return (
    <section className="floor">
      <header className="floor-title">
        <h2>{title}</h2>
        {extra}
        {more && (
          <Link to={more} className="floor-more">
            更多 &gt;
          </Link>
        )}
      </header>
      {!goods ? (
        <Skeleton active />
      ) : goods.length === 0 ? (
        <Empty description="暂无商品" />
      ) : (
        <div className="goods-grid">
          {goods.map((item) => (
            <GoodsCard key={item.id} goods={item} quickAdd />
          ))}
        </div>
      )}
    </section>
  );
}

function SpikeFloor() {
  const spike = useQuery(spikeQuery());
  const now = useServerNow();
  const live = spike.data?.list.filter((goods) => goods.flash_sale && goods.flash_sale.ends_at > now);
  const ends = live?.length ? Math.min(...live.map((goods) => goods.flash_sale!.ends_at)) : null;
  return (
    <Floor
      title="限时秒杀"
      more="/list?flash=1"
      goods={live?.slice(0, 5)}
      extra={
        ends ? (
          <span className="countdown" data-testid="spike-countdown">
            距结束 {countdown(ends - now)}
          </span>
        ) : null
      }
    />
  );
}

export function HomePage() {
  const common = useQuery(commonDataQuery());
  const everyday = useQuery(everydayPriceQuery());
  const recommended = useQuery(recommendedQuery());
  return (
    <div className="home">
      <div className="home-top container">
        <div className="home-menu-space" />
        <Banners />
        <MemberPanel />
      </div>
      <div className="container">
        <SpikeFloor />
        <Floor title="天天特价" more="/list?everyday=1" goods={everyday.data?.slice(0, 10)} />
        <Floor title="为您推荐" more="/list" goods={recommended.data?.list.slice(0, 10)} />
        <section className="floor">
          <header className="floor-title">
            <h2>品牌专区</h2>
          </header>
          <div className="brands">
            {(common.data?.brand ?? []).map((brand) => (
              <Link key={brand.id} to={`/list?brand=${brand.id}`} className="brand" title={brand.sccj}>
                <LazyImage src={brand.logo} alt={brand.name} />
                <span>{brand.name}</span>
              </Link>
            ))}
          </div>
        </section>
      </div>
    </div>
  );
}
