// Vitest in jsdom: what Ant Design expects of a browser that jsdom lacks, and the pricing engine
// loaded, as the router loads it for the pages that use it.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { loadEngine } from '@/lib/engine';

await loadEngine();

afterEach(() => cleanup());

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
