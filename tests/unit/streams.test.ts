/**
 * Version streams without DynamoDB: the steps a decided write commits (`versionedSteps`, `entityWrite`), the index
 * items an item stands for (`indexItemsOf`), diff ranges (`checkRange`), liveness.
 */
import { describe, expect, it } from 'vitest';
import { changeRange, markersBefore } from '#shared/db/keys.ts';
import {
  checkRange,
  type Counter,
  type Decision,
  entityWrite,
  indexItemsOf,
  liveCounter,
  versionedSteps,
} from '#shared/db/streams.ts';
import { put } from '#shared/db/transact.ts';
import { sellerStream, sellerKeys } from '#shared/domain/seller.ts';
import { refusal, stepOf, storedAs } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const PK = `S#${SELLER}`;
const stream = sellerStream(SELLER);
const write = { stream, entity: sellerKeys.catalog<{ name: string }>(SELLER, 'TAX', 'T1'), kind: 'TAX', apiVersion: 26 as const };
const NOW = 1_700_000_000_000;
const V8 = 'TAX#000000000000008';
const V10 = 'TAX#000000000000010';

const decision = (fields: Partial<Decision<{ name: string }, null>> = {}): Decision<{ name: string }, null> => ({
  entity: { name: 'Moms 25', deleted: false },
  result: null,
  ...fields,
});

