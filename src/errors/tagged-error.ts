/**
 * The shape every error body the simulator sends shares: a `_tag` (or ProjectCopyError's `name`), a status,
 * and fields. The API's errors are in errors.ts, the simulator's own in sim-errors.ts.
 */

type Fields = Record<string, unknown> & { message: string };

export abstract class TaggedError extends Error {
  abstract readonly _tag: string;
  abstract readonly status: number;
  readonly headers: Record<string, string> = {};

  constructor(readonly fields: Fields) {
    super(fields.message);
  }

  toBody(): Record<string, unknown> {
    return withoutUndefined({ _tag: this._tag, ...this.fields });
  }

  /** The simulator's own (`Sim…`) errors are outside the API: never checked against the spec. */
  get fromSimulator(): boolean {
    return this._tag.startsWith('Sim');
  }

  toAnswer(): { kind: 'json'; status: number; body: Record<string, unknown>; headers: Record<string, string> } {
    return { kind: 'json', status: this.status, body: this.toBody(), headers: this.headers };
  }
}

function withoutUndefined(body: Record<string, unknown>): Record<string, unknown> {
  // The API omits absent optional fields rather than sending null.
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
