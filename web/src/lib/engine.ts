// The pricing engine (../pkg, Rust compiled to WebAssembly), wrapped once. The browser's totals,
// the form rules, the price sentences and every comparison of money come from the same code as
// the edge's and the origin's, so that they agree to the cent and to the character.
//
// The engine is not part of the app's first load: `loadEngine()` imports it (its JavaScript and
// its WebAssembly, instantiated by vite-plugin-wasm) once, and the router loads it beside the
// code of every page that uses it (app/router.tsx), so that these synchronous functions can be
// called by anything such a page shows. Pages that do not use it never load it. Called before
// it is loaded, a function throws (`EngineNotLoaded`). In Vitest, `src/testing/setup.ts` loads
// it before every test file (`test.server.deps.inline: ['engine']`).
import type * as Engine from 'engine';
import type { CartInput, CartQuote, CartSummary, MoneyInput, Settlement, SettlementInput } from 'engine';

type EngineModule = typeof Engine;

let engine: EngineModule | undefined;
let loading: Promise<void> | undefined;

/** Thrown by the engine's functions when called before `loadEngine()` has resolved. */
export class EngineNotLoaded extends Error {
  constructor() {
    super('the pricing engine is not loaded: the page that uses it loads it first (loadEngine, app/router.tsx)');
    this.name = 'EngineNotLoaded';
  }
}

/** Loads the engine once; resolves when its functions can be called. A failed load is tried again on the next call. */
export function loadEngine(): Promise<void> {
  loading ??= import('engine').then(
    (module) => {
      engine = module;
      LineType = module.LineType;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

function loaded(): EngineModule {
  if (!engine) throw new EngineNotLoaded();
  return engine;
}

// The engine's types, for the app to import from here with the functions.
export type {
  CartInput,
  CartQuote,
  CartSummary,
  CashVoucherInput,
  Chosen,
  CouponInput,
  CouponValue,
  LineQuote,
  LineSettlement,
  TierStatus,
  Totals,
  LadderRow,
  MoneyInput,
  PriceKind,
  Settlement,
  SettlementInput,
  VoucherValue,
} from 'engine';

/**
 * Cart line types (`CartLine.type`): `Normal` (0), `FlashSale` (1, 秒杀), `Combination` (3, 组合购).
 * The engine's own enum, there once the engine is loaded (a live binding).
 */
export let LineType: EngineModule['LineType'];

/** A quote of a whole cart. Throws an `Error` naming the wrong field on bad input. */
export function quote(input: CartInput): CartQuote {
  return loaded().quoteCart(input);
}

/** A cart held by the engine for repeated edits: each edit re-prices only what it touches. */
export class EngineCart {
  private readonly session: Engine.CartSession;

  constructor(input: CartInput) {
    this.session = new (loaded().CartSession)(input);
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

  /**
   * Settles the cart as it stands (rules 11–19) with the member's accounts and choices, which
   * the cart keeps for later quotes. Throws an `Error` naming the field on a choice the cart
   * cannot take (`settlement.coupon_id: not usable: 7`); the cart then keeps the one it had.
   */
  settle(settlement: SettlementInput): Settlement {
    return this.session.settle(settlement);
  }

  dispose(): void {
    this.session.free();
  }
}

/** 手机号: 11 digits starting 1[3-9]; with `allowLandline`, also 区号-号码. */
export function isPhone(text: string, allowLandline = false): boolean {
  return loaded().isPhone(text, allowLandline);
}

/** 邮箱. */
export function isEmail(text: string): boolean {
  return loaded().isEmail(text);
}

/** The username rule: `undefined` when valid, else the origin's own message (请填写用户名, …). */
export function checkUsername(text: string): string | undefined {
  return loaded().checkUsername(text);
}

/** The password rule: `undefined` when valid, else the origin's own message (密码长度为6-20位, …). */
export function checkPassword(text: string): string | undefined {
  return loaded().checkPassword(text);
}

/** Compares two amounts exactly (decimal strings or numbers): -1, 0 or 1. Throws on an unreadable or negative amount. */
export function compareMoney(a: MoneyInput, b: MoneyInput): -1 | 0 | 1 {
  return Math.sign(loaded().compareMoney(a, b)) as -1 | 0 | 1;
}

/** The title of a full-reduction tier or rule: `满500减50`. */
export function manjianTitle(amount: MoneyInput, reduce: MoneyInput): string {
  return loaded().manjianTitle(amount, reduce);
}

/** `再买 3 盒 享 ¥11.60`: how many more units reach a ladder price. */
export function ladderHint(need: number, unit: string, price: MoneyInput): string {
  return loaded().ladderHint(need, unit, price);
}

/** `再买 ¥80.00 可减 ¥20.00`: how much more reaches a full-reduction tier. */
export function tierHint(need: MoneyInput, reduce: MoneyInput): string {
  return loaded().tierHint(need, reduce);
}

/** `还差 ¥120.00 免运费`: how much more ships free. */
export function shippingHint(need: MoneyInput): string {
  return loaded().shippingHint(need);
}

/** A rate as buyers read it, in tenths of the price (docs/pricing.md rule 23): `0.94` is `9.4折`, `0.9` is `9折`. */
export function discountLabel(rate: MoneyInput): string {
  return loaded().discountLabel(rate);
}
