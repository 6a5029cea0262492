import type { JsonSchema, OpenApiObject } from './declarations.js';
import { clientSchema } from './schemas.js';

/** `users/:userId/messages` → `/users/{userId}/messages`, and the placeholder names. */
export function templatePath(path: string): { template: string; names: string[] } {
  const names: string[] = [];
  const segments = path.split('/').map((segment) => {
    if (!segment.startsWith(':')) return segment;
    names.push(segment.slice(1));
    return `{${segment.slice(1)}}`;
  });
  return { template: `/${segments.join('/')}`, names };
}

/** A required string path parameter. */
export function pathParameter(name: string, description?: string): OpenApiObject {
  return {
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(description && { description }),
  };
}

function types(schema: JsonSchema): unknown[] {
  const own = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const members = [schema.anyOf, schema.oneOf].flatMap((list) =>
    Array.isArray(list) ? (list as unknown[]) : [],
  );
  return [...own, ...members.flatMap((member) => types(member as JsonSchema))];
}

/** What the common query parameters do (spec: "Adapter query syntax"). */
const descriptions: Readonly<Record<string, string>> = {
  $limit: 'Page size (at most the service maximum).',
  $skip: 'Number of records to skip.',
  $sort: 'Sort order, e.g. `$sort[createdAt]=-1`.',
  $select:
    'Properties to answer, e.g. `$select[]=text`: records then hold only these (and the id), so properties the schema requires may be missing.',
  $or: 'Any of these conditions, e.g. `$or[0][text]=a&$or[1][text]=b`.',
  $and: 'All of these conditions.',
};

/**
 * The query parameters of a query schema (e.g. `querySyntax(...)`), one per top-level property.
 * Properties that may be objects (`$sort`, operator conditions like `createdAt[$gt]`) or arrays of
 * objects (`$or`, `$and`) use `deepObject` style: nested brackets, which both transports parse with
 * `qs`; arrays of values (`$select`) repeat the name (`form`, exploded); plain values are `name=value`.
 * Values arrive as strings; the service's validator coerces them.
 */
export function queryParameters(query: JsonSchema | undefined): OpenApiObject[] {
  if (query === undefined) return [];
  const schema = clientSchema(query);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([name, property]) => {
    const kinds = types(property);
    const nested =
      kinds.includes('object') || (kinds.includes('array') && types(itemsOf(property)).includes('object'));
    const style = nested ? 'deepObject' : 'form';
    const description = descriptions[name];
    return {
      name,
      in: 'query',
      required: required.includes(name),
      style,
      explode: true,
      ...(description !== undefined && { description }),
      schema: property,
    };
  });
}

function itemsOf(schema: JsonSchema): JsonSchema {
  const items = schema.items;
  return typeof items === 'object' && items !== null ? (items as JsonSchema) : {};
}
