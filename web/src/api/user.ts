// The member's base info (§3 user state), fetched by the header on every route but a few.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import type { MemberState } from './types';
import { keys } from '@/lib/query-keys';

/** The user state as the app holds it: a member's whole state, a visitor's part of it, or
 * (§8, when the call fails) `show: true` alone. */
export type UserState = Partial<MemberState> & { show: boolean };

/** §8: when the call fails the user state is `show: true` and nothing else. */
export const UNKNOWN_USER: UserState = { show: true };

async function fetchUserBase(): Promise<UserState> {
  try {
    return await api.get<UserState>('/api/user/base', { silent: true });
  } catch (error) {
    // Superseded by a newer request for the same state: that one answers, not this one.
    if (error instanceof ApiError && error.kind === 'cancelled') throw error;
    return UNKNOWN_USER;
  }
}

/** The user state; `path` makes it fetched again on each route. */
export function userBaseQuery(path: string) {
  return queryOptions({
    queryKey: keys.user.base(path),
    queryFn: fetchUserBase,
    staleTime: 0,
    placeholderData: (previous: UserState | undefined) => previous,
  });
}

/** The user state as the page frame asks it, on the routes that ask it. */
export function useUserBase(enabled: boolean, path: string) {
  return useQuery({ ...userBaseQuery(path), enabled });
}

/** The freshest user state any route fetched. */
export function useKnownUser(): UserState | undefined {
  const client = useQueryClient();
  const entries = client.getQueriesData<UserState>({ queryKey: keys.user.all });
  const latest = entries
    .map(([key, data]) => ({ data, at: client.getQueryState(key)?.dataUpdatedAt ?? 0 }))
    .filter((entry) => entry.data)
    .sort((a, b) => b.at - a.at)[0];
  return latest?.data;
}

/** §4: sign-out sets a loading flag, removes the stored login flag and reloads the page
 * (whether the call succeeded or not: the page then asks the server who is signed in). */
export function useLogout() {
  return useMutation({
    mutationFn: () => {
      sessionStorage.setItem('loading', '1');
      return api.delete('/api/user/logout');
    },
    onSettled: () => {
      sessionStorage.removeItem('login');
      localStorage.removeItem('login');
      window.location.reload();
    },
  });
}
