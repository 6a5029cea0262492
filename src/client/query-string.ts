/** Percent-encodes a key, keeping `$` as it is (legal in a query, and `$limit` reads better). */
function encodeKey(key: string): string {
  return encodeURIComponent(key).replace(/%24/g, '$');
}

/** Appends `key=value` pairs for `value` under `prefix`, in the nested-bracket form `qs` parses. */
function append(pairs: string[], prefix: string, value: unknown): void {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return;
  if (value === null) {
    pairs.push(`${prefix}=`);
  } else if (value instanceof Date) {
    pairs.push(`${prefix}=${encodeURIComponent(value.toISOString())}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => append(pairs, `${prefix}[${index}]`, item));
  } else if (typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    for (const [key, item] of Object.entries(value)) append(pairs, `${prefix}[${encodeKey(key)}]`, item);
  } else {
    const text = typeof value === 'object' ? (value as { toJSON(): unknown }).toJSON() : value;
    pairs.push(`${prefix}=${encodeURIComponent(String(text))}`);
  }
}

/**
 * Writes a query object as the server's query parser reads it (spec: "Request params (HTTP
 * transports)", nested brackets): `{ $limit: 5, $sort: { createdAt: -1 }, _id: { $in: ['a', 'b'] } }`
 * → `$limit=5&$sort[createdAt]=-1&_id[$in][0]=a&_id[$in][1]=b` (keys and values
 * percent-encoded except `$` in keys, brackets kept). Arrays use indices; `null` is sent as an empty
 * value, `undefined` is left out; dates and objects with `toJSON` (e.g. `ObjectId`) are sent as their JSON form. The server receives every
 * value as a string. Returns `''` for an empty query, otherwise the text after `?` (without it).
 */
export function encodeQuery(query: Record<string, unknown> | undefined): string {
  const pairs: string[] = [];
  if (query !== undefined) {
    for (const [key, value] of Object.entries(query)) append(pairs, encodeKey(key), value);
  }
  return pairs.join('&');
}
