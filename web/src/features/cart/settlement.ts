// Cart step 2's settlement: the chosen lines (the preview's `input`) held by the engine in a
// `CartSession` and settled with the member's accounts (`settlement_input`) and choices
// (coupon, cash voucher, red packets, points) on every click, with no call to the server. The
// order then sends the choices explicitly, and the amount due shown as `expected_due`, so the
// edge and the origin settle exactly what the buyer saw or refuse it (docs/api.md,
// "Settlement at checkout").
import { EngineCart, type CartInput, type Settlement, type SettlementInput } from '@/lib/engine';
import { sameJson } from '@/lib/same-json';
import type { CheckoutForm } from '@/api/types';

/** The member's choices, named as the form fields and the engine name them. */
export interface Choices {
  /** Absent: the engine's best usable coupon (rule 13); 0: none; else the member's coupon. */
  coupon_id?: number;
  /** Absent: the engine's best usable cash voucher (rule 14); 0: none; else the member's voucher. */
  cash_voucher_id?: number;
  use_red_packet: 0 | 1;
  use_points: 0 | 1;
}

/** What the preview settles with: the engine's best coupon and voucher, no red packets, no points. */
export const DEFAULT_CHOICES: Choices = { use_red_packet: 0, use_points: 0 };

/** What step 2 shows for a set of choices. */
export interface Offer {
  choices: Choices;
  settlement: Settlement;
  /** What red packets take with these choices; when unticked, what they would take if ticked. */
  redPacket: string;
  /** The points used and what they pay; when unticked, what they would if ticked. */
  points: { used: number; value: string };
}

/** The engine's settlement input: the accounts and the choices, without the absent ones. */
export function settlementInput(accounts: SettlementInput, choices: Choices): SettlementInput {
  const input: SettlementInput = { ...accounts, use_red_packet: choices.use_red_packet, use_points: choices.use_points };
  delete input.coupon_id;
  delete input.cash_voucher_id;
  if (choices.coupon_id !== undefined) input.coupon_id = choices.coupon_id;
  if (choices.cash_voucher_id !== undefined) input.cash_voucher_id = choices.cash_voucher_id;
  return input;
}

/** The choices an order sends: what `settlement` spent, nothing left to the server's default. */
export function explicitChoices(offer: Offer): Required<Pick<CheckoutForm, keyof Choices>> {
  return {
    coupon_id: offer.settlement.coupon?.id ?? 0,
    cash_voucher_id: offer.settlement.cash_voucher?.id ?? 0,
    use_red_packet: offer.choices.use_red_packet,
    use_points: offer.choices.use_points,
  };
}

/** The field an engine error names when a choice cannot be taken, if it is one. */
export function refusedChoice(error: unknown): 'coupon_id' | 'cash_voucher_id' | null {
  const message = error instanceof Error ? error.message : '';
  if (message.startsWith('settlement.coupon_id:')) return 'coupon_id';
  if (message.startsWith('settlement.cash_voucher_id:')) return 'cash_voucher_id';
  return null;
}

export class CheckoutSettlement {
  private readonly input: CartInput;
  private readonly accounts: SettlementInput;
  // Made on first use and again after `dispose`, so that a page unmounted and mounted again
  // (React's strict mode does it on purpose) keeps working.
  private engine: EngineCart | null = null;

  constructor(input: CartInput, accounts: SettlementInput) {
    this.input = input;
    this.accounts = accounts;
  }

  /** The settlement with these choices. Throws the engine's `Error` on a choice it cannot take. */
  settle(choices: Choices): Settlement {
    this.engine ??= new EngineCart(this.input);
    return this.engine.settle(settlementInput(this.accounts, choices));
  }

  /** The settlement with these choices, and what red packets and points take or would take. */
  offer(choices: Choices): Offer {
    const settlement = this.settle(choices);
    const withRedPacket = choices.use_red_packet === 1 ? settlement : this.settle({ ...choices, use_red_packet: 1 });
    const withPoints = choices.use_points === 1 ? settlement : this.settle({ ...choices, use_points: 1 });
    return {
      choices,
      settlement,
      redPacket: withRedPacket.red_packet,
      points: { used: withPoints.points_used, value: withPoints.points_value },
    };
  }

  /**
   * The offer with the preview's own choices, and whether the server's settlement of the preview
   * (`quote.settlement`) equals the browser's. On a mismatch the server's settlement is the one
   * shown, as the cart page shows the server's quote.
   */
  first(server: Settlement | undefined): { offer: Offer; agrees: boolean; browser: Settlement } {
    const offer = this.offer(DEFAULT_CHOICES);
    const agrees = server !== undefined && sameJson(offer.settlement, server);
    return { offer: agrees || !server ? offer : { ...offer, settlement: server }, agrees, browser: offer.settlement };
  }

  dispose(): void {
    this.engine?.dispose();
    this.engine = null;
  }
}
