/**
 * Looks for planted secrets in everything the simulator wrote or showed: each secret as written, URL-encoded,
 * and base64-encoded (standard and URL-safe, at each of the three byte alignments it can have inside a longer
 * base64 text such as `base64(user:password)` or an encoded body), and those base64 forms URL-encoded too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Secret {
  /** What it is, for the report: `s4 auth_token query`. */
  name: string;
  value: string;
}

/** A place the simulator wrote to or answered from, with everything it held. */
export interface Source {
  where: string;
  text: string;
}

export interface Needle {
  secret: Secret;
  form: string;
  text: string;
}

/**
 * The base64 characters that depend on the secret's bytes alone when it starts at byte offset `k` (0, 1 or 2)
 * of a 3-byte group: whatever comes before or after it, a longer base64 text holding the secret holds these.
 */
function base64Core(value: string, k: number): string {
  const bytes = Buffer.concat([Buffer.alloc(k), Buffer.from(value, 'utf8')]);
  const encoded = bytes.toString('base64');
  const start = [0, 2, 3][k] as number;
  // Only whole groups of secret bytes: the last partial group also depends on what follows.
  const end = Math.floor(bytes.length / 3) * 4;
  return encoded.slice(start, end);
}

export function needles(secret: Secret): Needle[] {
  // The first name given to a text is kept: a secret with nothing to encode is found once, "as written".
  const forms = new Map<string, string>();
  const add = (text: string, form: string) => {
    if (!forms.has(text)) forms.set(text, form);
  };
  add(secret.value, 'as written');
  add(encodeURIComponent(secret.value), 'URL-encoded');
  add(new URLSearchParams({ v: secret.value }).toString().slice(2), 'form-encoded');
  for (const k of [0, 1, 2]) {
    const core = base64Core(secret.value, k);
    if (core.length < 8) continue;
    add(core, `base64 (offset ${k})`);
    add(core.replaceAll('+', '-').replaceAll('/', '_'), `base64url (offset ${k})`);
    add(encodeURIComponent(core), `base64 (offset ${k}), URL-encoded`);
  }
  return [...forms].map(([text, form]) => ({ secret, form, text }));
}

/** One line per place a secret was found: which secret, in which form, where, and the text around it. */
export function findLeaks(secrets: Secret[], sources: Source[]): string[] {
  const all = secrets.flatMap(needles);
  const found: string[] = [];
  for (const source of sources) {
    for (const needle of all) {
      let at = source.text.indexOf(needle.text);
      let shown = 0;
      while (at >= 0 && shown < 3) {
        const context = source.text.slice(Math.max(0, at - 80), at + needle.text.length + 40).replace(/\s+/g, ' ');
        found.push(`${needle.secret.name} (${needle.form}) in ${source.where} at ${at}: …${context}…`);
        shown++;
        at = source.text.indexOf(needle.text, at + 1);
      }
    }
  }
  return found;
}

/** Every file under `dir`, whole, each named by its path relative to `dir`. */
export function filesUnder(dir: string): Source[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => statSync(join(dir, name)).isFile())
    .map((name) => ({
      where: `file ${relative(dir, join(dir, name))}`,
      text: readFileSync(join(dir, name)).toString('utf8'),
    }));
}
