/**
 * Spanish spot checks written by hand: stem changes, irregular preterites and futures, irregular participles,
 * accents, and the inverted gustar construction.
 */
import { describe, expect, it } from 'vitest';
import { loadTable } from './load-table.js';
import { rowKey, type Person, type Tense, type Verb } from './vocabulary.js';

const table = loadTable();
const spanish = (verb: Verb, tense: Tense, person: Person): string | undefined => table.rowsByKey.get(rowKey(verb, tense, person))?.spanish;

const SPOT_CHECKS: readonly (readonly [Verb, Tense, Person, string])[] = [
  // jugar: u → ue, g → gu before e
  ['play', 'present_simple', '1sg', 'juego'],
  ['play', 'present_simple', '3sg', 'juega'],
  ['play', 'past_simple', '1sg', 'jugué'],
  // empezar: e → ie, z → c before e
  ['start', 'present_simple', '2sg', 'empiezas'],
  ['start', 'past_simple', '1sg', 'empecé'],
  ['start', 'past_simple', '3sg', 'empezó'],
  // querer
  ['want', 'present_simple', '1sg', 'quiero'],
  ['want', 'past_simple', '1sg', 'quise'],
  ['want', 'past_simple', '2sg', 'quisiste'],
  ['want', 'simple_future', '1sg', 'querré'],
  ['want', 'past_participle', '3sg', 'querido'],
  // tener
  ['have', 'present_simple', '1sg', 'tengo'],
  ['have', 'present_simple', '2sg', 'tienes'],
  ['have', 'past_simple', '3sg', 'tuvo'],
  ['have', 'simple_future', '3sg', 'tendrá'],
  // hacer
  ['do', 'present_simple', '1sg', 'hago'],
  ['do', 'past_simple', '1sg', 'hice'],
  ['do', 'past_simple', '3sg', 'hizo'],
  ['do', 'simple_future', '1sg', 'haré'],
  ['do', 'past_participle', '1sg', 'hecho'],
  // ir and ser share the preterite
  ['go', 'present_simple', '3sg', 'va'],
  ['go', 'past_simple', '1sg', 'fui'],
  ['go', 'past_simple', '3sg', 'fue'],
  ['be', 'present_simple', '2sg', 'eres'],
  ['be', 'past_simple', '3sg', 'fue'],
  ['be', 'simple_future', '1sg', 'seré'],
  // venir
  ['come', 'present_simple', '1sg', 'vengo'],
  ['come', 'past_simple', '3sg', 'vino'],
  ['come', 'simple_future', '1sg', 'vendré'],
  // ver: monosyllabic preterite without accent, irregular participle
  ['see', 'present_simple', '1sg', 'veo'],
  ['see', 'past_simple', '1sg', 'vi'],
  ['see', 'past_simple', '3sg', 'vio'],
  ['see', 'past_participle', '2sg', 'visto'],
  // escribir: irregular participle only
  ['write', 'past_simple', '3sg', 'escribió'],
  ['write', 'past_participle', '3sg', 'escrito'],
  // comer: accents
  ['eat', 'past_simple', '1sg', 'comí'],
  ['eat', 'past_simple', '2sg', 'comiste'],
  ['eat', 'simple_future', '2sg', 'comerás'],
  // gustar: inverted, pronoun carried in the row
  ['like', 'present_simple', '1sg', 'me gusta'],
  ['like', 'present_simple', '2sg', 'te gusta'],
  ['like', 'past_simple', '3sg', 'le gustó'],
  ['like', 'simple_future', '1sg', 'me gustará'],
  ['like', 'infinitive', '3sg', 'gustar'],
  ['like', 'past_participle', '1sg', 'gustado'],
  // the perception verbs stay distinct
  ['look', 'present_simple', '1sg', 'miro'],
  ['watch', 'past_simple', '3sg', 'observó'],
];

describe('Spanish translations', () => {
  it('has at least 30 hand-written spot checks', () => {
    expect(SPOT_CHECKS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SPOT_CHECKS)('%s / %s / %s → %s', (verb, tense, person, expected) => {
    expect(spanish(verb, tense, person)).toBe(expected);
  });

  it('stores accents as precomposed UTF-8 characters (NFC)', () => {
    expect(spanish('eat', 'past_simple', '3sg')).toBe('comi\u00f3');
    expect(Buffer.from(spanish('eat', 'past_simple', '3sg') ?? '', 'utf8')).toEqual(Buffer.from([0x63, 0x6f, 0x6d, 0x69, 0xc3, 0xb3]));
    for (const row of table.rows) expect(row.spanish).toBe(row.spanish.normalize('NFC'));
  });

  it('uses one Spanish verb per English verb, all distinct', () => {
    const infinitives = table.verbs.map((v) => v.spanish);
    expect(infinitives).toEqual([
      'trabajar',
      'jugar',
      'caminar',
      'hablar',
      'escuchar',
      'observar',
      'estudiar',
      'terminar',
      'empezar',
      'mirar',
      'querer',
      'gustar',
      'ser',
      'tener',
      'hacer',
      'ir',
      'venir',
      'ver',
      'comer',
      'escribir',
    ]);
    expect(new Set(infinitives).size).toBe(20);
  });

  it('drops the subject pronoun, except for the indirect-object pronoun of gustar', () => {
    for (const row of table.rows) {
      expect(row.spanish).not.toMatch(/^(yo|tú|él|ella) /);
      const pronoun = row.spanish.split(' ').length > 1 ? row.spanish.split(' ')[0] : undefined;
      if (row.verb === 'like' && ['present_simple', 'past_simple', 'simple_future'].includes(row.tense)) {
        expect(pronoun).toBe({ '1sg': 'me', '2sg': 'te', '3sg': 'le' }[row.person]);
      } else {
        expect(pronoun).toBeUndefined();
      }
    }
  });
});
