#!/usr/bin/env node
/**
 * `npm run verify-journal -- <journal.json> [--key <public-key.pem>]`: checks a v33 generated e-journal
 * offline: every entry's hash, the chain and the signed head. Without --key the public key is the file
 * named by the journal's publicKeyFileName, next to the journal file. Exit 0: valid (the entry count and
 * head follow); 1: invalid (the reason, and the first broken entry's sequence when one is at fault); 2: usage.
 */
import { verifyJournal } from '../shared/fiscal/verify-journal.ts';
import { documentAndKey, fail } from './offline-verification.ts';

const { document, publicKeyPem } = documentAndKey('verify-journal', 'journal');
const result = verifyJournal(document, publicKeyPem);
if (!result.valid) {
  fail(result.sequence === null ? `invalid: ${result.reason}` : `invalid at sequence ${result.sequence}: ${result.reason}`, 1);
}
console.log('valid');
console.log(JSON.stringify({ entries: result.entries, head: result.head }, null, 2));
