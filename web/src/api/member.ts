// The member centre's figures (`user/center`): the member centre's page and the home page's
// member panel read the same answer.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { MemberCentre } from './types';

/** `silent`: a failure is not told (the home page's panel simply stays empty). */
export function memberCentreQuery({ silent = false }: { silent?: boolean } = {}) {
  return queryOptions({ queryKey: keys.centre.summary(), queryFn: () => api.get<MemberCentre>('/api/user/center', { silent }) });
}
