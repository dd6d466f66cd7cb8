/**
 * The publication table held to the spec: every domain event is either internal or published as a type the
 * spec's `V2Event` lists, and every listed type names its source.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';
import { createSequenceCounter, isPublished, publish } from '../../../src/stream/publication.js';
import type { DomainEvent, EventCatalog, EventType } from '../../../src/state/events.js';
import { spec } from '../../support/spec-validator.js';

type JsonObject = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const schemas = spec.components.schemas as JsonObject;
const mapping = schemas.V2Event.discriminator.mapping as Record<string, string>;

// Every key of the catalog, spelled out so that a new domain event fails here until it is placed.
const CATALOG: Record<EventType, true> = {
  'session.status': true,
  'session.turn.waiting': true,
  'session.turn.answered': true,
  'session.turn.resumed': true,
  'session.turn.status': true,
  'session.created': true,
  'session.next.agent.switched': true,
  'session.next.model.switched': true,
  'session.next.synthetic': true,
  'session.next.compaction.admitted': true,
  'session.next.revert.staged': true,
  'permission.v2.asked': true,
  'permission.v2.replied': true,
  'permission.saved': true,
  'permission.saved.removed': true,
  'question.v2.asked': true,
  'question.v2.replied': true,
  'question.v2.rejected': true,
  'session.instructions.entry.removed': true,
  'form.created': true,
  'form.replied': true,
  'form.cancelled': true,
  'shell.created': true,
  'shell.exited': true,
  'shell.timeout.updated': true,
  'pty.created': true,
  'pty.updated': true,
  'pty.exited': true,
  'pty.deleted': true,
  'pty.output': true,
  'pty.connected': true,
  'pty.disconnected': true,
  'pty.ticket.issued': true,
  'pty.ticket.used': true,
  'integration.credential.connected': true,
  'integration.connection.updated': true,
  'integration.updated': true,
  'credential.relabelled': true,
  'credential.removed': true,
  'integration.attempt.polled': true,
  'integration.attempt.started': true,
  'integration.attempt.cancelled': true,
  'integration.attempt.removed': true,
  'integration.attempt.settled': true,
  'project.copy.created': true,
  'project.directories.updated': true,
  'project.copy.removed': true,
  'worktree.ready': true,
  'worktree.removed': true,
  'workspace.created': true,
  'workspace.status': true,
  'workspace.removed': true,
  'workspace.session.warped': true,
  'session.turn.started': true,
  'session.turn.interrupted': true,
  'session.prompt.held': true,
  'session.next.prompted': true,
  'session.next.revert.committed': true,
  'session.next.revert.cleared': true,
  'session.next.moved': true,
  'session.next.prompt.admitted': true,
  'session.next.step.started': true,
  'session.next.step.ended': true,
  'session.next.step.failed': true,
  'session.next.text.started': true,
  'session.next.text.delta': true,
  'session.next.text.ended': true,
  'session.next.reasoning.started': true,
  'session.next.reasoning.delta': true,
  'session.next.reasoning.ended': true,
  'session.next.tool.input.started': true,
  'session.next.tool.input.delta': true,
  'session.next.tool.input.ended': true,
  'session.next.tool.called': true,
  'session.next.tool.success': true,
  'session.next.tool.failed': true,
  'session.next.retried': true,
  'catalog.updated': true,
  'console.org.switched': true,
};

function event<T extends EventType>(type: T, data: EventCatalog[T]): DomainEvent {
  return {
    kind: 'event',
    seq: 1,
    id: 'evt_000000000001AAAAAAAAAAAAAA',
    time: 0,
    cause: { request: 'req_000001' },
    type,
    data,
  } as DomainEvent;
}

describe('publication', () => {
  it('publishes every domain event the spec lists, under the type it lists', () => {
    const renamed: Partial<Record<EventType, string>> = {
      'session.next.compaction.admitted': 'session.next.compaction.started',
    };
    for (const type of Object.keys(CATALOG) as EventType[]) {
      if (!isPublished(KINDS, type)) continue;
      expect(mapping, type).toHaveProperty([renamed[type] ?? type]);
    }
  });

  it('names the source of every event type in the spec', () => {
    for (const [type, ref] of Object.entries(mapping)) {
      const schema = schemas[ref.split('/').pop() as string] as JsonObject;
      expect(schema['x-event-source'], type).toMatch(
        /^(@opencode-ai\/sdk 1\.19\.3 V2Event|real-server notes|simulator decision)/,
      );
      expect(schema.allOf[1].properties.type.const).toBe(type);
    }
  });

  it('keeps internal bookkeeping off the stream', () => {
    expect(
      publish(
        event('integration.attempt.polled', { attemptID: 'con_1', polls: 1 }),
        { directory: '/p' },
        createSequenceCounter(KINDS),
        KINDS,
      ),
    ).toBeUndefined();
    expect(
      publish(
        event('credential.relabelled', { credentialID: 'cred_1', label: 'x' }),
        { directory: '/p' },
        createSequenceCounter(KINDS),
        KINDS,
      ),
    ).toBeUndefined();
  });

  it('keeps the simulator own types off the stream unless asked, without using up a sequence number', () => {
    const sequence = createSequenceCounter(KINDS);
    const removed = event('session.instructions.entry.removed', { sessionID: 'ses_a', key: 'style' });
    const around = { directory: '/p' };
    expect(publish(removed, around, sequence, KINDS)).toBeUndefined();
    expect(publish(removed, around, sequence, KINDS, true)?.type).toBe('session.instructions.entry.removed');
    const settled = event('integration.attempt.settled', { attemptID: 'con_1', integrationID: 'x', status: 'failed' });
    expect(publish(settled, around, sequence, KINDS)).toBeUndefined();
    const switched = event('session.next.agent.switched', {
      timestamp: 0,
      sessionID: 'ses_b',
      messageID: 'm',
      agent: 'a',
    });
    expect(publish(switched, around, sequence, KINDS)?.durable?.seq).toBe(0);
  });

  it('numbers session aggregates per session and leaves other events without durable', () => {
    const sequence = createSequenceCounter(KINDS);
    const switched = (sessionID: string) =>
      event('session.next.agent.switched', { timestamp: 0, sessionID, messageID: 'msg_1', agent: 'plan' });
    expect(publish(switched('ses_a'), { directory: '/p' }, sequence, KINDS)?.durable).toEqual({
      aggregateID: 'ses_a',
      seq: 0,
      version: 1,
    });
    expect(publish(switched('ses_a'), { directory: '/p' }, sequence, KINDS)?.durable?.seq).toBe(1);
    expect(publish(switched('ses_b'), { directory: '/p' }, sequence, KINDS)?.durable?.seq).toBe(0);
    const status = publish(
      event('session.status', { sessionID: 'ses_a', status: { type: 'busy' } }),
      { directory: '/p' },
      sequence,
      KINDS,
    );
    expect(status).toEqual({
      id: 'evt_000000000001AAAAAAAAAAAAAA',
      type: 'session.status',
      location: { directory: '/p' },
      data: { sessionID: 'ses_a', status: { type: 'busy' } },
    });
  });
});
