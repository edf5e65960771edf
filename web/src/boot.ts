// The first script the page runs, before the app's code has come: it starts loading the code of
// the page the app opens on (app/page-code.ts; the frame is on its way already) and the page's
// first GETs (app/first-calls.ts), so that both travel while the app loads (lib/early.ts); the
// answers the edge writes into the document are taken from there instead. The marks
// `shop:first-calls` and `shop:first-answers` say which were started and which the document
// answered (the browser walks read them).
import { firstCalls } from './app/first-calls';
import { startPageCode } from './app/page-code';
import { seedEarly, startEarly } from './lib/early';

startPageCode(window.location.pathname);
const calls = firstCalls(window.location.pathname, window.location.search);
// The edge writes most answers into the document: only the others go out.
const written = seedEarly(calls);
startEarly(calls);
performance.mark('shop:first-calls', { detail: calls });
void written.then((urls) => performance.mark('shop:first-answers', { detail: urls }));
