import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ObjectId } from 'mongodb';
import { ObjectIdSchema, querySyntax, Type, type Static } from 'plume/schema';

describe('plume/schema public surface', () => {
  it("exports exactly these names (and VALIDATED is the adapter's marker)", async () => {
    expect(Object.keys(await import('plume/schema')).sort()).toEqual([
      'ObjectIdSchema',
      'Type',
      'VALIDATED',
      'createDataValidator',
      'createQueryValidator',
      'createValidator',
      'getValidator',
      'isObjectIdLike',
      'isObjectIdString',
      'isValidated',
      'isVirtual',
      'keywordObjectId',
      'queryProperty',
      'querySyntax',
      'resolve',
      'resolveData',
      'resolveExternal',
      'resolveObjectId',
      'resolveQuery',
      'resolveQueryObjectId',
      'resolveResult',
      'toValidationError',
      'validateData',
      'validateQuery',
      'virtual',
    ]);
    const { VALIDATED } = await import('plume/schema');
    expect(VALIDATED).toBe((await import('plume/adapter')).VALIDATED);
  });

  it('types a query from its schema', () => {
    const schema = querySyntax(
      Type.Object({ name: Type.String(), age: Type.Number(), _id: ObjectIdSchema() }),
    );
    expect(schema.additionalProperties).toBe(false);
    type Q = Static<typeof schema>;
    expectTypeOf<{ age: { $gt: number }; $limit: number; $sort: { age: -1 } }>().toExtend<Q>();
    expectTypeOf<{ name: 'x'; _id: { $in: (string | ObjectId)[] }; $select: ['name'] }>().toExtend<Q>();
    expectTypeOf<{ age: { $gt: 'x' } }>().not.toExtend<Q>();
    expectTypeOf<{ $select: ['password'] }>().not.toExtend<Q>();
  });
});
