/**
 * The register's electronic journal as an auditor sees it: entries chained by SHA-256 over canonical
 * JSON, a head signed by the activation key, and an offline verifier that names the first broken entry.
 */
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainEvents,
  entryHash,
  GENESIS_HEAD,
  type JournalEntry,
  type JournalEvent,
  type JsonValue,
  type SignedJournal,
  signedJournal,
  verifyJournal,
  ZERO_HASH,
} from '#shared/fiscal/journal.ts';
import { ensureLocalSigningKey, localSigner } from '#shared/signing/local-signer.ts';
import type { ActivationSigner } from '#shared/signing/signer.ts';

const root = join(import.meta.dirname, '../..');
const CREATED = 1_767_258_000_000;
const GENERATED = 1_767_290_400_000;
const identity = { sellerId: 'SE5560360793', cashRegisterName: 'Kassa 1', generated: GENERATED };
const SALE = '7d3f5c2e-9a41-4b8e-8f0a-2c6d1e5b7a90';

/** A day of one register, written as two fiscal writes: opening with a deposit, then a sale to the close. */
const MORNING: JournalEvent[] = [
  { type: 'DAY_OPENED', dayNumber: 1, data: { date: 20260101 } },
  { type: 'BALANCE', dayNumber: 1, amount: 50_000, data: { action: 'DEPOSIT' } },
];
const REST_OF_DAY: JournalEvent[] = [
  { type: 'SALE_RECORDED', dayNumber: 1, saleIdentifier: SALE, amount: 12_550, data: { saleState: 'Open' } },
  { type: 'SALE_CHANGED', dayNumber: 1, saleIdentifier: SALE, amount: 12_550, data: { saleState: 'Paid' } },
  {
    type: 'PRINT',
    dayNumber: 1,
    saleIdentifier: SALE,
    receiptNumber: 1,
    printType: 'Normal',
    amount: 12_550,
    controlCode: 'CC-1',
  },
  { type: 'PRINT', dayNumber: 1, saleIdentifier: SALE, receiptNumber: 1, printType: 'Copy', amount: 12_550, controlCode: 'CC-2' },
  { type: 'DAY_CLOSED', dayNumber: 1, amount: 62_550, data: { cashAtClose: 62_550 } },
  { type: 'DEVICE', dayNumber: null, data: { event: 'drawer', nested: { z: [1, 'två', null], a: true } } },
];

function dayOfEntries(): JournalEntry[] {
  const morning = chainEvents(GENESIS_HEAD, MORNING, CREATED);
  const rest = chainEvents(morning.head, REST_OF_DAY, CREATED + 3_600_000);
  return [...morning.entries, ...rest.entries];
}

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'journal-test-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

let signer: ActivationSigner;
let pem: string;
beforeAll(async () => {
  const keyFile = join(tempDir(), 'activation-signing-key.pem');
  ensureLocalSigningKey(keyFile);
  signer = localSigner(keyFile);
  pem = await signer.publicKeyPem();
});

/** A served journal as an auditor receives it: JSON text, parsed. */
const asServed = (journal: SignedJournal<JournalEntry>) => JSON.parse(JSON.stringify(journal)) as SignedJournal<JournalEntry>;
/** The day's journal, signed and served. */
const servedDay = async () => asServed(await signedJournal(dayOfEntries(), signer, identity));
/** `entries` with the entry of `sequence` changed by `change`. */
const changing = (entries: JournalEntry[], sequence: number, change: (entry: JournalEntry) => JournalEntry) =>
  entries.map((entry) => (entry.sequence === sequence ? change(entry) : entry));
/** `entries` chained again from their first previousHash, as a forger rewriting history would. */
const rehashed = (entries: JournalEntry[]): JournalEntry[] => {
  let previousHash = entries[0]?.previousHash ?? ZERO_HASH;
  return entries.map((entry) => {
    const chained = { ...entry, previousHash };
    const unhashed: Partial<JournalEntry> = { ...chained };
    delete unhashed.hash;
    previousHash = entryHash(unhashed as Omit<JournalEntry, 'hash'>);
    return { ...chained, hash: previousHash };
  });
};

