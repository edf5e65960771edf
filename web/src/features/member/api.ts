// The member centre's reads: the centre itself and the member's lucky-draw records.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { DrawRecords, MemberCentre } from '@/api/types';

export const CENTRE_KEY = ['member-centre'] as const;

export function useMemberCentre() {
  return useQuery({ queryKey: CENTRE_KEY, queryFn: () => api.get<MemberCentre>('/api/user/center') });
}

export function useDrawRecords() {
  return useQuery({ queryKey: [...CENTRE_KEY, 'draws'], queryFn: () => api.get<DrawRecords>('/api/draw/record') });
}
