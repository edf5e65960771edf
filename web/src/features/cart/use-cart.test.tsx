// The cart page's state with the real engine: nothing is drawn until the server's list has come,
// then its lines, priced by the engine; a list read again later is taken in its place.
import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { quote } from '@/lib/engine';
import type { CartList, CartLine } from '@/api/cart';
import { keys } from '@/lib/query-keys';
import { cartLine } from '@/testing/cart';
import { engineInput } from './model';
import { useCart } from './use-cart';

vi.mock('@/lib/api', () => ({ api: { get: vi.fn(() => new Promise(() => undefined)) } }));

function list(lines: CartLine[]): CartList {
  const shaped = {
    data: lines,
    shipping_data: { shipping_amount: '800.00', no_trans_order_amount: '0.00' },
    activity_data: { manjians: [] },
  };
  return { ...shaped, quote: quote(engineInput(shaped)) };
}

/** Renders the cart's state and records, render by render, the total it shows (null: none yet). */
function renders(client: QueryClient): (string | null)[] {
  const seen: (string | null)[] = [];
  function Probe() {
    const { model } = useCart();
    seen.push(model ? model.quote.totals.total : null);
    return null;
  }
  render(
    <QueryClientProvider client={client}>
      <Probe />
    </QueryClientProvider>,
  );
  return seen;
}

const fresh = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });

describe('useCart', () => {
  it('draws nothing until a list comes, then the list; a later list is taken', async () => {
    const client = fresh();
    const seen = renders(client);
    expect(seen[0]).toBeNull();
    client.setQueryData(keys.cart.list(), list([cartLine(1, 2, '10.00')]));
    await waitFor(() => expect(seen.at(-1)).toBe('20.00'));
    client.setQueryData(keys.cart.list(), list([cartLine(1, 3, '10.00')]));
    await waitFor(() => expect(seen.at(-1)).toBe('30.00'));
  });
});
