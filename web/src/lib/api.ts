// The shop's API client instance: same-origin `/api` (the edge serves app and API alike). A
// page's first GETs may have been started before the app ran (lib/early.ts).
import { createApiClient } from './api-client';
import { shopNotifier } from './notify';
import { dropEarly, takeEarly } from './early';

export const api = createApiClient({ notifier: shopNotifier, takeEarly: (url) => takeEarly(url), onWrite: dropEarly });
