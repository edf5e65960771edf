// The member centre's own read: the member's lucky-draw records. Its figures are
// `@/api/member` (the home page's panel reads them too).
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DrawRecords } from '@/api/types';
import { keys } from '@/lib/query-keys';

export function drawRecordsQuery() {
  return queryOptions({ queryKey: keys.centre.draws(), queryFn: () => api.get<DrawRecords>('/api/draw/record') });
}
