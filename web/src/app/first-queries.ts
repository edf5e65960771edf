// The queries a page's first render reads, for the pages a buyer moves to most: the cart, a
// goods' detail, the zones, the order centre and the home page. While the pointer rests on a
// link to one, its first calls are started (app/router.tsx, lib/early.ts); as each answer comes,
// it is also put in the query cache under the key the page reads, so that the page's first render
// draws its content, not a skeleton that the answer replaces a render and a commit later. The
// answer is then taken, as the page would have taken it; a page opened before it came takes the
// call itself. What a write may have changed is not kept: a write drops the answers not yet
// shown (lib/early.ts), and with them the queries they made here that no page has shown.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { cartListQuery } from '@/api/cart';
import { adQuery } from '@/api/common';
import { zoneGoodsQuery } from '@/api/goods';
import { memberCentreQuery } from '@/api/member';
import { goodsActivitiesQuery, goodsDetailQuery } from '@/features/goods/api';
import { bannersQuery, everydayPriceQuery, recommendedQuery, spikeQuery } from '@/features/home/api';
import { ordersQuery } from '@/features/order/api';
import { classify, type Envelope } from '@/lib/api-client';
import { onDropEarly, peekEarly, takeEarly } from '@/lib/early';
import { ZONES, url } from './first-calls';
import { resolvePath, routeForPath } from './routes';

/** A query a page reads first, and the first call (app/first-calls.ts) that answers it. */
export interface FirstQuery {
  url: string;
  /** The page's own query options: their key is where the answer goes, their function asks `url`
   * and answers the envelope's data as it is (checked by first-queries.test.ts). */
  options: { queryKey: QueryKey; queryFn?: unknown };
}

const first = (options: FirstQuery['options'], address: string): FirstQuery => ({ url: address, options });

/** The queries the page at `pathname` + `search` reads first, of those it can be told here. */
export function firstQueries(pathname: string, search = ''): FirstQuery[] {
  const route = routeForPath(resolvePath(pathname));
  if (!route || resolvePath(pathname) !== pathname) return [];
  const plain = [...new URLSearchParams(search).keys()].length === 0;
  const zone = ZONES[route.name];
  if (zone) {
    if (!plain) return [];
    const goods = first(zoneGoodsQuery(zone.goods), url('/api/goods/list', zone.goods));
    return zone.banner ? [goods, first(adQuery(zone.banner), url('/api/focus/right', { position: zone.banner }))] : [goods];
  }
  switch (route.name) {
    case 'index':
      return [
        first(bannersQuery(), '/api/focus'),
        first(memberCentreQuery({ silent: true }), '/api/user/center'),
        first(spikeQuery(), '/api/index/spike'),
        first(everydayPriceQuery(), '/api/activity/everyday_price'),
        first(recommendedQuery(), '/api/index_wntj/1'),
      ];
    case 'cart_step1':
      return [first(cartListQuery(), '/api/cart/list')];
    case 'list_info': {
      const id = Number(/^\/list\/info\/(\d+)$/.exec(pathname)?.[1]);
      if (!plain || !(id > 0)) return [];
      return [
        first(goodsDetailQuery(id, {}), `/api/goods/detail/${id}`),
        first(goodsActivitiesQuery(id), url('/api/goods/activities', { goods_id: id })),
      ];
    }
    case 'order_index':
      return plain ? [first(ordersQuery({ page: 1, status: -1, keyword: '' }), url('/api/order', { page: 1 }))] : [];
    default:
      return [];
  }
}

/** For each client, the queries put in its cache here that no page has read yet, by hash. */
const unread = new WeakMap<QueryClient, Map<string, QueryKey>>();

/** `client`'s unread queries, which every write forgets; the first call watches the client. */
function unreadOf(client: QueryClient): Map<string, QueryKey> {
  const known = unread.get(client);
  if (known) return known;
  const keys = new Map<string, QueryKey>();
  unread.set(client, keys);
  onDropEarly(() => {
    for (const key of keys.values()) client.removeQueries({ queryKey: key, exact: true, type: 'inactive' });
    keys.clear();
  });
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'observerAdded') keys.delete(event.query.queryHash);
  });
  return keys;
}

/**
 * Puts the answer to each of the page's first queries in `client`'s cache as it comes from its
 * early call (started before this), and takes the call, unless the cache already holds data for
 * it (the page shows that and reads it again as it always does). A refusal or a failure puts
 * nothing and leaves the call: the page takes it and tells the buyer, if it must, once it is open.
 */
export function prefillFirstQueries(client: QueryClient, pathname: string, search = ''): void {
  const keys = unreadOf(client);
  for (const { url: address, options } of firstQueries(pathname, search)) {
    if (client.getQueryData(options.queryKey) !== undefined) continue;
    void peekEarly(address)?.then((answer) => {
      if (!answer || client.getQueryData(options.queryKey) !== undefined) return;
      const envelope = answer.envelope as Envelope | null;
      if (classify(answer.status, envelope) !== 'ok' || !envelope) return;
      client.setQueryData(options.queryKey, envelope.data, { updatedAt: answer.at });
      takeEarly(address);
      const query = client.getQueryCache().find({ queryKey: options.queryKey, exact: true });
      if (query && query.getObserversCount() === 0) keys.set(query.queryHash, options.queryKey);
    });
  }
}
