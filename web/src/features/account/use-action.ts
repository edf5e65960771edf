// A change of the account centre's: made, told, and the pages that show it refreshed.
import { useRefresh } from './api';
import { useUi } from '@/lib/ui';

/** Runs `call`; on success says `done`, refreshes and answers true. A failure is told by the
 * API client, and handed to `failed` (a form puts its field errors back). */
export function useAction() {
  const { message } = useUi();
  const refresh = useRefresh();
  return async (call: () => Promise<unknown>, done: string, failed?: (error: unknown) => void): Promise<boolean> => {
    try {
      await call();
    } catch (error) {
      failed?.(error);
      return false;
    }
    message.success(done);
    await refresh();
    return true;
  };
}
