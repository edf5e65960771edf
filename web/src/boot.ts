// The first script the page runs, before the app's code has come: it starts the page's first
// GETs (app/first-calls.ts) so that their answers travel while the app loads (lib/early.ts).
// The mark `shop:first-calls` says when, and which (the browser walks and the page bench read it).
import { firstCalls } from './app/first-calls';
import { startEarly } from './lib/early';

const calls = firstCalls(window.location.pathname, window.location.search);
startEarly(calls);
performance.mark('shop:first-calls', { detail: calls });
