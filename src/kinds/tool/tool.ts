/**
 * The tools: every id (`GET /experimental/tool/ids`) and, for a provider and model, the tools they get with
 * their parameters (`GET /experimental/tool`), the scenario's or the real server's built-in ones. Like the
 * real server, a provider or model it does not know gets the tools any model gets.
 */
import { jsonAnswer } from '../../exchange/exchange.js';
import { answered } from '../answers.js';
import type { Kind } from '../kind.js';
import { DEFAULT_TOOLS } from './defaults.js';
import { format } from './format.js';
import type { ToolSection } from './section.generated.js';
import type { ToolDefinition } from './types.js';

export const tool: Kind<ToolSection> = {
  name: 'tool',
  format,

  read(source, context) {
    if (source.tools === undefined) return {};
    const seen = new Set<string>();
    const tools = source.tools.map((raw, i) => {
      const definition: ToolDefinition = { description: '', parameters: { type: 'object', properties: {} }, ...raw };
      if (seen.has(definition.id)) context.problem(['tools', i, 'id'], `tool ${definition.id} is declared twice`);
      seen.add(definition.id);
      return definition;
    });
    return { tools };
  },

  handlers: {
    'tool.ids': (_request, { world }) =>
      answered(
        jsonAnswer(
          200,
          toolsOf(world.scenario.tools).map((t) => t.id),
        ),
      ),
    'tool.list': (request, { world }) => {
      const asked = `${String(request.query.provider)}/${String(request.query.model)}`;
      const listed = toolsOf(world.scenario.tools).filter(
        (t) =>
          (t.only === undefined || new RegExp(t.only).test(asked)) &&
          (t.except === undefined || !new RegExp(t.except).test(asked)),
      );
      return answered(
        jsonAnswer(
          200,
          listed.map(({ id, description, parameters }) => ({ id, description, parameters })),
        ),
      );
    },
  },

  infer: () => import('./infer.js').then((m) => m.inferTools),
};

const toolsOf = (tools: readonly ToolDefinition[] | undefined): readonly ToolDefinition[] =>
  tools ?? (DEFAULT_TOOLS as unknown as ToolDefinition[]);
