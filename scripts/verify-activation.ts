/**
 * `npm run verify-activation -- <code.json> [--key <public-key.pem>]`: checks a signed activation
 * code offline, as a register would. Without --key the public key is the file named by the code's
 * publicKeyFileName, next to the code file. Exit 0: valid (the descriptor follows); 1: invalid; 2: usage.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { verifyActivationCode } from '../shared/signing/verify.ts';

const USAGE = 'usage: npm run verify-activation -- <code.json> [--key <public-key.pem>]';

function fail(message: string, exitCode: 1 | 2): never {
  console.error(message);
  process.exit(exitCode);
}

let codeFile: string;
let keyFile: string | undefined;
try {
  const { positionals, values } = parseArgs({ options: { key: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1 || !positionals[0]) fail(USAGE, 2);
  codeFile = positionals[0];
  keyFile = values.key;
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}

const read = (path: string, what: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
  }
};

let code: unknown;
try {
  code = JSON.parse(read(codeFile, 'code file'));
} catch {
  fail(`invalid: ${codeFile} is not JSON`, 1);
}
if (keyFile === undefined) {
  const named = (code as { publicKeyFileName?: unknown } | null)?.publicKeyFileName;
  // basename: the code names a file, never a path elsewhere on this machine.
  if (typeof named !== 'string' || named === '' || basename(named) !== named) {
    fail(`the code names no publicKeyFileName; give the key with --key\n${USAGE}`, 2);
  }
  keyFile = join(dirname(codeFile), named);
}

const result = verifyActivationCode(code as Parameters<typeof verifyActivationCode>[0], read(keyFile, 'public key'));
if (!result.valid) fail(`invalid: ${result.reason}`, 1);
console.log('valid');
console.log(JSON.stringify(result.descriptor, null, 2));
