/** Version streams without DynamoDB: the steps a decided write commits (`versionedSteps`), diff ranges (`checkRange`), liveness. */
import { describe, expect, it } from 'vitest';
import { checkRange, type Counter, type Decision, liveCounter, versionedSteps } from '#shared/db/streams.ts';
import { put } from '#shared/db/transact.ts';
import { sellerStream, sellerKeys } from '#shared/domain/seller.ts';
import { refusal, stepOf, storedAs } from '../support/decisions.ts';

const SELLER = 'SE5560360793';
const PK = `S#${SELLER}`;
const stream = sellerStream(SELLER);
const write = { stream, entity: sellerKeys.catalog<{ name: string }>(SELLER, 'TAX', 'T1'), kind: 'TAX', apiVersion: 26 as const };
const NOW = 1_700_000_000_000;

const decision = (fields: Partial<Decision<{ name: string }, null>> = {}): Decision<{ name: string }, null> => ({
  entity: { name: 'Moms 25', deleted: false },
  result: null,
  ...fields,
});

describe('versionedSteps', () => {
  it("a stream's first write creates its counter at version 1, live, and the entity only if absent", () => {
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
      item: { name: 'Moms 25', version: 10, refs: 3, vsk: 'TAX#000000000000010' },
    });
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

  it("the decision's own steps follow the counter and the entity", () => {
    // Prepare
    const directory = put({ ...sellerKeys.directoryEntry(SELLER), name: 'Kaffe AB' });

    // Act
    const steps = versionedSteps(write, { counter: undefined, entity: undefined }, decision({ alongside: [directory] }), NOW);

    // Assess
    expect(steps.map((step) => stepOf(step).key.sk)).toEqual(['#VERSION', 'TAX#T1', SELLER]);
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
