// Money as the shop shows it: the engine's exact decimal strings, never floats. Amounts are
// compared by the engine (`compareMoney`), never as JavaScript numbers: '10.001' is more than
// '10', and 9007199254740993 is more than 9007199254740992.
import { compareMoney, EngineNotLoaded, type MoneyInput } from './engine';

/** "¥12.30" — always two decimals. */
export function yuan(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '¥0.00';
  const text = String(value);
  const [whole, fraction = ''] = text.split('.');
  return `¥${whole}.${(fraction + '00').slice(0, 2)}`;
}

type Amount = MoneyInput | null | undefined;

/** The exact comparison of two amounts, or `null` when one is missing, unreadable or negative. */
function compare(a: Amount, b: Amount): -1 | 0 | 1 | null {
  if (a === null || a === undefined || a === '' || b === null || b === undefined || b === '') return null;
  try {
    return compareMoney(a, b);
  } catch (error) {
    // A page that compares money loads the engine first: not having it is a fault, not an amount.
    if (error instanceof EngineNotLoaded) throw error;
    // Not an amount the shop could show: no decision is made from it.
    return null;
  }
}

/** Whether an amount is above zero. */
export function positive(value: Amount): boolean {
  return compare(value, 0) === 1;
}

/** Whether `price` is below `listPrice`, so that the list price is shown struck through. */
export function isCheaper(price: Amount, listPrice: Amount): boolean {
  return compare(price, listPrice) === -1;
}

/** Whether a balance covers an amount to pay. */
export function canPay(balance: Amount, payable: Amount): boolean {
  const order = compare(balance, payable);
  return order !== null && order >= 0;
}
