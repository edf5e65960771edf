// Browser tests in Debian's Chromium against the whole shop: a real origin (fresh SQLite) and
// the edge in workerd serving the built app (e2e/global-setup.ts starts both).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  // A walk that fails once (a busy two-core machine can starve the browser for seconds) runs
  // once more and is reported as flaky; one that fails twice fails the run.
  retries: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  use: {
    viewport: { width: 1400, height: 900 },
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
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
    },
  },
});
