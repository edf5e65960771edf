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
