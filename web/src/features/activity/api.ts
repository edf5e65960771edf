// Activities: the pages made from data (banner and sections of goods), their lists, and what an
// activity link does when tapped (§8).
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ActivityLink, ActivityPage } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function activitiesQuery(ids?: number[]) {
  const key = ids?.join(',') ?? '';
  const params: QueryOf<'/api/activities'> = ids?.length ? { ids } : {};
  return queryOptions({
    queryKey: keys.activities.list(key),
    queryFn: () => api.get<ActivityLink[]>('/api/activities', { params }),
  });
}

/** One activity by id or url; a missing one is `null` (the page says so), not an alert. */
export function activityQuery(key: string | number | undefined) {
  return queryOptions({
    queryKey: keys.activities.one(key),
    queryFn: () => api.get<ActivityPage>(`/api/activities/${encodeURIComponent(String(key))}`, { silent: true }),
    enabled: key !== undefined && key !== '',
    retry: false,
  });
}

export type Tap = { go: string } | { say: string };

/** What tapping an activity's link does (§8): a running activity with a page opens; one
 * without a page says 活动暂未开始; one not started says its note, or 活动未开始. */
export function activityTap(link: Pick<ActivityLink, 'url' | 'state' | 'note'>): Tap {
  if (!link.url) return { say: '活动暂未开始' };
  if (link.state !== 'running') return { say: link.note || '活动未开始' };
  return { go: `/activity/${link.url}` };
}

/** The ids of `/Hdzx/{ids}`: positive whole numbers, in order, each once. */
export function parseIds(text: string | undefined): number[] {
  const ids: number[] = [];
  for (const part of (text ?? '').split(',')) {
    const id = Number(part);
    if (Number.isInteger(id) && id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
