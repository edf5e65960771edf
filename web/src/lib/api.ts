// The shop's API client instance: same-origin `/api` (the edge serves app and API alike).
import { createApiClient } from './api-client';
import { shopNotifier } from './notify';

export const api = createApiClient({ notifier: shopNotifier });
