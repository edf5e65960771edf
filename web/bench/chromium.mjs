// How the benchmarks start Chromium: Debian's build, headless, without the background work
// (updates, sync, QUIC) that would take time from what is measured. The same switches as the
// browser walks' (playwright.config.ts).
export const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
