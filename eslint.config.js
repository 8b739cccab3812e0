// ESLint flat config. typescript-eslint's recommended rules on everything, plus the type-aware rules that
// catch what bites a server and a CLI: a promise nobody awaits, awaiting a non-promise, a promise passed
// where a callback's result is ignored. Formatting is Prettier's job (eslint-config-prettier turns off
// every rule that would argue with it). Every TypeScript file is in tsconfig.json's include, so the
// project service types them all; the JavaScript files (bin, scripts, the editor extension) get the
// untyped rules with Node's globals.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      'bench/out/',
      'action/index.cjs',
      'bench/tomcat-src/',
      'bench/fixtures/',
      'test/fixtures/',
      'test/.compiled-*/',
      'examples/embed/.chains-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // This code validates bytes: XML's and the properties format's character classes, ASCII-only checks,
      // the bundle's escapes. Each of the 9 places the rule flagged was a deliberate range such as [\x00-\x1f].
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['editors/vscode/**/*.js', 'bin/**/*.cjs', 'scripts/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['examples/base/webapps/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
