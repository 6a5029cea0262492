import type { JsonSchema } from './declarations.js';

/** What an object id is once it is sent as JSON: 24 hexadecimal characters. */
const objectIdString: JsonSchema = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };

/** An object that accepts anything: what a service without a schema is documented with. */
export const openObject: JsonSchema = { type: 'object' };

/**
 * The JSON form of a schema as clients see it: a plain copy (TypeBox's symbol markers dropped) in
 * which `plume/schema`'s object id schema (`anyOf` of `{ objectid: true }` members) becomes the
 * 24-hex-character string an `ObjectId` is sent as.
 */
export function clientSchema(schema: JsonSchema): JsonSchema {
  return rewrite(JSON.parse(JSON.stringify(schema)) as unknown) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== 'object' || node === null) return node;
  const record = node as JsonSchema;
  const { anyOf } = record;
  if (Array.isArray(anyOf) && anyOf.length > 0 && anyOf.every(isObjectIdMember)) {
    const { anyOf: _anyOf, ...rest } = record;
    return { ...rewriteValues(rest), ...objectIdString };
  }
  return rewriteValues(record);
}

function rewriteValues(record: JsonSchema): JsonSchema {
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(record)) copy[key] = rewrite(value);
  return copy;
}

function isObjectIdMember(member: unknown): boolean {
  return typeof member === 'object' && member !== null && (member as JsonSchema).objectid === true;
}

/** `{ $ref }` to a schema component. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * The schema components of one document. `add` stores a schema under a name and returns a `$ref`;
 * the same schema under the same name is stored once, a different schema under a taken name gets a
 * numbered name (`Message2`).
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly texts = new Map<string, string>();

  add(name: string, schema: JsonSchema): JsonSchema {
    const plain = clientSchema(schema);
    const text = JSON.stringify(plain);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}${n}`;
      const taken = this.texts.get(candidate);
      if (taken === undefined) {
        this.texts.set(candidate, text);
        this.schemas[candidate] = plain;
        return ref(candidate);
      }
      if (taken === text) return ref(candidate);
    }
  }
}

/** `users/:userId/messages` → `UsersUserIdMessages`: a component name for a service path. */
export function nameOfPath(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return name === '' ? 'Root' : name;
}

/** The pagination envelope `find` answers when `paginate` is on (spec: "REST mapping"). */
export function pageOf(item: JsonSchema): JsonSchema {
  const count = { type: 'integer', minimum: 0 };
  return {
    type: 'object',
    required: ['total', 'limit', 'skip', 'data'],
    properties: { total: count, limit: count, skip: count, data: { type: 'array', items: item } },
  };
}

/** One item or an array of items (`create` with `multi`). */
export function oneOrMany(item: JsonSchema): JsonSchema {
  return { anyOf: [item, { type: 'array', items: item }] };
}
