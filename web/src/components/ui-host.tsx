// Where the app's messages and dialogs render (lib/ui.ts): the root element Ant Design's App drew
// (the same classes, so that the text inside takes the theme's font, size and colour as before),
// and the message and modal holders, whose code is loaded when the first message or dialog is
// asked for (ui-holders.tsx). Inside the app's ConfigProvider, as Ant Design's App was.
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import useAppStyle from 'antd/es/app/style';
import { holdersWanted, onHoldersWanted } from '@/lib/ui';

const UiHolders = lazy(() => import('./ui-holders'));

const PREFIX = 'ant-app';

export function UiHost({ children }: { children?: ReactNode }) {
  const wanted = useSyncExternalStore(onHoldersWanted, holdersWanted, holdersWanted);
  const [hashId, cssVarCls] = useAppStyle(PREFIX);
  return (
    <div className={[hashId, PREFIX, cssVarCls].filter(Boolean).join(' ')}>
      {wanted && (
        <Suspense fallback={null}>
          <UiHolders />
        </Suspense>
      )}
      {children}
    </div>
  );
}
