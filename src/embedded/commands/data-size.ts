/**
 * `dataSize`: the total BSON size and count of a collection's documents, named by its full namespace
 * (`db.collection`). A missing collection has size 0; the argument is checked as MongoDB 7.0 checks it
 * (a string, then a valid namespace), with its codes and messages.
 */
import { BSON } from 'bson';
import { bsonTypeName } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { Handler } from './context.js';

export const dataSize: Handler = (cmd, ctx) => {
  const ns = cmd['dataSize'];
  if (typeof ns !== 'string')
    throw new CommandError(ErrorCodes.BadValue, `collection name has invalid type ${bsonTypeName(ns)}`);
  const dot = ns.indexOf('.');
  if (dot <= 0 || dot === ns.length - 1)
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${ns}'`);
  const started = Date.now();
  const coll = ctx.core.engine.collection(ns.slice(0, dot), ns.slice(dot + 1));
  let size = 0;
  let numObjects = 0;
  if (coll) {
    for (const doc of ctx.core.engine.readState(coll, ctx.txn).docs.values()) {
      size += BSON.calculateObjectSize(doc);
      numObjects++;
    }
  }
  return { size, numObjects, millis: Date.now() - started, ok: 1 };
};