describe('versionedSteps', () => {
  it("a stream's first write creates its counter at version 1, live, the entity only if absent, and its change item", () => {
    // Act
    const steps = versionedSteps(write, { counter: undefined, entity: undefined }, decision(), NOW).map(stepOf);

    // Assess
    expect(steps).toEqual([
      {
        op: 'Put',
        key: { pk: PK, sk: '#VERSION' },
        condition: 'attribute_not_exists(pk)',
        item: { pk: PK, sk: '#VERSION', ver: 1, live: true, apiVersion: 26 },
        refuses: false,
      },
      {
        op: 'Put',
        key: { pk: PK, sk: 'TAX#T1' },
        condition: 'attribute_not_exists(pk)',
        item: { pk: PK, sk: 'TAX#T1', name: 'Moms 25', deleted: false, version: 1, modified: NOW, vsk: 'TAX#000000000000001' },
        refuses: false,
      },
      {
        op: 'Put',
        key: { pk: PK, sk: '#V#TAX#000000000000001' },
        item: {
          pk: PK,
          sk: '#V#TAX#000000000000001',
          esk: 'TAX#T1',
          name: 'Moms 25',
          deleted: false,
          version: 1,
          modified: NOW,
          vsk: 'TAX#000000000000001',
        },
        refuses: false,
      },
    ]);
  });

  it('a later write moves the counter from the version it read, keeping its liveness', () => {
    // Prepare
    const counter: Counter = { ver: 41, live: true, apiVersion: 15 };

    // Act
    const [counterStep] = versionedSteps(write, { counter, entity: undefined }, decision(), NOW).map(stepOf);

    // Assess
    expect(counterStep).toEqual({
      op: 'Update',
      key: { pk: PK, sk: '#VERSION' },
      update: 'SET ver = :next, apiVersion = :api, live = :live',
      condition: 'ver = :current',
      values: { ':next': 42, ':current': 41, ':api': 26, ':live': true },
      refuses: false,
    });
  });

  it("a decision that sets the stream's liveness (a seller deleted) writes it on the counter", () => {
    // Prepare
    const counter: Counter = { ver: 3, live: true };

    // Act
    const [counterStep] = versionedSteps(write, { counter, entity: undefined }, decision({ live: false }), NOW).map(stepOf);

    // Assess
    expect(counterStep?.values).toMatchObject({ ':live': false });
  });

  it('a replaced entity commits only over the version and reference count it was decided on, and keeps its count', () => {
    // Prepare
    const entity = storedAs({ name: 'Moms 12' }, { version: 8, refs: 3 });

    // Act
    const [, entityStep] = versionedSteps(write, { counter: { ver: 9, live: true }, entity }, decision(), NOW).map(stepOf);

    // Assess
    expect(entityStep).toMatchObject({
      condition: 'version = :seen AND (attribute_not_exists(refs) OR refs = :refs)',
      values: { ':seen': 8, ':refs': 3 },
      item: { name: 'Moms 25', version: 10, refs: 3, vsk: V10 },
    });
  });

  it('a write that moves an entity to a new version puts its new change item and deletes the old one, in its transaction', () => {
    // Prepare
    const entity = storedAs({ name: 'Moms 12' }, { sk: 'TAX#T1', version: 8, vsk: V8 });

    // Act
    const [, , ...index] = versionedSteps(write, { counter: { ver: 9, live: true }, entity }, decision(), NOW).map(stepOf);

    // Assess
    expect(index).toEqual([
      {
        op: 'Put',
        key: { pk: PK, sk: `#V#${V10}` },
        item: expect.objectContaining({ esk: 'TAX#T1', name: 'Moms 25', version: 10, vsk: V10 }),
        refuses: false,
      },
      { op: 'Delete', key: { pk: PK, sk: `#V#${V8}` }, refuses: false },
    ]);
  });

  it('a tombstone carries its deletion time for the purge and no reference count', () => {
    // Prepare
    const entity = storedAs({ name: 'Moms 12' }, { version: 8 });
    const tombstone = decision({ entity: { name: 'Moms 12', deleted: true } });

    // Act
    const [, entityStep] = versionedSteps(write, { counter: { ver: 9, live: true }, entity }, tombstone, NOW).map(stepOf);

    // Assess
    expect(entityStep?.item).toMatchObject({ deleted: true, tsk: `00${NOW}`, modified: NOW });
    expect(entityStep?.item).not.toHaveProperty('refs');
  });

  it('a tombstone gets a marker by its deletion time that names its version, its sort key and its change item', () => {
    // Prepare
    const entity = storedAs({ name: 'Moms 12' }, { sk: 'TAX#T1', version: 8, vsk: V8 });
    const tombstone = decision({ entity: { name: 'Moms 12', deleted: true } });

    // Act
    const steps = versionedSteps(write, { counter: { ver: 9, live: true }, entity }, tombstone, NOW).map(stepOf);

    // Assess
    expect(steps.map(({ op, key }) => `${op} ${String(key.sk)}`)).toEqual([
      'Update #VERSION',
      'Put TAX#T1',
      `Put #V#${V10}`,
      `Put #T#00${NOW}#TAX#T1`,
      `Delete #V#${V8}`,
    ]);
    expect(steps[3]?.item).toEqual({ pk: PK, sk: `#T#00${NOW}#TAX#T1`, version: 10, esk: 'TAX#T1', vsk: V10 });
  });

  it("a write over a tombstone (re-created) deletes the tombstone's marker and change item", () => {
    // Prepare
    const tsk = `00${NOW - 5000}`;
    const entity = storedAs({ name: 'Moms 12' }, { sk: 'TAX#T1', version: 8, deleted: true, vsk: V8, tsk });

    // Act
    const steps = versionedSteps(write, { counter: { ver: 9, live: true }, entity }, decision(), NOW).map(stepOf);

    // Assess
    expect(steps.map(({ op, key }) => `${op} ${String(key.sk)}`)).toEqual([
      'Update #VERSION',
      'Put TAX#T1',
      `Put #V#${V10}`,
      `Delete #V#${V8}`,
      `Delete #T#${tsk}#TAX#T1`,
    ]);
    expect(steps[1]?.item).not.toHaveProperty('tsk');
  });

  it("the decision's own steps follow the counter and the entity", () => {
    // Prepare
    const directory = put({ ...sellerKeys.directoryEntry(SELLER), name: 'Kaffe AB' });

    // Act
    const steps = versionedSteps(write, { counter: undefined, entity: undefined }, decision({ alongside: [directory] }), NOW);

    // Assess
    expect(steps.map((step) => stepOf(step).key.sk)).toEqual(['#VERSION', 'TAX#T1', '#V#TAX#000000000000001', SELLER]);
  });
});

describe('entityWrite', () => {
  const day = { entity: { pk: 'R#SE5560360793#K1', sk: 'DAY#000000000000001' }, kind: 'DAY' };
  const open = { dayNumber: 1, deleted: false };
  const opsOf = (items: ReturnType<typeof entityWrite>) =>
    items.map((write) => {
      const { op, key } = stepOf({ write });
      return `${op} ${String(key.sk)}`;
    });

  it('an entity written with indexed: false has no vsk and no change item, and its old change item goes', () => {
    // Prepare
    const seen = storedAs({ dayNumber: 1 }, { ...day.entity, version: 4, vsk: 'DAY#000000000000004' });

    // Act
    const items = entityWrite({ ...day, indexed: false }, seen, { ...seen, deleted: false }, 5, NOW);

    // Assess
    expect(opsOf(items)).toEqual(['Put DAY#000000000000001', 'Delete #V#DAY#000000000000004']);
    expect(stepOf({ write: items[0] ?? {} }).item).not.toHaveProperty('vsk');
  });

  it('an entity that leaves the index unindexed writes itself alone', () => {
    // Prepare
    const seen = storedAs({ dayNumber: 1 }, { ...day.entity, version: 4 });

    // Act
    const items = entityWrite({ ...day, indexed: false }, seen, open, 5, NOW);

    // Assess
    expect(opsOf(items)).toEqual(['Put DAY#000000000000001']);
  });

  it('an unindexed entity that becomes indexed (a day closing) puts its first change item and deletes nothing', () => {
    // Prepare
    const seen = storedAs({ dayNumber: 1 }, { ...day.entity, version: 4 });

    // Act
    const items = entityWrite(day, seen, open, 5, NOW);

    // Assess
    expect(opsOf(items)).toEqual(['Put DAY#000000000000001', 'Put #V#DAY#000000000000005']);
  });
});

