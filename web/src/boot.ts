// The first script the page runs, before the app's code has come: it starts loading the code of
// the page the app opens on (app/page-code.ts; the frame is on its way already) and the page's
// first GETs (app/first-calls.ts), so that both travel while the app loads (lib/early.ts); the
// answers the edge wrote into the document are taken from there instead. The marks
// `shop:first-calls` and `shop:first-answers` say when, and which (the browser walks read them).
import { firstCalls } from './app/first-calls';
import { startPageCode } from './app/page-code';
import { seedEarly, startEarly } from './lib/early';

startPageCode(window.location.pathname);
const calls = firstCalls(window.location.pathname, window.location.search);
// The edge wrote most answers into the document already: only the others go out.
const written = seedEarly(calls);
startEarly(calls);
performance.mark('shop:first-calls', { detail: calls });
performance.mark('shop:first-answers', { detail: written });
