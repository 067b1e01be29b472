#!/usr/bin/env node
/**
 * `npm run journal-export -- <journal.json> [--key <public-key.pem>] > export.xml`: the auditor's SKVFS 2021:16
 * document of a fetched v33 generated e-journal (`GET /{sellerId}/generated-e-journals/{cash}`), made offline by the
 * code the service's export runs (shared/fiscal/skvfs-export.ts). The journal is verified first (every hash, the chain,
 * the signed head; the key as `npm run verify-journal` finds it). Who the register is comes from the journal's last
 * closed day, which keeps it. Exit 0: the document is on stdout; 1: the journal is invalid, or it lacks a fact the
 * format needs (the message names it) or any event the format records; 2: usage.
 */
import { journalContext, skvfsExport } from '../shared/fiscal/skvfs-export.ts';
import { type SignedJournal, verifyJournal } from '../shared/fiscal/verify-journal.ts';
import { documentAndKey, fail } from './offline-verification.ts';

const { document, publicKeyPem } = documentAndKey('journal-export', 'journal');
const verification = verifyJournal(document, publicKeyPem);
if (!verification.valid) fail(`invalid journal: ${verification.reason}`, 1);
const journal = document as SignedJournal;
try {
  const context = journalContext(journal.entries);
  let written = 0;
  for await (const chunk of skvfsExport(context, journal.entries, { from: null, to: null }, Date.now())) {
    written += 1;
    if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  if (written === 0) fail('the journal holds no event the export records', 1);
} catch (error) {
  fail((error as Error).message, 1);
}
