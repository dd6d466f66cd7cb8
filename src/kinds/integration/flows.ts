/**
 * How the scenario says an OAuth attempt goes: each OAuth method may carry an `attempt` (the API never shows
 * it), read here into a flow with every default filled in, so starting an attempt only reads it.
 */
import { parseDuration } from '../../text/duration.js';
import type { ScenarioOauthFlow } from '../../format/scenario-types.js';
import type { Path, ReadContext } from '../kind.js';
import type { IntegrationSection } from './section.generated.js';
import type { IntegrationRecord, OAuthFlow, OAuthMode } from './types.js';

/** OAuth attempts expire ten minutes after creation, as on the real server. */
export const ATTEMPT_LIFETIME = 600_000;
/** A browser or device flow a user finishes a few seconds after it starts. */
export const SETTLES_AFTER = 5_000;

const INSTRUCTIONS: Record<OAuthMode, string> = {
  // The real server's words for its browser flow and for a code to paste.
  auto: 'Complete authorization in your browser. This window will close automatically.',
  code: 'Paste the authorization code here: ',
};

/** An integration as a scenario declares it (or the defaults do). */
export type IntegrationItem = NonNullable<IntegrationSection['integrations']>[number];

/** An integration's record as served, and the flows of its OAuth methods by method id. */
export function readIntegration(
  raw: IntegrationItem,
  index: number,
  context: ReadContext,
): { record: IntegrationRecord; flows: Record<string, OAuthFlow> } {
  const flows: Record<string, OAuthFlow> = {};
  const methods = (raw.methods ?? []).map((method, j) => {
    const { attempt, ...served } = method;
    const path: Path = ['integrations', index, 'methods', j, 'attempt'];
    if (method.type === 'oauth' && typeof method.id === 'string')
      flows[method.id] = flowOf(raw.id, method.id, attempt ?? {}, path, context);
    else if (attempt !== undefined) context.problem(path, 'only an OAuth method has an attempt', { atKey: true });
    return served;
  });
  const record = { connections: [], ...raw, methods } as unknown as IntegrationRecord;
  return { record, flows };
}

function flowOf(
  integrationID: string,
  methodID: string,
  attempt: ScenarioOauthFlow,
  path: Path,
  context: ReadContext,
): OAuthFlow {
  const mode = attempt.mode ?? 'auto';
  const given = attempt.settles ?? { as: 'complete' };
  const as = given.as;
  const at = [...path, 'settles'];
  const timed = given.after !== undefined || given.poll !== undefined;
  if (mode === 'code' && as === 'expired')
    context.problem([...at, 'as'], 'a code attempt settles when its code is sent: as complete or failed');
  else if (mode === 'code' && timed)
    context.problem(at, 'a code attempt settles when its code is sent: leave out after and poll');
  else if (as === 'expired' && timed)
    context.problem(at, 'an attempt nobody finishes expires `expires` after creation: leave out after and poll');
  else if (given.after !== undefined && given.poll !== undefined)
    context.problem(at, 'say when it settles once: after (a time) or poll (the poll that settles it)');
  const when =
    mode === 'code' || as === 'expired'
      ? {}
      : given.poll !== undefined
        ? { poll: given.poll }
        : { after: parseDuration(given.after ?? SETTLES_AFTER) ?? SETTLES_AFTER };
  return {
    mode,
    url: attempt.url ?? defaultUrl(integrationID, methodID),
    instructions: attempt.instructions ?? INSTRUCTIONS[mode],
    expires: attempt.expires === undefined ? ATTEMPT_LIFETIME : (parseDuration(attempt.expires) ?? ATTEMPT_LIFETIME),
    settles: {
      as,
      ...when,
      ...(typeof given.message === 'string' ? { message: given.message } : {}),
      ...(typeof given.label === 'string' ? { label: given.label } : {}),
    },
  };
}

/** A believable authorization address for a method the scenario gives none. */
function defaultUrl(integrationID: string, methodID: string): string {
  const query = new URLSearchParams({ response_type: 'code', client_id: 'opencode', method: methodID });
  return `https://auth.example.com/${encodeURIComponent(integrationID)}/oauth/authorize?${query.toString()}&state={state}`;
}

/** `url` or `instructions` with the attempt's `{state}` and `{userCode}` (deterministic: from its id). */
export function fillFlowText(text: string, attemptID: string): string {
  const tail = attemptID.slice(-14);
  // Device codes avoid letters and digits people confuse (0/O, 1/I).
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const code = [...tail.slice(0, 8)].map((c) => alphabet[c.charCodeAt(0) % alphabet.length]).join('');
  return text.replaceAll('{state}', tail).replaceAll('{userCode}', `${code.slice(0, 4)}-${code.slice(4)}`);
}
