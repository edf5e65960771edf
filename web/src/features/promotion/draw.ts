// The lucky draw's constants and words (§4, §8, §9).
import type { DrawResult } from '@/api/types';

/** The session flag that keeps a closed popup closed. */
export const DRAW_CLOSED = 'draw-closed';

/** §9: the result appears this long after the press. */
export const DRAW_DELAY = 2000;

/** §4: the routes on which the popup is never asked for — the spec's, and (§4 lets routes be left
 * out) every step of registration, login and password reset, checkout and the cashier, where a
 * popup would stand between the buyer and the task. */
export const NO_DRAW_ROUTES = new Set([
  'activity_lq',
  'activity_gq',
  'activity_yhhg',
  'eleven_gq',
  'eleven_big',
  'eleven_big_app',
  'live',
  'login',
  'register_step1',
  'register_step2',
  'register_step3',
  'register_dd_step1',
  'register_dd_step2',
  'register_dd_step3',
  'zhzx_bdwx',
  'forget_step1',
  'forget_step2',
  'forget_step3',
  'cart_step2',
  'cart_step3',
  'cart_step4',
  'cart_hm',
]);

/** §8: "恭喜您 , 抽中{name} ( {remarks} )". */
export function drawMessage(result: Pick<DrawResult, 'name' | 'remarks'>): string {
  return `恭喜您 , 抽中${result.name} ( ${result.remarks} )`;
}

export function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
