// Prints every decision the spec records where the interface document says "not shown".
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const spec = parse(readFileSync(new URL('../spec/session-agent.openapi.yaml', import.meta.url), 'utf8'));
for (const line of spec['x-decisions'] ?? []) console.log(`- ${line}`);
