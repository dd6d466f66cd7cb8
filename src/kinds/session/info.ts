/**
 * A session's record as each reader of it is sent it: the v2 `SessionV2Info` of get, list and create, and
 * the client's `Session` of the event stream and the experimental list. Everything in them is derived from
 * the world (the session's messages say when it last changed and what it cost), so they always agree.
 */
import type { ProjectContext } from '../../openapi/location.js';
import type { World } from '../../state/world.js';
import type { SessionLocation, SessionState, TokenUsage } from './types.js';

type JsonObject = Record<string, unknown>;

/** The version sessions report: the client's, whose event types the stream follows. */
export const SESSION_VERSION = '1.19.3';
const SLUG_WORDS = [
  ['brave', 'calm', 'clever', 'eager', 'gentle', 'lucky', 'quiet', 'swift'],
  ['comet', 'falcon', 'harbor', 'meadow', 'otter', 'river', 'summit', 'willow'],
] as const;

/** A readable slug that is the same for the same session every time (`lucky-comet`, as the real server's). */
export function slugOf(sessionID: string): string {
  let hash = 0;
  for (const char of sessionID) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${SLUG_WORDS[0][hash % 8]}-${SLUG_WORDS[1][(hash >>> 3) % 8]}`;
}

/** When the session was created: when it appeared, else its first message, else the scenario's start. */
export function createdAt(world: World, session: SessionState): number {
  const { appears } = session.definition;
  if (appears > world.scenario.start) return appears;
  return (session.messages[0]?.time.created as number | undefined) ?? world.scenario.start;
}

/** When it last changed: its newest message (or a message's completion), or its creation. */
export function updatedAt(world: World, session: SessionState): number {
  let updated = createdAt(world, session);
  for (const m of session.messages) {
    const time = m.time as { created: number; completed?: number };
    updated = Math.max(updated, time.completed ?? time.created);
  }
  return updated;
}

/** What its assistant messages cost, in dollars and tokens. */
export function usageOf(session: SessionState): { cost: number; tokens: TokenUsage } {
  const tokens: TokenUsage = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
  let cost = 0;
  for (const m of session.messages) {
    if (m.type !== 'assistant') continue;
    cost += typeof m.cost === 'number' ? m.cost : 0;
    const t = m.tokens as Partial<TokenUsage> | undefined;
    if (!t) continue;
    tokens.input += t.input ?? 0;
    tokens.output += t.output ?? 0;
    tokens.reasoning += t.reasoning ?? 0;
    tokens.cache.read += t.cache?.read ?? 0;
    tokens.cache.write += t.cache?.write ?? 0;
  }
  // Sums of decimal costs drift in the last digits; a cent's ten-thousandth is as fine as any bill goes.
  return { cost: Math.round(cost * 1e6) / 1e6, tokens };
}

export function titleOf(world: World, session: SessionState): string {
  return session.definition.title ?? `New session - ${new Date(createdAt(world, session)).toISOString()}`;
}

export function locationOf(session: SessionState, project: ProjectContext): SessionLocation {
  const base = session.location ?? session.definition.location ?? { directory: project.directory };
  if (session.workspace === undefined) return base;
  const rest: SessionLocation = { directory: base.directory };
  return session.workspace === null ? rest : { ...rest, workspaceID: session.workspace };
}

/** The v2 record (`SessionV2Info`). */
export function sessionV2Info(world: World, session: SessionState, project: ProjectContext): JsonObject {
  const { cost, tokens } = usageOf(session);
  const revert = session.revert && {
    messageID: session.revert.messageID,
    snapshot: session.revert.snapshot,
    files: session.revert.files.map((f) => ({
      path: f.file,
      status: 'modified',
      additions: f.additions,
      deletions: f.deletions,
      patch: f.patch,
    })),
  };
  return {
    id: session.definition.id,
    projectID: project.id,
    agent: session.agent,
    model: { variant: 'default', ...session.model },
    cost,
    tokens,
    time: { created: createdAt(world, session), updated: updatedAt(world, session) },
    title: titleOf(world, session),
    location: locationOf(session, project),
    ...(revert ? { revert } : {}),
  };
}

/** The client's `Session`, as `session.created` / `session.updated` carry it and the experimental list lists it. */
export function clientSession(
  world: World,
  session: SessionState,
  project: ProjectContext,
  updated?: number,
): JsonObject {
  const { cost, tokens } = usageOf(session);
  const location = locationOf(session, project);
  return {
    id: session.definition.id,
    slug: slugOf(session.definition.id),
    projectID: project.id,
    ...(location.workspaceID ? { workspaceID: location.workspaceID } : {}),
    directory: location.directory,
    path: '',
    title: titleOf(world, session),
    agent: session.agent,
    model: session.model,
    version: SESSION_VERSION,
    cost,
    tokens,
    time: { created: createdAt(world, session), updated: updated ?? updatedAt(world, session) },
  };
}
