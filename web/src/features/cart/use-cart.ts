// The cart page's state: the server's list in a `CartModel` that the engine re-prices on every
// edit at once; the edit goes to the server behind it (quantities after a short pause, so that
// typing "120" is one call), and when the server's list comes back with nothing else pending,
// its quote must equal the browser's — on a mismatch the server's is shown and the mismatch
// is reported (console and the origin's report).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { cartListQuery, refreshCart, useDeleteLines, useEditLine, useSelectLines, type CartList } from '@/api/cart';
import { reportAnomaly } from '@/lib/report';
import { CartModel } from './model';

/** Quantity edits wait this long for more keystrokes before going to the server. */
export const EDIT_SETTLE_MS = 400;

export function useCart() {
  const client = useQueryClient();
  // Every read is a new list (no structural sharing), so that each one reaches `take`, even
  // one equal to the last (after an edit the server refused, the cart goes back to it).
  const query = useQuery({ ...cartListQuery(), staleTime: 0, structuralSharing: false });
  const { mutateAsync: editLine } = useEditLine();
  const { mutateAsync: selectLines } = useSelectLines();
  const { mutateAsync: deleteLines } = useDeleteLines();
  // The model edits and server lists work on (outside render), and the one the page renders:
  // the same mutable model, handed over in a new object after each change so that React renders.
  const model = useRef<CartModel | null>(null);
  const [shown, setShown] = useState<{ model: CartModel | null }>({ model: null });
  const pending = useRef(0);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const rerender = useCallback(() => setShown({ model: model.current }), []);

  const take = useCallback(
    (list: CartList) => {
      if (!model.current) {
        model.current = new CartModel(list);
      } else {
        const { agrees, browser } = model.current.reconcile(list);
        if (!agrees) {
          console.error('cart quote mismatch: the server quoted', list.quote, 'the browser', browser);
          reportAnomaly('cart_quote_mismatch', { server: list.quote.totals, browser: browser.totals });
        }
      }
      rerender();
    },
    [rerender],
  );

  useEffect(() => {
    if (query.data && pending.current === 0 && timers.current.size === 0) take(query.data);
  }, [query.data, take]);

  useEffect(
    () => () => {
      timers.current.forEach((timer) => clearTimeout(timer));
      model.current?.dispose();
      model.current = null;
    },
    [],
  );

  /** Runs a server call behind a local edit; the list is read again once nothing is pending. */
  const sync = useCallback(
    async (call: () => Promise<unknown>) => {
      pending.current++;
      try {
        await call();
      } catch {
        // Told by the API client; the list read below puts the cart back as the server has it.
      } finally {
        pending.current--;
      }
      // The list read again reaches `take` through the query's data (the effect above).
      if (pending.current === 0 && timers.current.size === 0) {
        await refreshCart(client);
      }
    },
    [client],
  );

  const setNumber = useCallback(
    (id: number, number: number) => {
      if (!model.current) return;
      const kept = model.current.setNumber(id, number);
      rerender();
      const earlier = timers.current.get(id);
      if (earlier) clearTimeout(earlier);
      timers.current.set(
        id,
        setTimeout(() => {
          timers.current.delete(id);
          void sync(() => editLine({ id, number: kept }));
        }, EDIT_SETTLE_MS),
      );
    },
    [rerender, sync, editLine],
  );

  const select = useCallback(
    (ids: number[], selected: boolean) => {
      if (!model.current || ids.length === 0) return;
      model.current.select(ids, selected);
      rerender();
      void sync(() => selectLines({ ids, is_selected: selected ? 1 : 0 }));
    },
    [rerender, sync, selectLines],
  );

  const remove = useCallback(
    (ids: number[]) => {
      if (!model.current || ids.length === 0) return;
      model.current.remove(ids);
      rerender();
      void sync(() => deleteLines({ ids }));
    },
    [rerender, sync, deleteLines],
  );

  return { model: shown.model, loading: query.isLoading, error: query.error, setNumber, select, remove };
}
