// The search box's rules (§4, §5, §9), apart from React so that they can be tested with fake
// timers: goods (0) or manufacturer (1) search; suggestions debounced by 500 ms and cached,
// a cached list older than 5000 ms fetched again when a box is created; the box opens on
// input and on focus with text, closes on Escape, blur, Enter and search; Up/Down cycle
// through the suggestions, wrapping, and write the chosen text into the box; an empty
// keyword clears the suggestions and hides the box; a submitted keyword is trimmed. Focused
// empty, the box shows the hot terms (`goods/hot`) instead, which the arrows and Enter take the
// same way.

export const DEBOUNCE_MS = 500;
export const CACHE_FRESH_MS = 5000;

export type SearchType = 0 | 1;
export type Status = 'idle' | 'searching' | 'empty' | 'results';

export interface State {
  keyword: string;
  type: SearchType;
  open: boolean;
  status: Status;
  suggestions: string[];
  /** The suggestion (or, with `hot`, the hot term) the arrows are on, -1 for none. */
  active: number;
  /** The hot terms' panel is showing: the box is focused and empty. */
  hot: boolean;
  /** The hot terms (`goods/hot`), once fetched. */
  hotTerms: string[];
}

export type Fetcher = (keyword: string, type: SearchType) => Promise<string[]>;

interface Cached {
  at: number;
  list: string[];
}

/** Suggestions kept across boxes (the header's box is created anew on each page). */
const cache = new Map<string, Cached>();

export function clearSuggestionCache(): void {
  cache.clear();
}

const cacheKey = (keyword: string, type: SearchType) => `${type}:${keyword}`;

export class SuggestionBox {
  private state: State;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<() => void>();
  private request = 0;
  private readonly fetcher: Fetcher;
  private readonly onSearch: (keyword: string, type: SearchType) => void;
  private readonly now: () => number;

  constructor(options: {
    fetcher: Fetcher;
    onSearch: (keyword: string, type: SearchType) => void;
    keyword?: string;
    type?: SearchType;
    now?: () => number;
  }) {
    this.fetcher = options.fetcher;
    this.onSearch = options.onSearch;
    this.now = options.now ?? Date.now;
    const keyword = options.keyword ?? '';
    const type = options.type ?? 0;
    const cached = cache.get(cacheKey(keyword.trim(), type));
    this.state = {
      keyword,
      type,
      open: false,
      status: cached ? (cached.list.length ? 'results' : 'empty') : 'idle',
      suggestions: cached?.list ?? [],
      active: -1,
      hot: false,
      hotTerms: [],
    };
    // On creation a cached list older than 5 s is fetched again.
    if (keyword.trim() && cached && this.now() - cached.at > CACHE_FRESH_MS) void this.load(keyword.trim(), type);
  }

  get snapshot(): State {
    return this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<State>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }

  private cancelTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async load(keyword: string, type: SearchType) {
    const request = ++this.request;
    try {
      const list = await this.fetcher(keyword, type);
      cache.set(cacheKey(keyword, type), { at: this.now(), list });
      if (request !== this.request) return;
      this.set({ suggestions: list, status: list.length ? 'results' : 'empty', active: -1 });
    } catch {
      // §8: a failed search hint is ignored.
      if (request === this.request) this.set({ suggestions: [], status: 'empty', active: -1 });
    }
  }

  /** The buyer typed. */
  input(text: string): void {
    this.cancelTimer();
    const keyword = text.trim();
    if (!keyword) {
      // Emptied while focused: the hot terms again.
      this.request++;
      this.set({ keyword: text, open: false, status: 'idle', suggestions: [], active: -1, hot: true });
      return;
    }
    const cached = cache.get(cacheKey(keyword, this.state.type));
    if (cached && this.now() - cached.at <= CACHE_FRESH_MS) {
      this.request++;
      this.set({
        keyword: text,
        open: true,
        hot: false,
        suggestions: cached.list,
        status: cached.list.length ? 'results' : 'empty',
        active: -1,
      });
      return;
    }
    this.set({ keyword: text, open: true, hot: false, status: 'searching', active: -1 });
    const type = this.state.type;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.load(keyword, type);
    }, DEBOUNCE_MS);
  }

  setType(type: SearchType): void {
    if (type === this.state.type) return;
    this.set({ type, suggestions: [], status: 'idle', active: -1 });
    if (this.state.keyword.trim()) this.input(this.state.keyword);
  }

  focus(): void {
    if (this.state.keyword.trim()) this.set({ open: true });
    else this.set({ hot: true, active: -1 });
  }

  /** The hot terms, as `goods/hot` answered them. */
  setHotTerms(terms: string[]): void {
    this.set({ hotTerms: terms, active: -1 });
  }

  blur(): void {
    this.close();
  }

  close(): void {
    this.cancelTimer();
    if (this.state.open || this.state.hot || this.state.active !== -1) this.set({ open: false, hot: false, active: -1 });
  }

  /** Up and Down move through the suggestions (or the hot terms), wrapping; the chosen text goes
   * into the box. */
  move(step: 1 | -1): void {
    const { active, hot } = this.state;
    const list = hot ? this.state.hotTerms : this.state.suggestions;
    if (!list.length) return;
    const next = active === -1 ? (step === 1 ? 0 : list.length - 1) : (active + step + list.length) % list.length;
    if (hot) this.set({ active: next, keyword: list[next] });
    else this.set({ active: next, keyword: list[next], open: true });
  }

  /** A key in the box; answers whether the box handled it. */
  key(key: string): boolean {
    switch (key) {
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'Escape':
        this.close();
        return true;
      case 'Enter':
        this.search();
        return true;
      default:
        return false;
    }
  }

  /** Searches the keyword (trimmed), or a suggestion clicked. */
  search(text?: string): void {
    const keyword = (text ?? this.state.keyword).trim();
    this.cancelTimer();
    this.set({ keyword, open: false, hot: false, active: -1 });
    this.onSearch(keyword, this.state.type);
  }

  dispose(): void {
    this.cancelTimer();
    this.listeners.clear();
  }
}
