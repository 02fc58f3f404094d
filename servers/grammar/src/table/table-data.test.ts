/**
 * The English side of the bundled table, checked against expectations written out by hand here (not derived
 * from the YAML): a sample of rows across every verb, tense and person, and every irregular form.
 */
import { describe, expect, it } from 'vitest';
import { loadTable } from './load-table.js';
import { PERSONS, TENSES, VERBS, rowKey, type Person, type Tense, type Verb } from './vocabulary.js';

const table = loadTable();

function row(verb: Verb, tense: Tense, person: Person): { english: string; spanish: string } {
  const found = table.rowsByKey.get(rowKey(verb, tense, person));
  if (!found) throw new Error(`no row ${rowKey(verb, tense, person)}`);
  return { english: found.english, spanish: found.spanish };
}

// [verb, tense, person, english, spanish], written by hand.
const SAMPLE: readonly (readonly [Verb, Tense, Person, string, string])[] = [
  ['work', 'infinitive', '1sg', 'work', 'trabajar'],
  ['work', 'present_simple', '3sg', 'works', 'trabaja'],
  ['work', 'simple_future', '2sg', 'will work', 'trabajarás'],
  ['play', 'present_simple', '1sg', 'play', 'juego'],
  ['play', 'past_simple', '1sg', 'played', 'jugué'],
  ['play', 'past_participle', '3sg', 'played', 'jugado'],
  ['walk', 'present_simple', '2sg', 'walk', 'caminas'],
  ['walk', 'past_simple', '3sg', 'walked', 'caminó'],
  ['talk', 'simple_future', '1sg', 'will talk', 'hablaré'],
  ['talk', 'present_simple', '3sg', 'talks', 'habla'],
  ['listen', 'past_simple', '2sg', 'listened', 'escuchaste'],
  ['listen', 'infinitive', '3sg', 'listen', 'escuchar'],
  ['watch', 'present_simple', '3sg', 'watches', 'observa'],
  ['watch', 'past_participle', '1sg', 'watched', 'observado'],
  ['study', 'present_simple', '3sg', 'studies', 'estudia'],
  ['study', 'past_simple', '1sg', 'studied', 'estudié'],
  ['study', 'simple_future', '3sg', 'will study', 'estudiará'],
  ['finish', 'present_simple', '3sg', 'finishes', 'termina'],
  ['finish', 'past_simple', '2sg', 'finished', 'terminaste'],
  ['start', 'present_simple', '1sg', 'start', 'empiezo'],
  ['start', 'past_simple', '1sg', 'started', 'empecé'],
  ['start', 'simple_future', '2sg', 'will start', 'empezarás'],
  ['look', 'present_simple', '3sg', 'looks', 'mira'],
  ['look', 'past_simple', '3sg', 'looked', 'miró'],
  ['want', 'present_simple', '2sg', 'want', 'quieres'],
  ['want', 'past_simple', '3sg', 'wanted', 'quiso'],
  ['want', 'simple_future', '1sg', 'will want', 'querré'],
  ['like', 'present_simple', '3sg', 'likes', 'le gusta'],
  ['like', 'past_simple', '1sg', 'liked', 'me gustó'],
  ['like', 'simple_future', '2sg', 'will like', 'te gustará'],
  ['like', 'infinitive', '2sg', 'like', 'gustar'],
  ['be', 'present_simple', '1sg', 'am', 'soy'],
  ['be', 'past_simple', '2sg', 'were', 'fuiste'],
  ['be', 'past_participle', '3sg', 'been', 'sido'],
  ['be', 'simple_future', '3sg', 'will be', 'será'],
  ['have', 'present_simple', '3sg', 'has', 'tiene'],
  ['have', 'past_simple', '1sg', 'had', 'tuve'],
  ['have', 'simple_future', '2sg', 'will have', 'tendrás'],
  ['do', 'present_simple', '3sg', 'does', 'hace'],
  ['do', 'past_simple', '3sg', 'did', 'hizo'],
  ['do', 'past_participle', '2sg', 'done', 'hecho'],
  ['go', 'present_simple', '1sg', 'go', 'voy'],
  ['go', 'past_simple', '2sg', 'went', 'fuiste'],
  ['go', 'simple_future', '3sg', 'will go', 'irá'],
  ['come', 'present_simple', '2sg', 'come', 'vienes'],
  ['come', 'past_simple', '1sg', 'came', 'vine'],
  ['come', 'past_participle', '3sg', 'come', 'venido'],
  ['see', 'past_simple', '3sg', 'saw', 'vio'],
  ['see', 'past_participle', '1sg', 'seen', 'visto'],
  ['eat', 'past_simple', '3sg', 'ate', 'comió'],
  ['eat', 'simple_future', '1sg', 'will eat', 'comeré'],
  ['write', 'past_participle', '2sg', 'written', 'escrito'],
  ['write', 'present_simple', '3sg', 'writes', 'escribe'],
];

