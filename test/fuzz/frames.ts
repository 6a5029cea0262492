/**
 * Wire messages for the fuzzer, valid and mutated. Layouts from the wire protocol manual
 * (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/): a 16-byte header
 * (messageLength, requestID, responseTo, opCode); OP_MSG = flagBits, sections (kind 0: one document;
 * kind 1: int32 size, cstring identifier, documents), optional CRC-32C; OP_QUERY = flags,
 * fullCollectionName, numberToSkip, numberToReturn, query; OP_COMPRESSED = originalOpcode,
 * uncompressedSize, compressorId, compressed message.
 */
import { crc32c } from '../../src/embedded/crc32c.js';
import { encodeDocument } from './bson-writer.js';
import type { Random } from './hostile-values.js';

export const OP_QUERY = 2004;
export const OP_MSG = 2013;
export const OP_COMPRESSED = 2012;
/** `maxMessageSizeBytes` the server advertises. */
export const MAX_MESSAGE = 48_000_000;

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n | 0);
  return b;
}

function header(length: number, requestId: number, opCode: number): Buffer {
  return Buffer.concat([int32(length), int32(requestId), int32(0), int32(opCode)]);
}

/** A kind-1 section: document sequence `identifier` holding `docs`. */
export function sequenceSection(identifier: string, docs: Buffer[]): Buffer {
  const payload = Buffer.concat([Buffer.from(identifier + '\0'), ...docs]);
  return Buffer.concat([Buffer.from([1]), int32(payload.length + 4), payload]);
}

/** A kind-0 section holding `body`. */
export function bodySection(body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0]), body]);
}

/** An OP_MSG from raw section bytes; `checksum` appends a CRC-32C (correct or off by one bit). */
export function opMsg(requestId: number, flags: number, sections: Buffer, checksum?: 'good' | 'bad'): Buffer {
  const length = 20 + sections.length + (checksum ? 4 : 0);
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags >>> 0);
  const message = Buffer.concat([header(length, requestId, OP_MSG), flagBytes, sections]);
  if (!checksum) return message;
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE((crc32c(message) ^ (checksum === 'bad' ? 1 : 0)) >>> 0);
  return Buffer.concat([message, crc]);
}

/** An OP_MSG with one body section holding `command`. */
export function commandMessage(requestId: number, command: Record<string, unknown>, flags = 0): Buffer {
  return opMsg(requestId, flags, bodySection(encodeDocument(command)));
}

/** A legacy OP_QUERY on `ns` (`admin.$cmd` for commands). */
export function opQuery(requestId: number, ns: string, query: Buffer): Buffer {
  const rest = Buffer.concat([int32(0), Buffer.from(ns + '\0'), int32(0), int32(-1), query]);
  return Buffer.concat([header(16 + rest.length, requestId, OP_QUERY), rest]);
}

/** An OP_COMPRESSED wrapping `inner` with compressor 0 (noop) or another id. */
export function opCompressed(requestId: number, inner: Buffer, compressorId: number): Buffer {
  const body = inner.subarray(16);
  const rest = Buffer.concat([
    int32(inner.readInt32LE(12)),
    int32(body.length),
    Buffer.from([compressorId]),
    body,
  ]);
  return Buffer.concat([header(16 + rest.length, requestId, OP_COMPRESSED), rest]);
}

/** What a mutated message is expected to get: a reply, or (for a framing error) maybe a closed connection. */
export interface Mutant {
  name: string;
  bytes: Buffer;
  /** True when the framing is intact, so MongoDB would answer with an error document, not close. */
  framed: boolean;
  /** True when no reply is due (moreToCome). */
  silent?: boolean;
}

