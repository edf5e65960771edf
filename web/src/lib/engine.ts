// The pricing engine (../pkg, Rust compiled to WebAssembly), wrapped once. The browser's totals
// come from the same code as the edge's and the origin's, so they agree to the cent.
import { CartSession, quoteCart, isEmail as engineIsEmail, isPhone as engineIsPhone } from 'engine';
import type { CartInput, CartQuote, CartSummary, LineQuote, TierStatus, Totals, LadderRow } from 'engine';

export type { CartInput, CartQuote, CartSummary, LineQuote, TierStatus, Totals, LadderRow };

/** A quote of a whole cart. Throws an `Error` naming the wrong field on bad input. */
export function quote(input: CartInput): CartQuote {
  return quoteCart(input);
}

/** A cart held by the engine for repeated edits: each edit re-prices only what it touches. */
export class EngineCart {
  private readonly session: CartSession;

  constructor(input: CartInput) {
    this.session = new CartSession(input);
  }

  setNumber(id: number, number: number): void {
    this.session.setNumber(id, number);
  }

  select(ids: number[], selected: boolean): void {
    this.session.select(ids, selected);
  }

  remove(ids: number[]): void {
    this.session.remove(ids);
  }

  quote(): CartQuote {
    return this.session.quote();
  }

  totals(): CartSummary {
    return this.session.totals();
  }

  dispose(): void {
    this.session.free();
  }
}

/** 手机号: 11 digits starting 1[3-9]; with `allowLandline`, also 区号-号码. */
export function isPhone(text: string, allowLandline = false): boolean {
  return engineIsPhone(text, allowLandline);
}

/** 邮箱. */
export function isEmail(text: string): boolean {
  return engineIsEmail(text);
}
