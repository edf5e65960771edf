// The server's clock (§4): a timestamp from the server, advanced by one second every second,
// so that countdowns follow the shop's time, not the buyer's computer.
import { useSyncExternalStore } from 'react';

let offsetMs: number | null = null;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Math.floor(Date.now() / 1000);

function tick() {
  now = Math.floor((Date.now() + (offsetMs ?? 0)) / 1000);
  listeners.forEach((listener) => listener());
}

/** Sets the clock from a server timestamp (unix seconds). */
export function setServerTime(seconds: number): void {
  offsetMs = seconds * 1000 - Date.now();
  tick();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) timer = setInterval(tick, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The server's time now, in unix seconds; re-renders every second. */
export function useServerNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/** "02:05:09" for a number of seconds left (days fold into hours). */
export function countdown(seconds: number): string {
  const left = Math.max(0, Math.floor(seconds));
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(left / 3600))}:${pad(Math.floor((left % 3600) / 60))}:${pad(left % 60)}`;
}
