import type { JsonSchema, OpenApiObject } from './declarations.js';
import { clientSchema, type Components } from './schemas.js';

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
    'Properties to answer, e.g. `$select[]=text&$select[]=createdAt`: records then hold only these (and the id), so properties the schema requires may be missing.',
};

/** The query of an operation: its parameters, and the names of the properties no parameter style can express. */
export interface QueryParameters {
  parameters: OpenApiObject[];
  /** Arrays of objects such as `$or` and `$and`: `$or[0][text]=a` (OpenAPI's styles leave them undefined). */
  nested: string[];
}

/**
 * The query parameters of a query schema (e.g. `querySyntax(...)`), one per top-level property.
 * Properties that may be objects (`$sort`, operator conditions like `createdAt[$gt]=5`) use
 * `deepObject` style: brackets, which both transports parse with `qs`; arrays of values (`$select`)
 * are named with brackets and repeat (`$select[]=a&$select[]=b`, `form`, exploded), because `qs`
 * reads a single `$select=a` as a string; plain values are `name=value`. Arrays of objects (`$or`,
 * `$and`) have no OpenAPI style (tools would send them as JSON), so they are returned in `nested`
 * for the operation's description instead. Values arrive as strings; the service's validator coerces them.
 */
export function queryParameters(
  query: JsonSchema | undefined,
  components: Components,
  name: string,
): QueryParameters {
  const result: QueryParameters = { parameters: [], nested: [] };
  if (query === undefined) return result;
  const schema = clientSchema(query);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const [property, propertySchema] of Object.entries(properties)) {
    const kinds = types(propertySchema);
    if (kinds.includes('array') && types(itemsOf(propertySchema)).includes('object')) {
      result.nested.push(property);
      continue;
    }
    const description = descriptions[property];
    // `name[]=a` is an array for qs even with one value; `name=a` would be a string (400 from the validator).
    const isArray = kinds.includes('array') && !kinds.includes('object');
    // Each parameter is a component, so operations sharing it (find, patch and remove of many) refer to one copy.
    const parameter = components.addParameter(`${name}.${property}`, {
      name: isArray ? `${property}[]` : property,
      in: 'query',
      required: required.includes(property),
      style: kinds.includes('object') ? 'deepObject' : 'form',
      explode: true,
      ...(description !== undefined && { description }),
      schema: propertySchema,
    });
    result.parameters.push(parameter);
  }
  return result;
}

/** The description of the query properties that are arrays of conditions, or `undefined` for none. */
export function nestedQueryNote(nested: string[]): string | undefined {
  if (nested.length === 0) return undefined;
  const names = nested.map((name) => `\`${name}\``).join(', ');
  const [first] = nested;
  return `The query also takes ${names}: arrays of conditions in brackets, e.g. \`${first}[0][field]=a&${first}[1][field]=b\`.`;
}

function itemsOf(schema: JsonSchema): JsonSchema {
  const items = schema.items;
  return typeof items === 'object' && items !== null ? (items as JsonSchema) : {};
}
