/**
 * MongoDB wire protocol framing: decode OP_MSG / OP_QUERY requests, encode OP_MSG / OP_REPLY responses.
 * See https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/.
 */
import { BSON, Long } from 'bson';
import type { Double, Int32 } from 'bson';
import { asDouble } from './engine/numbers.js';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;
export const OP_COMPRESSED = 2012;

/** OP_MSG flag bits. */
export const MSG_CHECKSUM_PRESENT = 1;
export const MSG_MORE_TO_COME = 2;
export const MSG_EXHAUST_ALLOWED = 1 << 16;

/**
 * The decoding options every incoming document uses: regexes stay BSONRegExp so all options survive, and
 * numbers keep their bson wrappers until {@link decodeDocument} decides which must stay wrapped.
 */
const DESERIALIZE_OPTIONS = { bsonRegExp: true, promoteLongs: false, promoteValues: false } as const;

/** Int32s become JS numbers, doubles too unless the encoder would then write them as ints. */
function promoteNumbers(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  if (tag === 'Int32') return (value as Int32).value;
  if (tag === 'Double') return asDouble((value as Double).value);
  if (tag !== undefined || value instanceof Date) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = promoteNumbers(value[i]);
  } else {
    const doc = value as Record<string, unknown>;
    for (const key of Object.keys(doc)) doc[key] = promoteNumbers(doc[key]);
  }
  return value;
}

/**
 * Decodes one BSON document as the engine stores it. Each value keeps its BSON type on a round trip:
 * regexes stay `BSONRegExp` (all options survive), every int64 stays a `Long`, and a double with an integral
 * value that fits 32 bits stays a bson `Double` (as a JS number the encoder would write it as an int).
 * numbers.ts makes them all compare as numbers.
 * @throws BSONError for malformed bytes.
 */
export function decodeDocument(bytes: Uint8Array): Record<string, unknown> {
  return promoteNumbers(BSON.deserialize(bytes, DESERIALIZE_OPTIONS)) as Record<string, unknown>;
}

/** A decoded request. `command` is the OP_MSG body merged with its document sequences, or the OP_QUERY query. */
export interface WireRequest {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  flags: number;
  command: Record<string, unknown>;
  /** For OP_QUERY: the namespace (`admin.$cmd`). */
  fullCollectionName?: string;
}

function readCString(buf: Buffer, offset: number): [string, number] {
  const end = buf.indexOf(0, offset);
  if (end < 0) throw new Error('unterminated cstring');
  return [buf.toString('utf8', offset, end), end + 1];
}

/**
 * Decodes one complete message (header included).
 * @throws Error on malformed input or an unsupported opCode.
 */
export function decodeMessage(buf: Buffer): WireRequest {
  const length = buf.readInt32LE(0);
  const requestId = buf.readInt32LE(4);
  const opCode = buf.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = buf.readUInt32LE(16);
    const end = flags & MSG_CHECKSUM_PRESENT ? length - 4 : length;
    let offset = 20;
    let command: Record<string, unknown> | undefined;
    const sequences: [string, Record<string, unknown>[]][] = [];
    while (offset < end) {
      const kind = buf.readUInt8(offset);
      offset += 1;
      if (kind === 0) {
        const size = buf.readInt32LE(offset);
        command = decodeDocument(buf.subarray(offset, offset + size));
        offset += size;
      } else if (kind === 1) {
        const size = buf.readInt32LE(offset);
        const sectionEnd = offset + size;
        const [identifier, docsStart] = readCString(buf, offset + 4);
        const docs: Record<string, unknown>[] = [];
        let p = docsStart;
        while (p < sectionEnd) {
          const docSize = buf.readInt32LE(p);
          docs.push(decodeDocument(buf.subarray(p, p + docSize)));
          p += docSize;
        }
        sequences.push([identifier, docs]);
        offset = sectionEnd;
      } else {
        throw new Error(`unsupported OP_MSG section kind ${kind}`);
      }
    }
    if (!command) throw new Error('OP_MSG without a body section');
    for (const [identifier, docs] of sequences) {
      const existing = command[identifier];
      command[identifier] = Array.isArray(existing) ? [...(existing as unknown[]), ...docs] : docs;
    }
    return { requestId, opCode, flags, command };
  }
  if (opCode === OP_QUERY) {
    const flags = buf.readInt32LE(16);
    const [fullCollectionName, next] = readCString(buf, 20);
    const docStart = next + 8;
    const size = buf.readInt32LE(docStart);
    let command = decodeDocument(buf.subarray(docStart, docStart + size));
    // Legacy wrapped form: { $query: {...}, $readPreference: ... }
    if (command['$query'] && typeof command['$query'] === 'object')
      command = command['$query'] as typeof command;
    return { requestId, opCode, flags, command, fullCollectionName };
  }
  throw new Error(`unsupported opCode ${opCode}`);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** Encodes an OP_MSG reply with a single body section. */
export function encodeOpMsg(responseTo: number, doc: Record<string, unknown>): Buffer {
  const body = BSON.serialize(doc);
  const prefix = Buffer.alloc(5); // flagBits (0) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), prefix, body]);
}

/** Encodes an OP_REPLY (the answer to a legacy OP_QUERY) carrying one document. */
export function encodeOpReply(responseTo: number, doc: Record<string, unknown>): Buffer {
  const body = BSON.serialize(doc);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  const cursorId = Long.ZERO;
  fields.writeInt32LE(cursorId.low, 4);
  fields.writeInt32LE(cursorId.high, 8);
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body]);
}
