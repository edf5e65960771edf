// The app's one TanStack Query client: the provider hands it to the pages, and a pointer resting
// on a link puts the next page's first answers in it (app/first-queries.ts).
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // The client has told the buyer already; retrying a refusal would only repeat it. A request
      // superseded by another to the same address is asked again.
      retry: (count, error) => (!(error instanceof ApiError) || error.kind === 'cancelled') && count < 1,
    },
  },
});
