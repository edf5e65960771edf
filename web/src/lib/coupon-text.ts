// How a coupon's value reads on its card.
import { positive } from '@/lib/money';

/** An amount as a threshold reads: `500.00` is `500`, `499.50` stays as it is. */
export function wholeAmount(amount: string): string {
  return amount.replace(/\.0+$/, '');
}

/** A coupon's or voucher's threshold: `满500可用`, or `无门槛` when there is none. */
export function thresholdText(min: string): string {
  return positive(min) ? `满${wholeAmount(min)}可用` : '无门槛';
}
