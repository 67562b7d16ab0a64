// The schema compilers apps of one process share (src/http/schema-compilers.ts, docs/testing.md): an
// app never gets a function compiled for another schema, whatever its routes are called.
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { compileEverySchemaNow, keptCompilers } from '../../src/http/schema-compilers.js';
import { createTestApp } from '../support/app.js';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app with the shared compilers and one route, POST /x, with this body and answer schema. */
async function appWith(body: object, answer: object) {
  const app = Fastify({ schemaController: { compilersFactory: keptCompilers }, ajv: { customOptions: { removeAdditional: true } } });
  apps.push(app);
  app.post('/x', { schema: { body, response: { 200: answer } } }, async (request) => ({ ...(request.body as object), secret: 's', shown: 'v' }));
  await app.ready();
  return app;
}

const name = (maxLength: number) => ({ type: 'object', properties: { name: { type: 'string', maxLength } }, required: ['name'] });
const shows = (...fields: string[]) => ({ type: 'object', properties: Object.fromEntries(fields.map((field) => [field, { type: 'string' }])) });

describe('compilers shared by the apps of a process', () => {
  it('validate and serialise each app by its own schema, when two apps name the same route alike', async () => {
    const short = await appWith(name(3), shows('name'));
    const long = await appWith(name(6), shows('name', 'shown'));
    const post = (app: typeof short, nameValue: string) => app.inject({ method: 'POST', url: '/x', payload: { name: nameValue } });

    expect((await post(short, 'abcde')).statusCode).toBe(400);
    expect((await post(long, 'abcde')).json()).toEqual({ name: 'abcde', shown: 'v' });
    expect((await post(short, 'abc')).json()).toEqual({ name: 'abc' });
  });

  it('compile a schema once and hand the same function to the next app with the same schema', () => {
    const validatorOf = (schema: object) => keptCompilers.buildValidator!({}, { customOptions: {} })({ schema, method: 'POST', url: '/x', httpPart: 'body' });
    const first = validatorOf(name(4));
    expect(validatorOf(name(4))).toBe(first);
    expect(validatorOf(name(5))).not.toBe(first);
  });

  it('share no function for a schema JSON does not carry exactly (a RegExp, a Date, undefined, a function, NaN, a hole in an array)', () => {
    const validatorOf = (schema: object) =>
      keptCompilers.buildValidator!({}, { customOptions: { strict: false } })({ schema, method: 'POST', url: '/x', httpPart: 'body' });
    for (const odd of [/a/, new Date(0), undefined, () => 1, Number.NaN]) {
      const schema = { type: 'object', properties: { name: { type: 'string' } }, odd };
      expect(validatorOf(schema), String(odd)).not.toBe(validatorOf({ ...schema }));
    }
    const nested = () => ({ type: 'object', properties: { name: { type: 'string', pattern: 'a', odd: [undefined] } } });
    expect(validatorOf(nested())).not.toBe(validatorOf(nested()));
    // A hole in an array is written as null: it must not share the function of a null that is there.
    const withNull = validatorOf({ type: 'string', examples: [null, 'a'] });
    // eslint-disable-next-line no-sparse-arrays
    expect(validatorOf({ type: 'string', examples: [, 'a'] })).not.toBe(withNull);
  });

  it('compile a schema at its first use, and answer its errors then as before', async () => {
    const app = await appWith(name(2), shows('name'));
    const refused = await app.inject({ method: 'POST', url: '/x', payload: { name: 'abc' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'FST_ERR_VALIDATION' });
    expect(JSON.stringify(refused.json())).toContain('name');
    expect((await app.inject({ method: 'POST', url: '/x', payload: {} })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/x', payload: { name: 'ab' } })).json()).toEqual({ name: 'ab' });
  });

  it('compile every schema of the whole app: none of them fails only when its route is first called', async () => {
    const { close } = await createTestApp();
    try {
      expect(() => compileEverySchemaNow()).not.toThrow();
    } finally {
      await close();
    }
  });

  it('refuse a headers schema with capitals, which Fastify would have lowercased', async () => {
    const app = Fastify({ schemaController: { compilersFactory: keptCompilers } });
    apps.push(app);
    app.get('/h', { schema: { headers: { type: 'object', properties: { 'X-Key': { type: 'string' } } } } }, async () => 'ok');
    await expect(app.ready()).rejects.toThrow(/"X-Key" in lowercase/);
  });
});
