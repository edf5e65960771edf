// Starts the shop for the browser tests: origin on a fresh SQLite file and the edge in
// workerd serving web/dist; the tests find it in SHOP_URL, SHOP_DB.
import { startStack } from '../../scripts/lib/stack.mjs';

export default async function globalSetup() {
  const stack = await startStack({ cacheTtl: 5 });
  process.env.SHOP_URL = stack.edge;
  process.env.SHOP_ORIGIN = stack.origin;
  process.env.SHOP_DB = stack.database;
  // The lucky-draw popup would cover every page of every walk: its activity is off but for the
  // walk of the draw, which turns it on.
  stack.sql('UPDATE draw_activities SET is_on = 0');
  // The store-wide discount reprices every goods the walks price from the stored prices: off
  // but for the walk of /welfare, which starts one with the operator's command.
  stack.sql('UPDATE welfare_activities SET is_on = 0');
  // Likewise the cash back completed orders would add to the balances the walks count: on only
  // in the walk of /hb.
  stack.sql('UPDATE cashback_activities SET is_on = 0');
  return async () => {
    await stack.stop();
  };
}
