// The app's messages and dialogs: Ant Design's message and modal, as `App.useApp()` gave them
// (themed and in Chinese, rendered inside the ConfigProvider), but loaded only when the first one
// is shown. Most visits show none, and their code (the message and notification holders, the
// modal and its confirm dialog, the motion and portal libraries) was a tenth of the first load.
// A call before the code has come is queued and made once it has (a message or a dialog a
// fraction of a second later, once, on the first use); the host that renders the holders is
// components/ui-host.tsx, inside the app's ConfigProvider.
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';

/** What the holders hand over once they are rendered. */
export interface UiApis {
  message: MessageInstance;
  modal: ModalHookAPI;
}

type Fire<F> = F extends (...args: infer A) => unknown ? (...args: A) => void : never;

/** The messages the app shows: each call is made once the holders are there. */
export interface UiMessage {
  success: Fire<MessageInstance['success']>;
  error: Fire<MessageInstance['error']>;
  warning: Fire<MessageInstance['warning']>;
  info: Fire<MessageInstance['info']>;
}

/** The dialogs the app opens: each call is made once the holders are there. */
export interface UiModal {
  confirm: Fire<ModalHookAPI['confirm']>;
  info: Fire<ModalHookAPI['info']>;
  success: Fire<ModalHookAPI['success']>;
  error: Fire<ModalHookAPI['error']>;
  warning: Fire<ModalHookAPI['warning']>;
}

let apis: UiApis | undefined;
let wanted = false;
const queued: ((apis: UiApis) => void)[] = [];
const listeners = new Set<() => void>();

/** Asks the host for the holders (once): the first call does, and so does the buyer's first
 * press or key, so that the code is usually there before a click asks for a dialog. */
export function wantHolders(): void {
  if (wanted) return;
  wanted = true;
  listeners.forEach((listener) => listener());
}

function run(call: (apis: UiApis) => void): void {
  if (apis) {
    call(apis);
    return;
  }
  queued.push(call);
  wantHolders();
}

/** The holders are rendered (or gone: `undefined`); the calls made before run now. */
export function connectApis(next: UiApis | undefined): void {
  apis = next;
  if (next) queued.splice(0).forEach((call) => call(next));
}

/** Whether a message or a dialog has been asked for, so that the host loads the holders. */
export function holdersWanted(): boolean {
  return wanted;
}

/** Calls `listener` when the holders are first wanted; answers the unsubscribe. */
export function onHoldersWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const message: UiMessage = {
  success: (...args) => run((ui) => void ui.message.success(...args)),
  error: (...args) => run((ui) => void ui.message.error(...args)),
  warning: (...args) => run((ui) => void ui.message.warning(...args)),
  info: (...args) => run((ui) => void ui.message.info(...args)),
};

const modal: UiModal = {
  confirm: (...args) => run((ui) => void ui.modal.confirm(...args)),
  info: (...args) => run((ui) => void ui.modal.info(...args)),
  success: (...args) => run((ui) => void ui.modal.success(...args)),
  error: (...args) => run((ui) => void ui.modal.error(...args)),
  warning: (...args) => run((ui) => void ui.modal.warning(...args)),
};

const ui = { message, modal };

/** The app's message and modal, in place of Ant Design's `App.useApp()` (the same for every caller). */
export function useUi(): { message: UiMessage; modal: UiModal } {
  return ui;
}
