// The bridge between the API client's notifier and the app: Ant Design's message and modal
// (lib/ui.ts, so they take the theme and locale) and the router's navigation are handed over
// once the app has mounted.
import type { UiMessage, UiModal } from './ui';
import { BUSY_MESSAGE, TIMEOUT_MESSAGE, type Notifier } from './api-client';

interface Ui {
  message: UiMessage;
  modal: UiModal;
  navigate: (path: string) => void;
  reload: () => void;
}

let ui: Ui | null = null;

export function connectUi(next: Ui | null): void {
  ui = next;
}

/** The §8 behaviours, on Ant Design. */
export const shopNotifier: Notifier = {
  login() {
    // Back to where the buyer was once signed in (the login page follows `redirect`).
    const here = `${window.location.pathname}${window.location.search}`;
    if (window.location.pathname === '/login') return;
    ui?.navigate(here === '/' ? '/login' : `/login?redirect=${encodeURIComponent(here)}`);
  },
  agreement(message) {
    ui?.message.warning(message);
    ui?.navigate('/dzht');
  },
  invalid(message) {
    ui?.message.error(message);
  },
  alert(message) {
    ui?.modal.warning({ title: '温馨提示', content: message, okText: '确定' });
  },
  busy() {
    ui?.message.error(BUSY_MESSAGE);
  },
  timeout() {
    ui?.modal.error({ title: '温馨提示', content: TIMEOUT_MESSAGE, okText: '刷新', onOk: () => ui?.reload() });
  },
};
