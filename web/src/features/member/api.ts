// The member centre's one read.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MemberCentre } from '@/api/types';

export const CENTRE_KEY = ['member-centre'] as const;

export function useMemberCentre() {
  return useQuery({ queryKey: CENTRE_KEY, queryFn: () => api.get<MemberCentre>('/api/user/center') });
}
