/**
 * The inspector's routes under `/__sim`: its page and assets (plain files from the package's `inspector/`
 * folder, no build step), the live stream it listens to, and the full exchanges it opens. Merged into the
 * control router's table, so they act on the partition the request is addressed to like every control route.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { SimRouteNotFoundError } from '../errors/errors.js';
import { jsonAnswer, type Answer, type Exchange } from '../exchange/exchange.js';
import { showExchange } from './exchange-details.js';
import { liveAnswer } from './live.js';
import type { Partition } from './partitions.js';
import type { StreamQuota } from '../stream/stream-quota.js';
import { packagePath } from '../files/package-path.js';

type InspectorRoute = (request: { exchange: Exchange; partition: Partition; params: Record<string, string> }) => Answer;

/** Beside `src/` in a checkout and beside `dist/` in the package: the same `../../inspector/` from either. */
export const INSPECTOR_DIR = packagePath(import.meta.url, '../../inspector/');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** A plain file name of a known type: no slash, no dot segment, nothing a path could be built from. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg)$/;

const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  // The page runs its own files and talks to this origin only: nothing else may load or be loaded.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export function inspectorRoutes(
  liveQuota: StreamQuota,
  scrub?: (text: string) => string,
): Record<string, Record<string, InspectorRoute>> {
  const page: InspectorRoute = () => asset('index.html');
  const file: InspectorRoute = ({ params }) => asset(params.file ?? '');
  return {
    // Relative to `/__sim/` the page's own URLs resolve under it, whatever prefix or mount point is in front.
    '/__sim': {
      GET: () => ({ kind: 'empty', status: 308, headers: { location: '__sim/', 'cache-control': 'no-cache' } }),
    },
    '/__sim/': { GET: page, HEAD: page },
    '/__sim/inspector/:file': { GET: file, HEAD: file },
    '/__sim/live': { GET: ({ partition }) => liveAnswer(partition, liveQuota, scrub) },
    '/__sim/exchanges/:id': {
      GET: ({ partition, params }) => jsonAnswer(200, showExchange(partition.engine.log, params.id ?? '')),
    },
  };
}

function asset(name: string): Answer {
  // Only a file that is in the folder right now, by a name that cannot leave it.
  if (!ASSET_NAME.test(name) || !listing().includes(name)) {
    const files = listing().filter((f) => ASSET_NAME.test(f));
    throw new SimRouteNotFoundError(
      'GET',
      `/__sim/inspector/${name}`,
      files.map((f) => ({ operationId: 'sim.inspector', method: 'GET', path: `/__sim/inspector/${f}` })),
    );
  }
  const type = CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';
  return {
    kind: 'raw',
    status: 200,
    headers: { 'content-type': type, ...PAGE_HEADERS },
    raw: readFileSync(`${INSPECTOR_DIR}${name}`),
  };
}

function listing(): string[] {
  try {
    return readdirSync(INSPECTOR_DIR);
  } catch {
    return [];
  }
}
