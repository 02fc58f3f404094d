/**
 * A form generated from a JSON Schema object (a tool's `inputSchema`, an elicitation's `requestedSchema`, a
 * prompt's arguments): one labelled field per property, required ones marked, enums as selects, defaults filled in,
 * booleans as checkboxes, numbers as number fields, arrays and objects as JSON. The form reads back what the user
 * typed, leaving empty optional fields out; the schema's own rules are then checked by the inspector server with
 * the validator wiremcp servers use, and its messages shown next to the form.
 */
import { h } from './dom.js';

type Schema = Record<string, unknown>;

/** A generated form. */
export interface SchemaForm {
  readonly element: HTMLElement;
  /** The value typed so far, or the problems that stop it from being read (bad JSON, not a number). */
  read(): { value: Record<string, unknown>; problems: string[] };
  /** The first field, to focus. */
  readonly first: HTMLElement | undefined;
}

let formCount = 0;

function enumOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (options && options.every((o) => typeof o === 'object' && o !== null && 'const' in o)) return options.map((o) => (o as Schema).const);
  return undefined;
}

function typeOf(schema: Schema): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return String(type.find((t) => t !== 'null') ?? 'string');
  return enumOf(schema) ? 'enum' : 'json';
}

interface Field {
  readonly name: string;
  readonly input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  read(): { value?: unknown; problem?: string };
}

function field(name: string, schema: Schema, required: boolean, id: string): Field {
  const type = typeOf(schema);
  const choices = enumOf(schema);
  const fallback = schema.default;
  if (choices) {
    const select = h('select', { id, name, required }, required ? undefined : h('option', { value: '' }, '(none)'));
    choices.forEach((choice, index) => select.append(h('option', { value: String(index) }, JSON.stringify(choice) ?? '')));
    const at = choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(fallback));
    if (at >= 0) select.value = String(at);
    return { name, input: select, read: () => (select.value === '' ? {} : { value: choices[Number(select.value)] }) };
  }
  if (type === 'boolean') {
    const box = h('input', { id, name, type: 'checkbox' });
    box.checked = fallback === true;
    return { name, input: box, read: () => ({ value: box.checked }) };
  }
  if (type === 'number' || type === 'integer') {
    const number = h('input', { id, name, type: 'number', step: type === 'integer' ? '1' : 'any', required });
    if (typeof fallback === 'number') number.value = String(fallback);
    return {
      name,
      input: number,
      read: () => {
        if (number.value.trim() === '') return {};
        const value = Number(number.value);
        return Number.isFinite(value) ? { value } : { problem: `${name}: not a number` };
      },
    };
  }
  if (type === 'string') {
    const text = h('input', { id, name, type: 'text', required, autocomplete: 'off' });
    if (typeof fallback === 'string') text.value = fallback;
    return { name, input: text, read: () => (text.value === '' && !required ? {} : { value: text.value }) };
  }
  const area = h('textarea', { id, name, rows: 3, required, spellcheck: false, placeholder: type === 'array' ? '[ … ] as JSON' : 'JSON' });
  if (fallback !== undefined) area.value = JSON.stringify(fallback);
  return {
    name,
    input: area,
    read: () => {
      if (area.value.trim() === '') return {};
      try {
        return { value: JSON.parse(area.value) as unknown };
      } catch {
        return { problem: `${name}: not valid JSON` };
      }
    },
  };
}

/** Builds the form of `schema` (an object schema; anything else gets a single JSON field for the whole value). */
export function schemaForm(schema: unknown, label: string): SchemaForm {
  const prefix = `f${++formCount}`;
  const object = (typeof schema === 'object' && schema !== null ? schema : {}) as Schema;
  const properties = (typeof object.properties === 'object' && object.properties !== null ? object.properties : {}) as Record<
    string,
    Schema
  >;
  const required = new Set(Array.isArray(object.required) ? object.required.map(String) : []);
  const fields: Field[] = [];
  const element = h('fieldset', { class: 'schema-form' }, h('legend', {}, label));
  for (const [name, property] of Object.entries(properties)) {
    const id = `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const one = field(name, typeof property === 'object' && property !== null ? property : {}, required.has(name), id);
    fields.push(one);
    const title = typeof property?.title === 'string' ? property.title : name;
    const description = typeof property?.description === 'string' ? property.description : undefined;
    const row = h(
      'div',
      { class: 'field' },
      h('label', { for: id }, title, required.has(name) ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : undefined),
      one.input,
      description ? h('small', { class: 'hint' }, description) : undefined,
    );
    if (required.has(name)) one.input.setAttribute('aria-required', 'true');
    element.append(row);
  }
  if (fields.length === 0) element.append(h('p', { class: 'muted' }, 'No arguments.'));
  return {
    element,
    first: fields[0]?.input,
    read() {
      const value: Record<string, unknown> = {};
      const problems: string[] = [];
      for (const one of fields) {
        const read = one.read();
        if (read.problem) problems.push(read.problem);
        else if ('value' in read) value[one.name] = read.value;
      }
      return { value, problems };
    },
  };
}
