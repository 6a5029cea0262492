/**
 * MongoDB wire protocol framing: decode OP_MSG / OP_QUERY requests, encode OP_MSG / OP_REPLY responses.
 * See https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/.
 */
import { BSON, Long } from 'bson';
import type { Double, Int32 } from 'bson';
import { crc32c } from './crc32c.js';
import { asDouble } from './engine/numbers.js';
import { serializeBson } from './serialize.js';
import { CommandError, ErrorCodes } from './errors.js';
import { scanBson } from './engine/bson-scan.js';
import { duplicateSortKey } from './engine/duplicate-sort-keys.js';
import type { BsonFault } from './engine/bson-scan.js';
import { aliasIncoming } from './engine/proto-alias.js';
import { plainDbRefs } from './engine/dbref-decode.js';
import { MAX_PARSE_DEPTH } from './engine/limits.js';

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

/**
 * Int32s become JS numbers, doubles too unless the encoder would then write them as ints. Adds to
 * `found` each `DBRef` the decoder made (dbref-decode.ts) and each array and document holding one.
 */
function promoteNumbers(value: unknown, found: unknown[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  if (tag === 'Int32') return (value as Int32).value;
  if (tag === 'Double') return asDouble((value as Double).value);
  if (tag === 'DBRef') found.push(value);
  if (tag !== undefined || value instanceof Date) return value;
  const before = found.length;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = promoteNumbers(value[i], found);
  } else {
    const doc = value as Record<string, unknown>;
    for (const key of Object.keys(doc)) doc[key] = promoteNumbers(doc[key], found);
  }
  if (found.length > before) found.push(value);
  return value;
}

/**
 * Decodes one BSON document as the engine stores it. Each value keeps its BSON type on a round trip:
 * regexes stay `BSONRegExp` (all options survive), every int64 stays a `Long`, and a double with an integral
 * value that fits 32 bits stays a bson `Double` (as a JS number the encoder would write it as an int).
 * numbers.ts makes them all compare as numbers. A DBRef-shaped sub-document stays a plain document
 * (dbref-decode.ts). A field named `__proto__` gets the engine's name for it
 * (proto-alias.ts). `utf8: false` decodes text that is not UTF-8 lossily
 * instead of throwing, for a caller that only checks the structure.
 * @throws BSONError for malformed bytes.
 */
export function decodeDocument(bytes: Uint8Array, utf8 = true): Record<string, unknown> {
  const options = utf8 ? DESERIALIZE_OPTIONS : { ...DESERIALIZE_OPTIONS, validation: { utf8: false } };
  const found: unknown[] = [];
  let doc = promoteNumbers(BSON.deserialize(bytes, options), found) as Record<string, unknown>;
  if (found.length > 0) doc = plainDbRefs(doc, bytes, found, promoteNumbers);
  return aliasIncoming(doc, bytes);
}

/** A decoded request. `command` is the OP_MSG body merged with its document sequences, or the OP_QUERY query. */
export interface WireRequest {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  flags: number;
  command: Record<string, unknown>;
  /** For OP_QUERY: the namespace (`admin.$cmd`). */
  fullCollectionName?: string;
  /** Set when the message is well-formed but a document in it is refused: the reply is this error. */
  refused?: CommandError;
}

/**
 * A malformed or refused message. The server logs it and closes that connection (MongoDB treats OP_MSG
 * parse errors such as illegal flag bits as fatal to the connection).
 */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** OP_MSG flag bits 0-15 are required: a parser must refuse any it does not know (wire protocol spec). */
const KNOWN_REQUIRED_FLAGS = MSG_CHECKSUM_PRESENT | MSG_MORE_TO_COME;

function readCString(buf: Buffer, offset: number, end: number): [string, number] {
  const nul = buf.indexOf(0, offset);
  if (nul < 0 || nul >= end) throw new ProtocolError('unterminated cstring');
  return [buf.toString('utf8', offset, nul), nul + 1];
}

/** Reads an int32 size at `offset` and checks that `[offset, offset + size)` lies within `[offset, end)`. */
function readSize(buf: Buffer, offset: number, end: number, min: number, what: string): number {
  if (offset + 4 > end) throw new ProtocolError(`${what} size at byte ${offset} runs past the message end`);
  const size = buf.readInt32LE(offset);
  if (size < min || offset + size > end) {
    throw new ProtocolError(`invalid ${what} size ${size} at byte ${offset}`);
  }
  return size;
}

/**
 * Decodes a BSON document inside a message. Malformed bytes are a protocol error; a well-formed document
 * nested too deep, holding text that is not UTF-8 or a regex option the decoder cannot hold, is refused
 * with a command error (see bson-scan.ts).
 */
function documentAt(buf: Buffer, offset: number, end: number): [Record<string, unknown>, number] {
  const size = readSize(buf, offset, end, 5, 'document');
  const bytes = buf.subarray(offset, offset + size);
  const fault = scanBson(bytes, MAX_PARSE_DEPTH, false);
  if (fault && fault.kind !== 'utf8') throw refusal(fault);
  let doc: Record<string, unknown>;
  try {
    doc = decodeDocument(bytes, fault === undefined);
  } catch (error) {
    // The decoder throws for a string value that is not UTF-8 too: the full scan tells it apart.
    const text = fault ?? scanBson(bytes, MAX_PARSE_DEPTH);
    if (text) throw refusal(text);
    throw new ProtocolError(`invalid BSON document at byte ${offset}: ${(error as Error).message}`);
  }
  if (fault) throw refusal(fault);
  return [doc, offset + size];
}

