/**
 * The expression operators MongoDB defines with a fixed number of arguments (its `ExpressionFixedArity`
 * expressions): a call with another count fails when the pipeline is parsed, with 16020
 * "Expression $in takes exactly 2 arguments. 1 were passed in." A single argument that is not an array
 * counts as one.
 */

const ONE =
  '$abs $ceil $floor $exp $ln $log10 $sqrt $not $isArray $isNumber $toLower $toUpper $strLenBytes ' +
  '$strLenCP $type $reverseArray $objectToArray $arrayToObject $anyElementTrue $allElementsTrue ' +
  '$bsonSize $binarySize $sin $cos $tan $asin $acos $atan $sinh $cosh $tanh $asinh $acosh $atanh ' +
  '$degreesToRadians $radiansToDegrees $toBool $toDate $toDecimal $toDouble $toInt $toLong $toObjectId ' +
  '$toString $size $first $last $tsSecond $tsIncrement $bitNot';
const TWO =
  '$cmp $eq $ne $gt $gte $lt $lte $in $arrayElemAt $divide $mod $pow $log $subtract $setDifference ' +
  '$setIsSubset $strcasecmp $split $atan2';
const THREE = '$substr $substrBytes $substrCP';

/** Operator name → the exact number of arguments it takes. */
export const FIXED_ARITY = new Map<string, number>(
  [ONE, TWO, THREE].flatMap((names, i) => names.split(' ').map((name) => [name, i + 1] as const)),
);

/**
 * The operators MongoDB defines with a range of argument counts (its `ExpressionRangedArity`
 * expressions): operator name → [least, most]. Another count fails when the pipeline is parsed, with
 * 28667 "Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in."
 */
export const RANGED_ARITY = new Map<string, readonly [number, number]>([
  ['$slice', [2, 3]],
  ['$range', [2, 3]],
  ['$indexOfArray', [2, 4]],
  ['$indexOfBytes', [2, 4]],
  ['$indexOfCP', [2, 4]],
  ['$round', [1, 2]],
  ['$trunc', [1, 2]],
]);

/**
 * The variadic operators MongoDB gives a least number of arguments (their `validateArguments`): operator
 * name → [least, code, message before the count]. `$ifNull: [x]` fails when the pipeline is parsed, with
 * 1257300 "$ifNull needs at least two arguments, had: 1".
 */
export const LEAST_ARITY = new Map<string, readonly [number, number, string]>([
  ['$ifNull', [2, 1257300, '$ifNull needs at least two arguments, had: ']],
  ['$setEquals', [2, 17045, '$setEquals needs at least two arguments had: ']],
]);

/**
 * The operand of a one-argument operator: `{ $not: [x] }` is the list form of `{ $not: x }` (a
 * one-element array lists the argument, anything else is the argument).
 */
export const soleOperand = (expr: unknown): unknown =>
  Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
