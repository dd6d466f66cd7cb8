/**
 * Writes a generated scenario as YAML a person will edit: a header saying what it came from and what was left
 * out, each part preceded by a comment naming the interactions (and events) it came from, and small records
 * on one line so a long listing stays readable.
 */
import { Document, isMap, isScalar, isSeq, visit, type Node } from 'yaml';
import { provenance, SECTIONS, type Inference, type JsonObject } from './parts.js';

export function emitScenario(scenario: JsonObject, inference: Inference, header: string[]): string {
  // A rule may answer with records the world also holds: written out each time, never as YAML aliases (*a1).
  const doc = new Document(scenario, { aliasDuplicateObjects: false });
  doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  for (const section of SECTIONS) {
    const parts = inference[section] ?? [];
    if (!parts[0] || !(section in scenario)) continue;
    const texts = parts.map(provenance);
    // A whole section, and parts read from the same interactions (every integration of one listing), say
    // where they came from once, on the section.
    if (parts[0].whole || texts.every((t) => t === texts[0])) {
      const pair = isMap(doc.contents)
        ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === section)
        : undefined;
      if (pair && isScalar(pair.key) && texts[0]) pair.key.commentBefore = comment(texts[0]);
      continue;
    }
    const node = doc.get(section, true);
    if (!isSeq(node)) continue;
    parts.forEach((_, i) => {
      const item = node.items[i] as Node | undefined;
      const text = texts[i];
      if (item && text) item.commentBefore = comment(text);
    });
  }
  visit(doc, {
    Map(_, node) {
      if (node.items.length <= 4 && node.items.every((p) => isScalar(p.value) && String(p.value.value).length <= 60))
        node.flow = true;
    },
    Seq(_, node) {
      if (node.items.length <= 6 && node.items.every((item) => isScalar(item) && String(item.value).length <= 40))
        node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

function comment(text: string): string {
  return text
    .split('\n')
    .map((line) => ` ${line}`)
    .join('\n');
}
