// 控销专区: the zone (/kxzq) with the member's standing and application, its programmes, ads
// and goods; the new goods (/kxzq/new); a programme (/kxzq/goods/{url}/{ads?}, the ad named
// shown on top).
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Result, Skeleton } from 'antd';
import type { KxAd } from '@/api/types';
import { GoodsCard } from '@/components/goods-card';
import { ZoneGoods } from '@/components/zone-goods';
import { kxAdsQuery, kxProgrammeQuery, kxZoneQuery, newKxQuery, standingText, useApply } from '../api';

function StandingBar() {
  const zone = useQuery(kxZoneQuery());
  const apply = useApply();
  if (!zone.data) return null;
  const { status, reason } = zone.data;
  const loggedIn = zone.data.login;
  const canApply = loggedIn && (status === -1 || status === 2);
  return (
    <Alert
      className="kx-standing"
      data-testid="kx-standing"
      type={status === 1 ? 'success' : status === 2 ? 'error' : 'info'}
      showIcon
      message={loggedIn ? standingText(status, reason) : '登录后可申请控销品种采购资格'}
      action={
        canApply ? (
          <Button type="primary" size="small" loading={apply.isPending} onClick={() => apply.mutate()}>
            申请控销资格
          </Button>
        ) : !loggedIn ? (
          <Link to="/login">
            <Button size="small">登录</Button>
          </Link>
        ) : undefined
      }
    />
  );
}

function AdStrip({ ads }: { ads: KxAd[] }) {
  if (ads.length === 0) return null;
  return (
    <div className="kx-ads" data-testid="kx-ads">
      {ads.map((ad) => (
        <Link key={ad.id} to={ad.url} className="kx-ad" style={{ background: ad.color }}>
          <strong>{ad.title}</strong>
          <span>{ad.subtitle}</span>
        </Link>
      ))}
    </div>
  );
}

/** 控销专区 (/kxzq). */
export function KxZonePage() {
  const zone = useQuery(kxZoneQuery());
  const ads = useQuery(kxAdsQuery([]));
  const above = (
    <>
      <StandingBar />
      <AdStrip ads={ads.data ?? []} />
      {zone.data && (
        <div className="kx-programmes">
          {zone.data.programmes.map((programme) => (
            <Link key={programme.url} to={`/kxzq/goods/${programme.url}`} className="kx-programme" style={{ borderColor: programme.color }}>
              <strong style={{ color: programme.color }}>{programme.title}</strong>
              <span className="muted">{programme.subtitle}</span>
              <span className="muted">{programme.goods} 个品种</span>
            </Link>
          ))}
          <Link to="/kxzq/new" className="kx-programme">
            <strong>控销新品</strong>
            <span className="muted">近30天新增 {zone.data.new_goods} 个品种</span>
          </Link>
        </div>
      )}
    </>
  );
  return (
    <ZoneGoods
      title="控销专区"
      intro="厂家区域授权品种，审核通过的会员专享采购"
      filter={{ kx: 1 }}
      position="kxzq"
      banner="kx-banner"
      above={above}
    />
  );
}

/** 控销新品 (/kxzq/new). */
export function KxNewPage() {
  const goods = useQuery(newKxQuery());
  return (
    <div className="container zone-page">
      <div className="promotion-banner kx-banner">
        <h1>控销新品</h1>
        <p>
          近30天新增的控销品种 · <Link to="/kxzq">返回控销专区</Link>
        </p>
      </div>
      <StandingBar />
      {!goods.data ? (
        <Skeleton active />
      ) : goods.data.length === 0 ? (
        <Empty description="暂无新品" />
      ) : (
        <div className="goods-grid zone-grid" data-testid="zone-goods">
          {goods.data.map((item) => (
            <GoodsCard key={item.id} goods={item} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A programme (/kxzq/goods/{url}/{ads?}). */
export function KxProgrammePage() {
  const { url, ads } = useParams();
  const programme = useQuery(kxProgrammeQuery(url));
  const adId = Number(ads);
  const ad = useQuery(kxAdsQuery(Number.isInteger(adId) && adId > 0 ? [adId] : []));
  if (programme.isError) return <Result status="404" title="控销专区不存在" extra={<Link to="/kxzq">返回控销专区</Link>} />;
  if (!programme.data) return <Skeleton active className="container" />;
  return (
    <div className="container zone-page">
      <div className="promotion-banner" style={{ background: programme.data.color }}>
        <h1>{programme.data.title}</h1>
        <p>
          {programme.data.subtitle} · <Link to="/kxzq">返回控销专区</Link>
        </p>
      </div>
      {adId > 0 && <AdStrip ads={ad.data ?? []} />}
      <StandingBar />
      {programme.data.goods.length === 0 ? (
        <Empty description="暂无品种" />
      ) : (
        <div className="goods-grid zone-grid" data-testid="zone-goods">
          {programme.data.goods.map((item) => (
            <GoodsCard key={item.id} goods={item} />
          ))}
        </div>
      )}
    </div>
  );
}
