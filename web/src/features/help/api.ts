// Help and news: one article (its body is HTML the origin rendered from Markdown with any HTML
// in it escaped), a news category's list, and which help article a page shows.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Article, HelpGroup, NewsItem } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function articleQuery(id: number | undefined) {
  return queryOptions({
    queryKey: keys.articles.article(id),
    queryFn: () => api.get<Article>(`/api/article/${id}`, { silent: true }),
    enabled: id !== undefined && id > 0,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

export function newsQuery(category: 'hy' | 'company') {
  return queryOptions({
    queryKey: keys.articles.news(category),
    queryFn: () =>
      api.get<NewsItem[]>('/api/article/category', { params: { category_id: category } satisfies QueryOf<'/api/article/category'> }),
  });
}

/** The article a help page shows: `?id=` when it names one, else the one whose page this is. */
export function helpArticleId(groups: HelpGroup[] | undefined, pathname: string, idParam: string | null): number | undefined {
  const id = Number(idParam);
  if (idParam && Number.isInteger(id) && id > 0) return id;
  for (const group of groups ?? []) {
    const found = group.list.find((article) => article.path === pathname);
    if (found) return found.id;
  }
  return undefined;
}

export const NEWS_CATEGORIES = { hy: '行业新闻', company: '公司新闻' } as const;
