// How the benchmarks start Chromium: Debian's build, headless, without the background work
// (updates, sync, QUIC) that would take time from what is measured. The same switches as the
// browser walks' (playwright.config.ts).
import { Client } from '../../scripts/lib/stack.mjs';

export const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * Makes `stack` (scripts/lib/stack.mjs) ready for the page benchmarks: the lucky-draw popup off
 * (it would cover every page; the browser walks turn it off the same way), the demo member
 * signed in with five lines in the cart, so that the cart and step 2 have something to show.
 * Answers the session's cookies, for a browser context.
 */
export async function signedInWithCart(stack) {
  stack.sql('UPDATE draw_activities SET is_on = 0');
  const api = new Client(stack.edge);
  await api.login();
  const goods = stack.sql(
    'SELECT id FROM goods WHERE is_buy = 1 AND stock > 100 AND id NOT IN (SELECT goods_id FROM flash_sales) ORDER BY id LIMIT 5',
  );
  for (const [id] of goods) await api.post('/api/cart', { goods_id: id, number: 2 });
  return [...api.cookies].map(([name, value]) => ({ name, value, url: stack.edge }));
}
