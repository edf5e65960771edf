// The zones (§2 "Zones and promotions"), loaded together: each a real page of the catalogue's
// goods under the zone's own filter, with its banner, sorting, paging and right-hand ad.
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Card as AntCard, Empty, Pagination, Result, Skeleton, Table } from 'antd';
import { formatTime } from '@/lib/time';
import { useQuery } from '@tanstack/react-query';
import { commonDataQuery } from '@/api/common';
import { userBaseQuery } from '@/api/user';
import { yuan } from '@/lib/money';
import { countdown, useServerNow } from '@/lib/server-clock';
import { ZoneGoods, type ZoneSort } from '@/components/zone-goods';
import { brandQuery, brandsQuery, cashbackQuery, pageFromPath, welfareQuery } from '../api';

export { CombinationZonePage } from './combination-page';

/** 中药专区 (/zyyp): Chinese herbs (goods of type 2). */
export function HerbZonePage() {
  return (
    <ZoneGoods
      title="中药专区"
      intro="道地药材，产地直采，饮片规格齐全，批批可追溯"
      filter={{ shop: 'zy' }}
      position="zyzq"
      banner="herb-banner"
    />
  );
}

/** 器械专区 (/qxzq): medical devices (goods of type 3). */
export function DeviceZonePage() {
  return (
    <ZoneGoods
      title="器械专区"
      intro="家用与医用器械，正规注册证，厂家授权供货"
      filter={{ shop: 'qx' }}
      position="common"
      banner="device-banner"
    />
  );
}

/** 天天特价 (/mrtj): the everyday specials. */
export function EverydayZonePage() {
  return <ZoneGoods title="天天特价" intro="每日精选特价好货，价格实惠，数量有限" filter={{ everyday: 1 }} position="common" />;
}

const EXPIRY_SORTS: ZoneSort[] = [
  { label: '效期从近到远', value: 'expiry', order: 'asc' },
  { label: '价格从低到高', value: 'price', order: 'asc' },
  { label: '销量', value: 'sales' },
];

/** 近效期专区 (/jxqzc): goods whose batch expires within 180 days, with the date shown. */
export function NearExpiryZonePage() {
  return (
    <ZoneGoods
      title="近效期专区"
      intro="效期在180天以内的批次，标明效期，请按需采购、及时销售"
      filter={{ near_expiry: 1 }}
      position="common"
      banner="expiry-banner"
      sorts={EXPIRY_SORTS}
    />
  );
}

function FreeShippingIntro() {
  const common = useQuery(commonDataQuery());
  const from = common.data?.free_shipping_from;
  return (
    <>
      优选商品{from ? `，订单满${yuan(from)}包邮` : '，满额包邮'}；单品包邮商品购满起购数量即可包邮 · <Link to="/yx/rule">包邮规则</Link>
    </>
  );
}

/** 包邮专区 (/yx, and /yx/table as a table): the preferred (优选) goods. */
export function FreeShippingZonePage({ table = false }: { table?: boolean }) {
  // The same query the shell asks for this path: no second request.
  const user = useQuery(userBaseQuery(useLocation().pathname)).data;
  if (user?.is_show_youx === 0) {
    return (
      <Result status="403" title="暂无查看权限" subTitle="您的账户暂未开通优选商品，请联系专属客服" extra={<Link to="/">返回首页</Link>} />
    );
  }
  return (
    <ZoneGoods
      title="包邮专区"
      intro={<FreeShippingIntro />}
      filter={{ shop: 'youx' }}
      position="yx"
      banner="shipping-banner"
      table={table}
      extra={
        <span className="zone-views">
          <Link to="/yx">大图</Link> · <Link to="/yx/table">列表</Link>
        </span>
      }
    />
  );
}

export function FreeShippingTablePage() {
  return <FreeShippingZonePage table />;
}

/** 包邮规则 (/yx/rule): the free-shipping rules, without the header and footer. */
export function FreeShippingRulePage() {
  const common = useQuery(commonDataQuery());
  const from = common.data?.free_shipping_from;
  return (
    <div className="rule-page" data-testid="yx-rule">
      <h1>包邮规则</h1>
      <ol>
        <li>订单中已勾选商品的金额（满减后）满{from ? yuan(from) : '包邮门槛'}，整单包邮；未满时购物车会提示还差多少。</li>
        <li>标有“包邮”的单品，单行采购数量达到其起购数量即可包邮，购物车会提示所需数量。</li>
        <li>优选商品在包邮专区集中展示，价格与购物车结算价一致。</li>
        <li>偏远地区及特殊商品以客服确认为准；运费在核对订单时显示，按页面金额支付。</li>
      </ol>
      <Link to="/yx">返回包邮专区</Link>
    </div>
  );
}

/** 品牌专区 (/ppzq/{page?}): the brands, twelve a page. */
export function BrandZonePage() {
  const page = pageFromPath(useParams().page);
  const brands = useQuery(brandsQuery(page));
  return (
    <div className="container zone-page">
      <div className="promotion-banner brand-banner">
        <h1>品牌专区</h1>
        <p>知名药企品牌授权，正品保障</p>
      </div>
      {!brands.data ? (
        <Skeleton active />
      ) : brands.data.list.length === 0 ? (
        <Empty description="暂无品牌" />
      ) : (
        <div className="brand-grid" data-testid="brands">
          {brands.data.list.map((brand) => (
            <Link key={brand.id} to={`/ppzq/info/${brand.id}`} className="brand-tile">
              <img src={brand.logo || `/api/images/brand/${brand.id}.svg`} alt={brand.name} />
              <strong>{brand.name}</strong>
              <span className="muted">{brand.sccj}</span>
              <span className="muted">{brand.goods} 种商品</span>
            </Link>
          ))}
        </div>
      )}
      {brands.data && brands.data.total > 12 && (
        <Pagination
          className="pager"
          current={page}
          pageSize={12}
          total={brands.data.total}
          showSizeChanger={false}
          itemRender={(number, type, element) => (type === 'page' ? <Link to={`/ppzq/${number}`}>{number}</Link> : element)}
        />
      )}
    </div>
  );
}

