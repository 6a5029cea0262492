import {
  Type,
  type Static,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import { BadRequest } from '../errors/index.js';

/** Extra operators per property, e.g. `{ text: { $regex: Type.String(), $options: Type.String() } }`. */
export type QueryExtensions = Record<string, TProperties>;

/** The conditions one property accepts in a query: a value, or an object of operators. */
export type QueryProperty<T extends TSchema> = TUnsafe<
  | Static<T>
  | {
      $gt?: Static<T>;
      $gte?: Static<T>;
      $lt?: Static<T>;
      $lte?: Static<T>;
      $ne?: Static<T>;
      $in?: Static<T>[];
      $nin?: Static<T>[];
      [extension: `$${string}`]: unknown;
    }
>;

/** Per-property conditions: every property optional. */
export type QueryProperties<P extends TProperties> = { [K in keyof P]: TOptional<QueryProperty<P[K]>> };

/** The TypeBox type `querySyntax` returns (its static type is the query shape). */
export type QuerySyntax<P extends TProperties> = TObject<
  QueryProperties<P> & {
    $limit: TOptional<TUnsafe<number>>;
    $skip: TOptional<TUnsafe<number>>;
    $sort: TOptional<TUnsafe<{ [K in keyof P]?: 1 | -1 }>>;
    $select: TOptional<TUnsafe<(keyof P & string)[]>>;
    $or: TOptional<TUnsafe<Static<TObject<QueryProperties<P>>>[]>>;
    $and: TOptional<TUnsafe<unknown[]>>;
  }
>;

/** The property schema without TypeBox's optional/readonly markers (they would leak into anyOf). */
function plain(schema: TSchema): TSchema {
  return Type.Optional<TSchema, false>(schema, false);
}

/**
 * The schema of one property's conditions: the value itself, or `{ $gt, $gte, $lt, $lte, $ne, $in,
 * $nin }` plus `extension` operators, with no other operator allowed (spec: "Adapter query syntax").
 */
export function queryProperty<T extends TSchema>(schema: T, extension: TProperties = {}): QueryProperty<T> {
  const value = plain(schema);
  const operators: TProperties = {
    $gt: Type.Optional(value),
    $gte: Type.Optional(value),
    $lt: Type.Optional(value),
    $lte: Type.Optional(value),
    $ne: Type.Optional(value),
    $in: Type.Optional(Type.Array(value)),
    $nin: Type.Optional(Type.Array(value)),
  };
  for (const [name, operator] of Object.entries(extension)) operators[name] = Type.Optional(plain(operator));
  return Type.Unsafe({ anyOf: [value, Type.Object(operators, { additionalProperties: false })] });
}

/**
 * The schema of a service query for the record `properties` (spec: SEED.md "Adapter query syntax";
 * REFERENCE-feathers §2.6). Accepts a TypeBox object or its properties. The query may hold:
 *
 * - `$limit`, `$skip`: integers ≥ 0 (strings from URLs are coerced by `createValidator()`'s AJV);
 * - `$sort`: `{ <property>: 1 | -1 }`; `$select`: an array of property names;
 * - `$or`: an array of per-property conditions; `$and`: an array of conditions or `{ $or: [...] }`;
 * - per property: a value or `{ $gt, $gte, $lt, $lte, $ne, $in, $nin }`, plus that property's
 *   `extensions` (e.g. `{ text: { $regex: Type.String(), $options: Type.String() } }`).
 *
 * Unknown properties and operators are rejected (`additionalProperties: false`). A validated query is
 * trusted by the adapter as it is (see `validateQuery`), so database-specific operators must be added here.
 * @throws BadRequest when `extensions` names a property that is not in `properties`.
 */
export function querySyntax<P extends TProperties>(
  properties: TObject<P> | P,
  extensions: QueryExtensions = {},
): QuerySyntax<P> {
  const props = (
    typeof (properties as { type?: unknown }).type === 'string' && 'properties' in properties
      ? (properties as TObject<P>).properties
      : properties
  ) as P;
  const names = Object.keys(props);
  for (const name of Object.keys(extensions)) {
    if (!names.includes(name)) throw new BadRequest(`Query extension for unknown property '${name}'`);
  }
  const conditions: TProperties = {};
  for (const name of names) {
    conditions[name] = Type.Optional(queryProperty(props[name] as TSchema, extensions[name]));
  }
  const condition = Type.Object(conditions, { additionalProperties: false });
  const nameSchema = names.length > 0 ? { type: 'string', enum: names } : { not: {} };
  const direction = { type: 'integer', enum: [1, -1] };
  const sort: TProperties = {};
  for (const name of names) sort[name] = Type.Optional(Type.Unsafe(direction));

  return Type.Object(
    {
      $limit: Type.Optional(Type.Unsafe<number>({ type: 'integer', minimum: 0 })),
      $skip: Type.Optional(Type.Unsafe<number>({ type: 'integer', minimum: 0 })),
      $sort: Type.Optional(Type.Unsafe(Type.Object(sort, { additionalProperties: false }))),
      $select: Type.Optional(Type.Unsafe({ type: 'array', items: nameSchema })),
      $or: Type.Optional(Type.Unsafe(Type.Array(condition))),
      $and: Type.Optional(
        Type.Unsafe(
          Type.Array(
            Type.Union([
              condition,
              Type.Object({ $or: Type.Array(condition) }, { additionalProperties: false }),
            ]),
          ),
        ),
      ),
      ...conditions,
    },
    { additionalProperties: false },
  ) as unknown as QuerySyntax<P>;
}
