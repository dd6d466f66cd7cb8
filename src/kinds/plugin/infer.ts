/** The plugins loaded (scenario-from, the plugin kind's part). */
import type { Timeline } from '../inference.js';
import { dataOf, firstAnswer, type Inferred, type JsonObject, type Part } from '../inference.js';

export function inferPlugins(timeline: Timeline): Inferred {
  const plugins = pluginsOf(timeline);
  return plugins ? { plugins: [plugins] } : {};
}

/** GET /api/plugin's list, else the `plugin.added` events a fresh server announces its plugins with. */
function pluginsOf(timeline: Timeline): Part | undefined {
  const listed = firstAnswer(timeline, 'v2.plugin.list');
  if (listed)
    return {
      value: ((dataOf(listed) as JsonObject[] | undefined) ?? []).map((p) => p.id),
      from: [listed],
      whole: true,
    };
  const added = timeline.events.filter((e) => e.type === 'plugin.added' && typeof e.data.id === 'string');
  if (!added.length) return undefined;
  return {
    value: [...new Set(added.map((e) => e.data.id as string))],
    from: [],
    whole: true,
    events: added.slice(0, 1),
    note: `from ${added.length} plugin.added events (GET /api/plugin was not recorded)`,
  };
}
