/**
 * The document-validation options of `create` and `collMod` (`validator`, `validationLevel`,
 * `validationAction`), checked as MongoDB 7.0 checks them before anything changes: the validator is a
 * document and a valid query, the level and the action are strings from their enumerations.
 */
import { compile, prepareFilter } from '../engine/query.js';
import type { Doc } from '../engine/values.js';
import { enumField, objectField } from './idl-fields.js';

/** The levels MongoDB 7.0 knows. */
const LEVELS = ['off', 'strict', 'moderate'] as const;
/** The actions MongoDB 7.0 knows (`errorAndLog` arrived in 8.1). */
const ACTIONS = ['error', 'warn'] as const;

/**
 * The validation options `cmd` sets, checked.
 * @throws CommandError TypeMismatch (14), BadValue (2), or the query parser's error for the validator.
 */
export function validationOptions(cmd: Doc, command: 'create' | 'collMod'): Doc {
  const options: Doc = {};
  const validator = objectField(cmd, command, 'validator');
  const level = enumField(cmd, command, 'validationLevel', LEVELS);
  const action = enumField(cmd, command, 'validationAction', ACTIONS);
  if (validator !== undefined) {
    compile(prepareFilter(validator));
    options['validator'] = validator;
  }
  if (level !== undefined) options['validationLevel'] = level;
  if (action !== undefined) options['validationAction'] = action;
  return options;
}
