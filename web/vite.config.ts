/// <reference types="vitest/config" />
// The shop's web app: React, with the pricing engine (../pkg, WebAssembly) loaded through
// vite-plugin-wasm. In development `/api` goes to the edge on :8787; in the shop the edge
// serves the built app itself, so every call is same-origin.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

// The boot script (src/boot.ts) starts the page's first calls before the app's code has come,
// so it is an entry of its own, small and first in the page: Vite would fold every script of
// index.html into the one entry. Its modules go into its own file, never into the frame's.
const BOOT = 'src/boot.ts';
const BOOT_MODULES =
  /[\\/]src[\\/](boot|app[\\/](first-calls|page-code|routes)|lib[\\/](early|api-client)|features[\\/]goods[\\/]list-params|features[\\/]promotion[\\/]draw)\.ts$|vite[\\/]preload-helper/;

function bootScript(): Plugin {
  return {
    name: 'shop-boot-script',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const src = context.bundle
          ? Object.values(context.bundle).find((file) => file.type === 'chunk' && file.isEntry && file.name === 'boot')?.fileName
          : BOOT;
        if (!src) throw new Error('the build wrote no boot script');
        // Anything the boot script loads besides its own modules and the bundler's runtime would
        // hold it back until it came.
        const foreign: string[] = [];
        const visit = (name: string) => {
          const chunk = context.bundle?.[name];
          if (chunk?.type !== 'chunk') return;
          if (chunk.name !== 'boot' && !chunk.name.includes('rolldown-runtime')) foreign.push(name);
          else chunk.imports.forEach(visit);
        };
        visit(src);
        if (foreign.length > 0) throw new Error(`the boot script loads ${foreign.join(', ')}: add its modules to BOOT_MODULES`);
        return [{ tag: 'script', attrs: { type: 'module', async: true, crossorigin: true, src: `/${src}` }, injectTo: 'head-prepend' }];
      },
    },
  };
}

// Ant Design's stylesheet (antd/dist/antd.css) for its zero-runtime mode (src/app/provider.tsx):
// every component's rules, written against CSS variables, which the ConfigProvider sets at run
// time from the shop's theme. Left out: the file's own variable blocks (the default theme's
// values, under class names that the runtime's may happen to equal, and would then override) and
// the marker of the CSS-in-JS cache, which the runtime has no use for here.
const ANTD_CSS = /[\\/]node_modules[\\/]antd[\\/]dist[\\/]antd\.css$/;

/** The top-level rules of a minified stylesheet (braces inside strings aside: antd.css has none that matter). */
function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < css.length; index++) {
    if (css[index] === '{') depth++;
    else if (css[index] === '}' && --depth === 0) {
      rules.push(css.slice(start, index + 1));
      start = index + 1;
    }
  }
  return rules;
}

function antdStylesheet(): Plugin {
  return {
    name: 'shop-antd-stylesheet',
    enforce: 'pre',
    load(id) {
      if (!ANTD_CSS.test(id.split('?')[0])) return null;
      const rules = topLevelRules(readFileSync(id.split('?')[0], 'utf8'));
      const kept = rules.filter((rule) => !/^\s*\.css-var-[^{]*\{\s*--/.test(rule) && !/^\s*\.data-ant-cssinjs-cache-path\b/.test(rule));
      if (kept.length === rules.length) throw new Error('antd.css: no variable blocks found; has its layout changed?');
      return kept.join('\n');
    },
  };
}

export default defineConfig({
  plugins: [antdStylesheet(), react(), wasm(), bootScript()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), boot: fileURLToPath(new URL(`./${BOOT}`, import.meta.url)) },
      output: {
        // Fewer, larger files. Left to itself the bundler gives every set of pages that shares a
        // module a file of its own: 26 files before the first page draws and 40 on the home page,
        // many under 1 KB, each a request of its own (six at a time over HTTP/1.1) and each
        // gzipped alone. Everything the first load needs goes into one file (the frame: React,
        // the router, Ant Design's core, the layout, whatever page it opens on loads beside it),
        // and the libraries the pages share into one file per set of pages using them, the sets
        // under 5 KB merged into their neighbours; the pages' own code keeps its files. A merge
        // can bring a page a whole file it has no use for: at 20 KB the home page's first load
        // took the Spin and rc-overflow from others' files (and, with its banners no
        // longer on the Carousel, 90 KB gzipped of the member pages' Form, Select, Menu and
        // Modal); at 5 KB it takes what it uses, in a few more files (about 105 in all, not 91).
        codeSplitting: {
          groups: [
            { name: 'boot', test: BOOT_MODULES, priority: 3 },
            // Only the modules the first load runs: not every dependency of theirs (the form
            // library, which the form context merely imports, stays with the pages with forms).
            { name: 'frame', tags: ['$initial'], includeDependenciesRecursively: false, priority: 2 },
            { name: 'ui', test: /[\\/]node_modules[\\/]/, entriesAware: true, entriesAwareMergeThreshold: 5_000, priority: 1 },
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
    // A file's first test also renders Ant Design for the first time: on a loaded 2-core
    // machine that alone has taken 5 s.
    testTimeout: 15_000,
  },
});
