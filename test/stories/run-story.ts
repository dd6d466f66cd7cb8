/**
 * Runs a story: a scenario, then requests, clock advances and expected answers, all written as data
 * (`*.story.yaml`) so users can write their own. Returns every answer's text, for determinism checks.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { createApp } from '../../src/hosts/app.js';
import { parseDuration } from '../../src/text/duration.js';
import { specProblems } from '../support/spec-validator.js';

interface Step {
  name?: string;
  advance?: string | number;
  request?: string;
  body?: unknown;
  expect?: { status?: number; body?: unknown };
  /** Remember values of this answer for later steps, as `${name}`: name → dotted path in the body. */
  save?: Record<string, string>;
}

export interface Story {
  scenario: string;
  description?: string;
  steps: Step[];
}

export function readStory(file: string): Story {
  return parse(readFileSync(file, 'utf8')) as Story;
}

function substitute<T>(value: T, saved: Record<string, unknown>): T {
  if (typeof value === 'string') return value.replace(/\$\{(\w+)\}/g, (_, name: string) => String(saved[name])) as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, saved)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, saved)])) as T;
  return value;
}

function lookup(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
}

export async function runStory(story: Story): Promise<string[]> {
  const app = await createApp({ scenario: story.scenario, log: () => {} });
  const saved: Record<string, unknown> = {};
  const transcript: string[] = [];
  for (const [index, raw] of story.steps.entries()) {
    const step = substitute(raw, saved);
    const label = `step ${index + 1}${step.name ? ` (${step.name})` : ''}`;
    if (step.advance !== undefined) {
      const ms = parseDuration(step.advance);
      if (ms === undefined) throw new Error(`${label}: bad duration ${String(step.advance)}`);
      await request(app).post('/__sim/clock/advance').send({ ms }).expect(200);
      transcript.push(`advance ${ms}`);
    }
    if (!step.request) continue;
    const [method, path] = step.request.split(' ') as [string, string];
    let req = request(app)[method.toLowerCase() as 'get'](path);
    if (step.body !== undefined) req = req.set('content-type', 'application/json').send(JSON.stringify(step.body));
    const res = await req;
    transcript.push(`${step.request} → ${res.status} ${res.text}`);
    const operationId = res.headers['x-sim-operation'] as string | undefined;
    expect(operationId, `${label}: not an API operation`).toBeDefined();
    expect(
      specProblems(
        operationId as string,
        res.status,
        res.status === 204 ? undefined : res.body,
        res.headers['content-type'],
      ),
      `${label}: answer violates the spec`,
    ).toEqual([]);
    if (step.expect?.status !== undefined) expect(res.status, `${label}: ${res.text}`).toBe(step.expect.status);
    if (step.expect?.body !== undefined) expect(res.body, label).toMatchObject(step.expect.body as object);
    for (const [name, where] of Object.entries(step.save ?? {})) saved[name] = lookup(res.body, where);
  }
  return transcript;
}
