import { describe, expect, it } from 'vitest';

describe('public surface', () => {
  it('plume/adapter exports exactly these names', async () => {
    expect(Object.keys(await import('plume/adapter')).sort()).toEqual([
      'AdapterBase',
      'FORBIDDEN_OPERATORS',
      'MAX_REGEX_LENGTH',
      'QUERY_LIMITS',
      'STANDARD_FILTERS',
      'STANDARD_OPERATORS',
      'VALIDATED',
      'checkRegexPattern',
      'coerceQuery',
      'describeValue',
      'filterQuery',
      'getLimit',
      'isPlainObject',
    ]);
  });

  it('plume/docdb exports exactly these names', async () => {
    expect(Object.keys(await import('plume/docdb')).sort()).toEqual([
      'DEFAULT_DISABLED_OPERATORS',
      'DocDbService',
      'FRAMEWORK_STAGE',
      'checkPlainId',
      'duplicateKeyFields',
      'getProjection',
      'handleDriverError',
      'isObjectId',
      'isRetryableTransactionError',
      'makePatchUpdate',
      'makeUpdate',
      'objectifyQuery',
      'queryStages',
      'splitPipeline',
      'toObjectId',
    ]);
  });

  it('VALIDATED is the shared registry symbol schema validation uses', async () => {
    const { VALIDATED } = await import('plume/adapter');
    expect(VALIDATED).toBe(Symbol.for('plume/adapter/validated'));
  });
});
