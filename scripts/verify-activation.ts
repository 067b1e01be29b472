#!/usr/bin/env node
/**
 * `npm run verify-activation -- <code.json> [--key <public-key.pem>]`: checks a signed activation
 * code offline, as a register would. Without --key the public key is the file named by the code's
 * publicKeyFileName, next to the code file. Exit 0: valid (the descriptor follows); 1: invalid; 2: usage.
 */
import { verifyActivationCode } from '../shared/signing/verify.ts';
import { documentAndKey, fail } from './offline-verification.ts';

const { document, publicKeyPem } = documentAndKey('verify-activation', 'code');
const result = verifyActivationCode(document as Parameters<typeof verifyActivationCode>[0], publicKeyPem);
if (!result.valid) fail(`invalid: ${result.reason}`, 1);
console.log('valid');
console.log(JSON.stringify(result.descriptor, null, 2));
