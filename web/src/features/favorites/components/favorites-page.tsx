// 我的收藏 (/zzfw/star): the member's favourite goods, with 快速加购 and cancel.
import { useState } from 'react';
import { Button, Empty, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useCancelFavorite } from '@/api/favorites';
import { Pager } from '@/components/pager';
import { GoodsCard } from '@/components/goods-card';
import type { Card } from '@/api/types';
import { favoritesQuery } from '../api';
import { useUi } from '@/lib/ui';

const PAGE_SIZE = 20;

export function FavoritesPage() {
  const [page, setPage] = useState(1);
  const { message } = useUi();
  const favorites = useQuery(favoritesQuery(page));
  const cancelFavorite = useCancelFavorite();
  const cancel = async (goods: Card) => {
    try {
      await cancelFavorite.mutateAsync([goods.id]);
      message.success('取消收藏成功');
    } catch {
      // Told by the API client.
    }
  };
  return (
    <div className="container favorites-page">
      <h1 className="page-title">我的收藏</h1>
      {!favorites.data ? (
        <Skeleton active />
      ) : favorites.data.list.length === 0 ? (
        <Empty description="还没有收藏的商品" />
      ) : (
        <div className="goods-grid">
          {favorites.data.list.map((goods) => (
            <div key={goods.id} className="favorite-item">
              <GoodsCard goods={goods} quickAdd />
              <Button size="small" onClick={() => void cancel(goods)}>
                取消收藏
              </Button>
            </div>
          ))}
        </div>
      )}
      {favorites.data && <Pager total={favorites.data.total} page={page} pageSize={PAGE_SIZE} onChange={setPage} />}
    </div>
  );
}
