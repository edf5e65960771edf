// The member centre's reads: the centre itself and the member's lucky-draw records.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DrawRecords, MemberCentre } from '@/api/types';
import { keys } from '@/lib/query-keys';

export function useMemberCentre() {
  return useQuery({ queryKey: keys.centre.summary(), queryFn: () => api.get<MemberCentre>('/api/user/center') });
}

export function useDrawRecords() {
  return useQuery({ queryKey: keys.centre.draws(), queryFn: () => api.get<DrawRecords>('/api/draw/record') });
}
