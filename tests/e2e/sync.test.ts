/**
 * The sync guarantees of docs/conventions.md §5 and §7 as registers observe them over HTTP: a diff never misses a
 * change its range covers, also while other registers write; of two writes carrying the same
 * If-Match exactly one wins; a deletion shows in every diff range that covers its version.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type Answer, answerLost, expectError, newSeller, v } from '../support/http.ts';

const api = v(33);

/** An entity as a diff or a list shows it; diffs carry no version, only ETags do. */
type Entity = Record<string, unknown> & { identifier: string; deleted: boolean };
type Kind = 'taxes' | 'products';
const KINDS = ['taxes', 'products'] as const;

async function currentVersion(sellerId: string): Promise<number> {
  const answer = await api.get(`/${sellerId}/version`);
  if (answer.status !== 200) throw new Error(`GET version answered ${answer.status}: ${answer.text}`);
  return (answer.body as { version: number }).version;
}

async function diff(sellerId: string, kind: Kind, from: number, to: number): Promise<Entity[]> {
  const answer = await api.get(`/${sellerId}/${kind}-diff/${from}/${to}`);
  if (answer.status !== 200) throw new Error(`${kind}-diff/${from}/${to} answered ${answer.status}: ${answer.text}`);
  return answer.body as Entity[];
}

/** The version an entity read carries in its ETag (docs/conventions.md §5). */
function etagVersion(answer: Answer): number {
  const match = /^"(\d+)"$/.exec(answer.headers.get('etag') ?? '');
  if (!match) throw new Error(`No strong ETag on a ${answer.status} read: ${answer.headers.get('etag')}`);
  return Number(match[1]);
}

const taxBody = (name: string, vat = 25) => ({ vat, name });
const productBody = (name: string, tax: string, netto = 100) => ({
  name,
  barcode: name.slice(0, 32),
  netto,
  tax,
  salesUnit: 'Piece',
  countedInPrice: true,
});

const byIdentifier = (entities: Iterable<Entity>) => [...entities].sort((a, b) => a.identifier.localeCompare(b.identifier));

