// Goods detail (/list/info/{id}, query goods_price_id, ladder_price_id, goods_manjian_id,
// is_yj, is_jxq): picture, facts, price, the ladder table with how many more for each price
// (the engine's ladder rows), activity tags with their rules, stock, add to cart, favourite; below,
// the activities it takes part in (goods-activities.tsx).
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Breadcrumb, Button, Descriptions, Result, Skeleton, Space } from 'antd';
import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useAddFavorite, useCancelFavorite } from '@/api/favorites';
import { currentPrice, refusal, stockClass, useAddToCart } from '@/components/goods';
import { Price } from '@/components/price';
import { DispensingMark, GoodsTags } from '@/components/tags';
import { QuantityStepper } from '@/components/quantity-stepper';
import { ladderHint, manjianTitle, quote, type LadderRow } from '@/lib/engine';
import { isCheaper, yuan } from '@/lib/money';
import { countdown, useServerNow } from '@/lib/server-clock';
import type { GoodsDetail } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { goodsDetailQuery } from '../api';
import { GoodsActivities } from './goods-activities';
import { useUi } from '@/lib/ui';

type DetailQuery = QueryOf<'/api/goods/detail/{id}'>;

/** The §2 ids a goods card links with, passed on to the detail's query. */
const QUERY_IDS = ['goods_price_id', 'ladder_price_id', 'goods_manjian_id', 'is_yj', 'is_jxq'] as const satisfies (keyof DetailQuery)[];

/** The engine's quote of buying `number` of `goods`: the unit price the ladder gives that
 * quantity, and the ladder rows with how many more each price needs. */
function priced(goods: GoodsDetail, number: number): { unitPrice: string | null; rows: LadderRow[] } {
  // Hidden prices are not priced (docs/compliance.md).
  if (goods.price === null || !goods.ladder_price.length) return { unitPrice: goods.price, rows: [] };
  const line = quote({
    items: [
      {
        id: 1,
        number,
        price: goods.price,
        is_selected: 1,
        goods: {
          id: goods.id,
          is_buy: 1,
          number: Math.max(goods.number, number),
          ladder_price: goods.ladder_price.flatMap((step) => (step.price === null ? [] : [{ number: step.number, price: step.price }])),
          ladder_price_type: goods.ladder_price_type,
        },
      },
    ],
  }).lines[0];
  return { unitPrice: line.unit_price, rows: line.ladder };
}

/** The goods' pictures: the one chosen large, and a row of thumbnails to choose from when there
 * are more; the package the shop draws when none was uploaded. */
