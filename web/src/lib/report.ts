// Reports to the origin: a page view per route change, and anomalies the app noticed.
import { api } from './api';
import type { PageViewForm, ReportForm } from '@/api/types';

// The origin refuses longer text (docs/api.md, "Limits"): a report is cut to fit rather than lost.
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}

export function reportPageView(route: string, path: string, title: string): void {
  api
    .post('/api/stat/page_view', { route: clip(route, 100), path: clip(path, 500), title: clip(title, 200) } satisfies PageViewForm, {
      silent: true,
    })
    .catch(() => undefined);
}

export function reportAnomaly(kind: string, detail: unknown): void {
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  api
    .post(
      '/api/stat/report',
      { kind: clip(kind, 40), path: clip(window.location.pathname, 500), detail: clip(text, 8000) } satisfies ReportForm,
      { silent: true },
    )
    .catch(() => undefined);
}
