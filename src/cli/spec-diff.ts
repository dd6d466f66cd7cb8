/**
 * `spec-diff OLD NEW`: two versions of the interface compared (src/openapi/spec-diff.ts), as lines for people
 * or, with --json, one JSON document. Exit 0 when identical, 1 when anything differs (the way `diff` and
 * `drift` say it, so a script can gate on it), 2 when a document cannot be read.
 */
import { readFileSync } from 'node:fs';
import { parseSpecText } from '../openapi/openapi.js';
import { describeDiff, diffSpecs, isIdentical, summary } from '../openapi/spec-diff.js';
import { UsageError } from './usage-error.js';

type JsonObject = Record<string, unknown>;

export async function specDiffCommand(older: string, newer: string, json: boolean): Promise<number> {
  const diff = diffSpecs(await readDocument(older), await readDocument(newer));
  if (json)
    process.stdout.write(`${JSON.stringify({ old: older, new: newer, summary: summary(diff), ...diff }, null, 2)}\n`);
  else process.stdout.write(`${describeDiff(diff).join('\n')}\n`);
  return isIdentical(diff) ? 0 : 1;
}

async function readDocument(file: string): Promise<JsonObject> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`No such file: ${file}`, 'spec-diff');
    if (code === 'EISDIR') throw new UsageError(`${file} is a directory; spec-diff reads a file.`, 'spec-diff');
    throw error;
  }
  let document: unknown;
  try {
    // As the simulator reads a spec, and parsed once per text: a spec takes the YAML parser about a second.
    document = (await parseSpecText(text)).document;
  } catch (error) {
    // Each problem already says what it is (`YAML: …`): a syntax error, or aliases expanding past the bound.
    throw new UsageError(`${file} cannot be read: ${(error as Error).message.split('\n')[0]}`, 'spec-diff');
  }
  const paths = (document as JsonObject | null)?.paths;
  if (typeof paths !== 'object' || paths === null)
    throw new UsageError(`${file} is not an OpenAPI document: it has no paths.`, 'spec-diff');
  return document as JsonObject;
}
