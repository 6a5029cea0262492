/**
 * A grammar-based generator of filters, aggregation expressions, pipelines and update documents from
 * random combinations of the operators MongoDB 7.0 documents, with argument shapes that are sometimes
 * right and sometimes hostile (hostile-values.ts).
 */
import { PLAIN_KEYS, Random, hostileScalar, hostileValue, makeDoc } from './hostile-values.js';

const QUERY_OPS =
  '$eq $ne $gt $gte $lt $lte $in $nin $exists $type $regex $options $size $all $mod $elemMatch $not $bitsAllSet $bitsAnySet $bitsAllClear $bitsAnyClear $geoWithin $near $text $comment'.split(
    ' ',
  );
const TOP_OPS =
  '$and $or $nor $expr $jsonSchema $where $comment $text $sampleRate $alwaysTrue $alwaysFalse'.split(' ');

const EXPR_OPS = (
  '$abs $add $ceil $divide $exp $floor $ln $log $log10 $mod $multiply $pow $round $sqrt $subtract $trunc ' +
  '$arrayElemAt $arrayToObject $concatArrays $filter $first $firstN $in $indexOfArray $isArray $last $lastN ' +
  '$map $maxN $minN $objectToArray $range $reduce $reverseArray $size $slice $sortArray $zip $and $not $or ' +
  '$cmp $eq $gt $gte $lt $lte $ne $cond $ifNull $switch $dateAdd $dateDiff $dateFromParts $dateFromString ' +
  '$dateSubtract $dateToParts $dateToString $dateTrunc $dayOfMonth $dayOfWeek $dayOfYear $hour $isoDayOfWeek ' +
  '$isoWeek $isoWeekYear $millisecond $minute $month $second $week $year $literal $getField $setField $unsetField ' +
  '$mergeObjects $allElementsTrue $anyElementTrue $setDifference $setEquals $setIntersection $setIsSubset ' +
  '$setUnion $concat $indexOfBytes $indexOfCP $ltrim $regexFind $regexFindAll $regexMatch $replaceOne $replaceAll ' +
  '$rtrim $split $strLenBytes $strLenCP $strcasecmp $substr $substrBytes $substrCP $toLower $toUpper $trim ' +
  '$sin $cos $tan $asin $acos $atan $atan2 $asinh $acosh $atanh $sinh $cosh $tanh $degreesToRadians ' +
  '$radiansToDegrees $convert $isNumber $toBool $toDate $toDecimal $toDouble $toInt $toLong $toObjectId ' +
  '$toString $type $let $rand $sampleRate $bsonSize $binarySize $tsIncrement $tsSecond $avg $max $min $sum ' +
  '$stdDevPop $stdDevSamp $bitAnd $bitOr $bitXor $bitNot $meta $function $accumulator $median $percentile $nope'
).split(' ');

const ACCUMULATORS =
  '$sum $avg $min $max $first $last $push $addToSet $stdDevPop $stdDevSamp $mergeObjects $count $firstN $lastN $maxN $minN $top $bottom $topN $bottomN $median $percentile'.split(
    ' ',
  );
const WINDOW_FNS = [
  ...ACCUMULATORS,
  '$rank',
  '$denseRank',
  '$documentNumber',
  '$shift',
  '$derivative',
  '$integral',
  '$expMovingAvg',
  '$covariancePop',
  '$covarianceSamp',
  '$locf',
  '$linearFill',
];
const UPDATE_OPS =
  '$set $unset $inc $mul $rename $min $max $currentDate $addToSet $pop $pull $pullAll $push $bit $setOnInsert $nope'.split(
    ' ',
  );
const PATHS = [
  ...PLAIN_KEYS,
  'arr.0',
  'arr.$',
  'arr.$[]',
  'arr.$[e]',
  'a.b.c',
  '',
  'a..b',
  '$a',
  'arr.1000000',
  '__proto__',
  'a.__proto__.x',
  'constructor.prototype',
];

