import { describe, expect, test } from 'vitest';
import { isAppCallable, isModelVisible, modelVisibleTools, resourceUriOf, uiCapabilityOf, visibilityOf } from './visibility.js';

const tool = (name: string, ui?: unknown): { name: string; _meta?: Record<string, unknown> } =>
  ui === undefined ? { name } : { name, _meta: { ui } };

describe('tool visibility', () => {
  test('the default is both; a declared list is honoured; unknown values are dropped', () => {
    expect(visibilityOf(tool('plain'))).toEqual(['model', 'app']);
    expect(visibilityOf(tool('app-only', { visibility: ['app'] }))).toEqual(['app']);
    expect(visibilityOf(tool('odd', { visibility: ['app', 'admin', 3] }))).toEqual(['app']);
    // A malformed _meta.ui is no declaration at all.
    expect(visibilityOf(tool('broken', 'ui'))).toEqual(['model', 'app']);
  });

  test('app-only tools are left out of what the model is offered; model-only tools are not callable by apps', () => {
    const tools = [tool('both'), tool('app-only', { visibility: ['app'] }), tool('model-only', { visibility: ['model'] })];
    expect(modelVisibleTools(tools).map((t) => t.name)).toEqual(['both', 'model-only']);
    expect(tools.filter(isAppCallable).map((t) => t.name)).toEqual(['both', 'app-only']);
    expect(isModelVisible(tool('none', { visibility: [] }))).toBe(false);
    expect(isAppCallable(tool('none', { visibility: [] }))).toBe(false);
  });

  test('resourceUriOf accepts only ui:// URIs', () => {
    expect(resourceUriOf(tool('t', { resourceUri: 'ui://x/view' }))).toBe('ui://x/view');
    expect(resourceUriOf(tool('t', { resourceUri: 'https://evil.example.com/view' }))).toBeUndefined();
    expect(resourceUriOf(tool('t'))).toBeUndefined();
  });

  test('uiCapabilityOf: a host renders views only when it lists the mcp-app MIME type', () => {
    expect(uiCapabilityOf({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } })).toEqual({
      mimeTypes: ['text/html;profile=mcp-app'],
    });
    expect(uiCapabilityOf({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/plain'] } } })).toBeUndefined();
    expect(uiCapabilityOf({ extensions: { 'io.modelcontextprotocol/ui': {} } })).toBeUndefined();
    expect(uiCapabilityOf(undefined)).toBeUndefined();
  });
});
