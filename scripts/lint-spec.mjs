// The spec lint (Redocly's recommended rules, redocly.yaml) with Redocly's own banners left out: on Node 20 it
// opens every run with a boxed notice about its future Node support, which is not about this project. Its
// findings, and everything it prints when the lint fails, are passed on whole.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const SPEC = process.argv[2] ?? 'spec/session-agent.openapi.yaml';
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const run = spawnSync(process.execPath, [cli, 'lint', SPEC], {
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
});
const withoutBanner = (text) => text.replace(/^\s*╔[\s\S]*?╚═*╝\s*$/m, '').trim();
const said = [withoutBanner(run.stdout ?? ''), withoutBanner(run.stderr ?? '')].filter(Boolean).join('\n');

if (run.status === 0 && !/warning/i.test(said)) {
  console.log(`spec lint: ${SPEC} is valid (Redocly recommended rules, redocly.yaml)`);
} else {
  console.log(said || `spec lint: redocly exited ${run.status ?? run.signal}`);
}
process.exit(run.status ?? 1);
