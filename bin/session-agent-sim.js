#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so a clean checkout works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
