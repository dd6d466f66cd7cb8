/**
 * The recording file: YAML, a header document and then one document per interaction. Appending whole
 * documents keeps the file valid after a crash at any moment; a reader skips nothing but a torn tail.
 * Interactions are written in YAML's JSON-compatible flow style, indented: still plain to read and edit,
 * and a 100,000-interaction file loads in about a second (JSON.parse per document) where a full YAML
 * parser needs tens of seconds. Hand-edited documents in block style are read by the YAML parser.
 */
import { readYaml } from '../text/read-yaml.js';
import { yaml } from '../text/yaml.js';

export const RECORDING_FORMAT = 'session-agent-sim/recording@1';

export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  specHash: string;
  upstream?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Query values as sent; repeated names keep every value. */
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The JSON body, or its text when it is not JSON. */
  body?: unknown;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  /** Server-sent events: each chunk with its offset from the start of the interaction (`timing.started`), in ms. */
  chunks?: Array<{ at: number; data: string }>;
  /**
   * The stream was still open when the client went away (an event stream never ends by itself): replay
   * keeps it open after the last chunk, as the server did, instead of ending it.
   */
  open?: boolean;
}

export interface Interaction {
  /** 1, 2, 3… in the order the answers completed. */
  seq: number;
  operationId?: string;
  pathParams?: Record<string, string>;
  request: RecordedRequest;
  response: RecordedResponse;
  timing: { started: string; durationMs: number };
}

export function headerDocument(header: RecordingHeader): string {
  return `# session-agent-sim recording: a header, then one document per interaction\n${yaml().stringify(header)}`;
}

export function interactionDocument(interaction: Interaction): string {
  return `---\n${JSON.stringify(interaction, null, 2)}\n`;
}

export interface ParsedRecording {
  header?: RecordingHeader;
  interactions: Interaction[];
  /** A last document that did not parse (a crash mid-write): left out. */
  tornTail: boolean;
}

/**
 * A recording's documents, read one at a time: from the file's bytes (a 100,000-interaction recording is
 * ~80 MB, and holding it as one string and again as its split parts cost twice that) or from a text.
 */
export function parseRecording(source: string | Buffer): ParsedRecording {
  const interactions: Interaction[] = [];
  return { ...readRecording(source, (interaction) => interactions.push(interaction)), interactions };
}

/**
 * Hands over each interaction as it is read, keeping none: what a replay of a long recording holds at its
 * peak is then what it keeps of each, not every interaction whole at once.
 */
export function readRecording(
  source: string | Buffer,
  each: (interaction: Interaction) => void,
): Omit<ParsedRecording, 'interactions'> {
  const bytes = typeof source === 'string' ? Buffer.from(source) : source;
  let header: RecordingHeader | undefined;
  let tornTail = false;
  const starts = documentStarts(bytes);
  for (let index = 0; index < starts.length; index++) {
    // The `---` line is stepped over rather than cut from the text: a copy of every document cost load time.
    const part = bytes.toString(
      'utf8',
      markerLineEnd(bytes, starts[index] as number) ?? (starts[index] as number),
      index + 1 < starts.length ? (starts[index + 1] as number) - 1 : bytes.length,
    );
    if (part.trim() === '' || /^(\s*#.*\n?)*\s*$/.test(part)) continue;
    let value: Record<string, unknown> | null;
    try {
      value = fastParse(part);
    } catch (error) {
      if (index === starts.length - 1) {
        tornTail = true;
        continue;
      }
      throw new Error(`recording document ${index + 1}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    if (!value) continue;
    if (value.format === RECORDING_FORMAT) header = value as unknown as RecordingHeader;
    else each(value as unknown as Interaction);
  }
  return { header, tornTail };
}

/** Where each document begins: the start, and every line that is `---` (trailing blanks allowed). */
function documentStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let at = bytes.indexOf('---'); at >= 0; at = bytes.indexOf('---', at + 3)) {
    if (at !== 0 && bytes[at - 1] === 0x0a && markerLineEnd(bytes, at) !== undefined) starts.push(at);
  }
  return starts;
}

/** Past the line at `at` (its newline included) when it is `---` and blanks, else undefined. */
function markerLineEnd(bytes: Buffer, at: number): number | undefined {
  if (bytes[at] !== 0x2d || bytes[at + 1] !== 0x2d || bytes[at + 2] !== 0x2d) return undefined;
  let end = at + 3;
  while (bytes[end] === 0x20 || bytes[end] === 0x09) end++;
  if (end >= bytes.length) return bytes.length;
  return bytes[end] === 0x0a ? end + 1 : undefined;
}

function fastParse(document: string): Record<string, unknown> | null {
  const trimmed = document.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as Record<string, unknown>;
    } catch {
      // not JSON after all: a hand-edited flow mapping, or a torn one
    }
  }
  // One document: the file was split at its `---` lines already. Throws YamlTextError, aliases bounded.
  return (readYaml(document).value ?? null) as Record<string, unknown> | null;
}
