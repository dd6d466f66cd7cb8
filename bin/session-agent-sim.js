#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm ci` through the prepare script) when it is up to date with
// src/, else the TypeScript sources through tsx: a checkout being edited never runs stale code, and a
// fresh install starts in about two thirds of the time tsx needs.
import { readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

function newestSource() {
  let newest = 0;
  for (const file of readdirSync(new URL('src/', root), { recursive: true })) {
    if (String(file).endsWith('.ts')) newest = Math.max(newest, statSync(new URL(`src/${file}`, root)).mtimeMs);
  }
  return newest;
}

function compiledIsFresh() {
  try {
    return statSync(new URL('dist/cli.js', root)).mtimeMs >= newestSource();
  } catch {
    return false;
  }
}

if (compiledIsFresh()) {
  await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
