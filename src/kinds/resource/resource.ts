/**
 * MCP resources (`GET /experimental/resource`): an object keyed `<server>:<uri>`, the server's name with `%`
 * and `:` escaped so no key is ambiguous, as the real server keys them.
 */
import { jsonAnswer } from '../../exchange/exchange.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { format } from './format.js';
import type { ResourceSection } from './section.generated.js';

export const resource: Kind<ResourceSection> = {
  name: 'resource',
  format,

  read(source, context) {
    const resources = (source.resources ?? []).map((r, i) => {
      context.checkRecord('McpResource', r, ['resources', i], `resource ${String(r.uri)}`);
      return r as Record<string, unknown> & { uri: string; client: string };
    });
    const seen = new Set<string>();
    resources.forEach((r, i) => {
      const key = keyOf(r);
      if (seen.has(key)) context.problem(['resources', i, 'uri'], `resource ${r.uri} of ${r.client} is declared twice`);
      seen.add(key);
    });
    return { resources };
  },

  handlers: {
    'experimental.resource.list': (_request, { world }) =>
      answered(jsonAnswer(200, Object.fromEntries(world.scenario.resources.map((r) => [keyOf(r), r])))),
  },

  infer: () => import('./infer.js').then((m) => m.inferResources),
};

function keyOf(resource: { uri: string; client: string }): string {
  return `${resource.client.replaceAll('%', '%25').replaceAll(':', '%3A')}:${resource.uri}`;
}
