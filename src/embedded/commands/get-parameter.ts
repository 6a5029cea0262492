/**
 * `getParameter`: the server parameters the embedded server has, selected as MongoDB 7.0 selects them:
 * `'*'` or `{allParameters: true}` for all of them, else those named by the command's other fields;
 * `{showDetails: true}` wraps each value with whether it can be set at runtime and at startup. Naming
 * none it has is an error (InvalidOptions, "no option found to get"), as in MongoDB.
 */
import type { Doc } from '../engine/values.js';
import { isPlainObject } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { Handler } from './context.js';
import { safeBoolField } from './idl-fields.js';

/** A parameter: its value, and whether it may be set at runtime / at startup. */
type Parameter = [value: unknown, runtime: boolean, startup: boolean];

/** The parameters, alphabetically (MongoDB lists them in name order). */
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

export const getParameter: Handler = (cmd) => {
  const selector = cmd['getParameter'];
  let all = selector === '*';
  let details = false;
  if (isPlainObject(selector)) {
    details = safeBoolField(selector, 'getParameter', 'showDetails');
    all = safeBoolField(selector, 'getParameter', 'allParameters');
  }
  const reply: Doc = {};
  for (const [name, [value, runtime, startup]] of Object.entries(PARAMETERS)) {
    if (!all && cmd[name] === undefined) continue;
    reply[name] = details ? { value, settableAtRuntime: runtime, settableAtStartup: startup } : value;
  }
  if (Object.keys(reply).length === 0)
    throw new CommandError(ErrorCodes.InvalidOptions, 'no option found to get');
  reply['ok'] = 1;
  return reply;
};