/** 品牌详情 (/ppzq/info/{id}/{page?}): one brand and its goods, the page the address names. */
export function BrandInfoPage() {
  const params = useParams();
  const navigate = useNavigate();
  const id = Number(params.id);
  const page = pageFromPath(params.page);
  const brand = useQuery(brandQuery(id));
  if (!(id > 0) || brand.isError) return <Result status="404" title="品牌不存在" extra={<Link to="/ppzq">返回品牌专区</Link>} />;
  if (!brand.data) return <Skeleton active />;
  return (
    <>
      <div className="container">
        <AntCard size="small" className="brand-head" data-testid="brand-head">
          <img src={brand.data.logo || `/api/images/brand/${id}.svg`} alt={brand.data.name} />
          <div>
            <h2>{brand.data.name}</h2>
            <p className="muted">{brand.data.sccj}</p>
          </div>
        </AntCard>
      </div>
      <ZoneGoods
        title={`${brand.data.name} · 品牌专区`}
        intro={brand.data.sccj}
        filter={{ brand: id }}
        position="ppzq"
        banner="brand-banner"
        page={page}
        onPage={(next) => navigate(next > 1 ? `/ppzq/info/${id}/${next}` : `/ppzq/info/${id}`)}
      />
    </>
  );
}

const WELFARE_SORTS: ZoneSort[] = [
  { label: '销量', value: 'sales' },
  { label: '价格从低到高', value: 'price', order: 'asc' },
  { label: '新品', value: 'new' },
];

/** 全场94折 (/welfare): while the store-wide discount runs, every goods at its rate — the
 * cards' prices are the discounted ones the cart charges. */
export function WelfarePage() {
  const welfare = useQuery(welfareQuery());
  const now = useServerNow();
  if (welfare.isPending) return <Skeleton active className="container" />;
  const running = welfare.data;
  if (!running) {
    return <Result status="info" title="活动未开始" subTitle="全场折扣活动暂未开启，敬请关注" extra={<Link to="/">返回首页</Link>} />;
  }
  return (
    <ZoneGoods
      title={`全场${running.discount}`}
      intro={
        <span data-testid="welfare-intro">
          {running.title} · 全场商品按{running.discount}计价（秒杀、组合购商品除外），购物车与结算同价 · 距结束{' '}
          {countdown(running.ends_at - now)}
        </span>
      }
      filter={{}}
      position="top"
      banner="welfare-banner"
      sorts={WELFARE_SORTS}
    />
  );
}

/** 满额返现 (/hb): the tiers, the rules, the member's cash back so far, and the goods. */
export function CashbackPage() {
  const cashback = useQuery(cashbackQuery());
  const now = useServerNow();
  if (cashback.isPending) return <Skeleton active className="container" />;
  const activity = cashback.data?.activity;
  if (!activity) {
    return <Result status="info" title="活动未开始" subTitle="满额返现活动暂未开启，敬请关注" extra={<Link to="/">返回首页</Link>} />;
  }
  const orders = cashback.data?.orders ?? [];
  const above = (
    <div className="cashback-terms">
      <div className="cashback-tiers" data-testid="cashback-tiers">
        {activity.tiers.map((tier) => (
          <div key={tier.amount} className="cashback-tier">
            <span className="muted">订单满</span>
            <strong>{yuan(tier.amount)}</strong>
            <span className="muted">返</span>
            <strong className="price">{yuan(tier.back)}</strong>
          </div>
        ))}
      </div>
      <ol className="cashback-rules">
        <li>活动期间提交的订单，确认收货（或超时自动确认）后，按订单商品实付金额（扣除已退款）达到的最高档次返现至账户余额。</li>
        <li>返现到账后如发生退货，退货后金额不足原档次的，差额从该笔退款中扣回，扣回金额不超过退款金额。</li>
        <li>运费不计入返现金额；返现可在余额管理中查看明细。</li>
      </ol>
      {orders.length > 0 && (
        <AntCard size="small" title="我的返现" data-testid="cashback-orders">
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={orders}
            columns={[
              { title: '订单号', dataIndex: 'order_no', render: (no: string, row) => <Link to={`/order/info/${row.id}`}>{no}</Link> },
              {
                title: '返现金额',
                dataIndex: 'cashback',
                align: 'right',
                render: (value: string) => <span className="price">{yuan(value)}</span>,
              },
              { title: '到账时间', dataIndex: 'cashback_at', render: (at: number) => formatTime(at) },
            ]}
          />
        </AntCard>
      )}
    </div>
  );
  return (
    <ZoneGoods
      title="满额返现"
      intro={
        <span data-testid="cashback-intro">
          {activity.title} · 订单完成即返现到余额 · 距结束 {countdown(activity.ends_at - now)}
        </span>
      }
      filter={{}}
      position="top"
      banner="cashback-banner"
      sorts={WELFARE_SORTS}
      above={above}
    />
  );
}
