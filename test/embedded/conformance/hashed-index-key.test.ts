/**
 * `$toHashedIndexKey` answers the long MongoDB's hashed indexes store (manual, "$toHashedIndexKey":
 * `"string to hash"` hashes to `Long("763543691661428748")`; numbers of every type hash as the 64-bit
 * integer they truncate to, missing as null). mingo answered a 32-bit hash of its own as an int.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typedResults } from '../helpers.js';

describe.each(drivers)('hashed index keys ($name)', (driver) => {
  const state = connect(driver, 'hashed_index_key');
  const { Long, Decimal128 } = driver.bson;

  it("hashes as MongoDB's hashed indexes do", async () => {
    const results = await typedResults(state.db, {
      manual: { $toHashedIndexKey: 'string to hash' },
      int: { $toHashedIndexKey: 1 },
      long: { $toHashedIndexKey: new Long(1) },
      double: { $toHashedIndexKey: 1.7 },
      decimal: { $toHashedIndexKey: new Decimal128('1') },
      missing: { $toHashedIndexKey: '$missing' },
      null: { $toHashedIndexKey: null },
    });
    expect(results['manual']).toBe('Long 763543691661428748');
    for (const key of ['int', 'long', 'double', 'decimal']) expect(results[key]).toBe(results['int']);
    expect(results['missing']).toBe(results['null']);
    expect(results['int']).not.toBe(results['null']);
  });
});