describe('journal entries', () => {
  it('chain from the genesis head: sequences 1, 2, 3, ..., each previousHash the hash before, the first 64 zeros', () => {
    // Act
    const entries = dayOfEntries();

    // Assess
    expect(entries.map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(entries[0]?.previousHash).toBe('0'.repeat(64));
    for (const [index, entry] of entries.entries()) {
      if (index > 0) expect(entry.previousHash).toBe(entries[index - 1]?.hash);
      expect(entry.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(entries.map((entry) => entry.hash)).size).toBe(entries.length);
  });

  it('have every key, absent values null, and a hash over the canonical JSON of the rest', () => {
    // Act
    const { entries } = chainEvents({ sequence: 41, hash: 'a'.repeat(64) }, [{ type: 'DAY_OPENED', dayNumber: 7 }], CREATED);
    const [entry] = entries;

    // Assess
    expect(entry).toEqual({
      sequence: 42,
      type: 'DAY_OPENED',
      created: CREATED,
      dayNumber: 7,
      saleIdentifier: null,
      receiptNumber: null,
      printType: null,
      amount: null,
      controlCode: null,
      data: null,
      previousHash: 'a'.repeat(64),
      hash: entry?.hash,
    });
    // Written out by hand, as a third party re-implementing the canonical form would produce it.
    const text =
      '{"amount":null,"controlCode":null,"created":1767258000000,"data":null,"dayNumber":7,"previousHash":"' +
      'a'.repeat(64) +
      '","printType":null,"receiptNumber":null,"saleIdentifier":null,"sequence":42,"type":"DAY_OPENED"}';
    expect(entry?.hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('continue from the head they are given and leave the last entry as the head; no events leave it as it was', () => {
    // Prepare
    const first = chainEvents(GENESIS_HEAD, MORNING, CREATED);

    // Act
    const next = chainEvents(first.head, REST_OF_DAY, CREATED);
    const none = chainEvents(next.head, [], CREATED);

    // Assess
    expect(first.head).toEqual({ sequence: 2, hash: first.entries[1]?.hash, created: CREATED });
    expect(next.entries[0]).toMatchObject({ sequence: 3, previousHash: first.head.hash });
    expect(next.head).toEqual({ sequence: 8, hash: next.entries.at(-1)?.hash, created: CREATED });
    expect(none).toEqual({ entries: [], head: next.head });
  });

  it("stamp a time no earlier than the head's: a clock behind the last writer's does not turn the journal back", () => {
    // Prepare
    const first = chainEvents(GENESIS_HEAD, MORNING, CREATED);

    // Act
    const behind = chainEvents(first.head, REST_OF_DAY, CREATED - 60_000);
    const ahead = chainEvents(behind.head, MORNING, CREATED + 60_000);

    // Assess
    expect(behind.entries.map((entry) => entry.created)).toEqual(REST_OF_DAY.map(() => CREATED));
    expect(behind.head.created).toBe(CREATED);
    expect(ahead.entries.map((entry) => entry.created)).toEqual(MORNING.map(() => CREATED + 60_000));
  });

  it("stamp the writer's time after a head of unknown time (kept before heads kept one)", () => {
    // Act
    const { entries, head } = chainEvents({ sequence: 41, hash: 'a'.repeat(64) }, MORNING, CREATED);

    // Assess
    expect(entries.map((entry) => entry.created)).toEqual(MORNING.map(() => CREATED));
    expect(head).toMatchObject({ sequence: 43, created: CREATED });
  });

  it('refuse an event holding what JSON cannot carry', () => {
    // Act
    const chaining = () => chainEvents(GENESIS_HEAD, [{ type: 'BALANCE', dayNumber: 1, amount: Number.NaN }], CREATED);

    // Assess
    expect(chaining).toThrow(new TypeError('$.amount is NaN, which JSON cannot carry'));
  });
});

describe('canonical JSON', () => {
  it('sorts object keys at every depth, keeps array order and writes no whitespace', () => {
    // Act
    const text = canonicalJson({ b: 1, a: { d: [3, { z: 1, y: [2, 1] }], c: 'x' }, A: null });

    // Assess
    expect(text).toBe('{"A":null,"a":{"c":"x","d":[3,{"y":[2,1],"z":1}]},"b":1}');
  });

  it('is the same text whatever order the keys were built in', () => {
    // Prepare
    const value = { sequence: 1, type: 'DEVICE', data: { x: 1, y: { q: 2, p: 3 } } };
    const reordered = { data: { y: { p: 3, q: 2 }, x: 1 }, type: 'DEVICE', sequence: 1 };

    // Act
    const [first, second] = [canonicalJson(value), canonicalJson(reordered)];

    // Assess
    expect(second).toBe(first);
  });

  it('writes numbers and strings as JSON.stringify does, and orders keys by UTF-16 code units', () => {
    // Act
    const numbers = canonicalJson([1e21, -0, 0.1, 125, -3.5, 1e-7]);
    const strings = canonicalJson(['Kafé "Å"\n\t\\', '\u0001\u001f', '😀']);
    // U+1F600 is the surrogate pair D83D DE00, before U+FF61 in UTF-16 (after it in code points).
    const keys = canonicalJson({ '\uff61': 1, '😀': 2, é: 3, z: 4 });

    // Assess
    expect(numbers).toBe('[1e+21,0,0.1,125,-3.5,1e-7]');
    expect(strings).toBe('["Kafé \\"Å\\"\\n\\t\\\\","\\u0001\\u001f","😀"]');
    expect(keys).toBe('{"z":4,"é":3,"😀":2,"\uff61":1}');
  });

  it('refuses what JSON cannot carry, naming where it is', () => {
    // Prepare
    const values = [
      { amount: Number.POSITIVE_INFINITY },
      { data: [1, undefined] },
      { when: new Date(0) },
      { n: 1n },
    ] as unknown as JsonValue[];

    // Act
    const messages = values.map((value) => {
      try {
        return canonicalJson(value);
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    });

    // Assess
    expect(messages).toEqual([
      'TypeError: $.amount is Infinity, which JSON cannot carry',
      'TypeError: $.data[1] is undefined, which JSON cannot carry',
      'TypeError: $.when is not a plain object',
      'TypeError: $.n is bigint, which JSON cannot carry',
    ]);
  });
});

describe('the signed journal', () => {
  it('signs the canonical JSON of the head with the register’s identity, and names the public key file', async () => {
    // Prepare
    const entries = dayOfEntries();

    // Act
    const journal = await signedJournal(entries, signer, identity);

    // Assess
    const last = entries.at(-1);
    expect(journal).toMatchObject({ ...identity, entries, head: { sequence: 8, hash: last?.hash } });
    expect(journal.publicKeyFileName).toBe(await signer.publicKeyFileName());
    const message = `{"cashRegisterName":"Kassa 1","generated":${GENERATED},"hash":"${last?.hash}","sellerId":"SE5560360793","sequence":8}`;
    expect(verify('sha256', Buffer.from(message, 'utf8'), pem, Buffer.from(journal.signature, 'base64'))).toBe(true);
  });

  it('verifies as a whole, as a slice starting later, and empty', async () => {
    // Prepare
    const entries = dayOfEntries();
    const [whole, slice, empty] = await Promise.all([
      signedJournal(entries, signer, identity),
      signedJournal(entries.slice(2, 6), signer, identity),
      signedJournal([], signer, identity),
    ]);

    // Act
    const results = [whole, slice, empty].map((journal) => verifyJournal(asServed(journal), pem));

    // Assess
    expect(results).toEqual([
      { valid: true, entries: 8, head: { sequence: 8, hash: entries[7]?.hash } },
      { valid: true, entries: 4, head: { sequence: 6, hash: entries[5]?.hash } },
      { valid: true, entries: 0, head: GENESIS_HEAD },
    ]);
  });

  it('is never made of entries with a hole between them', async () => {
    // Prepare
    const entries = dayOfEntries();

    // Act
    const signing = signedJournal([...entries.slice(0, 3), ...entries.slice(4)], signer, identity);

    // Assess
    await expect(signing).rejects.toThrow('journal entries are not contiguous: sequence 5 follows 3');
  });
});

describe('the journal verifier rejects', () => {
  it('an edited amount, at that entry', async () => {
    // Prepare
    const journal = await servedDay();
    const entry = journal.entries[4];
    if (entry) entry.amount = 1_550;

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'hash does not match the entry', sequence: 5 });
  });

  it('an edited amount whose entry was hashed again, at the entry after it', async () => {
    // Prepare
    const journal = await servedDay();
    journal.entries = changing(journal.entries, 5, (entry) => rehashed([{ ...entry, amount: 1_550 }])[0] ?? entry);

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'previousHash is not the hash of sequence 5', sequence: 6 });
  });

  it('an edited amount with the whole chain and head rewritten, by its signature', async () => {
    // Prepare
    const journal = await servedDay();
    journal.entries = rehashed(changing(journal.entries, 5, (entry) => ({ ...entry, amount: 1_550 })));
    const last = journal.entries.at(-1);
    if (last) journal.head = { sequence: last.sequence, hash: last.hash };

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'signature does not match the head', sequence: null });
  });

  it('a removed entry, at the entry after the hole', async () => {
    // Prepare
    const journal = await servedDay();
    journal.entries.splice(3, 1);

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'sequence 5 follows 3', sequence: 5 });
  });

  it('a removed entry with the sequences renumbered and the chain rewritten, at the signed head', async () => {
    // Prepare
    const journal = await servedDay();
    const shortened = [...journal.entries.slice(0, 3), ...journal.entries.slice(4)];
    journal.entries = rehashed(shortened.map((entry, index) => ({ ...entry, sequence: index + 1 })));

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'head does not match the last entry', sequence: null });
  });

  it('a reordered pair, at the first entry out of place', async () => {
    // Prepare
    const journal = await servedDay();
    const [fourth, fifth] = journal.entries.slice(3, 5);
    if (fourth && fifth) journal.entries.splice(3, 2, fifth, fourth);

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'sequence 5 follows 3', sequence: 5 });
  });

  it('a reordered pair with their sequences swapped back, at the first of them', async () => {
    // Prepare
    const journal = await servedDay();
    const [fourth, fifth] = journal.entries.slice(3, 5);
    if (fourth && fifth) journal.entries.splice(3, 2, { ...fifth, sequence: 4 }, { ...fourth, sequence: 5 });

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'hash does not match the entry', sequence: 4 });
  });

  it('a forged head signature: another key’s, a flipped bit, or not base64', async () => {
    // Prepare
    const journal = await servedDay();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const message = `{"cashRegisterName":"Kassa 1","generated":${GENERATED},"hash":"${journal.head.hash}","sellerId":"SE5560360793","sequence":8}`;
    const forged = sign('sha256', Buffer.from(message), { key: privateKey, dsaEncoding: 'der' }).toString('base64');
    const bytes = Buffer.from(journal.signature, 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;

    // Act
    const results = [forged, bytes.toString('base64'), 'not base64!'].map((signature) =>
      verifyJournal({ ...journal, signature }, pem),
    );

    // Assess
    expect(results).toEqual([
      { valid: false, reason: 'signature does not match the head', sequence: null },
      { valid: false, reason: 'signature does not match the head', sequence: null },
      { valid: false, reason: 'signature is not base64', sequence: null },
    ]);
  });

  it('a signature moved to another register’s or seller’s journal, or another generation time', async () => {
    // Prepare
    const journal = await servedDay();

    // Act
    const results = [{ cashRegisterName: 'Kassa 2' }, { sellerId: 'SE5560360794' }, { generated: GENERATED + 1 }].map((change) =>
      verifyJournal({ ...journal, ...change }, pem),
    );

    // Assess
    expect(results.map((result) => result.valid)).toEqual([false, false, false]);
  });

  it('a head that does not match the last entry', async () => {
    // Prepare
    const journal = await servedDay();
    const seventh = journal.entries[6];

    // Act
    const results = [
      { sequence: 7, hash: journal.head.hash },
      { sequence: 8, hash: seventh?.hash ?? '' },
      { sequence: 9, hash: journal.head.hash },
    ].map((head) => verifyJournal({ ...journal, head }, pem));
    const emptyWithHead = verifyJournal({ ...journal, entries: [] }, pem);

    // Assess
    for (const result of results) {
      expect(result).toEqual({ valid: false, reason: 'head does not match the last entry', sequence: null });
    }
    expect(emptyWithHead).toEqual({ valid: false, reason: 'head of an empty journal is not sequence 0', sequence: null });
  });

  it('a journal whose first entry does not chain to 64 zeros', async () => {
    // Prepare
    const { entries } = chainEvents({ sequence: 0, hash: 'f'.repeat(64) }, MORNING, CREATED);

    // Act
    const result = verifyJournal(asServed(await signedJournal(entries, signer, identity)), pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'sequence 1 does not chain to 64 zeros', sequence: 1 });
  });

  it('a slice whose first previousHash was changed, at its first entry', async () => {
    // Prepare
    const journal = asServed(await signedJournal(dayOfEntries().slice(2), signer, identity));
    const first = journal.entries[0];
    if (first) first.previousHash = 'b'.repeat(64);

    // Act
    const result = verifyJournal(journal, pem);

    // Assess
    expect(result).toEqual({ valid: false, reason: 'hash does not match the entry', sequence: 3 });
  });

  it('malformed documents and keys, as invalid rather than an error', async () => {
    // Prepare
    const journal = await servedDay();
    const withInfinity = JSON.parse(JSON.stringify(journal).replace('"amount":50000', '"amount":1e400')) as unknown;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();

    // Act
    const results = [
      verifyJournal(null, pem),
      verifyJournal({ ...journal, entries: {} }, pem),
      verifyJournal({ ...journal, head: { sequence: 8 } }, pem),
      verifyJournal({ ...journal, entries: [journal.entries[0], 'x'] }, pem),
      verifyJournal({ ...journal, entries: [{ ...journal.entries[0], sequence: '1' }] }, pem),
      verifyJournal({ ...journal, entries: [{ ...journal.entries[0], hash: 'ABC' }] }, pem),
      verifyJournal(withInfinity, pem),
      verifyJournal(journal, 'not a key'),
      verifyJournal(journal, rsa),
    ];

    // Assess
    expect(results).toEqual([
      { valid: false, reason: 'journal is not an object', sequence: null },
      { valid: false, reason: 'entries is not an array', sequence: null },
      { valid: false, reason: 'head is not {sequence, hash}', sequence: null },
      { valid: false, reason: 'entry 1 is not an object', sequence: null },
      { valid: false, reason: 'entry 0 has no sequence (a positive integer)', sequence: null },
      { valid: false, reason: 'hash is not 64 lowercase hex digits', sequence: 1 },
      { valid: false, reason: 'entry is not JSON: $.amount is Infinity, which JSON cannot carry', sequence: 2 },
      { valid: false, reason: 'public key is not a PEM public key', sequence: null },
      { valid: false, reason: 'public key is not an EC P-256 key', sequence: null },
    ]);
  });
});

