// Lint rules for the whole repository (formatting is Prettier's job).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The floors of the code and which may import which: docs/architecture.md draws them, and the rules below check them
// with `no-restricted-imports`. A floor lists what its files may not import, as regular expressions over the import's
// text; each expression matches both ways of writing an import, by `#` alias and by relative path, so
// `../http/types.ts` written in shared/db/ counts as `#shared/http/types.ts`.

/** An import of one of the repository's top folders, from anywhere: `#functions/...`, `../../scripts/...`. */
const topFolders = (...names) => `^(#|(\\.\\./)+)(${names.join('|')})/`;
/** From a file in a folder of shared/: an import of one of shared/'s other folders (`#shared/http/...`, `../http/...`). */
const sharedFolders = (...names) => `^(#shared|\\.\\.)/(${names.join('|')})/`;
/** From a file in shared/<own>/: an import of any other folder of shared/. */
const sharedFoldersBut = (own) => `^(#shared|\\.\\.)/(?!${own}/)[^/]+/`;
const see = ' (docs/architecture.md)';

/** What no file of shared/ imports: shared/ is the service's lower half, it knows no Lambda, tool, bridge, test or client. */
const SHARED = {
  regex: topFolders('functions', 'scripts', 'infra', 'edge', 'tests', 'client'),
  message: `shared/ imports nothing from functions/, scripts/, infra/, edge/, tests/ or client/${see}.`,
};
/** The engine and the adapters sit under the schemas: they read no schema and no type made from one. */
const NO_SCHEMAS = { regex: topFolders('schemas'), message: `This floor of shared/ imports nothing from schemas/${see}.` };

/**
 * The floors of shared/, each with what it may not import besides SHARED. `except` names the files that still break a
 * rule of their floor, with the patterns they get instead: each exception is to be removed (docs/architecture.md,
 * "Exceptions"), and tests/unit/floors.test.ts fails once its file no longer needs it.
 */
const sharedFloors = [
  {
    name: 'shared leaves',
    files: ['shared/errors.ts', 'shared/config.ts', 'shared/versions.ts', 'shared/hundredths.ts'],
    patterns: [
      {
        regex: '^(#|\\.)',
        message: `errors.ts, config.ts, versions.ts and hundredths.ts are the bottom floor: they import nothing of the project${see}.`,
      },
    ],
  },
  ...['signing', 'images', 'mail'].map((adapter) => ({
    name: `shared/${adapter}`,
    files: [`shared/${adapter}/**/*.ts`],
    patterns: [
      SHARED,
      NO_SCHEMAS,
      {
        regex: sharedFoldersBut(adapter),
        message: `An adapter (shared/signing, images, mail) imports only its own files and shared/'s leaves (config.ts, errors.ts)${see}.`,
      },
    ],
  })),
  {
    name: 'shared/db',
    files: ['shared/db/**/*.ts'],
    patterns: [
      SHARED,
      NO_SCHEMAS,
      {
        regex: sharedFoldersBut('db'),
        message: `shared/db is a generic engine: it imports only its own files and shared/'s leaves, no record, rule or HTTP code${see}.`,
      },
    ],
  },
  {
    name: 'shared/versioned',
    files: ['shared/versioned/**/*.ts'],
    patterns: [
      SHARED,
      {
        regex: sharedFolders('domain', 'auth', 'fiscal', 'kd', 'iot', 'http'),
        message: `shared/versioned is an engine over shared/db: it imports no record, rule, control-unit or HTTP code${see}.`,
      },
    ],
  },
  ...['domain', 'auth'].map((folder) => ({
    name: `shared/${folder}`,
    files: [`shared/${folder}/**/*.ts`],
    patterns: [
      SHARED,
      {
        regex: sharedFolders('fiscal', 'kd', 'iot', 'http'),
        message: `shared/domain and shared/auth import nothing from shared/fiscal, shared/kd, shared/iot or shared/http${see}.`,
      },
    ],
  })),
  ...['exports', 'stats'].map((folder) => ({
    name: `shared/${folder}`,
    files: [`shared/${folder}/**/*.ts`],
    patterns: [
      SHARED,
      {
        regex: sharedFolders('kd', 'iot'),
        message: `shared/exports and shared/stats (export jobs, the statistics) import nothing from shared/kd or shared/iot${see}.`,
      },
    ],
  })),
  {
    name: 'shared/fiscal',
    files: ['shared/fiscal/**/*.ts'],
    patterns: [
      SHARED,
      {
        regex: sharedFolders('kd', 'iot', 'http'),
        message: `shared/fiscal imports nothing from shared/kd, shared/iot or shared/http${see}.`,
      },
    ],
  },
  {
    name: 'shared/kd',
    files: ['shared/kd/**/*.ts'],
    patterns: [
      SHARED,
      { regex: sharedFolders('iot', 'http'), message: `shared/kd imports nothing from shared/iot or shared/http${see}.` },
    ],
  },
  {
    name: 'shared/iot',
    files: ['shared/iot/**/*.ts'],
    patterns: [
      SHARED,
      NO_SCHEMAS,
      {
        regex: '^(#shared|\\.\\.)/(?!iot/|kd/)[^/]+/',
        message: `shared/iot carries the kd contract: it imports only its own files, shared/kd and shared/'s leaves${see}.`,
      },
    ],
  },
];

