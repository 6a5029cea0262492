import { describe, expect, it } from 'vitest';
import { expectError, ITEM_ID, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

/**
 * Update operators in `patch` data reach the database as they are, and a `$pull` condition is a query
 * the database runs on the array's elements: it gets the same refusals as a client query (no `$expr`,
 * `$where`, `$function`, `$accumulator`; `$regex` patterns through the backtracking guard). Data the
 * database cannot store (nested deeper than it allows) is the client's 400, not a 500.
 */
const patch = (body: unknown) => ({
  method: 'PATCH',
  path: `/items/${ITEM_ID}`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** `{ a: { a: … { a: 1 } } }`, `depth` objects deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe.each(hostileTransports)('update operators in patch data ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    ['$expr', { $pull: { tags: { $expr: { $eq: ['$$this', 'x'] } } } }],
    ['$where', { $pull: { tags: { $where: 'true' } } }],
    ['$function', { $pull: { tags: { $elemMatch: { $function: {} } } } }],
    ['$accumulator', { $pull: { tags: { $or: [{ $accumulator: {} }] } } }],
  ])('a $pull condition with %s is a 400', async (operator, body) => {
    expectError(
      await server().send(patch(body)),
      400,
      new RegExp(`^Query operator '\\${operator}' is not allowed$`),
    );
  });

  it('a $pull condition with a catastrophic $regex is a 400', async () => {
    const answer = await server().send(patch({ $pull: { tags: { $regex: '(a+)+$' } } }));
    expectError(answer, 400, /^Invalid \$regex '\(a\+\)\+\$'/);
  });

  it('an ordinary $pull still runs', async () => {
    const answer = await server().send(patch({ $pull: { tags: { $in: ['x', 'y'] } } }));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ _id: ITEM_ID, text: 'original' });
  });

  it('data nested deeper than the database stores is a 400', async () => {
    const answer = await server().send(patch({ deep: nested(150) }));
    expectError(answer, 400, /^Invalid query or data: /);
  });
});
