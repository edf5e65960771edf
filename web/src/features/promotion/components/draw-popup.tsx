// The lucky-draw popup (§4, §8): shown only when the member has not joined the running activity
// (`is_join` 0), never on the routes §4 leaves out, and once closed not asked for again in the
// session. The frame asks the check alone; the popup itself (draw-dialog.tsx: the prizes, the
// draw, the winners, the rules, the other activities) comes in its own file when the check says
// it opens, which for most pages of most visits it does not.
import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { drawCheckQuery } from '../draw-api';
import { DRAW_CLOSED } from '../draw';

const DrawDialog = lazy(() => import('./draw-dialog'));

export function DrawPopup({ enabled }: { enabled: boolean }) {
  const [closed, setClosed] = useState(() => sessionStorage.getItem(DRAW_CLOSED) === '1');
  const check = useQuery({ ...drawCheckQuery(), enabled: enabled && !closed });
  // The running activity the member has not joined opens the popup. Once open it stays mounted
  // (hidden where `enabled` is off), so that a draw under way and its result are kept.
  const current = check.data?.is_join === 0 ? check.data.id : null;
  if (closed || !current) return null;
  return (
    <Suspense fallback={null}>
      <DrawDialog enabled={enabled} current={current} onClosed={() => setClosed(true)} />
    </Suspense>
  );
}
