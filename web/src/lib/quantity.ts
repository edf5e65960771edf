// Quantities stepped by a goods' middle pack (中包装).

/** The next quantity after a press: up to the next multiple of the step, or down to the one before. */
export function stepped(value: number, step: number, up: boolean, max = Number.MAX_SAFE_INTEGER): number {
  const pack = Math.max(1, Math.floor(step));
  const next = up ? (Math.floor(value / pack) + 1) * pack : (Math.ceil(value / pack) - 1) * pack;
  return Math.min(Math.max(next, 1), Math.max(1, max));
}
