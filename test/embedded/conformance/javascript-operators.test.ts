/**
 * `$function` and `$accumulator` need server-side JavaScript, which the embedded database does not
 * have: in a pipeline, as in a filter, it refuses them with 238 `NotImplemented` and a message naming
 * the operator (docs/embedded.md, "What it does not support"). It used to fail with mingo's
 * "fn.body.apply is not a function".
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('server-side JavaScript in pipelines ($name)', (driver) => {
  const state = connect(driver, 'javascript_operators');
  const message = (name: string): string =>
    `${name} runs server-side JavaScript, which the embedded database does not support`;

  it('refuses $function and $accumulator with 238', async () => {
    const coll = state.db.collection<any>('docs');
    await coll.insertOne({ _id: 1, a: 2 });
    const fn = await failure(() =>
      coll
        .aggregate([
          {
            $addFields: { v: { $function: { body: 'function(a) { return a; }', args: ['$a'], lang: 'js' } } },
          },
        ])
        .toArray(),
    );
    expect([fn['code'], fn['message']]).toEqual([238, message('$function')]);
    const accumulator = {
      init: 'function() { return 0; }',
      accumulate: 'function(s, a) { return s + a; }',
      accumulateArgs: ['$a'],
      merge: 'function(x, y) { return x + y; }',
      lang: 'js',
    };
    const group = await failure(() =>
      coll.aggregate([{ $group: { _id: null, v: { $accumulator: accumulator } } }]).toArray(),
    );
    expect([group['code'], group['message']]).toEqual([238, message('$accumulator')]);
  });
});
