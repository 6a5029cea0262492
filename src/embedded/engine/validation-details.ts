/**
 * The `errInfo.details` of a 121 DocumentValidationFailure: which part of a collection validator a
 * document failed, in MongoDB 5.0+'s shape. A validator's top-level clauses form an implicit `$and`
 * (`{ operatorName: '$and', clausesNotSatisfied: [{ index, details }] }`), collapsed to the clause itself
 * when there is only one; field clauses (`$eq`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$type`,
 * `$exists: true`) report `specifiedAs`, `reason` and `consideredValue(s)`; `$jsonSchema` is explained by
 * schema-details.ts. Shapes and texts follow MongoDB's `doc_validation_error.cpp` and
 * `expression_parser.cpp` (mongodb/mongo). Whatever is not explained faithfully (other operators,
 * paths through arrays, ...) gives a minimal object: the operator name and an empty list.
 */
import { compile, prepareFilter } from './query.js';
import { jsonSchemaDetails } from './schema-details.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** `reason` of a failed field operator whose field is present. */
const REASONS: Record<string, string> = {
  $eq: 'comparison failed',
  $gt: 'comparison failed',
  $gte: 'comparison failed',
  $lt: 'comparison failed',
  $lte: 'comparison failed',
  $in: 'no matching value found in array',
  $type: 'type did not match',
};

/** One child of the validator's top-level `$and`, as MongoDB's parser splits it. */
interface Clause {
  operator: string;
  /** The clause alone, as a filter. */
  filter: Doc;
  field?: string;
  operand?: unknown;
}

function isOperatorObject(value: unknown): value is Doc {
  return isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value)[0]!.startsWith('$');
}

/** The top-level clauses: one per top-level operator, per field operator, and per implicit equality. */
function clausesOf(validator: Doc): Clause[] {
  const clauses: Clause[] = [];
  for (const [key, value] of Object.entries(validator)) {
    if (key.startsWith('$')) clauses.push({ operator: key, filter: { [key]: value } });
    else if (isOperatorObject(value)) {
      for (const [op, operand] of Object.entries(value))
        clauses.push({ operator: op, field: key, operand, filter: { [key]: { [op]: operand } } });
    } else clauses.push({ operator: '$eq', field: key, operand: value, filter: { [key]: value } });
  }
  return clauses;
}

/** The values at a dotted path (an array leaf gives its elements); 'missing'; undefined through an array. */
function valuesAt(doc: Doc, path: string): unknown[] | 'missing' | undefined {
  let current: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) return undefined;
    if (!isPlainObject(current) || current[part] === undefined) return 'missing';
    current = current[part];
  }
  return Array.isArray(current) ? (current as unknown[]) : [current];
}

/** Details for a failed field clause, or undefined when it is not explained. */
function fieldDetails(clause: Clause, doc: Doc): Doc | undefined {
  const { operator, field, operand } = clause;
  if (field === undefined) return undefined;
  if (operator !== '$exists' && !(operator in REASONS)) return undefined;
  // An implicit equality with a regular expression is a $regex; `$exists: false` is a negation.
  if (operator === '$eq' && bsonTypeName(operand) === 'regex') return undefined;
  if (operator === '$exists' && !operand) return undefined;
  const values = valuesAt(doc, field);
  if (values === undefined) return undefined;
  const details: Doc = { operatorName: operator, specifiedAs: clause.filter };
  if (operator === '$exists') return { ...details, reason: 'path does not exist' };
  if (values === 'missing') return { ...details, reason: 'field was missing' };
  details['reason'] = REASONS[operator];
  if (values.length === 1) details['consideredValue'] = values[0];
  else details['consideredValues'] = values;
  if (operator === '$type' && values.length > 0) {
    const types = [...new Set(values.map(bsonTypeName))].sort();
    if (types.length === 1) details['consideredType'] = types[0];
    else details['consideredTypes'] = types;
  }
  return details;
}

function clauseDetails(clause: Clause, doc: Doc): Doc | undefined {
  if (clause.operator === '$jsonSchema') {
    const schema = clause.filter['$jsonSchema'];
    return isPlainObject(schema) ? jsonSchemaDetails(schema, doc) : undefined;
  }
  return fieldDetails(clause, doc);
}

/** The honest minimum when a failure is not explained: the operator name and an empty list. */
function minimalDetails(clauses: Clause[]): Doc {
  if (clauses.length !== 1) return { operatorName: '$and', clausesNotSatisfied: [] };
  const operator = clauses[0]!.operator;
  if (operator === '$jsonSchema') return { operatorName: operator, schemaRulesNotSatisfied: [] };
  return { operatorName: operator, clausesNotSatisfied: [] };
}

/**
 * MongoDB's `errInfo.details` for `doc`, which fails `validator` (the caller has decided that; this
 * only describes the failure).
 */
export function validationDetails(validator: Doc, doc: Doc): Doc {
  const clauses = clausesOf(validator);
  try {
    if (clauses.length === 1) return clauseDetails(clauses[0]!, doc) ?? minimalDetails(clauses);
    const failed: Doc[] = [];
    for (const [index, clause] of clauses.entries()) {
      if (compile(prepareFilter(clause.filter)).test(doc)) continue;
      const details = clauseDetails(clause, doc);
      if (!details) return minimalDetails(clauses);
      failed.push({ index, details });
    }
    return { operatorName: '$and', clausesNotSatisfied: failed };
  } catch {
    // A clause that cannot be compiled alone (e.g. `$options` without `$regex`): say only what failed.
    return minimalDetails(clauses);
  }
}
