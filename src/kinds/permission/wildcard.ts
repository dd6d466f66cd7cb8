/**
 * The real server's permission patterns: `*` is any run of characters, `?` any one, everything else itself;
 * a pattern ending in ` *` also matches without that tail (`ls *` allows `ls` as well as `ls -la`, not `lsof`).
 */
const SPECIAL = /[.+^${}()|[\]\\]/g;

export function wildcardMatch(value: string, pattern: string): boolean {
  let source = '';
  for (const char of pattern) source += char === '*' ? '.*' : char === '?' ? '.' : char.replace(SPECIAL, '\\$&');
  if (source.endsWith(' .*')) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, 's').test(value);
}
