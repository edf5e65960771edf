// A zone's goods: the zone's banner, its right-hand ad, sorting and paging over the catalogue's
// list with the zone's own filter, in cards (or as a table).
import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Empty, Pagination, Segmented, Skeleton } from 'antd';
import { GoodsCard } from '@/components/goods-card';
import { GoodsTable } from '@/components/goods-table';
import { adQuery } from '@/api/common';
import { ZONE_PAGE_SIZE, zoneGoodsQuery, zoneParams, type GoodsQuery } from '@/api/goods';

export interface ZoneSort {
  label: string;
  value: string;
  order?: string;
}

const SORTS: ZoneSort[] = [
  { label: '默认', value: 'default' },
  { label: '销量', value: 'sales' },
  { label: '价格从低到高', value: 'price', order: 'asc' },
  { label: '新品', value: 'new' },
];

export function ZoneGoods({
  title,
  intro,
  filter,
  position,
  banner = 'zone-banner',
  sorts = SORTS,
  table = false,
  extra,
  above,
  page: pageFromPath,
  onPage,
}: {
  title: string;
  intro: ReactNode;
  /** The zone's own filter of the catalogue's list. */
  filter: GoodsQuery;
  /** The right-hand ad's position key. */
  position: string;
  banner?: string;
  sorts?: ZoneSort[];
  table?: boolean;
  extra?: ReactNode;
  /** Shown between the banner and the goods (an activity's terms). */
  above?: ReactNode;
  /** The page when the address holds it (`/ppzq/info/{id}/{page}`), with the way to another;
   * without, the zone keeps its page itself. */
  page?: number;
  onPage?: (page: number) => void;
}) {
  const [sort, setSort] = useState(sorts[0]);
  const [ownPage, setOwnPage] = useState(1);
  const page = pageFromPath ?? ownPage;
  const setPage = onPage ?? setOwnPage;
  const goods = useQuery(zoneGoodsQuery(zoneParams(filter, sort.value, sort.order ?? '', page)));
  const expiry = 'near_expiry' in filter;
  return (
    <div className="container zone-page">
      <div className={`promotion-banner ${banner}`}>
        <h1>{title}</h1>
        <p>{intro}</p>
      </div>
      {above}
      <div className="zone-body">
        <div className="zone-main">
          <div className="zone-toolbar">
            <Segmented
              options={sorts.map((entry) => ({ label: entry.label, value: entry.label }))}
              value={sort.label}
              onChange={(label) => {
                setSort(sorts.find((entry) => entry.label === label) ?? sorts[0]);
                setPage(1);
              }}
            />
            <span className="muted">共 {goods.data?.total ?? 0} 件商品</span>
            {extra}
          </div>
          {!goods.data ? (
            <Skeleton active />
          ) : goods.data.list.length === 0 ? (
            <Empty description="该专区暂无商品" />
          ) : table ? (
            <GoodsTable goods={goods.data.list} expiry={expiry} />
          ) : (
            <div className="goods-grid zone-grid" data-testid="zone-goods">
              {goods.data.list.map((item) => (
                <GoodsCard key={item.id} goods={item} />
              ))}
            </div>
          )}
          {goods.data && goods.data.total > ZONE_PAGE_SIZE && (
            <Pagination
              className="pager"
              current={page}
              pageSize={ZONE_PAGE_SIZE}
              total={goods.data.total}
              showSizeChanger={false}
              onChange={(next) => {
                setPage(next);
                window.scrollTo({ top: 0 });
              }}
            />
          )}
        </div>
        <ZoneAd position={position} />
      </div>
    </div>
  );
}

/** A zone's right-hand ad: the first ad of `position`, nothing while there is none. */
export function ZoneAd({ position }: { position: string }) {
  const ad = useQuery(adQuery(position)).data?.[0];
  if (!ad) return null;
  return (
    <aside className="zone-ad" aria-label="专区广告">
      <Link to={ad.url}>
        <img src={ad.image} alt={ad.title} />
      </Link>
    </aside>
  );
}
