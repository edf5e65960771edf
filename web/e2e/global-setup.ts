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
  return async () => {
    await stack.stop();
  };
}
