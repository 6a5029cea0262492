/**
 * Aggregation memory limits, as MongoDB 7.0 enforces them, with the knobs lowered through `setParameter`
 * so that small collections reach them. The embedded database shares its process with the application:
 * without these limits an unbounded `$push` or `$graphLookup` ended in an out-of-memory crash of both.
 *
 * Sources (mongodb/mongo): src/mongo/db/query/query_knobs.idl (knob names, 100 MiB defaults, validators
 * `gt: 0`); src/mongo/db/commands/parameters.cpp (`setParameter` replies and refusals);
 * src/mongo/db/pipeline/accumulator_push.cpp and accumulator_add_to_set.cpp (146 and their messages);
 * document_source_group.cpp (292 "Exceeded memory limit for $group …"); src/mongo/db/sorter/sorter.cpp
 * (292 "Sort exceeded memory limit of N bytes, but did not opt in to external sorting.");
 * document_source_set_window_fields.cpp (5414201); document_source_graph_lookup.cpp `checkMemoryUsage`
 * (40099, no spilling in 7.0).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const DEFAULT = 100 * 1024 * 1024;
const KNOBS = [
  'internalQueryMaxPushBytes',
  'internalQueryMaxAddToSetBytes',
  'internalDocumentSourceGroupMaxMemoryBytes',
  'internalQueryMaxBlockingSortMemoryUsageBytes',
  'internalDocumentSourceBucketAutoMaxMemoryBytes',
  'internalDocumentSourceSetWindowFieldsMaxMemoryBytes',
  'internalDocumentSourceGraphLookupMaxMemoryBytes',
];

describe.each(drivers)('aggregation memory limits ($name)', (driver) => {
  const state = connect(driver, 'memlimits');
  const admin = () => state.client.db('admin');
  const setKnobs = (knobs: Record<string, number>) => admin().command({ setParameter: 1, ...knobs });

  afterEach(async () => {
    await setKnobs(Object.fromEntries(KNOBS.map((name) => [name, DEFAULT])));
  });

  describe('setParameter and getParameter', () => {
    it('sets a knob, answering the value it had, and getParameter reports it', async () => {
      const reply = await setKnobs({ internalQueryMaxPushBytes: 1000 });
      expect(reply['was']).toBe(DEFAULT);
      const got = await admin().command({ getParameter: 1, internalQueryMaxPushBytes: 1 });
      expect(got['internalQueryMaxPushBytes']).toBe(1000);
    });

    it('refuses what mongod refuses, changing nothing', async () => {
      const zero = await failure(() =>
        setKnobs({ internalQueryMaxAddToSetBytes: 10, internalQueryMaxPushBytes: 0 }),
      );
      expect(zero['code']).toBe(2);
      const got = await admin().command({ getParameter: 1, internalQueryMaxAddToSetBytes: 1 });
      expect(got['internalQueryMaxAddToSetBytes']).toBe(DEFAULT);
      expect((await failure(() => setKnobs({ noSuchKnob: 1 })))['code']).toBe(72);
      expect((await failure(() => admin().command({ setParameter: 1 })))['code']).toBe(72);
      const elsewhere = await failure(() =>
        state.db.command({ setParameter: 1, internalQueryMaxPushBytes: 1000 }),
      );
      expect(elsewhere['code']).toBe(13);
    });
  });
});
