/**
 * The icons resources, templates and the server itself carry (2025-11-25 and later): small SVGs from
 * `data/icons/`, sent as `data:` URIs so a host can show them without fetching anything.
 */
import { readFileSync } from 'node:fs';
import type { Icon } from '@wiremcp/server';
import { DATA_DIR } from './catalogue.js';

/** The kinds of icon this server has. */
export type IconKind = 'document' | 'image' | 'element' | 'note' | 'live';

/** One icon list per kind. */
export type Icons = Readonly<Record<IconKind, Icon[]>>;

/** Reads the icons of every kind from `dir/icons/<kind>.svg`. */
export function loadIcons(dir: URL = DATA_DIR): Icons {
  const icon = (kind: IconKind): Icon[] => [
    {
      src: `data:image/svg+xml;base64,${readFileSync(new URL(`icons/${kind}.svg`, dir)).toString('base64')}`,
      mimeType: 'image/svg+xml',
      sizes: ['any'],
    },
  ];
  return { document: icon('document'), image: icon('image'), element: icon('element'), note: icon('note'), live: icon('live') };
}
