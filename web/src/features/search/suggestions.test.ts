// The search box's timing and keyboard rules, with fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CACHE_FRESH_MS, DEBOUNCE_MS, SuggestionBox, clearSuggestionCache, type Fetcher } from './suggestions';

let now = 1_000_000;

function box(list: string[] = ['阿莫西林胶囊', '阿莫西林颗粒', '阿莫西林克拉维酸钾片'], keyword = '') {
  const fetcher = vi.fn<Fetcher>(async () => list);
  const onSearch = vi.fn();
  return { box: new SuggestionBox({ fetcher, onSearch, keyword, now: () => now }), fetcher, onSearch };
}

beforeEach(() => {
  vi.useFakeTimers();
  clearSuggestionCache();
});
afterEach(() => vi.useRealTimers());

describe('suggestions', () => {
  it('are fetched 500 ms after the last keystroke, trimmed, once', async () => {
    const { box: search, fetcher } = box();
    search.input('阿');
    await vi.advanceTimersByTimeAsync(300);
    search.input(' 阿莫 ');
    expect(search.snapshot).toMatchObject({ open: true, status: 'searching' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
    expect(fetcher).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('阿莫', 0);
    expect(search.snapshot).toMatchObject({ status: 'results', suggestions: ['阿莫西林胶囊', '阿莫西林颗粒', '阿莫西林克拉维酸钾片'] });
  });

  it('show the empty state when nothing matches', async () => {
    const { box: search } = box([]);
    search.input('zzz');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(search.snapshot.status).toBe('empty');
  });

  it('come from the cache within 5000 ms, and are fetched again when a box is created after', async () => {
    const first = box();
    first.box.input('阿莫');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    first.box.input('阿');
    first.box.input('阿莫');
    expect(first.box.snapshot.status).toBe('results');
    expect(first.fetcher).toHaveBeenCalledTimes(1);

    now += CACHE_FRESH_MS - 1;
    const fresh = box(['旧'], '阿莫');
    expect(fresh.fetcher).not.toHaveBeenCalled();
    now += 2;
    const stale = box(['新'], '阿莫');
    expect(stale.fetcher).toHaveBeenCalledTimes(1);
  });

  it('an empty keyword clears them and hides the box', async () => {
    const { box: search } = box();
    search.input('阿莫');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    search.input('   ');
    expect(search.snapshot).toMatchObject({ open: false, suggestions: [], status: 'idle' });
  });

  it('the manufacturer toggle asks by type 1', async () => {
    const { box: search, fetcher } = box();
    search.setType(1);
    search.input('同仁堂');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(fetcher).toHaveBeenCalledWith('同仁堂', 1);
  });
});

describe('the box', () => {
  async function ready() {
    const made = box();
    made.box.input('阿莫');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    return made;
  }

  it('Down and Up cycle through the suggestions, wrapping, writing the text into the box', async () => {
    const { box: search } = await ready();
    search.key('ArrowDown');
    expect(search.snapshot).toMatchObject({ active: 0, keyword: '阿莫西林胶囊' });
    search.key('ArrowDown');
    search.key('ArrowDown');
    expect(search.snapshot).toMatchObject({ active: 2, keyword: '阿莫西林克拉维酸钾片' });
    search.key('ArrowDown');
    expect(search.snapshot).toMatchObject({ active: 0, keyword: '阿莫西林胶囊' });
    search.key('ArrowUp');
    expect(search.snapshot).toMatchObject({ active: 2, keyword: '阿莫西林克拉维酸钾片' });
  });

  it('opens on focus with text; closes on Escape and blur', async () => {
    const { box: search } = await ready();
    search.key('Escape');
    expect(search.snapshot.open).toBe(false);
    search.focus();
    expect(search.snapshot.open).toBe(true);
    search.blur();
    expect(search.snapshot.open).toBe(false);
    search.input('');
    search.focus();
    expect(search.snapshot.open).toBe(false);
  });

  it('Enter searches the trimmed keyword and closes', async () => {
    const { box: search, onSearch } = await ready();
    search.input('  布洛芬  ');
    search.key('Enter');
    expect(onSearch).toHaveBeenCalledWith('布洛芬', 0);
    expect(search.snapshot).toMatchObject({ open: false, keyword: '布洛芬' });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 2);
    expect(search.snapshot.open).toBe(false);
  });
});

describe('hot terms', () => {
  const hot = ['阿莫西林', '布洛芬', '板蓝根'];

  it('show when the box is focused empty, and give way to suggestions on typing', async () => {
    const { box: search, fetcher } = box();
    search.setHotTerms(hot);
    search.focus();
    expect(search.snapshot).toMatchObject({ hot: true, open: false, hotTerms: hot });
    search.input('阿');
    expect(search.snapshot).toMatchObject({ hot: false, open: true });
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(fetcher).toHaveBeenCalledTimes(1);
    search.input('');
    expect(search.snapshot).toMatchObject({ hot: true, open: false, suggestions: [] });
    search.key('Escape');
    expect(search.snapshot.hot).toBe(false);
    search.focus();
    search.blur();
    expect(search.snapshot.hot).toBe(false);
  });

  it('are taken by the arrows, wrapping, and searched with Enter', () => {
    const { box: search, onSearch, fetcher } = box();
    search.setHotTerms(hot);
    search.focus();
    search.key('ArrowUp');
    expect(search.snapshot).toMatchObject({ active: 2, keyword: '板蓝根', hot: true, open: false });
    search.key('ArrowDown');
    expect(search.snapshot).toMatchObject({ active: 0, keyword: '阿莫西林' });
    search.key('Enter');
    expect(onSearch).toHaveBeenCalledWith('阿莫西林', 0);
    expect(search.snapshot).toMatchObject({ hot: false, open: false });
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('are not shown while the box holds text', () => {
    const { box: search } = box([], '感冒灵');
    search.setHotTerms(hot);
    search.focus();
    expect(search.snapshot).toMatchObject({ hot: false, open: true });
  });
});