/** A field path or literal an expression can take as an argument. */
function operand(r: Random, depth: number): unknown {
  const roll = r.int(10);
  if (roll < 3 && depth > 0) return expression(r, depth - 1);
  if (roll < 6)
    return r.pick([
      '$a',
      '$b',
      '$n',
      '$s',
      '$arr',
      '$d',
      '$a.b',
      '$$ROOT',
      '$$CURRENT',
      '$$NOW',
      '$$this',
      '$$value',
      '$$e',
    ]);
  return hostileValue(r, 1);
}

/** A random aggregation expression. */
export function expression(r: Random, depth = 3): unknown {
  const op = r.pick(EXPR_OPS);
  const shape = r.int(4);
  if (shape === 0) return { [op]: operand(r, depth) };
  if (shape === 1) return { [op]: Array.from({ length: r.int(5) }, () => operand(r, depth)) };
  const names = [
    'input',
    'as',
    'in',
    'cond',
    'initialValue',
    'date',
    'unit',
    'amount',
    'startDate',
    'endDate',
    'format',
    'timezone',
    'onError',
    'onNull',
    'to',
    'find',
    'replacement',
    'regex',
    'options',
    'chars',
    'field',
    'value',
    'n',
    'sortBy',
    'vars',
    'branches',
    'default',
    'if',
    'then',
    'else',
    'year',
    'month',
    'place',
    'body',
    'args',
    'lang',
    'p',
    'method',
    'dateString',
    'step',
    'start',
    'end',
    'inputs',
  ];
  return { [op]: makeDoc(Array.from({ length: 1 + r.int(4) }, () => [r.pick(names), operand(r, depth)])) };
}

/** A random query filter. */
export function filter(r: Random, depth = 2): Record<string, unknown> {
  const pairs: [string, unknown][] = [];
  for (let i = r.int(3); i >= 0; i--) {
    const roll = r.int(6);
    if (roll === 0 && depth > 0) {
      const op = r.pick(TOP_OPS);
      const arg =
        op === '$expr'
          ? expression(r, 2)
          : r.chance(0.7)
            ? Array.from({ length: r.int(3) }, () => filter(r, depth - 1))
            : hostileValue(r, 2);
      pairs.push([op, arg]);
    } else if (roll < 4) {
      const ops = makeDoc(
        Array.from({ length: 1 + r.int(2) }, () => [
          r.pick(QUERY_OPS),
          depth > 0 && r.chance(0.2) ? filter(r, depth - 1) : hostileValue(r, 1),
        ]),
      );
      pairs.push([r.pick(PATHS), ops]);
    } else {
      pairs.push([r.pick(PATHS), hostileValue(r, 1)]);
    }
  }
  return makeDoc(pairs);
}

function spec(r: Random, depth: number): Record<string, unknown> {
  return makeDoc(
    Array.from({ length: 1 + r.int(3) }, () => [
      r.pick(PATHS),
      r.chance(0.5) ? r.pick([0, 1, true, false, -1]) : expression(r, depth),
    ]),
  );
}

function sortSpec(r: Random): Record<string, unknown> {
  return makeDoc(
    Array.from({ length: 1 + r.int(2) }, () => [
      r.pick(PATHS),
      r.chance(0.8) ? r.pick([1, -1]) : hostileScalar(r),
    ]),
  );
}

function accumulatorSpec(r: Random, names: readonly string[]): Record<string, unknown> {
  const op = r.pick(names);
  return {
    [op]: r.chance(0.5)
      ? operand(r, 1)
      : makeDoc([
          ['input', operand(r, 1)],
          ['n', r.pick([1, 0, -1, 2.5, '$n'])],
          ['sortBy', sortSpec(r)],
          ['p', [0.5]],
          ['method', 'approximate'],
        ]),
  };
}