function Pictures({ goods }: { goods: GoodsDetail }) {
  const [chosen, choose] = useState(0);
  const pictures = goods.pictures;
  if (pictures.length === 0) {
    return (
      <div className="detail-image">
        <img src={goods.goods_image[0]} alt={goods.name} />
      </div>
    );
  }
  const shown = pictures[Math.min(chosen, pictures.length - 1)];
  return (
    <div className="detail-image">
      <img src={shown.large} alt={goods.name} data-testid="detail-picture" />
      {pictures.length > 1 && (
        <div className="detail-thumbs" role="list" aria-label="商品图片">
          {pictures.map((picture, at) => (
            <button
              key={picture.id}
              type="button"
              role="listitem"
              className={picture.id === shown.id ? 'detail-thumb current' : 'detail-thumb'}
              aria-label={`第${at + 1}张图片`}
              aria-current={picture.id === shown.id}
              onMouseEnter={() => choose(at)}
              onClick={() => choose(at)}
            >
              <img src={picture.thumb} alt="" loading="lazy" />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function FlashSale({ goods }: { goods: GoodsDetail }) {
  const now = useServerNow();
  if (!goods.flash_sale || goods.flash_sale.ends_at <= now) return null;
  return (
    <div className="detail-flash">
      <strong>限时秒杀</strong> 秒杀价 <Price price={goods.flash_sale.price} text={goods.price_text} /> 每人限购 {goods.flash_sale.limit}{' '}
      {goods.bzdw} · 距结束 {countdown(goods.flash_sale.ends_at - now)}
    </div>
  );
}

export function GoodsDetailPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { message } = useUi();
  const addFavorite = useAddFavorite();
  const cancelFavorite = useCancelFavorite();
  const query = useMemo(() => {
    const ids: DetailQuery = {};
    for (const key of QUERY_IDS) {
      const value = search.get(key);
      if (value) ids[key] = Number(value);
    }
    return ids;
  }, [search]);
  const detail = useQuery(goodsDetailQuery(Number(id), query));
  const [number, setNumber] = useState(1);
  const { add, adding } = useAddToCart();

  if (detail.isError) return <Result status="404" title="商品不存在" extra={<Link to="/list">去逛逛</Link>} />;
  const goods = detail.data;
  if (!goods)
    return (
      <div className="container">
        <Skeleton active />
      </div>
    );

  const buyable = goods.is_buy === 1 && goods.number > 0;
  // The price follows the ladder as the quantity changes; a running flash sale's price stands.
  const { unitPrice, rows } = priced(goods, number);
  const price = goods.flash_sale ? currentPrice(goods) : unitPrice;
  const favorite = async () => {
    try {
      if (goods.is_favorite) {
        await cancelFavorite.mutateAsync([goods.id]);
        message.success('取消收藏成功');
      } else {
        await addFavorite.mutateAsync([goods.id]);
        message.success({
          content: (
            <span>
              收藏成功{' '}
              <Button size="small" type="link" onClick={() => navigate('/zzfw/star')}>
                查看收藏
              </Button>
            </span>
          ),
        });
      }
    } catch {
      // The API client has told the buyer.
    }
  };

  return (
    <div className="container goods-detail">
      <Breadcrumb
        className="crumbs"
        items={[
          { title: <Link to="/">首页</Link> },
          ...goods.category_path.map((category) => ({ title: <Link to={`/list?category=${category.id}`}>{category.name}</Link> })),
          { title: goods.name },
        ]}
      />
      <div className="detail-main">
        <Pictures key={goods.id} goods={goods} />
        <div className="detail-info">
          <h1>
            <DispensingMark goods={goods} />
            {goods.name} <GoodsTags tags={goods.tags} />
          </h1>
          <FlashSale goods={goods} />
          <div className="detail-price">
            <span className="label">采购价</span>
            <span data-testid="detail-price">
              <Price price={price} text={goods.price_text} className="price big" />
            </span>
            {price !== null && goods.base_price !== null && isCheaper(price, goods.base_price) && (
              <span className="muted">
                建议零售价 <del>{yuan(goods.base_price)}</del>
              </span>
            )}
          </div>
          {rows.length > 0 && (
            <table className="ladder-table" aria-label="阶梯价">
              <thead>
                <tr>
                  <th>{goods.ladder_price_type === 1 ? '采购数量' : '起购数量'}</th>
                  <th>单价</th>
                  <th>再买</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.number} className={row.reached ? 'reached' : ''}>
                    <td>
                      {row.number}
                      {row.max ? `-${row.max}` : '及以上'} {goods.bzdw}
                    </td>
                    <td className="price">{yuan(row.price)}</td>
                    <td>{row.reached ? '已享受' : ladderHint(row.need, goods.bzdw, row.price)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {goods.manjian && (
            <div className="detail-activity">
              <span className="label">满减</span> {goods.manjian.title}：
              {goods.manjian.tiers.map((tier) => manjianTitle(tier.amount, tier.reduce)).join('，')}
            </div>
          )}
          {goods.is_dpby === 1 && goods.qg_number > 0 && (
            <div className="detail-activity">
              <span className="label">包邮</span> 单品满 {goods.qg_number} {goods.bzdw} 包邮
            </div>
          )}
          <Descriptions size="small" column={2} className="detail-facts">
            <Descriptions.Item label="规格">{goods.ypgg}</Descriptions.Item>
            <Descriptions.Item label="单位">{goods.bzdw}</Descriptions.Item>
            <Descriptions.Item label="生产厂家">{goods.sccj}</Descriptions.Item>
            <Descriptions.Item label="批准文号">{goods.pzwh}</Descriptions.Item>
            <Descriptions.Item label="经营类别">
              {goods.scope_class_name}
              {goods.dispensing && ` · ${goods.dispensing}`}
            </Descriptions.Item>
            <Descriptions.Item label="有效期至">
              <span data-testid="detail-expiry">{goods.expires_on || '—'}</span>
              {goods.lots.length > 1 && (
                <span className="muted" data-testid="detail-lots">
                  {' '}
                  （在售批号：{goods.lots.map((lot) => `${lot.lot_no} 至${lot.expires_on}`).join('；')}）
                </span>
              )}
            </Descriptions.Item>
            <Descriptions.Item label="中包装">{goods.zbz > 1 ? `${goods.zbz}${goods.bzdw}` : '—'}</Descriptions.Item>
            <Descriptions.Item label="件装量">{goods.jzl ? `${goods.jzl}${goods.bzdw}/件` : '—'}</Descriptions.Item>
            <Descriptions.Item label="销量">{goods.sales}</Descriptions.Item>
            <Descriptions.Item label="库存">
              <span className={stockClass(goods)}>{goods.stock_state}</span>
            </Descriptions.Item>
            {goods.brand && <Descriptions.Item label="品牌">{goods.brand.name}</Descriptions.Item>}
          </Descriptions>
          <Space className="detail-buy">
            {goods.price === null ? (
              <Link to={goods.price_text === '登录可见' ? '/login' : '/zhzx/zzzj'} className="refused" data-testid="goods-refusal">
                {refusal(goods)}
              </Link>
            ) : goods.refusal ? (
              <span className="refused" data-testid="goods-refusal">
                {goods.refusal}
                {goods.out_of_scope === 1 && <span className="muted">（您的经营范围不含{goods.scope_class_name}，暂不能采购）</span>}
              </span>
            ) : (
              <>
                <QuantityStepper
                  size="large"
                  step={goods.zbz}
                  max={Math.max(1, goods.number)}
                  value={number}
                  onChange={setNumber}
                  label="购买"
                  disabled={!buyable}
                />
                <span className="muted">{goods.bzdw}</span>
                <Button type="primary" size="large" danger onClick={() => void add(goods, number)} loading={adding} disabled={!buyable}>
                  {buyable ? '加入购物车' : '暂不可购买'}
                </Button>
              </>
            )}
            <Button size="large" icon={goods.is_favorite ? <HeartFilled /> : <HeartOutlined />} onClick={() => void favorite()}>
              {goods.is_favorite ? '已收藏' : '收藏'}
            </Button>
          </Space>
        </div>
      </div>
      <GoodsActivities goodsId={goods.id} unit={goods.bzdw} />
      <section className="detail-description">
        <h2>商品说明</h2>
        <p>{goods.description}</p>
      </section>
    </div>
  );
}
