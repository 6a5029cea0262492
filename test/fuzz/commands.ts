/**
 * Hostile commands for the wire fuzzer: every command the embedded server implements, with its
 * arguments sometimes well-typed (so the engine runs them) and sometimes of the wrong type or shape.
 */
import { commandNames } from '../../src/embedded/commands/index.js';
import { expression, filter, pipeline, stage, update } from './grammar.js';
import { HOSTILE_KEYS, Random, hostileScalar, hostileValue, makeDoc } from './hostile-values.js';

/** Commands not fuzzed: a fail point would make the other clients' commands fail on purpose. */
const SKIPPED = new Set(['configureFailPoint']);

/** The commands the fuzzer sends (all but {@link SKIPPED}). */
export const FUZZED_COMMANDS = commandNames.filter((name) => !SKIPPED.has(name));

/** The database every fuzzed command runs in (the fuzzer's canary data lives elsewhere). */
export const FUZZ_DB = 'fuzz';

const COLLECTIONS = ['c', 'd', 'v', 'o', 'm', ''];

/** A well-typed value for an argument, so the engine gets past its type checks. */
function plausible(r: Random, field: string): unknown {
  switch (field) {
    case 'filter':
    case 'query':
    case 'q':
      return filter(r);
    case 'projection':
    case 'fields':
      return makeDoc([
        [
          r.pick(['a', 'b', 'arr.$', 'arr', 's']),
          r.pick([0, 1, expression(r, 1), { $slice: hostileScalar(r) }, { $elemMatch: filter(r, 0) }]),
        ],
      ]);
    case 'sort':
      return { [r.pick(['a', 'n', 's', '$natural', 'x.y'])]: r.pick([1, -1, { $meta: 'textScore' }, 0]) };
    case 'pipeline':
      return pipeline(r);
    case 'documents':
      return Array.from({ length: 1 + r.int(3) }, () =>
        makeDoc([
          ['_id', hostileScalar(r)],
          ['a', hostileValue(r, 2)],
          [r.pick(HOSTILE_KEYS), hostileValue(r, 2)],
        ]),
      );
    case 'updates':
      return Array.from({ length: 1 + r.int(2) }, () =>
        makeDoc([
          ['q', filter(r, 1)],
          ['u', update(r)],
          ['multi', r.chance(0.5)],
          ['upsert', r.chance(0.3)],
          ...(r.chance(0.3)
            ? [['arrayFilters', [{ [r.pick(['e', 'e.a', 'E'])]: hostileValue(r, 1) }]] as [string, unknown]]
            : []),
        ]),
      );
    case 'deletes':
      return [{ q: filter(r, 1), limit: r.pick([0, 1, 2, -1, 1.5]) }];
    case 'update':
      return update(r);
    case 'indexes':
      return [
        makeDoc([
          ['key', makeDoc([[r.pick(['a', 'b', '$**', 'a.$**', '_id', '']), hostileScalar(r)]])],
          ['name', r.pick(['i', '', 'a_1', hostileScalar(r)])],
          ...(r.chance(0.4)
            ? [
                [
                  r.pick([
                    'unique',
                    'sparse',
                    'partialFilterExpression',
                    'expireAfterSeconds',
                    'collation',
                    'hidden',
                    'wildcardProjection',
                    'weights',
                  ]),
                  r.chance(0.5) ? filter(r, 0) : hostileScalar(r),
                ] as [string, unknown],
              ]
            : []),
        ]),
      ];
    case 'collation':
      return makeDoc([
        ['locale', r.pick(['en', 'simple', 'fr', 'xx', ''])],
        ['strength', hostileScalar(r)],
        ['numericOrdering', hostileScalar(r)],
      ]);
    case 'cursor':
      return { batchSize: hostileScalar(r) };
    case 'let':
      return makeDoc([[r.pick(['x', 'X', 'CURRENT', 'NOW', '', 'a.b']), expression(r, 1)]]);
    case 'validator':
      return r.chance(0.5)
        ? filter(r)
        : {
            $jsonSchema: makeDoc([
              ['bsonType', r.pick(['object', 'nope', 3])],
              ['required', hostileValue(r, 1)],
              ['properties', { a: { bsonType: r.pick(['int', 'string']), pattern: r.pick(['a', '(']) } }],
            ]),
          };
    case 'key':
      return r.pick(['a', 'arr', 'a.b', '', '$a', 'arr.0']);
    case 'to':
      return `${FUZZ_DB}.${r.pick(COLLECTIONS)}`;
    default:
      return hostileScalar(r);
  }
}

const FIELDS =
  'filter query projection fields sort hint collation skip limit batchSize singleBatch pipeline cursor documents updates deletes update remove new upsert key indexes index to dropTarget validator validationLevel validationAction viewOn capped size max let arrayFilters maxTimeMS readConcern writeConcern ordered comment nameOnly cursors collection scale verbosity explain allowDiskUse bypassDocumentValidation expireAfterSeconds clusteredIndex timeseries changeStreamPreAndPostImages full returnKey showRecordId min max tailable awaitData noCursorTimeout lsid txnNumber autocommit startTransaction stmtId $readPreference authorizedDatabases'.split(
    ' ',
  );

/** A hostile command named `name`, in the fuzz database. */
export function hostileCommand(r: Random, name: string): Record<string, unknown> {
  const target = r.chance(0.85) ? r.pick(COLLECTIONS) : hostileValue(r, 1);
  const pairs: [string, unknown][] = [
    [
      name,
      name === 'explain' && r.chance(0.7)
        ? hostileCommand(
            r,
            r.pick(['find', 'aggregate', 'count', 'distinct', 'update', 'delete', 'findAndModify']),
          )
        : target,
    ],
  ];
  for (let i = r.int(5); i > 0; i--) {
    const field = r.chance(0.1) ? r.pick(HOSTILE_KEYS) : r.pick(FIELDS);
    pairs.push([field, r.chance(0.6) ? plausible(r, field) : hostileValue(r, 2)]);
  }
  if (name === 'aggregate' && !pairs.some(([k]) => k === 'pipeline'))
    pairs.push(['pipeline', r.chance(0.8) ? pipeline(r) : [stage(r)]]);
  if (name === 'aggregate' && !pairs.some(([k]) => k === 'cursor') && r.chance(0.9))
    pairs.push(['cursor', {}]);
  pairs.push([
    '$db',
    r.chance(0.95) ? FUZZ_DB : r.pick(['', 'admin', 'a.b', 'a b', '$x', 'local', 'config', 'x'.repeat(100)]),
  ]);
  return makeDoc(pairs);
}