/** Every file of shared/ no floor above names (shared/http, a new folder) is bound by SHARED alone. */
const sharedAtLeast = { name: 'shared', files: ['shared/**/*.ts'], patterns: [SHARED] };

/** The floors outside shared/. */
const otherFloors = [
  {
    name: 'schemas',
    files: ['schemas/**/*.ts'],
    patterns: [
      {
        regex: topFolders('functions', 'scripts', 'infra', 'edge', 'tests', 'client'),
        message: `schemas/ imports nothing from functions/, scripts/, infra/, edge/, tests/ or client/${see}.`,
      },
      {
        // The vocabularies a schema lists (feature and role names, payment, article and print types, register events),
        // the versions, and the error registry and body of the examples. None of them reads schemas/ in turn.
        regex:
          '^#shared/(?!(versions|errors|auth/features|auth/roles|fiscal/model|fiscal/payment-types|fiscal/journal|http/response)\\.ts$)',
        message: `schemas/ reads from shared/ only the vocabularies docs/architecture.md lists${see}.`,
      },
      { regex: '^\\.\\./', message: `A schema reaches shared/ by its alias; a relative import stays in schemas/${see}.` },
    ],
  },
  {
    // One home per concept: what two function groups share lives in shared/, so no group imports another.
    name: 'functions',
    files: ['functions/**/*.ts'],
    patterns: [
      // A regular expression, not a `group`: `group` patterns are read as .gitignore lines, where `#functions/*` is a
      // comment that matches nothing.
      { regex: '^#functions/', message: 'A function group imports only its own files and shared/.' },
      { regex: '^\\.\\./', message: 'A function group imports only its own files (./) and shared/ (#shared/*).' },
      { regex: topFolders('infra'), message: `A function imports nothing from infra/${see}.` },
    ],
  },
  {
    name: 'edge',
    files: ['edge/**/*.ts'],
    patterns: [
      {
        regex: '^#(?!shared/kd/)',
        message: `edge/ runs beside a control unit, apart from the service: of the project it imports only shared/kd${see}.`,
      },
      { regex: '^\\.\\./', message: `edge/ reaches shared/kd by its alias; a relative import stays in edge/${see}.` },
    ],
  },
  {
    name: 'client',
    files: ['client/**/*.ts'],
    patterns: [
      {
        regex: '^(#|\\.\\./\\.\\./)',
        message: `client/ is a package of its own: it imports nothing of the service (its types come from docs/openapi)${see}.`,
      },
    ],
  },
  {
    name: 'tools',
    files: ['scripts/**/*.ts', 'infra/**/*.ts'],
    patterns: [{ regex: topFolders('tests'), message: `scripts/ and infra/ import nothing from tests/${see}.` }],
  },
];

const restrictImports = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

/**
 * One config object per floor, the most specific last, then one per exception: for a file several objects name, the
 * last one's `no-restricted-imports` options replace the others', so each object lists all of its floor's patterns.
 */
const floorConfigs = [
  ...[sharedAtLeast, ...sharedFloors, ...otherFloors].map(({ name, files, patterns }) => ({
    name: `floors/${name}`,
    files,
    rules: restrictImports(patterns),
  })),
  ...sharedFloors.flatMap(({ except = {} }) =>
    Object.entries(except).map(([file, patterns]) => ({
      name: `floors/exception/${file}`,
      files: [file],
      rules: {
        ...restrictImports(patterns),
        // Where types are let through, `import { type T }` would still load T's module at run time.
        ...(patterns.some((pattern) => pattern.allowTypeImports) && {
          '@typescript-eslint/no-import-type-side-effects': 'error',
        }),
      },
    })),
  ),
  {
    // A dynamic import defers loading an SDK or a route's code from the same folder; one that reached another floor
    // would pass unseen, since no-restricted-imports reads static imports only.
    name: 'floors/dynamic imports',
    files: ['shared/**/*.ts', 'schemas/**/*.ts', 'functions/**/*.ts', 'edge/**/*.ts', 'client/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^(#|\\.\\.)/]',
          message: `A dynamic import stays in its own folder; import another floor statically${see}.`,
        },
        {
          selector: "ImportExpression[source.type!='Literal']",
          message: `A dynamic import names its module literally, so the floors can be checked${see}.`,
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', '.build/', '.serverless/', 'schemas/generated/', 'client/src/generated/', 'client/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      // `const { pk, sk, ...data } = item` is how an item's keys are dropped.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'no-console': 'off',
    },
  },
  ...floorConfigs,
);
