/**
 * What the offline verifiers (`npm run verify-activation`, `npm run verify-journal`) share: the command
 * line `<document.json> [--key <public-key.pem>]`, where the key defaults to the file the document's
 * publicKeyFileName names next to it, and their exit codes (1: invalid, 2: usage).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export function fail(message: string, exitCode: 1 | 2): never {
  console.error(message);
  process.exit(exitCode);
}

/**
 * The folder relative paths are meant from: where the operator typed the command. `npm run` starts scripts in the
 * package's root and names that folder INIT_CWD; run as a `bin` (`npx verify-activation`), it is the working folder.
 */
const invokedFrom = () => process.env.INIT_CWD || process.cwd();

/**
 * The parsed document and the public key PEM the command line names; `what` names the document in
 * messages ('code'). Exits 2 on a usage error or an unreadable file, 1 when the document is not JSON.
 */
export function documentAndKey(command: string, what: string): { document: unknown; publicKeyPem: string } {
  const usage = `usage: npm run ${command} -- <${what}.json> [--key <public-key.pem>]`;
  let documentFile: string;
  let keyFile: string | undefined;
  try {
    const { positionals, values } = parseArgs({ options: { key: { type: 'string' } }, allowPositionals: true });
    if (positionals.length !== 1 || !positionals[0]) fail(usage, 2);
    documentFile = resolve(invokedFrom(), positionals[0]);
    keyFile = values.key === undefined ? undefined : resolve(invokedFrom(), values.key);
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`, 2);
  }

  const read = (path: string, description: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      return fail(`cannot read ${description} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
    }
  };

  let document: unknown;
  try {
    document = JSON.parse(read(documentFile, `${what} file`));
  } catch {
    fail(`invalid: ${documentFile} is not JSON`, 1);
  }
  if (keyFile === undefined) {
    const named = (document as { publicKeyFileName?: unknown } | null)?.publicKeyFileName;
    // basename: the document names a file, never a path elsewhere on this machine.
    if (typeof named !== 'string' || named === '' || basename(named) !== named) {
      fail(`the ${what} names no publicKeyFileName; give the key with --key\n${usage}`, 2);
    }
    keyFile = join(dirname(documentFile), named);
  }
  return { document, publicKeyPem: read(keyFile, 'public key') };
}