/** A small seeded generator: a failure message names the seed of the writers' choices. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sync: diffs while registers write concurrently', () => {
  const TAX_IDS = ['t0', 't1', 't2', 't3'];
  const PRODUCT_IDS = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
  const WRITERS = 5;
  const ROUNDS = 12;
  const READERS = 3;
  /**
   * One tax that only the scripted register writes, in a cycle create, update, delete: every round
   * moves the version, and creates, updates and deletes all happen, whatever the random writers do.
   */
  const ANCHOR = 'anchor';
  const anchorStep = (round: number): { method: 'PUT' | 'DELETE'; status: string } =>
    round % 3 === 2 ? { method: 'DELETE', status: '204' } : { method: 'PUT', status: round % 3 === 0 ? '201' : '204' };

  /** What each write may answer when others race it (503 is retried); anything else fails the test. */
  const ALLOWED: Record<string, readonly string[]> = {
    'PUT taxes': ['201', '204'],
    'PUT products': ['201', '204', '404 ReferenceNotFound'],
    'DELETE taxes': ['204', '404 NotFound', '422 UnprocessableEntity ENTITY_HAS_REFERENCED_DATA'],
    'DELETE products': ['204', '404 NotFound'],
  };
  const outcomeOf = (answer: Answer) => {
    const body = answer.body as { exception?: string; code?: string | null } | undefined;
    return [String(answer.status), body?.exception, body?.code].filter(Boolean).join(' ');
  };

  it('every register that syncs while 5 others write ends with exactly the final state, and no diff holds a version outside its range', async () => {
    const sellerId = await newSeller();
    const start = await currentVersion(sellerId);
    const seed = Date.now();
    /** A name no other write uses: equal data in two reads means the same write, hence the same version. */
    let writeNumber = 0;
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

    /** One write, retried after a 503 or a Lambda timeout; answers its outcome and whether it was retried. */
    const send = async (method: 'PUT' | 'DELETE', kind: Kind, identifier: string, body: (name: string) => unknown) => {
      for (let attempt = 1; ; attempt++) {
        const path = `/${sellerId}/${kind}/${identifier}`;
        const answer = method === 'PUT' ? await api.put(path, body(`w${++writeNumber}`)) : await api.del(path);
        if ((answer.status === 503 || answerLost(answer)) && attempt < 10) {
          count(`${method} ${kind} retried ${answer.status === 503 ? '503' : 'after a lost answer'}`);
          await pause(50 * attempt);
          continue;
        }
        return { outcome: outcomeOf(answer), retried: attempt > 1, text: `${method} ${path} answered ${answer.text}` };
      }
    };

    /** A writer's random generator, kept across rounds so its choices depend on the seed only. */
    const choices = Array.from({ length: WRITERS }, (_, register) => random(seed + register));
    const randomWrite = async (next: () => number) => {
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
      const kind: Kind = next() < 0.4 ? 'taxes' : 'products';
      const method = next() < (kind === 'taxes' ? 0.7 : 0.65) ? 'PUT' : 'DELETE';
      const identifier = pick(kind === 'taxes' ? TAX_IDS : PRODUCT_IDS);
      const tax = pick(TAX_IDS);
      const { outcome, text } = await send(method, kind, identifier, (name) =>
        kind === 'taxes' ? taxBody(name, writeNumber % 101) : productBody(name, tax, writeNumber),
      );
      expect(ALLOWED[`${method} ${kind}`], `${text} (seed ${seed})`).toContain(outcome);
      count(`${method} ${kind} ${outcome}`);
    };

    /** The scripted write of a round. After a retry the first attempt may have committed: its repeat then answers as a repeat. */
    const anchorWrite = async (round: number) => {
      const step = anchorStep(round);
      const { outcome, retried, text } = await send(step.method, 'taxes', ANCHOR, (name) => taxBody(name, round));
      const repeat = step.method === 'PUT' ? '204' : '404 NotFound';
      expect(retried ? [step.status, repeat] : [step.status], `${text} (round ${round})`).toContain(outcome);
      count(`${step.method} taxes ${step.status}`);
    };

    /**
     * Checks, through the entity's ETag, that a changed entity a diff (from, to] showed had a version
     * in that range: read after the diff, the entity shows the same data (the same write: its ETag is
     * the version the diff saw, from < v <= to) or a later write's (whose version is > to, since every
     * write committed before `to` was read is visible to the diff). A tombstone has no ETag: while the
     * entity is still deleted, it must not be in the diff (0, from], as versions only grow.
     */
    const checkVersion = async (kind: Kind, change: Entity, from: number, to: number) => {
      const read = await api.get(`/${sellerId}/${kind}/${change.identifier}`);
      const where = `${kind} ${change.identifier} in diff ${from}..${to} (seed ${seed})`;
      if (read.status === 200) {
        const version = etagVersion(read);
        if (!change.deleted && isDeepStrictEqual(read.body, change)) {
          expect(version, `${where}: the same data carries version ${version}`).toBeGreaterThan(from);
          expect(version, `${where}: the same data carries version ${version}`).toBeLessThanOrEqual(to);
        } else {
          expect(version, `${where}: a later write has version ${version}`).toBeGreaterThan(to);
        }
        return;
      }
      expect(read.status, `${where}: ${read.text}`).toBe(404);
      if (change.deleted && from > 0) {
        const earlier = await diff(sellerId, kind, 0, from);
        expect(
          earlier.filter((item) => item.identifier === change.identifier && item.deleted),
          `${where}: the tombstone's version is at most ${from}`,
        ).toEqual([]);
      }
    };

    /** A register's local copy, brought up to date by diffs from its last synced version. */
    const newReader = () => {
      const state: Record<Kind, Map<string, Entity>> = { taxes: new Map(), products: new Map() };
      let synced = 0;
      const versionsSynced: number[] = [];
      // The ETag checks trail the syncs one at a time, while later rounds write.
      let checks = Promise.resolve();
      const sync = async () => {
        const to = await currentVersion(sellerId);
        for (const kind of KINDS) {
          const from = synced;
          const changes = await diff(sellerId, kind, from, to);
          const identifiers = changes.map((change) => change.identifier);
          expect(new Set(identifiers).size, `one entry per entity in ${kind}-diff ${from}..${to}`).toBe(identifiers.length);
          for (const change of changes) {
            checks = checks.then(() => checkVersion(kind, change, from, to));
            // Ranges follow one another, so a later diff always shows a later version of the entity.
            if (change.deleted) state[kind].delete(change.identifier);
            else state[kind].set(change.identifier, change);
          }
        }
        synced = to;
        versionsSynced.push(to);
      };
      return { state, versionsSynced, sync, settled: () => checks };
    };
    const readers = Array.from({ length: READERS }, newReader);

    // Each round starts every writer's next write and every register's sync together, so diffs are
    // read while versions are being taken; the next round starts when all of them are done. A sync of
    // round r reads a version between the ends of rounds r-1 and r, and every round moves the version
    // (the anchor), so syncs two rounds apart see different versions: no reliance on timing.
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all([anchorWrite(round), ...choices.map(randomWrite), ...readers.map((reader) => reader.sync())]);
    }
    for (const reader of readers) {
      await reader.sync();
      await reader.settled();
    }

    // Creates, updates and deletes all went through (the anchor makes sure), among the random writes' races.
    const succeeded = (prefix: string) =>
      [...outcomes].filter(([key]) => key.startsWith(prefix)).reduce((sum, [, count]) => sum + count, 0);
    expect(succeeded('PUT taxes 201') + succeeded('PUT products 201'), `creates (seed ${seed})`).toBeGreaterThan(0);
    expect(succeeded('PUT taxes 204') + succeeded('PUT products 204'), `updates (seed ${seed})`).toBeGreaterThan(0);
    expect(succeeded('DELETE taxes 204') + succeeded('DELETE products 204'), `deletes (seed ${seed})`).toBeGreaterThan(0);

    const final = await currentVersion(sellerId);
    const lists = Object.fromEntries(
      await Promise.all(
        KINDS.map(async (kind) => {
          const answer = await api.get(`/${sellerId}/${kind}?maxResults=1000`);
          expect(answer.status).toBe(200);
          return [kind, byIdentifier(answer.body as Entity[])] as const;
        }),
      ),
    ) as Record<Kind, Entity[]>;
    for (const { state, versionsSynced } of readers) {
      // Each register synced at versions between the first and the last, not just once at the end:
      // the syncs of rounds 1 to ROUNDS-2 lie strictly between, and those two rounds apart differ.
      expect(versionsSynced.at(-1)).toBe(final);
      const intermediate = new Set(versionsSynced.filter((version) => version > start && version < final));
      expect(intermediate.size, `intermediate syncs ${versionsSynced.join(' ')}`).toBeGreaterThanOrEqual((ROUNDS - 2) / 2);
      for (const kind of KINDS) {
        expect(byIdentifier(state[kind].values()), `${kind} of a register (seed ${seed})`).toEqual(lists[kind]);
      }
    }
  }, 90_000);
});

