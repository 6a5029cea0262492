/**
 * The options every mingo query and aggregation of the engine runs with: the engine's operator context,
 * strict mode, no cloning, and the command's collation.
 */
import { ProcessingMode } from 'mingo/core';
import type { Options } from 'mingo/types';
import { CONTEXT } from './context.js';
import type { Collation } from './collation.js';

/** mingo options for `collation` (none: binary comparison), with `extra` options on top. */
export function mingoOptions(
  collation: Collation | undefined,
  extra: Partial<Options> = {},
): Partial<Options> {
  return {
    context: CONTEXT,
    idKey: '_id',
    processingMode: ProcessingMode.CLONE_OFF,
    useStrictMode: true,
    scriptEnabled: true,
    ...(collation ? { collation: collation as Options['collation'] } : {}),
    ...extra,
  };
}
