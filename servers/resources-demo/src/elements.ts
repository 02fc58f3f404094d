/**
 * The periodic table, one resource per element: `demo://elements/{symbol}`. Its 118 entries are what makes
 * `resources/list` long enough to come in pages; they are enumerated by the template's `list` callback rather
 * than registered one by one.
 */
import { ResourceNotFoundError, type McpServer, type ResourceDefinition, type TextResourceContents } from '@wiremcp/server';
import { READ_HINTS } from './cache-hints.js';
import type { Catalogue } from './catalogue.js';
import type { Icons } from './icons.js';

/** The element template. */
export const ELEMENT_TEMPLATE = 'demo://elements/{symbol}';

/** One element (`group` is absent for the f-block, La–Yb and Ac–No, which have no group number). */
export interface Element {
  number: number;
  symbol: string;
  name: string;
  period: number;
  group?: number;
}

/** The URI of the element with `symbol`. */
export function elementUri(symbol: string): string {
  return `demo://elements/${symbol}`;
}

/** Parses `tables/elements.csv` (header `number,symbol,name,period,group`). Throws on a malformed row. */
export function parseElements(csv: string): Element[] {
  const [header, ...rows] = csv.trim().split('\n');
  if (header !== 'number,symbol,name,period,group') throw new Error(`elements.csv: unexpected header ${JSON.stringify(header)}`);
  return rows.map((row, index) => {
    const match = /^([1-9][0-9]*),([A-Z][a-z]?),([A-Z][a-z]+),([1-7]),([1-9][0-9]?)?$/.exec(row);
    if (!match || Number(match[1]) !== index + 1) throw new Error(`elements.csv: row ${index + 2} is malformed: ${JSON.stringify(row)}`);
    const element: Element = { number: Number(match[1]), symbol: match[2]!, name: match[3]!, period: Number(match[4]) };
    if (match[5] !== undefined) element.group = Number(match[5]);
    return element;
  });
}

/** The elements: parsed from the catalogue's CSV file, indexed by symbol, with their listing and contents. */
export class Elements {
  readonly all: readonly Element[];
  readonly #bySymbol: Map<string, Element>;
  readonly #definitions: ResourceDefinition[];

  constructor(catalogue: Catalogue, icons: Icons) {
    const table = catalogue.file('tables/elements.csv');
    if (table?.text === undefined) throw new Error('the catalogue has no tables/elements.csv');
    this.all = parseElements(table.text);
    this.#bySymbol = new Map(this.all.map((element) => [element.symbol, element]));
    this.#definitions = this.all.map((element) => ({
      uri: elementUri(element.symbol),
      name: element.symbol,
      title: element.name,
      description: `Element ${element.number}: period ${element.period}, ${element.group === undefined ? 'f-block (no group)' : `group ${element.group}`}.`,
      mimeType: 'application/json',
      size: new TextEncoder().encode(JSON.stringify(element)).length,
      annotations: { audience: ['user', 'assistant'], priority: 0.3, lastModified: table.lastModified },
      icons: icons.element,
    }));
  }

  /** What `resources/list` shows for each element. */
  get definitions(): readonly ResourceDefinition[] {
    return this.#definitions;
  }

  /** The contents of `demo://elements/<symbol>`, or undefined for an unknown symbol. */
  contents(symbol: string, uri = elementUri(symbol)): TextResourceContents | undefined {
    const element = this.#bySymbol.get(symbol);
    return element && { uri, mimeType: 'application/json', text: JSON.stringify(element) };
  }

  /** Symbols for a typed prefix: symbols starting with it first, then symbols of names starting with it (`iro` → Fe). */
  complete(value: string): string[] {
    const prefix = value.toLowerCase();
    const bySymbol = this.all.filter((element) => element.symbol.toLowerCase().startsWith(prefix));
    const byName = this.all.filter((element) => !bySymbol.includes(element) && element.name.toLowerCase().startsWith(prefix));
    return [...bySymbol, ...byName].map((element) => element.symbol);
  }
}

/** Registers the element template, which lists all 118 elements. */
export function registerElements(server: McpServer, elements: Elements, icons: Icons): void {
  server.registerResourceTemplate(
    {
      uriTemplate: ELEMENT_TEMPLATE,
      name: 'element',
      title: 'Chemical element',
      description: 'One of the 118 elements by symbol (Fe, Og…), as JSON. The symbol completes from a symbol or a name prefix.',
      mimeType: 'application/json',
      icons: icons.element,
    },
    (uri, variables) => {
      const contents = elements.contents(String(variables.symbol), uri);
      if (!contents) throw new ResourceNotFoundError(uri);
      return { contents: [contents] };
    },
    { cache: READ_HINTS.elements, complete: { symbol: (value) => elements.complete(value) }, list: () => [...elements.definitions] },
  );
}
