// Lint rules for the whole repository (formatting is Prettier's job).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  {
    // One home per concept: what two function groups share lives in shared/, so no group imports another.
    files: ['functions/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['#functions/*'], message: 'A function group imports only its own files and shared/.' },
            { group: ['../*'], message: 'A function group imports only its own files (./) and shared/ (#shared/*).' },
          ],
        },
      ],
    },
  },
);
