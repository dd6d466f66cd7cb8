#!/usr/bin/env node
/**
 * Writes scenarios/scenario.schema.json, the scenario format for editors, from the kinds' parts of it
 * (src/kinds/<kind>/format.ts) and the format's own (src/scenarios/format-base.ts). `--check` fails instead
 * of writing when the file is not what the kinds make. Run through tsx: `npm run schema`.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { KINDS } from '../src/kinds/registry.ts';
import { SCENARIO_SCHEMA_PATH, scenarioSchema } from '../src/scenarios/format.ts';

const text = `${JSON.stringify(scenarioSchema(KINDS.list), null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(SCENARIO_SCHEMA_PATH, 'utf8') !== text) {
    console.error('scenarios/scenario.schema.json is not what the kinds make: run npm run schema');
    process.exit(1);
  }
} else {
  // Written whole or not at all.
  writeFileSync(`${SCENARIO_SCHEMA_PATH}.tmp`, text);
  renameSync(`${SCENARIO_SCHEMA_PATH}.tmp`, SCENARIO_SCHEMA_PATH);
  console.log(`wrote ${SCENARIO_SCHEMA_PATH.replace(`${process.cwd()}/`, '')}`);
}
