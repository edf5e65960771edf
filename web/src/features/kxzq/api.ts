// The controlled-sales zone (控销专区): the member's standing and application, the programmes,
// the zone's ads and the new goods.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Card, KxAd, KxProgrammePage, KxStanding, KxZone } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

export function kxZoneQuery() {
  return queryOptions({ queryKey: keys.kxzq.zone(), queryFn: () => api.get<KxZone>('/api/kxzq') });
}

export function kxProgrammeQuery(url: string | undefined) {
  return queryOptions({
    queryKey: keys.kxzq.programme(url),
    queryFn: () => api.get<KxProgrammePage>(`/api/kxzq/goods/${encodeURIComponent(url ?? '')}`, { silent: true }),
    enabled: Boolean(url),
    retry: false,
  });
}

export function kxAdsQuery(ids: number[]) {
  const key = ids.join(',');
  const params: QueryOf<'/api/focus/kxzq_ad'> = ids.length ? { ids } : {};
  return queryOptions({
    queryKey: keys.kxzq.ads(key),
    queryFn: () => api.get<KxAd[]>('/api/focus/kxzq_ad', { params }),
  });
}

export function newKxQuery() {
  return queryOptions({ queryKey: keys.kxzq.fresh(), queryFn: () => api.get<Card[]>('/api/focus/new_kxzq') });
}

/** Applies for the zone; the standing is read again afterwards, whether or not it was taken. */
export function useApply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<KxStanding>('/api/kxzq/apply'),
    onSettled: () => client.invalidateQueries({ queryKey: keys.kxzq.all }),
  });
}

/** What the standing bar says for a status: −1 未申请, 0 待审核, 1 已通过, 2 未通过. */
export function standingText(status: number, reason: string): string {
  switch (status) {
    case 1:
      return '您已获得控销品种采购资格';
    case 0:
      return '您的控销资格申请正在审核中，审核通过后即可采购';
    case 2:
      return `控销资格审核未通过${reason ? `：${reason}` : ''}，可重新申请`;
    default:
      return '控销品种仅限审核通过的会员采购，请先申请控销资格';
  }
}
