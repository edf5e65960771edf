// Prettier for the web app (src, e2e, bench, config files, styles) and the project's Node scripts
// outside web/ (`npm run format` writes, `npm run lint` checks; both run from the repository root
// with `--config web/prettier.config.js`). The options are the code's own style from before
// Prettier: single quotes, semicolons, trailing commas, `(x) =>`, and long lines — most of its
// lines were under 140 columns, so that is the width, which keeps the reformatting small.
/** @type {import('prettier').Config} */
export default {
  printWidth: 140,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
  bracketSpacing: true,
  jsxSingleQuote: false,
};