describe('sync: two registers writing with the same If-Match', () => {
  const ROUNDS = 10;

  it.each(['PUT', 'DELETE'] as const)(
    'PUT vs %s fired together: exactly one wins (204), the other is 409 VersionConflict, the winner’s data stays',
    async (rival) => {
      const sellerId = await newSeller();
      expect((await api.put(`/${sellerId}/taxes/base`, taxBody('Base'))).status).toBe(201);
      const wins = { first: 0, second: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const kind: Kind = round % 2 === 0 ? 'taxes' : 'products';
        const path = `/${sellerId}/${kind}/race-${round}`;
        const body = (name: string) => (kind === 'taxes' ? taxBody(name) : productBody(name, 'base'));
        expect((await api.put(path, body('Start'))).status).toBe(201);
        const read = await api.get(path);
        const etag = read.headers.get('etag') ?? '';
        const before = await currentVersion(sellerId);
        expect(etagVersion(read)).toBe(before);

        const ifMatch = { headers: { 'If-Match': etag } };
        const [first, second] = await Promise.all([
          api.put(path, body('First'), ifMatch),
          rival === 'PUT' ? api.put(path, body('Second'), ifMatch) : api.del(path, ifMatch),
        ]);
        expect([first.status, second.status].sort(), `round ${round}: ${first.text} / ${second.text}`).toEqual([204, 409]);
        const [winner, loser] = first.status === 204 ? ['first', second] : ['second', first];
        expectError(loser, 409, 'VersionConflict');
        wins[winner as 'first' | 'second']++;

        // Exactly one write happened, and it is the winner's.
        expect(await currentVersion(sellerId), `round ${round}: one version for one winner`).toBe(before + 1);
        const after = await api.get(path);
        if (winner === 'first' || rival === 'PUT') {
          expect(after.status).toBe(200);
          expect(after.body).toMatchObject({ name: winner === 'first' ? 'First' : 'Second', deleted: false });
          expect(etagVersion(after)).toBe(before + 1);
        } else {
          expectError(after, 404, 'NotFound');
          expect(await diff(sellerId, kind, before, before + 1)).toEqual([
            expect.objectContaining({ identifier: `race-${round}`, deleted: true }),
          ]);
        }
      }
      expect(wins.first + wins.second).toBe(ROUNDS);
    },
  );
});