/** A random pipeline stage (the collection is `fuzz.c`; `$lookup` and friends name a sibling). */
export function stage(r: Random, depth = 2): Record<string, unknown> {
  const pick = r.int(30);
  const coll = r.pick(['c', 'd', 'v', '', 'system.views']);
  switch (pick) {
    case 0:
      return { $match: filter(r) };
    case 1:
      return { $project: spec(r, 2) };
    case 2:
      return { $addFields: spec(r, 2) };
    case 3:
      return { $set: spec(r, 2) };
    case 4:
      return { $unset: r.chance(0.5) ? r.pick(PATHS) : [r.pick(PATHS), r.pick(PATHS)] };
    case 5:
      return {
        $group: makeDoc([
          ['_id', operand(r, 1)],
          [r.pick(['t', 'u', '_id', '$x', 'a.b']), accumulatorSpec(r, ACCUMULATORS)],
        ]),
      };
    case 6:
      return { $sort: sortSpec(r) };
    case 7:
      return { $limit: hostileScalar(r) };
    case 8:
      return { $skip: hostileScalar(r) };
    case 9:
      return {
        $unwind: r.chance(0.5)
          ? r.pick(['$arr', '$a', 'arr', '$', '$$x'])
          : makeDoc([
              ['path', r.pick(['$arr', '$a.b', 'x'])],
              ['includeArrayIndex', r.pick(['i', '$i', '', 'arr'])],
              ['preserveNullAndEmptyArrays', hostileScalar(r)],
            ]),
      };
    case 10:
      return { $replaceRoot: { newRoot: operand(r, 2) } };
    case 11:
      return { $replaceWith: operand(r, 2) };
    case 12:
      return { $count: r.pick(['n', '', '$n', 'a.b', '__proto__']) };
    case 13:
      return { $facet: makeDoc([[r.pick(['f', 'g', '']), depth > 0 ? pipeline(r, depth - 1) : []]]) };
    case 14:
      return {
        $lookup: makeDoc([
          ['from', coll],
          ['localField', r.pick(PATHS)],
          ['foreignField', r.pick(PATHS)],
          ['as', r.pick(PATHS)],
          ...(r.chance(0.5) && depth > 0
            ? [
                ['pipeline', pipeline(r, depth - 1)] as [string, unknown],
                ['let', { x: operand(r, 1) }] as [string, unknown],
              ]
            : []),
        ]),
      };
    case 15:
      return {
        $graphLookup: makeDoc([
          ['from', coll],
          ['startWith', operand(r, 1)],
          ['connectFromField', r.pick(PATHS)],
          ['connectToField', r.pick(PATHS)],
          ['as', 'g'],
          ['maxDepth', hostileScalar(r)],
          ['depthField', r.pick(['dd', '', '$x'])],
        ]),
      };
    case 16:
      return {
        $bucket: makeDoc([
          ['groupBy', operand(r, 1)],
          ['boundaries', hostileValue(r, 1)],
          ['default', hostileScalar(r)],
          ['output', { o: accumulatorSpec(r, ACCUMULATORS) }],
        ]),
      };
    case 17:
      return {
        $bucketAuto: makeDoc([
          ['groupBy', operand(r, 1)],
          ['buckets', hostileScalar(r)],
          ['granularity', r.pick(['R5', 'POWERSOF2', '1-2-5', 'E6', 'nope'])],
        ]),
      };
    case 18:
      return { $sortByCount: operand(r, 1) };
    case 19:
      return { $sample: { size: hostileScalar(r) } };
    case 20:
      return {
        $setWindowFields: makeDoc([
          ['partitionBy', operand(r, 1)],
          ['sortBy', sortSpec(r)],
          [
            'output',
            {
              w: {
                ...accumulatorSpec(r, WINDOW_FNS),
                window: makeDoc([
                  [
                    r.pick(['documents', 'range']),
                    [hostileScalar(r), r.pick(['current', 'unbounded', 1, -1])],
                  ],
                  ['unit', r.pick(['day', 'ms', 'nope'])],
                ]),
              },
            },
          ],
        ]),
      };
    case 21:
      return {
        $densify: makeDoc([
          ['field', r.pick(PATHS)],
          [
            'range',
            makeDoc([
              ['step', hostileScalar(r)],
              ['bounds', r.pick(['full', 'partition', [hostileScalar(r), hostileScalar(r)]])],
              ['unit', r.pick(['day', 'hour', 'nope'])],
            ]),
          ],
          ['partitionByFields', [r.pick(PATHS)]],
        ]),
      };
    case 22:
      return {
        $fill: makeDoc([
          ['sortBy', sortSpec(r)],
          ['partitionBy', operand(r, 1)],
          [
            'output',
            {
              [r.pick(PATHS)]: r.chance(0.5)
                ? { method: r.pick(['locf', 'linear', 'x']) }
                : { value: operand(r, 1) },
            },
          ],
        ]),
      };
    case 23:
      return {
        $unionWith: r.chance(0.5)
          ? coll
          : makeDoc([
              ['coll', coll],
              ['pipeline', depth > 0 ? pipeline(r, depth - 1) : []],
            ]),
      };
    case 24:
      return { $redact: operand(r, 2) };
    case 25:
      return {
        $out: r.chance(0.5)
          ? r.pick(['o', '', 'system.x', '$x', 'c'])
          : makeDoc([
              ['db', r.pick(['fuzz', '', 'admin', 'a.b'])],
              ['coll', r.pick(['o', ''])],
            ]),
      };
    case 26:
      return {
        $merge: makeDoc([
          ['into', r.pick(['m', 'c', '', 'system.profile'])],
          ['on', r.pick(['_id', 'a', ['a', 'a']])],
          [
            'whenMatched',
            r.chance(0.5) ? r.pick(['merge', 'replace', 'keepExisting', 'fail', 'nope']) : pipeline(r, 0),
          ],
          ['whenNotMatched', r.pick(['insert', 'discard', 'fail'])],
        ]),
      };
    case 27:
      return { $collStats: { count: {}, storageStats: hostileValue(r, 1) } };
    case 28:
      return {
        [r.pick([
          '$indexStats',
          '$listSessions',
          '$currentOp',
          '$changeStream',
          '$documents',
          '$planCacheStats',
          '$nope',
          '$geoNear',
          '$search',
        ])]: hostileValue(r, 2),
      };
    default:
      return { $project: hostileValue(r, 2) };
  }
}

