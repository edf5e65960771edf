/// <reference types="vitest/config" />
// The shop's web app: React, with the pricing engine (../pkg, WebAssembly) loaded through
// vite-plugin-wasm. In development `/api` goes to the edge on :8787; in the shop the edge
// serves the built app itself, so every call is same-origin.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react(), wasm()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Fewer, larger files. Left to itself the bundler gives every set of pages that shares a
        // module a file of its own: 26 files before the first page draws and 40 on the home page,
        // many under 1 KB, each a request of its own (six at a time over HTTP/1.1) and each
        // gzipped alone. Everything the first load needs goes into one file (the frame: React,
        // the router, Ant Design's core, the layout, whatever page it opens on loads beside it),
        // and the libraries the pages share into one file per set of pages using them, the sets
        // under 20 KB merged into their neighbours; the pages' own code keeps its files.
        codeSplitting: {
          groups: [
            // Only the modules the first load runs: not every dependency of theirs (the form
            // library, which the form context merely imports, stays with the pages with forms).
            { name: 'frame', tags: ['$initial'], includeDependenciesRecursively: false, priority: 2 },
            { name: 'ui', test: /[\\/]node_modules[\\/]/, entriesAware: true, entriesAwareMergeThreshold: 20_000, priority: 1 },
          ],
        },
      },
      // Ant Design's form context, which its ConfigProvider and other components on every page
      // import, takes FormProvider from @rc-component/form; the package does not say it has no
      // side effects, so the whole form library and its validator (20 KB gzipped) would be in
      // the first load. They have none beyond their exports: pages with forms get all they use.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/, sideEffects: false }],
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    server: { deps: { inline: ['engine'] } },
    setupFiles: ['src/testing/setup.ts'],
  },
});
