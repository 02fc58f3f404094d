import { describe, expect, test } from 'vitest';
import { selectScopes, splitScopes } from './scopes.js';

describe('selectScopes', () => {
  test('challenge first, then the resource scopes, else omitted', () => {
    expect(selectScopes({ challenged: 'a b', resourceScopes: ['c'], offlineAccess: false })).toEqual(['a', 'b']);
    expect(selectScopes({ resourceScopes: ['c', 'd'], offlineAccess: false })).toEqual(['c', 'd']);
    expect(selectScopes({ offlineAccess: true, serverScopes: ['offline_access'] })).toBeUndefined();
  });

  test('configured scopes replace the automatic choice; earlier scopes are kept (union)', () => {
    expect(selectScopes({ configured: ['x'], challenged: 'a', offlineAccess: false })).toEqual(['x']);
    expect(selectScopes({ challenged: 'write', previous: ['read'], offlineAccess: false })!.sort()).toEqual(['read', 'write']);
  });

  test('offline_access only when the authorization server lists it, never when it does not', () => {
    expect(selectScopes({ resourceScopes: ['a'], serverScopes: ['a', 'offline_access'], offlineAccess: true })).toEqual([
      'a',
      'offline_access',
    ]);
    expect(selectScopes({ resourceScopes: ['a'], serverScopes: ['a', 'offline_access'], offlineAccess: false })).toEqual(['a']);
    expect(selectScopes({ challenged: 'a offline_access', serverScopes: ['a'], offlineAccess: true })).toEqual(['a']);
  });

  test('splitScopes trims, dedupes and accepts lists', () => {
    expect(splitScopes('  a  b a ')).toEqual(['a', 'b']);
    expect(splitScopes(['x', '', 'x'])).toEqual(['x']);
    expect(splitScopes(undefined)).toEqual([]);
  });
});
