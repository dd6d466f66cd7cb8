/**
 * A billion-laughs YAML scenario: nine anchors, each a list of nine of the one before, 9^9 values from ten
 * lines. `name` makes it a scenario whose name matches its file.
 */
export function billionLaughs(name = 'bomb'): string {
  const levels = 'abcdefghi'.split('');
  const lines = [`name: ${name}`, `a: &a [${Array(9).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels.length; i++)
    lines.push(
      `${levels[i]}: &${levels[i]} [${Array(9)
        .fill(`*${levels[i - 1]}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/** What every reader says of `billionLaughs()`. */
export const BOMB_REFUSAL =
  'YAML: aliases would expand this document to 490,329,066 values, more than 100,000 beyond the 102 written (*h alone stands for 48,427,561): refused, as an alias bomb would be; write the repeated values out, or repeat fewer';
