/**
 * What `npm test` needs of the machine beyond npm's packages, checked before anything else it runs: a Java runtime
 * (DynamoDB Local), Chromium at /usr/bin/chromium (the API reference's browser test) and zsh (the quick start's second
 * shell). `node scripts/prerequisites.ts` exits 0 when all are there; else it names what is missing and prints README's
 * install line (Quick start), and exits 1, in well under a second instead of tests failing minutes later.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

export interface Prerequisite {
  /** What it is and what needs it, as the message names it. */
  name: string;
  /** Its Debian package. */
  debianPackage: string;
  present: () => boolean;
}

/** The program answers `--version`-like flags with exit code 0 (it is on PATH and runs). */
const runs = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where tests/e2e/docs-page.test.ts looks for the browser (Debian's chromium package). */
export const CHROMIUM = '/usr/bin/chromium';

export const PREREQUISITES: readonly Prerequisite[] = [
  {
    name: 'a Java runtime (DynamoDB Local)',
    debianPackage: 'openjdk-17-jre-headless',
    present: () => runs('java', ['-version']),
  },
  {
    name: `Chromium at ${CHROMIUM} (tests/e2e/docs-page.test.ts)`,
    debianPackage: 'chromium',
    present: () => executable(CHROMIUM),
  },
  { name: 'zsh (tests/e2e/quickstart.test.ts)', debianPackage: 'zsh', present: () => runs('zsh', ['--version']) },
];

/** README's one install line (Quick start) for all of them. */
export const INSTALL_LINE = `sudo apt-get install -y ${PREREQUISITES.map((item) => item.debianPackage).join(' ')}`;

if (process.argv[1] === import.meta.filename) {
  const missing = PREREQUISITES.filter((item) => !item.present());
  if (missing.length > 0) {
    console.error(
      `npm test needs what this machine lacks: ${missing.map((item) => item.name).join(', ')}. ` +
        `Install it with (README, Quick start):\n  ${INSTALL_LINE}`,
    );
    process.exit(1);
  }
}
