// Writes a "newer" version of the interface, made from the simulator's own spec, to try `--spec` and `spec-diff`
// without a newer real server: `node scripts/newer-interface.mjs [OUT]` (default
// test/fixtures/newer-interface.openapi.json, which is not kept in git: the tests and docs write their own).
// What it changes, one of each thing spec-diff reports:
// - moved: the attempt's status under its integration, as upstream did
//   (GET /api/integration/attempt/{attemptID} → GET /api/integration/{integrationID}/attempt/{attemptID});
// - added: GET /api/session/{sessionID}/share (v2.session.share);
// - removed: GET /api/skill (v2.skill.list);
// - changed, and still fits: GET /api/session takes an optional `tag` query (the world ignores it);
// - changed, and no longer fits: GET /api/pty/{ptyID} answers a required `data.revision` the world never sends.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function newerInterface(spec = parse(readFileSync(resolve(root, 'spec/session-agent.openapi.yaml'), 'utf8'))) {
  const doc = structuredClone(spec);
  const paths = doc.paths;
  doc.info = { ...doc.info, version: `${doc.info.version}-newer` };

  const attempt = paths['/api/integration/attempt/{attemptID}'];
  const integrationID = paths['/api/integration/{integrationID}'].get.parameters.find(
    (p) => p.name === 'integrationID',
  );
  paths['/api/integration/{integrationID}/attempt/{attemptID}'] = {
    get: { ...attempt.get, parameters: [integrationID, ...attempt.get.parameters] },
  };
  delete attempt.get;

  paths['/api/session/{sessionID}/share'] = {
    get: {
      operationId: 'v2.session.share',
      summary: 'A link to a read-only copy of the session',
      parameters: [{ name: 'sessionID', in: 'path', required: true, schema: { type: 'string', pattern: '^ses' } }],
      responses: {
        200: {
          description: 'The link.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data'],
                additionalProperties: false,
                properties: {
                  data: {
                    type: 'object',
                    required: ['url'],
                    additionalProperties: false,
                    properties: { url: { type: 'string', format: 'uri' } },
                  },
                },
              },
              example: { data: { url: 'https://share.example.com/s/ses_demo' } },
            },
          },
        },
        400: { $ref: '#/components/responses/InvalidRequest' },
        404: { $ref: '#/components/responses/SessionNotFound' },
      },
    },
  };

  delete paths['/api/skill'];

  paths['/api/session'].get.parameters.push({
    name: 'tag',
    in: 'query',
    required: false,
    schema: { type: 'string' },
  });

  const pty = paths['/api/pty/{ptyID}'].get.responses['200'].content['application/json'].schema;
  const shape = doc.components.schemas.Pty;
  pty.properties.data = {
    ...shape,
    required: [...shape.required, 'revision'],
    properties: { ...shape.properties, revision: { type: 'integer' } },
  };
  return doc;
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  const out = resolve(process.argv[2] ?? resolve(root, 'test/fixtures/newer-interface.openapi.json'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(newerInterface(), null, 2)}\n`);
  process.stdout.write(`wrote ${out}\n`);
}
