// Reports to the origin: a page view per route change, and anomalies the app noticed.
import { api } from './api';

export function reportPageView(route: string, path: string, title: string): void {
  api.post('/api/stat/page_view', { route, path, title }, { silent: true }).catch(() => undefined);
}

export function reportAnomaly(kind: string, detail: unknown): void {
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  api.post('/api/stat/report', { kind, path: window.location.pathname, detail: text }, { silent: true }).catch(() => undefined);
}