describe('sync: a deletion shows in every diff range that covers it', () => {
  it.each(KINDS)('%s: the tombstone is in every (from, to] with from < d <= to exactly once, and in no other', async (kind) => {
    const sellerId = await newSeller();
    const base = (name: string) => (kind === 'taxes' ? taxBody(name) : productBody(name, 'tax'));
    const path = (identifier: string) => `/${sellerId}/${kind}/${identifier}`;
    expect((await api.put(`/${sellerId}/taxes/tax`, taxBody('Tax'))).status).toBe(201);
    expect((await api.put(path('x'), base('X'))).status).toBe(201);
    expect((await api.put(path('other'), base('Other'))).status).toBe(201);
    expect((await api.put(path('x'), base('X2'))).status).toBe(204);
    const [live] = (await diff(sellerId, kind, 0, await currentVersion(sellerId))).filter((item) => item.identifier === 'x');
    expect(live).toMatchObject({ identifier: 'x', deleted: false, name: 'X2' });

    expect((await api.del(path('x'))).status).toBe(204);
    const d = await currentVersion(sellerId);
    for (const name of ['After1', 'After2', 'After3'])
      expect((await api.put(path(name.toLowerCase()), base(name))).status).toBe(201);
    expect((await api.put(path('other'), base('Other2'))).status).toBe(204);
    const end = await currentVersion(sellerId);
    expect(end).toBe(d + 4);

    // Every field but the identifier and the flag is null in a tombstone.
    const tombstone = Object.fromEntries(Object.keys(live ?? {}).map((field) => [field, null]));
    Object.assign(tombstone, { identifier: 'x', deleted: true });
    const xs = async (from: number, to: number) =>
      (await diff(sellerId, kind, from, to)).filter((item) => item.identifier === 'x');

    const covering = [];
    for (let from = 0; from < d; from++) for (const to of [d, d + 1, d + 2, end]) covering.push([from, to] as const);
    for (const [from, to] of covering) expect(await xs(from, to), `diff ${from}..${to}`).toEqual([tombstone]);

    const notCovering = [];
    for (let from = 0; from < d - 1; from++) for (let to = from + 1; to < d; to++) notCovering.push([from, to] as const);
    for (let from = d; from <= end; from++)
      for (const to of new Set([from, from + 1, end])) if (to <= end) notCovering.push([from, to] as const);
    for (const [from, to] of notCovering) expect(await xs(from, to), `diff ${from}..${to}`).toEqual([]);
  });
});
