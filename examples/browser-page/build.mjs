// Bundles the app for the browser (esbuild picks the package's browser build of session-agent-sim/msw) and puts
// msw's service worker beside it, where the page registers it from.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: 'public/app.js',
  logLevel: 'warning',
});
const require = createRequire(import.meta.url);
copyFileSync(require.resolve('msw/mockServiceWorker.js'), 'public/mockServiceWorker.js');
console.log('built public/app.js');
