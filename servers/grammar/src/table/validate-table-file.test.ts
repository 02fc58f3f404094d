// The validator compiled ahead of time: the committed module is what the generator makes from today's schema, and it
// reports exactly what Ajv compiling the schema at run time reported (the error messages of parseTable depend on it).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, generateValidatorModule } from '../../scripts/validator-module.mjs';
import { A13_FILE_SCHEMA } from './table-schema.js';
import { validateTableFile } from './validate-table-file.js';

const GENERATED = new URL('./generated/a13-validator.ts', import.meta.url);

const VALID_ROW = { verb: 'eat', tense: 'past_simple', person: '3sg', english: 'ate', spanish: 'comió' };
const VALID_VERB = { verb: 'eat', irregular: true, spanish: 'comer' };
const VALID = { version: 1, description: 'd', source: 's', verbs: [VALID_VERB], rows: [VALID_ROW] };

/** Inputs that break each keyword the schema uses, alone and together. */
const INPUTS: readonly unknown[] = [
  VALID,
  null,
  [],
  'text',
  {},
  { ...VALID, version: 2, extra: true },
  { ...VALID, description: '', source: '   ' },
  { ...VALID, verbs: 'none', rows: {} },
  { ...VALID, verbs: [{ ...VALID_VERB, verb: 'run', irregular: 'yes', spanish: 'Comer', note: '' }, 7] },
  { ...VALID, rows: [{ ...VALID_ROW, tense: 'pluperfect', person: '4sg', english: 'Ate ', spanish: 'como\u0301' }, null] },
  { ...VALID, rows: [{ verb: 'eat', colour: 'red' }] },
];

describe('the generated table validator', () => {
  it('is what scripts/generate-validator.mjs makes from A13_FILE_SCHEMA (run `pnpm --filter @wiremcp/server-grammar generate`)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(generateValidatorModule(A13_FILE_SCHEMA));
  });

  it('reports the same errors as Ajv compiling the schema at run time', () => {
    const compiled = new Ajv({ allErrors: true, verbose: true, strict: true }).compile(A13_FILE_SCHEMA);
    for (const input of INPUTS) {
      const expected = compiled(input) ? [] : compiled.errors;
      expect(validateTableFile(input), JSON.stringify(input)).toEqual(expected);
    }
    expect(INPUTS.filter((input) => validateTableFile(input).length > 0)).toHaveLength(INPUTS.length - 1);
  });

  it('compiles with the options the table was always validated with', () => {
    expect(AJV_OPTIONS).toMatchObject({ allErrors: true, verbose: true, strict: true });
  });
});