/** A random mutation of the valid message `base` (an OP_MSG with one body section) or a hand-built variant. */
export function mutate(r: Random, requestId: number, base: Buffer, body: Buffer): Mutant {
  const bytes = Buffer.from(base);
  const setLength = (n: number): Buffer => (bytes.writeInt32LE(n | 0, 0), bytes);
  switch (r.int(19)) {
    case 0: {
      for (let i = 1 + r.int(4); i > 0; i--) {
        const at = 16 + r.int(bytes.length - 16);
        bytes[at] = bytes[at]! ^ (1 << r.int(8));
      }
      // A flipped moreToCome flag (bit 1) asks for no reply: waiting for one is not a hang.
      return { name: 'flipped bits', bytes, framed: false, silent: (bytes.readUInt32LE(16) & 2) !== 0 };
    }
    case 1:
      return {
        name: 'length too small',
        bytes: setLength(r.pick([0, 1, 15, 16, 20, bytes.length - 1])),
        framed: false,
      };
    case 2:
      return { name: 'length negative', bytes: setLength(r.pick([-1, -16, -2147483648])), framed: false };
    case 3:
      return {
        name: 'length past maxMessageSizeBytes',
        bytes: setLength(r.pick([MAX_MESSAGE + 1, 2147483647])),
        framed: false,
      };
    case 4: {
      const cut = 21 + r.int(Math.max(1, bytes.length - 21));
      const out = bytes.subarray(0, cut);
      out.writeInt32LE(cut, 0);
      return { name: 'truncated section', bytes: out, framed: false };
    }
    case 5:
      return {
        name: 'unknown section kind',
        bytes: opMsg(
          requestId,
          0,
          Buffer.concat([bodySection(body), Buffer.from([r.pick([2, 3, 0x7f, 0xff])]), body]),
        ),
        framed: false,
      };
    case 6:
      return {
        name: 'two kind-0 sections',
        bytes: opMsg(requestId, 0, Buffer.concat([bodySection(body), bodySection(body)])),
        framed: false,
      };
    case 7: {
      const section = sequenceSection('documents', [body, body]);
      section.writeInt32LE(section.readInt32LE(1) + r.pick([-5, -1, 1, 7, 1000, -1000]), 1);
      return {
        name: 'document sequence with a wrong size',
        bytes: opMsg(requestId, 0, Buffer.concat([bodySection(body), section])),
        framed: false,
      };
    }
    case 8:
      return {
        name: 'checksum with a bad CRC',
        bytes: opMsg(requestId, 1, bodySection(body), 'bad'),
        framed: false,
      };
    case 9:
      return {
        name: 'checksum flag, no checksum',
        bytes: opMsg(requestId, 1, bodySection(body)),
        framed: false,
      };
    case 10:
      return {
        name: 'checksum, good CRC',
        bytes: opMsg(requestId, 1, bodySection(body), 'good'),
        framed: true,
      };
    case 11:
      return {
        name: 'moreToCome',
        bytes: opMsg(requestId, 2, bodySection(body)),
        framed: true,
        silent: true,
      };
    case 12:
      return { name: 'exhaustAllowed', bytes: opMsg(requestId, 1 << 16, bodySection(body)), framed: true };
    case 13:
      return {
        name: 'unknown required flag',
        bytes: opMsg(requestId, 1 << (2 + r.int(14)), bodySection(body)),
        framed: false,
      };
    case 14:
      return {
        name: 'OP_QUERY',
        bytes: opQuery(requestId, r.pick(['admin.$cmd', 'fuzz.$cmd', 'fuzz.c', '', 'x']), body),
        framed: true,
      };
    case 15:
      return {
        name: 'OP_COMPRESSED',
        bytes: opCompressed(requestId, base, r.pick([0, 1, 2, 3, 9])),
        framed: false,
      };
    case 16:
      return {
        name: 'unknown opCode',
        bytes: Buffer.concat([
          header(16 + body.length, requestId, r.pick([1, 2001, 2002, 2005, 2006, 2007, 2010, 2011, 0, -1])),
          body,
        ]),
        framed: false,
      };
    case 17: {
      const docs = Array.from({ length: 1 + r.int(3) }, () => body);
      return {
        name: 'document sequence on a body field',
        bytes: opMsg(
          requestId,
          0,
          Buffer.concat([
            bodySection(body),
            sequenceSection(r.pick(['documents', 'updates', 'ping', '$db', '', '__proto__']), docs),
          ]),
        ),
        framed: true,
      };
    }
    default: {
      const i = 16 + r.int(bytes.length - 16);
      bytes[i] = r.pick([0, 0xff, 0x7f, 0x80]);
      return { name: 'overwritten byte', bytes, framed: false };
    }
  }
}