describe('indexItemsOf', () => {
  it('an item with neither vsk nor tsk stands for itself alone', () => {
    // Prepare
    const item = { pk: PK, sk: '#PROFILE', name: 'Kaffe AB' };

    // Act and Assess
    expect(indexItemsOf(item)).toEqual([item]);
  });

  it("an old table's tombstone with vsk and tsk becomes itself, its change item and its marker", () => {
    // Prepare
    const tombstone = { pk: PK, sk: 'TAX#T1', deleted: true, version: 8, modified: NOW, vsk: V8, tsk: `00${NOW}` };

    // Act
    const items = indexItemsOf(tombstone);

    // Assess
    expect(items).toEqual([
      tombstone,
      { ...tombstone, sk: `#V#${V8}`, esk: 'TAX#T1' },
      { pk: PK, sk: `#T#00${NOW}#TAX#T1`, version: 8, esk: 'TAX#T1', vsk: V8 },
    ]);
  });
});

describe('the keys of the version index and the markers', () => {
  it('a range of change items runs from the first version after `from` to `to`, under #V#', () => {
    // Act and Assess
    expect(changeRange('SALE', 4, 9)).toEqual(['#V#SALE#000000000000005', '#V#SALE#000000000000009']);
  });

  it('the markers before a time are bounded below by #T#, so no other key of the partition is read', () => {
    // Prepare
    const [low, high] = markersBefore(NOW);
    const sorted = (keys: string[]) => [...keys].sort();
    const before = `#T#${`00${NOW - 1}`}#TAX#T1`;
    const at = `#T#${`00${NOW}`}#TAX#T1`;

    // Assess
    expect(low).toBe('#T#');
    expect(sorted(['#SEQ#orders', '#RESTAURANT', '#PROFILE', '#PAYMENT#1', low]).at(-1)).toBe(low);
    expect(sorted([before, high, at])).toEqual([before, high, at]);
  });
});

describe('checkRange', () => {
  const counter: Counter = { ver: 20, live: true, purged: 10 };

  it.each([
    [0, 20, 'from 0 holds nothing that was purged'],
    [10, 20, 'from the purge mark on'],
    [19, 20, 'up to the current version'],
    [25, 5, 'from past to (an empty diff) while to is not ahead'],
  ])('accepts (%i, %i]: %s', (from, to) => {
    // Act and Assess
    expect(() => checkRange(from, to, counter)).not.toThrow();
  });

  it('a range ending after the current version is 409 LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY', () => {
    // Act
    const refused = refusal(() => checkRange(0, 21, counter));

    // Assess
    expect(refused).toEqual({ status: 409, exception: 'InconsistentData', code: 'LOCAL_AND_SERVER_VERSIONS_INCONSISTENCY' });
  });

  it('a range starting below the purge mark is 410 OutdatedVersion: resync from 0', () => {
    // Act
    const refused = refusal(() => checkRange(9, 20, counter));

    // Assess
    expect(refused).toEqual({ status: 410, exception: 'OutdatedVersion', code: null });
  });

  it('a stream that never purged accepts every from up to its version', () => {
    // Act and Assess
    expect(() => checkRange(1, 20, { ver: 20, live: true })).not.toThrow();
  });
});

describe('liveCounter', () => {
  it('answers the counter of a live stream', () => {
    // Prepare
    const counter: Counter = { ver: 2, live: true };

    // Act and Assess
    expect(liveCounter(stream, counter)).toBe(counter);
  });

  it.each([
    ['absent', undefined],
    ['not live', { ver: 2, live: false }],
  ])("an %s counter is the stream's missing(): 404", (_, counter) => {
    // Act
    const refused = refusal(() => liveCounter(stream, counter));

    // Assess
    expect(refused).toEqual({ status: 404, exception: 'NotFound', code: null });
  });
});
