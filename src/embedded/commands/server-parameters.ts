/**
 * `getParameter` and `setParameter`: the server parameters the embedded server has.
 *
 * `getParameter` selects them as MongoDB 7.0 does: `'*'` or `{allParameters: true}` for all of them, else
 * those named by the command's other fields; `{showDetails: true}` wraps each value with whether it can
 * be set at runtime and at startup. Naming none it has is an error (InvalidOptions, "no option found to
 * get"), as in MongoDB.
 *
 * `setParameter` (admin database only) changes the memory knobs (query-knobs.ts) of this server and
 * answers `{ was: <previous value of the first one named> }`, as mongod does; like mongod it checks every
 * name and value before it changes any. Refusals, as mongod words them: another database, Unauthorized
 * (13); no parameter, or one it does not have, InvalidOptions (72); a parameter it has but cannot change
 * here, IllegalOperation (20); the same one twice, InvalidOptions (72); a value the knob's validator
 * refuses, BadValue (2).
 */
import type { Doc } from '../engine/values.js';
import { isPlainObject } from '../engine/values.js';
import { isKnobName, knobValue } from '../engine/query-knobs.js';
import type { KnobName } from '../engine/query-knobs.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { Handler } from './context.js';
import { isGenericArgument } from './generic-arguments.js';
import { safeBoolField } from './idl-fields.js';

/** A parameter: its value, and whether it may be set at runtime / at startup. */
type Parameter = [value: unknown, runtime: boolean, startup: boolean];

/** The fixed parameters (reported, never changed here). */
const PARAMETERS: Record<string, Parameter> = {
  authSchemaVersion: [5, true, true],
  authenticationMechanisms: [[], false, true],
  cursorTimeoutMillis: [600000, true, true],
  featureCompatibilityVersion: [{ version: '7.0' }, false, false],
  logLevel: [0, true, true],
  maxTransactionLockRequestTimeoutMillis: [5, true, true],
  quiet: [false, true, true],
  transactionLifetimeLimitSeconds: [60, true, true],
};

/** `getParameter` (see the file comment). @throws CommandError InvalidOptions (72) when it names none. */
export const getParameter: Handler = (cmd, ctx) => {
  const selector = cmd['getParameter'];
  let all = selector === '*';
  let details = false;
  if (isPlainObject(selector)) {
    details = safeBoolField(selector, 'getParameter', 'showDetails');
    all = safeBoolField(selector, 'getParameter', 'allParameters');
  }
  const parameters: Record<string, Parameter> = { ...PARAMETERS };
  for (const [name, value] of Object.entries(ctx.core.engine.queryKnobs))
    parameters[name] = [value, true, true];
  const reply: Doc = {};
  // MongoDB lists them in name order.
  for (const name of Object.keys(parameters).sort()) {
    if (!all && cmd[name] === undefined) continue;
    const [value, runtime, startup] = parameters[name]!;
    reply[name] = details ? { value, settableAtRuntime: runtime, settableAtStartup: startup } : value;
  }
  if (Object.keys(reply).length === 0)
    throw new CommandError(ErrorCodes.InvalidOptions, 'no option found to get');
  reply['ok'] = 1;
  return reply;
};

/** `setParameter` (see the file comment). @throws CommandError 2, 13, 20 or 72 as listed there. */
export const setParameter: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError(
      ErrorCodes.Unauthorized,
      'setParameter may only be run against the admin database.',
    );
  const changes = new Map<KnobName, number>();
  for (const [name, value] of Object.entries(cmd).slice(1)) {
    if (isGenericArgument(name)) continue;
    if (!isKnobName(name)) {
      if (Object.hasOwn(PARAMETERS, name))
        throw new CommandError(
          ErrorCodes.IllegalOperation,
          `not allowed to change [${name}] at runtime (the plume embedded database cannot change it)`,
        );
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `attempted to set unrecognized parameter [${name}], use help:true to see options `,
      );
    }
    if (changes.has(name))
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `attempted to set parameter [${name}] twice in the same setParameter command`,
      );
    changes.set(name, knobValue(name, value));
  }
  const [first] = changes.keys();
  if (first === undefined)
    throw new CommandError(
      ErrorCodes.InvalidOptions,
      'no option found to set, use help:true to see options ',
    );
  const knobs = ctx.core.engine.queryKnobs;
  const was = knobs[first];
  for (const [name, value] of changes) knobs[name] = value;
  return { was, ok: 1 };
};
