/**
 * The `$elemMatch` projection operator (manual, "$elemMatch (projection)"): the first element of the
 * array field that matches the condition, as a one-element array; the field is left out when none
 * does. The condition is the one `{ field: { $elemMatch: condition } }` takes in a query, so it may
 * name the fields of document elements or (for arrays of values) be operators only, such as
 * `{ $gte: 2 }`; mingo's own read it as a whole query and refused the operator form.
 */
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';

/** A projection operator: the value of `field` in the projected document, or undefined to leave it out. */
type ProjectionOp = (obj: Record<string, unknown>, expr: unknown, field: string, options: Options) => unknown;

/** The `$elemMatch` projection operator registered in the engine's context (same arguments as mingo's). */
export const elemMatchProjection: ProjectionOp = (obj, expr, field, options) => {
  const array: unknown = resolve(obj, field);
  if (!Array.isArray(array)) return undefined;
  // Each element is tested on its own, as the only element of an array, with the query operator.
  const query = new Query({ element: { $elemMatch: expr } }, options);
  const first: unknown = (array as unknown[]).find((element) => query.test({ element: [element] }));
  return first === undefined ? undefined : [first];
};
