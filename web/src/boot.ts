// The first script the page runs, before the app's code has come: it starts loading the code of
// the page the app opens on (app/page-code.ts; the frame is on its way already) and the page's
// first GETs (app/first-calls.ts), so that both travel while the app loads (lib/early.ts).
// The mark `shop:first-calls` says when, and which (the browser walks and the page bench read it).
import { firstCalls } from './app/first-calls';
import { startPageCode } from './app/page-code';
import { startEarly } from './lib/early';

startPageCode(window.location.pathname);
const calls = firstCalls(window.location.pathname, window.location.search);
startEarly(calls);
performance.mark('shop:first-calls', { detail: calls });
