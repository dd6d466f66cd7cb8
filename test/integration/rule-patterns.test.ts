/**
 * A rule's pathPattern is a user's regular expression met by every request's path: it is matched in linear
 * time, so a pattern V8 would backtrack on for ever answers at once; what no linear-time matcher runs, or a
 * pattern past the bound, is refused as the rule's problem, naming the pattern and what to write instead.
 */
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SimApp } from '../../src/hosts/app.js';

let app: SimApp;
beforeAll(async () => {
  app = await createApp({ scenario: { name: 'patterns' }, log: () => {} });
});

const rule = (pathPattern: string) => ({
  when: { method: 'GET', pathPattern },
  then: { status: 200, body: { matched: pathPattern } },
  outsideSpec: true,
});

describe('a rule by pathPattern', () => {
  it('that V8 would backtrack on for ever answers a long path at once', async () => {
    // ^/(a+)+$ takes V8 a second at 28 characters, four times longer for every two more.
    const added = await request(app).post('/__sim/rules').send(rule('^/(?<run>a+)+$'));
    expect(added.status).toBe(201);
    const long = `/${'a'.repeat(10 * 1024)}`;
    const hit = await request(app).get(long);
    expect(hit.status).toBe(200);
    expect(hit.body).toEqual({ matched: '^/(?<run>a+)+$' });
    // The path that makes V8 backtrack: no match, so no rule answers it.
    const miss = await request(app).get(`${long}!`);
    expect(miss.status).toBe(404);
    expect(miss.body._tag).toBe('SimRouteNotFoundError');
    await request(app).delete('/__sim/rules').expect(204);
  });

  it('takes the patterns rules are written with', async () => {
    for (const pattern of ['^/api/gateway/(?<name>[^/]+)/message$', '\\d+', '(foo|bar)', '^/hooks/[a-z]{1,32}$']) {
      const res = await request(app).post('/__sim/rules').send(rule(pattern));
      expect(res.status, pattern).toBe(201);
    }
    expect((await request(app).get('/api/gateway/openai/message')).body).toEqual({
      matched: '^/api/gateway/(?<name>[^/]+)/message$',
    });
    expect((await request(app).get('/v2/foo')).body).toEqual({ matched: '\\d+' });
    expect((await request(app).get('/x/bar')).body).toEqual({ matched: '(foo|bar)' });
    await request(app).delete('/__sim/rules').expect(204);
  });

  it('refuses a lookaround, a backreference and an overlong pattern with SimRuleError, naming it', async () => {
    const refused = async (pattern: string) => {
      const res = await request(app).post('/__sim/rules').send(rule(pattern));
      expect(res.status, pattern).toBe(400);
      expect(res.body._tag).toBe('SimRuleError');
      return res.body.problems as string[];
    };
    expect(await refused('^/api/(?!session)')).toEqual([
      'when.pathPattern: pattern "^/api/(?!session)" uses a lookaround (?!), which matching in linear time cannot do: match the text itself (a rule ahead of this one can take what must not match)',
    ]);
    expect(await refused('^/(?<x>a)/\\1$')).toEqual([
      'when.pathPattern: pattern "^/(?<x>a)/\\\\1$" uses \\1, a backreference or an octal escape, which matching in linear time cannot do: match the text itself, or write a character as \\xHH',
    ]);
    const long = `^/${'[a-z]'.repeat(200)}$`;
    expect(await refused(long)).toEqual([
      `when.pathPattern: pattern "${long.slice(0, 60)}…" is ${long.length} characters long, more than the 1000 a pattern may have`,
    ]);
    expect((await request(app).get('/__sim/rules')).body).toMatchObject({ rules: [] });
  });
});
