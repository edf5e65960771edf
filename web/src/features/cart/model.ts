// The cart as the buyer edits it: the server's lines, priced in the browser by the engine's
// `CartSession` on every keystroke, before the server answers. When the server's list comes
// back, `reconcile` takes it over and says whether the server's quote equals what the
// browser's engine makes of the same cart.
import { EngineCart, quote as quoteCart, type CartInput, type CartQuote, type PriceKind } from '@/lib/engine';
import { sameJson } from '@/lib/same-json';
import type { CartLine, CartList } from '@/api/cart';

export function engineInput(list: Pick<CartList, 'data' | 'shipping_data' | 'activity_data'>): CartInput {
  return { items: list.data as unknown as CartInput['items'], shipping_data: list.shipping_data, activity_data: list.activity_data };
}

/** Why a line costs what it costs, as the cart says it beside the unit price; none for the regular price. */
const PRICE_REASONS: Record<PriceKind, string | null> = { regular: null, ladder: '阶梯价', flash_sale: '秒杀价', combination: '组合价' };

/** Why a line costs what it costs: the engine's `price_kind` of its quote, in the cart's words. */
export function priceReason(kind: PriceKind): string | null {
  return PRICE_REASONS[kind] ?? null;
}

/** The lowest quantity a line can have. */
export const MIN_NUMBER = 1;

export class CartModel {
  private list: CartList;
  private engine: EngineCart;
  private current: CartQuote;

  constructor(list: CartList) {
    this.list = { ...list, data: list.data.map((line) => ({ ...line })) };
    this.engine = new EngineCart(engineInput(this.list));
    this.current = this.engine.quote();
  }

  get lines(): readonly CartLine[] {
    return this.list.data;
  }

  get quote(): CartQuote {
    return this.current;
  }

  line(id: number): CartLine | undefined {
    return this.list.data.find((line) => line.id === id);
  }

  /** Sets a line's quantity (at least 1) and re-prices. Answers the quantity kept. */
  setNumber(id: number, number: number): number {
    if (!this.line(id)) return 0;
    const kept = Math.max(MIN_NUMBER, Math.floor(Number.isFinite(number) ? number : MIN_NUMBER));
    // A changed line is a new object, so that views can tell it changed.
    this.list = { ...this.list, data: this.list.data.map((line) => (line.id === id ? { ...line, number: kept } : line)) };
    this.engine.setNumber(id, kept);
    this.current = this.engine.quote();
    return kept;
  }

  select(ids: number[], selected: boolean): void {
    const chosen = new Set(ids);
    const flag = selected ? 1 : 0;
    this.list = {
      ...this.list,
      data: this.list.data.map((line) => (chosen.has(line.id) && line.is_selected !== flag ? { ...line, is_selected: flag } : line)),
    };
    this.engine.select(ids, selected);
    this.current = this.engine.quote();
  }

  remove(ids: number[]): void {
    const gone = new Set(ids);
    this.list = { ...this.list, data: this.list.data.filter((line) => !gone.has(line.id)) };
    this.engine.remove(ids);
    this.current = this.engine.quote();
  }

  /** The ids of the lines that count toward totals (selected, buyable, in stock). */
  selectedIds(): number[] {
    return this.current.lines.filter((line) => line.is_selected === 1 && line.buyable).map((line) => line.id);
  }

  /**
   * Takes over the server's list. `agrees` is whether the server's quote equals the browser
   * engine's quote of the very same lines; `browser` is that quote.
   */
  reconcile(list: CartList): { agrees: boolean; browser: CartQuote } {
    const browser = quoteCart(engineInput(list));
    const agrees = sameJson(browser, list.quote);
    this.engine.dispose();
    this.list = { ...list, data: list.data.map((line) => ({ ...line })) };
    this.engine = new EngineCart(engineInput(this.list));
    // On a mismatch the server's quote is the one shown.
    this.current = agrees ? this.engine.quote() : list.quote;
    return { agrees, browser };
  }

  dispose(): void {
    this.engine.dispose();
  }
}
