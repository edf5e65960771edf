// The header's search box: 商品/厂家 toggle, suggestions with keyboard, hot terms: under the box
// (the home data's `rnss`), and in its dropdown when it is focused empty (`goods/hot`, asked on the
// first focus).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { fetchSuggestions, hotTermsQuery } from '../api';
import { SuggestionBox, type SearchType } from '../suggestions';

/** The hot terms of the dropdown: at most this many. */
const HOT_SHOWN = 10;

export function SearchBox({ hot = [] }: { hot?: string[] }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [box] = useState(
    () =>
      new SuggestionBox({
        fetcher: fetchSuggestions,
        keyword: params.get('keyword') ?? '',
        type: params.get('type') === '1' ? 1 : 0,
        onSearch: (keyword, type) => navigate(`/search?${new URLSearchParams({ keyword, type: String(type) })}`),
      }),
  );
  useEffect(() => () => box.dispose(), [box]);
  const state = useSyncExternalStore(box.subscribe, () => box.snapshot);
  // Asked when the box is first focused empty, and kept (a query left disabled keeps its data).
  const hotTerms = useQuery({ ...hotTermsQuery(), enabled: state.hot });
  useEffect(() => {
    if (hotTerms.data) box.setHotTerms(hotTerms.data.slice(0, HOT_SHOWN));
  }, [box, hotTerms.data]);

  return (
    <div className="search">
      <div className="search-row">
        <div className="search-types" role="tablist" aria-label="搜索类型">
          {(['商品', '厂家'] as const).map((label, type) => (
            <button
              key={label}
              type="button"
              role="tab"
              aria-selected={state.type === type}
              className={state.type === type ? 'active' : ''}
              onClick={() => box.setType(type as SearchType)}
            >
              {label}
            </button>
          ))}
        </div>
        <div className="search-field">
          <input
            aria-label="搜索关键词"
            placeholder={state.type === 0 ? '请输入商品名称' : '请输入生产厂家'}
            value={state.keyword}
            onChange={(event) => box.input(event.target.value)}
            onFocus={() => box.focus()}
            onBlur={() => box.blur()}
            onKeyDown={(event) => {
              if (box.key(event.key)) event.preventDefault();
            }}
            autoComplete="off"
          />
          {state.open && (
            <ul className="search-suggestions" role="listbox" aria-label="搜索建议">
              {state.status === 'searching' && <li className="muted">正在搜索…</li>}
              {state.status === 'empty' && <li className="muted">暂无数据</li>}
              {state.status === 'results' &&
                state.suggestions.map((text, index) => (
                  <li
                    key={text}
                    role="option"
                    aria-selected={index === state.active}
                    className={index === state.active ? 'active' : ''}
                    onMouseDown={(event) => {
                      event.preventDefault();
                      box.search(text);
                    }}
                  >
                    {text}
                  </li>
                ))}
            </ul>
          )}
          {state.hot && state.hotTerms.length > 0 && (
            <div className="search-hot-panel">
              <div className="search-hot-title">热门搜索</div>
              <ul role="listbox" aria-label="热门搜索">
                {state.hotTerms.map((term, index) => (
                  <li
                    key={term}
                    role="option"
                    aria-selected={index === state.active}
                    className={index === state.active ? 'active' : ''}
                    onMouseDown={(event) => {
                      event.preventDefault();
                      box.search(term);
                    }}
                  >
                    <span className={index < 3 ? 'rank top' : 'rank'}>{index + 1}</span>
                    {term}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <button type="button" className="search-button" onClick={() => box.search()}>
          搜索
        </button>
      </div>
      {hot.length > 0 && (
        <div className="search-hot">
          {hot.slice(0, 10).map((term) => (
            <a key={term} onClick={() => box.search(term)}>
              {term}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