/** The command error for a well-formed document the server cannot take. */
function refusal(fault: BsonFault): CommandError {
  if (fault.kind === 'depth') {
    return new CommandError(
      ErrorCodes.Overflow,
      `BSONObj exceeds maximum nested object depth of ${MAX_PARSE_DEPTH} levels`,
    );
  }
  // MongoDB stores a regex with any options and refuses an unknown one where the regex is used, with
  // 51108 (the code of query.ts' makeRegExp); `bson` cannot decode it, so the command is refused.
  if (fault.kind === 'regexOption') {
    return new CommandError(51108, `invalid flag in regex options: ${fault.option}`);
  }
  return new CommandError(
    ErrorCodes.BadValue,
    `Invalid UTF-8 in a string or field name at byte ${fault.offset} of a document: the embedded ` +
      'database holds text as Unicode strings and cannot store these bytes (MongoDB stores them as they are)',
  );
}

/**
 * Refuses a command whose sort pattern names a path twice, which decoding would hide (it keeps the last
 * value of a repeated name): see duplicate-sort-keys.ts.
 * @throws CommandError 7472500, as MongoDB 7.0's SortPattern (sort_pattern.cpp).
 */
function refuseDuplicateSortKeys(bytes: Uint8Array, command: Record<string, unknown>): void {
  const duplicate = duplicateSortKey(bytes, Object.keys(command)[0] ?? '');
  if (duplicate !== undefined) {
    throw new CommandError(7472500, `$sort key must not contain duplicate keys (duplicate: '${duplicate}')`);
  }
}

function decodeOpMsg(buf: Buffer, requestId: number): WireRequest {
  if (buf.length < 21) throw new ProtocolError('OP_MSG shorter than its header, flags and one section');
  const flags = buf.readUInt32LE(16);
  const unknown = flags & 0xffff & ~KNOWN_REQUIRED_FLAGS;
  if (unknown !== 0) {
    throw new ProtocolError(`illegal OP_MSG flag bits 0x${unknown.toString(16)} (IllegalOpMsgFlag)`);
  }
  let end = buf.length;
  if (flags & MSG_CHECKSUM_PRESENT) {
    end -= 4;
    if (end < 21) throw new ProtocolError('OP_MSG with checksumPresent is too short for its checksum');
    if (crc32c(buf.subarray(0, end)) !== buf.readUInt32LE(end)) {
      throw new ProtocolError('OP_MSG checksum does not match contents');
    }
  }
  let offset = 20;
  let command: Record<string, unknown> | undefined;
  const sequences: [string, Record<string, unknown>[]][] = [];
  while (offset < end) {
    const kind = buf.readUInt8(offset);
    offset += 1;
    if (kind === 0) {
      if (command) throw new ProtocolError('OP_MSG with more than one body section');
      const start = offset;
      [command, offset] = documentAt(buf, offset, end);
      refuseDuplicateSortKeys(buf.subarray(start, offset), command);
    } else if (kind === 1) {
      const sectionEnd = offset + readSize(buf, offset, end, 5, 'document sequence');
      const [identifier, docsStart] = readCString(buf, offset + 4, sectionEnd);
      const docs: Record<string, unknown>[] = [];
      let p = docsStart;
      while (p < sectionEnd) {
        const [doc, next] = documentAt(buf, p, sectionEnd);
        docs.push(doc);
        p = next;
      }
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new ProtocolError(`unsupported OP_MSG section kind ${kind}`);
    }
  }
  if (!command) throw new ProtocolError('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) {
    const existing = command[identifier];
    command[identifier] = Array.isArray(existing) ? [...(existing as unknown[]), ...docs] : docs;
  }
  return { requestId, opCode: OP_MSG, flags, command };
}

/**
 * Decodes one complete message (header included): every size is checked against the message's bounds.
 * @throws ProtocolError on malformed input, illegal OP_MSG flag bits, a checksum mismatch, or an
 *   unsupported opCode.
 */
export function decodeMessage(buf: Buffer): WireRequest {
  if (buf.length < 16 || buf.readInt32LE(0) !== buf.length) {
    throw new ProtocolError('message length does not match the bytes received');
  }
  const requestId = buf.readInt32LE(4);
  const opCode = buf.readInt32LE(12);
  try {
    return decodeBody(buf, requestId, opCode);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    if (opCode !== OP_MSG && opCode !== OP_QUERY) throw error;
    const flags = opCode === OP_MSG ? buf.readUInt32LE(16) : 0;
    return { requestId, opCode, flags, command: {}, refused: error };
  }
}

function decodeBody(buf: Buffer, requestId: number, opCode: number): WireRequest {
  if (opCode === OP_MSG) return decodeOpMsg(buf, requestId);
  if (opCode === OP_QUERY) {
    if (buf.length < 21) throw new ProtocolError('OP_QUERY shorter than its header');
    const flags = buf.readInt32LE(16);
    const [fullCollectionName, next] = readCString(buf, 20, buf.length);
    let [command] = documentAt(buf, next + 8, buf.length);
    // Legacy wrapped form: { $query: {...}, $readPreference: ... }
    if (command['$query'] && typeof command['$query'] === 'object')
      command = command['$query'] as typeof command;
    return { requestId, opCode, flags, command, fullCollectionName };
  }
  throw new ProtocolError(`unsupported opCode ${opCode}`);
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
  const body = serializeBson(doc);
  const prefix = Buffer.alloc(5); // flagBits (0) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, responseTo, OP_MSG), prefix, body]);
}

/** Encodes an OP_REPLY (the answer to a legacy OP_QUERY) carrying one document. */
export function encodeOpReply(responseTo: number, doc: Record<string, unknown>): Buffer {
  const body = serializeBson(doc);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  const cursorId = Long.ZERO;
  fields.writeInt32LE(cursorId.low, 4);
  fields.writeInt32LE(cursorId.high, 8);
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  return Buffer.concat([header(16 + 20 + body.length, responseTo, OP_REPLY), fields, body]);
}