describe('the journal verifier’s file', () => {
  it('imports nothing but node:crypto and the signature check at run time, so it can be copied with that file alone', () => {
    // Prepare
    const source = readFileSync(join(root, 'shared/fiscal/verify-journal.ts'), 'utf8');

    // Act
    // Static imports and re-exports (`... from '<module>'`), and imports for side effects (`import '<module>'`).
    const imports = [...source.matchAll(/^\s*(?:import|export)\b(?:[^;'"]*\bfrom)?\s*['"]([^'"]+)['"]/gm)].map(
      ([, from]) => from,
    );
    const dynamic = source.match(/\b(?:import|require)\s*\(/g);

    // Assess
    expect(imports).toEqual(['node:crypto', '../signing/ecdsa-p256.ts']);
    expect(dynamic).toBeNull();
  });
});

describe('npm run verify-journal', () => {
  /** Runs the script as an operator would, with the project's Node. */
  const run = (...args: string[]) => {
    const result = spawnSync(join(root, 'node_modules/.bin/node'), ['scripts/verify-journal.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  /** A journal file with the public key file it names beside it, as an auditor downloads them. */
  async function journalOnDisk(change: (journal: SignedJournal<JournalEntry>) => SignedJournal = (journal) => journal) {
    const journal = await signedJournal(dayOfEntries(), signer, identity);
    const dir = tempDir();
    writeFileSync(join(dir, journal.publicKeyFileName), pem);
    const file = join(dir, 'journal.json');
    writeFileSync(file, JSON.stringify(change(asServed(journal))));
    return { file, journal };
  }

  it('prints valid, the entry count and the head, and exits 0, for a valid journal', async () => {
    // Prepare
    const { file, journal } = await journalOnDisk();

    // Act
    const { status, stdout } = run(file);

    // Assess
    expect(status).toBe(0);
    const [first, ...rest] = stdout.split('\n');
    expect(first).toBe('valid');
    expect(JSON.parse(rest.join('\n'))).toEqual({ entries: 8, head: journal.head });
  });

  it('prints invalid with the sequence and reason, and exits 1, for a tampered journal', async () => {
    // Prepare
    const { file: edited } = await journalOnDisk((journal) => ({
      ...journal,
      entries: changing(journal.entries, 3, (entry) => ({ ...entry, amount: 2_550 })),
    }));
    // A DER signature's base64 begins with M (a SEQUENCE): an A there leaves base64 that is no signature.
    const { file: forged } = await journalOnDisk((journal) => ({ ...journal, signature: journal.signature.replace(/^M/, 'A') }));

    // Act
    const [editedRun, forgedRun] = [run(edited), run(forged)];

    // Assess
    expect(editedRun.status).toBe(1);
    expect(editedRun.stderr.trim()).toBe('invalid at sequence 3: hash does not match the entry');
    expect(forgedRun.status).toBe(1);
    expect(forgedRun.stderr.trim()).toBe('invalid: signature does not match the head');
  });

  it('takes the key from --key, and exits 2 on a usage error', async () => {
    // Prepare
    const { file } = await journalOnDisk((journal) => {
      const unnamed: Partial<SignedJournal> = { ...journal };
      delete unnamed.publicKeyFileName;
      return unnamed as SignedJournal;
    });
    const keyPem = join(tempDir(), 'key.pem');
    writeFileSync(keyPem, pem);

    // Act
    const withKey = run(file, '--key', keyPem);
    const withoutKey = run(file);
    const noArguments = run();

    // Assess
    expect(withKey.status).toBe(0);
    expect(withoutKey.status).toBe(2);
    expect(withoutKey.stderr).toContain('the journal names no publicKeyFileName; give the key with --key');
    expect(noArguments.status).toBe(2);
    expect(noArguments.stderr).toContain('usage: npm run verify-journal -- <journal.json> [--key <public-key.pem>]');
  });
});
