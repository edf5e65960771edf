// The goods list (/list, /list/table, /list/no_image, /list/other/{id}) and search results
// (/search, /search/table): filters, sorting, paging, in three views.
import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Checkbox, Empty, Pagination, Radio, Segmented, Skeleton, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { GoodsCard, QuantityAdd } from '@/components/goods-card';
import { PackFacts } from '@/components/pack-facts';
import { currentPrice, stockClass } from '@/components/goods';
import { Price } from '@/components/price';
import { DispensingMark, GoodsTags } from '@/components/tags';
import type { Card } from '@/api/types';
import { goodsListQuery, PAGE_SIZE } from '../api';
import { FLAGS, listParams } from '../list-params';

type View = 'grid' | 'table' | 'no_image';

const VIEW_KEY = 'goods-list-view';

/** The list view the buyer chose last (大图, 列表 or 无图), kept in local storage. */
function rememberedView(): View {
  try {
    const stored = localStorage.getItem(VIEW_KEY);
    return stored === 'table' || stored === 'no_image' ? stored : 'grid';
  } catch {
    return 'grid';
  }
}

function rememberView(view: View): void {
  try {
    localStorage.setItem(VIEW_KEY, view);
  } catch {
    // Storage refused (private mode): the view is not remembered.
  }
}

const SHOPS = [
  { label: '全部', value: 'all' },
  { label: '普通药品', value: 'general' },
  { label: '优选', value: 'youx' },
  { label: '中药饮片', value: 'zy' },
  { label: '医疗器械', value: 'qx' },
];

const SORTS = [
  { label: '默认', value: 'default' },
  { label: '销量', value: 'sales' },
  { label: '价格', value: 'price' },
  { label: '新品', value: 'new' },
];

function GoodsTable({
  goods,
  sort,
  order,
  onSort,
}: {
  goods: Card[];
  sort: string;
  order: string;
  onSort: (sort: string, order: string) => void;
}) {
  const columns: ColumnsType<Card> = [
    {
      title: '商品名称',
      dataIndex: 'name',
      render: (_, item) => (
        <>
          <Link to={`/list/info/${item.id}`}>
            <DispensingMark goods={item} />
            {item.name}
          </Link>{' '}
          <GoodsTags tags={item.tags} />
          <PackFacts goods={item} inline />
        </>
      ),
    },
    { title: '规格', dataIndex: 'ypgg', width: 130 },
    { title: '生产厂家', dataIndex: 'sccj', width: 200 },
    { title: '批准文号', dataIndex: 'pzwh', width: 170 },
    { title: '单位', dataIndex: 'bzdw', width: 60 },
    {
      title: '价格',
      key: 'price',
      width: 90,
      align: 'right',
      sorter: true,
      sortOrder: sort === 'price' ? (order === 'desc' ? 'descend' : 'ascend') : null,
      render: (_, item) => <Price price={currentPrice(item)} text={item.price_text} className="price money" />,
    },
    { title: '库存', key: 'stock', width: 80, render: (_, item) => <span className={stockClass(item)}>{item.stock_state}</span> },
    { title: '采购', key: 'buy', width: 260, render: (_, item) => <QuantityAdd goods={item} compact /> },
  ];
  return (
    <Table<Card>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={goods}
      pagination={false}
      onChange={(_, __, sorter) => {
        const one = Array.isArray(sorter) ? sorter[0] : sorter;
        if (!one?.order) onSort('default', '');
        else onSort('price', one.order === 'descend' ? 'desc' : 'asc');
      }}
    />
  );
}

export function GoodsListPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { id: otherCategory } = useParams();
  const [search, setSearch] = useSearchParams();
  const isSearch = location.pathname.startsWith('/search');
  const view: View = location.pathname.endsWith('/table') ? 'table' : location.pathname.endsWith('/no_image') ? 'no_image' : 'grid';
  const params = useMemo(() => listParams(search, otherCategory), [search, otherCategory]);
  const list = useQuery(goodsListQuery(params));

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    setSearch(next);
  };
  const base = isSearch ? '/search' : '/list';
  const viewPath = (next: View) => `${base}${next === 'grid' ? '' : `/${next}`}?${search}`;
  // The view the buyer chose last is the one a list opens in (a link naming a view keeps it).
  useEffect(() => {
    const remembered = rememberedView();
    if (view === 'grid' && remembered !== 'grid' && !(isSearch && remembered === 'no_image')) {
      navigate(viewPath(remembered), { replace: true });
    }
    // Once, when the list opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const sort = search.get('sort') ?? 'default';
  const order = search.get('order') ?? '';
  const keyword = search.get('keyword');

  return (
    <div className="container goods-list-page">
      {isSearch && (
        <div className="list-heading">
          搜索“<strong>{keyword}</strong>”{search.get('type') === '1' ? '（生产厂家）' : ''}，共找到{' '}
          <strong>{list.data?.total ?? 0}</strong> 件商品
        </div>
      )}
      <div className="filters">
        <div className="filter-row">
          <span className="filter-label">店铺类型：</span>
          <Radio.Group
            size="small"
            optionType="button"
            options={SHOPS}
            value={search.get('shop') ?? 'all'}
            onChange={(event) => update({ shop: event.target.value === 'all' ? null : event.target.value })}
          />
        </div>
        <div className="filter-row">
          <span className="filter-label">专区：</span>
          {FLAGS.map((flag) => (
            <Checkbox
              key={flag.value}
              checked={search.get(flag.value) === '1'}
              onChange={(event) => update({ [flag.value]: event.target.checked ? '1' : null })}
            >
              {flag.label}
            </Checkbox>
          ))}
        </div>
        <div className="filter-row filter-sort">
          <span className="filter-label">排序：</span>
          <Segmented
            size="small"
            options={SORTS}
            value={sort}
            onChange={(value) => {
              const next = String(value);
              update({ sort: next === 'default' ? null : next, order: next === sort && order !== 'asc' ? 'asc' : null });
            }}
          />
          {sort === 'price' && (
            <a className="sort-order" onClick={() => update({ order: order === 'desc' ? 'asc' : 'desc' })}>
              {order === 'desc' ? '价格从高到低' : '价格从低到高'}
            </a>
          )}
          <span className="view-switch">
            <Segmented
              size="small"
              value={view}
              options={[
                { label: '大图', value: 'grid' },
                { label: '列表', value: 'table' },
                { label: '无图', value: 'no_image' },
              ]}
              onChange={(value) => {
                rememberView(value as View);
                navigate(viewPath(value as View));
              }}
            />
          </span>
        </div>
      </div>
      {!list.data ? (
        <Skeleton active />
      ) : list.data.list.length === 0 ? (
        <Empty description="没有找到相关商品" />
      ) : view === 'table' ? (
        <GoodsTable
          goods={list.data.list}
          sort={sort}
          order={order}
          onSort={(nextSort, nextOrder) => update({ sort: nextSort === 'default' ? null : nextSort, order: nextOrder || null })}
        />
      ) : (
        <div className={view === 'no_image' ? 'goods-grid no-image' : 'goods-grid'}>
          {list.data.list.map((item) => (
            <GoodsCard key={item.id} goods={item} showImage={view !== 'no_image'} />
          ))}
        </div>
      )}
      {list.data && list.data.total > PAGE_SIZE && (
        <Pagination
          className="pager"
          current={list.data.page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          showSizeChanger={false}
          showTotal={(total) => `共 ${total} 件`}
          onChange={(page) => {
            update({ page: String(page) });
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </div>
  );
}
