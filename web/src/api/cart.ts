// The cart's calls (§7) and the cart's shapes: its reads as query options, its writes as
// mutation hooks. Pages keep the cart in a `CartModel` (features/cart) that the engine prices in
// the browser; these calls keep the server in step.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import type { CartQuote } from '@/lib/engine';
import type {
  Added,
  CartAddForm,
  CartEditForm,
  CartLine as GeneratedCartLine,
  CartList as GeneratedCartList,
  CartTotal,
  Copied,
  CopyForm,
  DeleteForm,
  NextHint,
  QuickAdded,
  SelectForm,
} from './types';
import { keys } from '@/lib/query-keys';

/** A cart line as `cart/list` answers it: §3's list shape and a `CartItem` of docs/pricing.md. */
export type CartLine = GeneratedCartLine;

/** `cart/list`'s answer, its `quote` typed as the engine's own (the browser compares the two). */
export type CartList = Omit<GeneratedCartList, 'quote'> & { quote: CartQuote };

/** §9: the badge shows at most this. */
export const BADGE_MAX = 99;
/** §9: the delay before adding to the cart again after a failed try. */
export const ADD_RETRY_DELAY_MS = 200;

export function fetchCart(): Promise<CartList> {
  return api.get<CartList>('/api/cart/list');
}

/** The cart's lines with the server's quote. */
export function cartListQuery() {
  return queryOptions({ queryKey: keys.cart.list(), queryFn: fetchCart });
}

/** The line count of the badge. */
export function cartTotalQuery() {
  return queryOptions({
    queryKey: keys.cart.total(),
    queryFn: () => api.get<CartTotal>('/api/cart/total', { silent: true }).then((data) => data.total),
    staleTime: 10_000,
  });
}

/** The badge's count, for the page frame: asked only for a member. */
export function useCartTotal(enabled: boolean) {
  return useQuery({ ...cartTotalQuery(), enabled });
}

/** What the selected lines still need for the next full-reduction tier and for free shipping,
 * as the server's engine quotes the stored cart (`cart/next_hint`, a read sent as a POST). */
export function nextHintQuery() {
  return queryOptions({
    queryKey: keys.cart.nextHint(),
    queryFn: () => api.post<NextHint>('/api/cart/next_hint', undefined, { silent: true }),
    staleTime: 0,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds to the cart; a try the network or the server dropped is retried once after 200 ms. */
async function addToCart(item: CartAddForm): Promise<Added> {
  const body = { ...item };
  try {
    return await api.post<Added>('/api/cart', body, { silent: true });
  } catch (error) {
    if (error instanceof ApiError && (error.kind === 'busy' || error.kind === 'timeout')) {
      await sleep(ADD_RETRY_DELAY_MS);
      return api.post<Added>('/api/cart', body);
    }
    // Not a transient failure: tell the buyer as the catalogue says.
    if (error instanceof ApiError) api.tell(error);
    throw error;
  }
}

/** Adds a line (the retry above); the badge and every cart view ask again afterwards. */
export function useAddLine() {
  const client = useQueryClient();
  return useMutation({ mutationFn: addToCart, onSuccess: () => refreshCart(client) });
}

/** Adds lines one after another (快速采购) until one is refused; answers how many went in (those
 * stay). The cart views ask again once, afterwards. */
export function useAddLines() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (lines: CartAddForm[]) => {
      let added = 0;
      try {
        for (const line of lines) {
          await addToCart(line);
          added += 1;
        }
      } catch {
        // The API client has told the buyer; what was added stays.
      }
      return added;
    },
    onSettled: () => refreshCart(client),
  });
}

/** 快速加购: the goods' default quantity (its middle pack; a flash-sale line while its sale runs),
 * chosen by the server; answers how many were added and the line's quantity now. */
export function useQuickAddLine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (goodsId: number) => api.post<QuickAdded>(`/api/cart/quick_add/${goodsId}`),
    onSuccess: () => refreshCart(client),
  });
}

/** Copies the lines `ids` into the carts of the company's other store accounts `other_user_ids`. */
export function useCopyLines() {
  return useMutation({ mutationFn: (form: CopyForm) => api.post<Copied>('/api/cart/copy', form) });
}

// The cart page's edits: the page reads the list again itself once none is pending (use-cart).

export function useEditLine() {
  return useMutation({
    mutationFn: ({ id, ...form }: { id: number } & CartEditForm) => api.post<unknown>(`/api/cart/${id}/edit`, form),
  });
}

export function useSelectLines() {
  return useMutation({
    mutationFn: (form: SelectForm) => api.post<unknown>('/api/cart/batch_select', form),
  });
}

export function useDeleteLines() {
  return useMutation({ mutationFn: (form: DeleteForm) => api.post<unknown>('/api/cart/batch_delete', form) });
}

/** After any change to the cart (an add, an order, buy again, quick add): the badge and every cart view ask again. */
export function refreshCart(client: QueryClient) {
  return client.invalidateQueries({ queryKey: keys.cart.all });
}

export function badge(count: number | undefined): string {
  if (!count) return '0';
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}
