import type { HookContext } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';
import { resolve, resolveObjectId, virtual } from 'plume/schema';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';

const context = { method: 'get' } as HookContext;

describe('resolve', () => {
  it('sets resolved properties, removes undefined ones and leaves the input unchanged', async () => {
    const resolver = resolve({
      name: (value) => String(value).toUpperCase(),
      secret: () => undefined,
      missing: () => undefined,
    });
    const input = { name: 'ada', secret: 'x', other: 1 };
    await expect(resolver.resolve(input, context)).resolves.toEqual({ name: 'ADA', other: 1 });
    expect(input).toEqual({ name: 'ada', secret: 'x', other: 1 });
  });

  it('passes value, whole record and context, and awaits async resolvers', async () => {
    const seen: unknown[] = [];
    const resolver = resolve({
      properties: {
        total: async (value, data, ctx) => {
          seen.push(value, data, ctx);
          await Promise.resolve();
          return (data.a as number) + (data.b as number);
        },
      },
    });
    const data = { a: 1, b: 2 };
    await expect(resolver.resolve(data, context)).resolves.toEqual({ a: 1, b: 2, total: 3 });
    expect(seen).toEqual([undefined, data, context]);
  });

  it('virtual properties ignore the stored value', async () => {
    const resolver = resolve({ full: virtual((data: Record<string, unknown>) => `${String(data.first)}!`) });
    await expect(resolver.resolve({ first: 'a', full: 'stored' }, context)).resolves.toEqual({
      first: 'a',
      full: 'a!',
    });
  });

  it('works with resolveObjectId as a property resolver', async () => {
    const hex = '5f1e3c6a9d0b4a2c8e7f6a5b';
    const resolver = resolve({ userId: resolveObjectId });
    const resolved = await resolver.resolve({ userId: hex }, context);
    expect(resolved.userId).toEqual(new ObjectId(hex));
    await expect(resolver.resolve({}, context)).resolves.toEqual({});
    await expect(resolver.resolve({ userId: 'short' }, context)).rejects.toMatchObject({
      code: 400,
      message: 'Error resolving data',
      errors: { userId: expect.objectContaining({ name: 'BadRequest' }) as unknown },
    });
  });

  it('collects plume errors per property into one 400 and rethrows other errors', async () => {
    const failing = resolve({
      a: () => {
        throw new NotFound('no a');
      },
      b: () => Promise.reject(new BadRequest('bad b')),
    });
    const error = (await failing.resolve({}, context).catch((e: unknown) => e)) as BadRequest;
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.errors).toMatchObject({ a: { message: 'no a' }, b: { message: 'bad b' } });

    const bug = resolve({
      a: () => {
        throw new TypeError('oops');
      },
    });
    await expect(bug.resolve({}, context)).rejects.toThrow(TypeError);
  });

  it('returns non-objects unchanged and refuses non-function resolvers', async () => {
    const resolver = resolve({ a: () => 1 });
    await expect(resolver.resolve(null as unknown as Record<string, unknown>, context)).resolves.toBeNull();
    expect(() => resolve({ a: 'nope' as unknown as () => unknown })).toThrow(/'a'/);
  });
});
