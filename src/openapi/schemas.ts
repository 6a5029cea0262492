import type { JsonSchema, OpenApiObject } from './declarations.js';

/** What an object id is once it is sent as JSON: 24 hexadecimal characters. */
const objectIdString: JsonSchema = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };

/** An object that accepts anything: what a service without a schema is documented with. */
export const openObject: JsonSchema = { type: 'object' };

/**
 * A schema as clients see it: `plume/schema`'s object id schema (`anyOf` of `{ objectid: true }`
 * members) becomes the 24-hex-character string an `ObjectId` is sent as. Parts without an object id
 * are shared with `schema`, not copied (`openapi()` returns a JSON copy of the whole document).
 */
export function clientSchema(schema: JsonSchema): JsonSchema {
  return rewrite(schema) as JsonSchema;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) {
    const items = node.map(rewrite);
    return items.some((item, index) => item !== node[index]) ? items : node;
  }
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
  let copy: JsonSchema | undefined;
  for (const [key, value] of Object.entries(record)) {
    const rewritten = rewrite(value);
    if (rewritten !== value) (copy ??= { ...record })[key] = rewritten;
  }
  return copy ?? record;
}

function isObjectIdMember(member: unknown): boolean {
  return typeof member === 'object' && member !== null && (member as JsonSchema).objectid === true;
}

/** `{ $ref }` to a schema component. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * The reusable components of one document: schemas and parameters. `add` and `addParameter` store a
 * value under a name and return a `$ref` to it; the same value under the same name is stored once,
 * a different value under a taken name gets a numbered name (`Message2`).
 */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly parameters: Record<string, OpenApiObject> = {};
  private readonly texts = new Map<string, string>();

  private readonly seen = new WeakMap<JsonSchema, JsonSchema>();

  /** Stores `schema` as clients see it (`clientSchema`) under `components.schemas`. */
  add(name: string, schema: JsonSchema): JsonSchema {
    let plain = this.seen.get(schema);
    if (plain === undefined) this.seen.set(schema, (plain = clientSchema(schema)));
    return this.store('schemas', name, plain);
  }

  /** Stores a parameter object under `components.parameters` (the name is made a valid key). */
  addParameter(name: string, parameter: OpenApiObject): OpenApiObject {
    return this.store('parameters', name.replace(/[^A-Za-z0-9._-]/g, '-'), parameter);
  }

  private store(kind: 'schemas' | 'parameters', name: string, value: JsonSchema): JsonSchema {
    const text = JSON.stringify(value);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}${n}`;
      const taken = this.texts.get(`${kind}/${candidate}`);
      if (taken === undefined) {
        this.texts.set(`${kind}/${candidate}`, text);
        this[kind][candidate] = value;
        return { $ref: `#/components/${kind}/${candidate}` };
      }
      if (taken === text) return { $ref: `#/components/${kind}/${candidate}` };
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
