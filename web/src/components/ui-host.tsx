// Where the app's messages and dialogs render (lib/ui.ts): the root element Ant Design's App drew
// (the same classes, so that the text inside takes the theme's font, size and colour as before),
// and the message and modal holders, whose code is loaded when the first message or dialog is
// asked for, or after the buyer's first press or key (ui-holders.tsx). Inside the app's
// ConfigProvider, as Ant Design's App was.
//
// The holders come by a plain import, not React.lazy: a Suspense boundary that resolves is
// shown after React's fallback throttle, a timer, and a page whose timers stand still (a test's
// paused clock) would never see its first dialog.
import { useEffect, useState, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import useAppStyle from 'antd/es/app/style';
import { holdersWanted, onHoldersWanted, wantHolders } from '@/lib/ui';

const PREFIX = 'ant-app';

/** The buyer's first press or key asks for the holders, when the browser is next idle: a click
 * that opens a dialog then rarely waits for its code, and a page nobody touches never loads it. */
function useHoldersOnFirstInput(): void {
  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    const first = () => {
      events.forEach((name) => document.removeEventListener(name, first, true));
      if ('requestIdleCallback' in window) window.requestIdleCallback(wantHolders, { timeout: 1000 });
      else setTimeout(wantHolders, 0);
    };
    events.forEach((name) => document.addEventListener(name, first, { capture: true, passive: true }));
    return () => events.forEach((name) => document.removeEventListener(name, first, true));
  }, []);
}

export function UiHost({ children }: { children?: ReactNode }) {
  useHoldersOnFirstInput();
  const wanted = useSyncExternalStore(onHoldersWanted, holdersWanted, holdersWanted);
  const [Holders, setHolders] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    void import('./ui-holders').then((module) => {
      if (current) setHolders(() => module.default);
    });
    return () => {
      current = false;
    };
  }, [wanted]);
  const [hashId, cssVarCls] = useAppStyle(PREFIX);
  return (
    <div className={[hashId, PREFIX, cssVarCls].filter(Boolean).join(' ')}>
      {Holders && <Holders />}
      {children}
    </div>
  );
}