/** A random pipeline of a few stages. */
export function pipeline(r: Random, depth = 2): Record<string, unknown>[] {
  return Array.from({ length: 1 + r.int(4) }, () => stage(r, depth));
}

/** A random update: an operator document, a replacement, or an update pipeline. */
export function update(r: Random): unknown {
  const roll = r.int(6);
  if (roll === 0) return makeDoc(Array.from({ length: r.int(3) }, () => [r.pick(PATHS), hostileValue(r, 2)]));
  if (roll === 1)
    return Array.from({ length: 1 + r.int(2) }, () =>
      r.chance(0.7)
        ? {
            [r.pick(['$set', '$addFields', '$project', '$unset', '$replaceRoot', '$replaceWith', '$match'])]:
              r.chance(0.5) ? spec(r, 2) : hostileValue(r, 2),
          }
        : stage(r, 1),
    );
  return makeDoc(
    Array.from({ length: 1 + r.int(3) }, () => {
      const op = r.pick(UPDATE_OPS);
      const argument = (): unknown => {
        if (op === '$push' || op === '$addToSet')
          return r.chance(0.5)
            ? makeDoc([
                ['$each', hostileValue(r, 1)],
                ['$slice', hostileScalar(r)],
                ['$sort', r.chance(0.5) ? sortSpec(r) : hostileScalar(r)],
                ['$position', hostileScalar(r)],
              ])
            : hostileValue(r, 2);
        if (op === '$bit') return makeDoc([[r.pick(['and', 'or', 'xor', 'nope']), hostileScalar(r)]]);
        if (op === '$currentDate')
          return r.chance(0.5) ? true : { $type: r.pick(['date', 'timestamp', 'nope']) };
        if (op === '$rename') return r.pick(PATHS);
        if (op === '$pull') return r.chance(0.5) ? filter(r, 1) : hostileValue(r, 1);
        return hostileValue(r, 2);
      };
      return [
        op,
        r.chance(0.9)
          ? makeDoc(Array.from({ length: 1 + r.int(2) }, () => [r.pick(PATHS), argument()]))
          : hostileScalar(r),
      ];
    }),
  );
}
