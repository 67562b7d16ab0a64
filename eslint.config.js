// `npm run lint` (and .ci/run): typescript-eslint's recommended rules plus the type-aware ones that
// catch what review kept missing: a promise nobody awaits or hands on, and a switch over a union that
// forgets a member. Formatting is Prettier's job (.prettierrc.json), not the linter's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `{} extends T` is how a type asks whether every field of T is optional.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
      // `ok && act()` and `cond ? a() : b()` as statements are the house style of event handlers.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Control characters in patterns are deliberate: the project strips and refuses them in input and output.
      'no-control-regex': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // The house's sizes (README, "Layout"): a file holds one concept, a function one job. The message
    // catalogs are long lists, not code.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/web/i18n/**'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests read JSON answers whose shape is the assertion itself.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // `Kysely<any>`: migrations, the migrator and the SQL helpers run on the schema of any moment in
    // time, not on today's `Database` (as Kysely's own migration docs write them).
    files: ['migrations/**/*.ts', 'src/db/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
      },
    },
  },
);