describe('the bundled §A13 table', () => {
  it('has exactly 300 rows with 300 distinct keys, every verb × tense × person', () => {
    expect(table.rows).toHaveLength(300);
    const keys = new Set(table.rows.map((r) => rowKey(r.verb, r.tense, r.person)));
    expect(keys.size).toBe(300);
    for (const verb of VERBS)
      for (const tense of TENSES) for (const person of PERSONS) expect(keys.has(rowKey(verb, tense, person))).toBe(true);
  });

  it('the hand-written sample covers every verb, tense and person', () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(40);
    expect(new Set(SAMPLE.map((s) => s[0])).size).toBe(20);
    expect(new Set(SAMPLE.map((s) => s[1])).size).toBe(5);
    expect(new Set(SAMPLE.map((s) => s[2])).size).toBe(3);
  });

  it.each(SAMPLE)('%s / %s / %s is %s — %s', (verb, tense, person, english, spanish) => {
    expect(row(verb, tense, person)).toEqual({ english, spanish });
  });

  it('marks exactly be, have, do, go, come, see, eat and write as irregular', () => {
    const irregular = table.verbs.filter((v) => v.irregular).map((v) => v.verb);
    expect(irregular).toEqual(['be', 'have', 'do', 'go', 'come', 'see', 'eat', 'write']);
    expect(table.rows.filter((r) => r.irregular)).toHaveLength(8 * 15);
  });

  it('stores verb forms only: lowercase, no subject pronoun, bare infinitives, will + infinitive', () => {
    for (const r of table.rows) {
      expect(r.english).toMatch(/^[a-z]+( [a-z]+)?$/);
      expect(r.english).not.toMatch(/^(i|you|he|she|it|to) /);
      if (r.tense === 'infinitive') expect(r.english).toBe(r.verb);
      if (r.tense === 'simple_future') expect(r.english).toBe(`will ${r.verb}`);
    }
  });
});

describe('every irregular English form', () => {
  // [verb, present 1sg/2sg/3sg, past 1sg/2sg/3sg, past participle], by hand.
  const IRREGULAR: readonly (readonly [Verb, readonly [string, string, string], readonly [string, string, string], string])[] = [
    ['be', ['am', 'are', 'is'], ['was', 'were', 'was'], 'been'],
    ['have', ['have', 'have', 'has'], ['had', 'had', 'had'], 'had'],
    ['do', ['do', 'do', 'does'], ['did', 'did', 'did'], 'done'],
    ['go', ['go', 'go', 'goes'], ['went', 'went', 'went'], 'gone'],
    ['come', ['come', 'come', 'comes'], ['came', 'came', 'came'], 'come'],
    ['see', ['see', 'see', 'sees'], ['saw', 'saw', 'saw'], 'seen'],
    ['eat', ['eat', 'eat', 'eats'], ['ate', 'ate', 'ate'], 'eaten'],
    ['write', ['write', 'write', 'writes'], ['wrote', 'wrote', 'wrote'], 'written'],
  ];

  it.each(IRREGULAR)('%s: present %j, past %j, participle %s', (verb, present, past, participle) => {
    PERSONS.forEach((person, i) => {
      expect(row(verb, 'infinitive', person).english).toBe(verb);
      expect(row(verb, 'present_simple', person).english).toBe(present[i]);
      expect(row(verb, 'past_simple', person).english).toBe(past[i]);
      expect(row(verb, 'past_participle', person).english).toBe(participle);
      expect(row(verb, 'simple_future', person).english).toBe(`will ${verb}`);
    });
  });

  it('gives regular verbs -ed pasts, with the spelling rules (studied, liked)', () => {
    const pasts: Record<string, string> = {
      work: 'worked',
      play: 'played',
      walk: 'walked',
      talk: 'talked',
      listen: 'listened',
      watch: 'watched',
      study: 'studied',
      finish: 'finished',
      start: 'started',
      look: 'looked',
      want: 'wanted',
      like: 'liked',
    };
    for (const [verb, past] of Object.entries(pasts)) {
      for (const person of PERSONS) {
        expect(row(verb as Verb, 'past_simple', person).english).toBe(past);
        expect(row(verb as Verb, 'past_participle', person).english).toBe(past);
      }
    }
  });
});
