// The method table against the schemas (re-derived here independently of the generator) and against the spec
// facts it must encode: directions, revisions, eras, gates, definitions.
import { describe, expect, it } from 'vitest';
import {
  METHODS,
  canSend,
  capabilityFor,
  getMethodInfo,
  getMethodRevisionInfo,
  methodExistsIn,
  methodsIn,
  serverCapabilityPath,
} from '../src/methods.js';
import type { ProtocolVersion } from '../src/versions.js';
import { PROTOCOL_VERSIONS } from '../src/versions.js';
import { SPECS, type SchemaNode } from './support/spec-files.js';

// method -> senders, straight from the four unions of one revision.
function unionMethods(defs: Record<string, SchemaNode>, union: string): string[] {
  const def = defs[union];
  if (def === undefined) return [];
  return (def.anyOf ?? [def]).map((member) => {
    const target = member.$ref === undefined ? member : defs[member.$ref.split('/').pop()!]!;
    return target.properties!['method']!.const as string;
  });
}

describe('method table vs schemas', () => {
  describe.each(SPECS)('$revision', ({ revision, defs }) => {
    const requests = { client: unionMethods(defs, 'ClientRequest'), server: unionMethods(defs, 'ServerRequest') };
    const notifications = { client: unionMethods(defs, 'ClientNotification'), server: unionMethods(defs, 'ServerNotification') };

    it('has exactly the methods of the request and notification unions', () => {
      const fromSchema = new Set([...requests.client, ...requests.server, ...notifications.client, ...notifications.server]);
      const fromTable = new Set(methodsIn(revision).map((info) => info.method));
      expect([...fromTable].sort()).toEqual([...fromSchema].sort());
      for (const method of fromSchema) expect(methodExistsIn(method, revision)).toBe(true);
    });

    it('gives each method its kind and senders', () => {
      for (const [kind, unions] of [
        ['request', requests],
        ['notification', notifications],
      ] as const) {
        for (const method of new Set([...unions.client, ...unions.server])) {
          expect(getMethodInfo(method)?.kind, method).toBe(kind);
          expect(canSend(method, revision, 'client'), `${method} from client`).toBe(unions.client.includes(method));
          expect(canSend(method, revision, 'server'), `${method} from server`).toBe(unions.server.includes(method));
        }
      }
    });

    it('names definitions that exist and carry the method constant', () => {
      for (const info of methodsIn(revision)) {
        const facts = info.byRevision[revision]!;
        expect(defs[facts.definition]?.properties?.['method']?.const, info.method).toBe(info.method);
        if (facts.paramsDefinition !== undefined) expect(defs[facts.paramsDefinition], info.method).toBeDefined();
        if (info.kind === 'request') expect(defs[facts.resultDefinition!], info.method).toBeDefined();
        else expect(facts.resultDefinition).toBeUndefined();
      }
    });
  });

  it('lists nothing that no revision defines', () => {
    const all = new Set(SPECS.flatMap(({ revision }) => methodsIn(revision).map((info) => info.method)));
    expect(Object.keys(METHODS).sort()).toEqual([...all].sort());
    expect(getMethodInfo('tools/explode')).toBeUndefined();
    expect(getMethodInfo('toString')).toBeUndefined();
  });
});

describe('method facts', () => {
  it('initialize: client to server, legacy revisions only', () => {
    expect(getMethodInfo('initialize')).toMatchObject({
      kind: 'request',
      direction: 'client-to-server',
      revisions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'],
      eras: ['legacy'],
      requestDefinition: 'InitializeRequest',
      paramsDefinition: 'InitializeRequestParams',
      resultDefinition: 'InitializeResult',
    });
    expect(methodExistsIn('initialize', '2026-07-28')).toBe(false);
    expect(getMethodInfo('initialize')).not.toHaveProperty('capability');
  });

  it('server/discover and subscriptions/listen: 2026-07-28 only, modern era', () => {
    for (const method of ['server/discover', 'subscriptions/listen']) {
      expect(getMethodInfo(method)).toMatchObject({ revisions: ['2026-07-28'], eras: ['modern'], direction: 'client-to-server' });
    }
    expect(getMethodInfo('server/discover')).toMatchObject({ resultDefinition: 'DiscoverResult', cacheable: true });
    expect(getMethodInfo('notifications/subscriptions/acknowledged')).toMatchObject({
      kind: 'notification',
      direction: 'server-to-client',
      revisions: ['2026-07-28'],
    });
  });

  it('ping goes both ways and is gone in 2026-07-28', () => {
    expect(getMethodInfo('ping')).toMatchObject({ direction: 'both', resultDefinition: 'EmptyResult', eras: ['legacy'] });
    expect(canSend('ping', '2025-11-25', 'server')).toBe(true);
    expect(canSend('ping', '2026-07-28', 'client')).toBe(false);
  });

  it('elicitation/create: server to client from 2025-06-18; in 2026 only inside InputRequiredResult', () => {
    expect(getMethodInfo('elicitation/create')).toMatchObject({
      direction: 'server-to-client',
      capability: 'client:elicitation',
      revisions: ['2025-06-18', '2025-11-25'],
      inputRequestRevisions: ['2026-07-28'],
      taskAugmentable: true,
    });
    expect(getMethodInfo('sampling/createMessage')?.inputRequestRevisions).toEqual(['2026-07-28']);
    expect(getMethodInfo('roots/list')?.inputRequestRevisions).toEqual(['2026-07-28']);
    expect(getMethodInfo('tools/call')?.inputRequestRevisions).toEqual([]);
  });

  it('progress is both ways in legacy revisions and server-only in 2026-07-28; cancelled stays both ways', () => {
    const progress = getMethodInfo('notifications/progress')!;
    expect(progress.direction).toBe('both');
    expect(progress.byRevision['2025-11-25']?.direction).toBe('both');
    expect(progress.byRevision['2026-07-28']?.direction).toBe('server-to-client');
    expect(getMethodRevisionInfo('notifications/cancelled', '2026-07-28')?.direction).toBe('both');
  });

  it('tasks methods: both ways in 2025-11-25 only, gated by the receiver', () => {
    for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']) {
      expect(getMethodInfo(method)).toMatchObject({ direction: 'both', revisions: ['2025-11-25'] });
    }
    expect(capabilityFor('tasks/list', '2025-11-25')).toBe('receiver:tasks.list');
    expect(getMethodInfo('tasks/list')?.paginated).toBe(true);
    expect(getMethodInfo('notifications/tasks/status')?.direction).toBe('both');
  });

  it('completion/complete is ungated in 2024-11-05 and gated by server completions afterwards', () => {
    expect(capabilityFor('completion/complete', '2024-11-05')).toBeUndefined();
    for (const revision of PROTOCOL_VERSIONS.slice(1)) {
      expect(capabilityFor('completion/complete', revision)).toBe('server:completions');
    }
    expect(getMethodInfo('completion/complete')?.capability).toBe('server:completions');
  });

  it('records the gates of the spec prose', () => {
    expect(capabilityFor('tools/call', '2026-07-28')).toBe('server:tools');
    expect(capabilityFor('resources/subscribe', '2025-06-18')).toBe('server:resources.subscribe');
    expect(capabilityFor('sampling/createMessage', '2024-11-05')).toBe('client:sampling');
    expect(capabilityFor('notifications/roots/list_changed', '2024-11-05')).toBe('client:roots.listChanged');
    expect(capabilityFor('notifications/elicitation/complete', '2025-11-25')).toBe('client:elicitation.url');
    expect(capabilityFor('logging/setLevel', '2026-07-28')).toBeUndefined(); // absent there
    expect(capabilityFor('ping', '2025-11-25')).toBeUndefined();
  });

  it('serverCapabilityPath gives the server gates as paths, per revision, and nothing for other gates or names', () => {
    expect(serverCapabilityPath('tools/call', '2026-07-28')).toEqual(['tools']);
    expect(serverCapabilityPath('resources/subscribe', '2025-06-18')).toEqual(['resources', 'subscribe']);
    expect(serverCapabilityPath('completion/complete', '2024-11-05')).toBeUndefined();
    expect(serverCapabilityPath('completion/complete', '2025-03-26')).toEqual(['completions']);
    expect(serverCapabilityPath('sampling/createMessage', '2025-11-25')).toBeUndefined(); // a client gate
    expect(serverCapabilityPath('logging/setLevel', '2026-07-28')).toBeUndefined(); // absent there
    expect(serverCapabilityPath('no/such-method', '2025-11-25')).toBeUndefined();
    expect(serverCapabilityPath('tools/call', '1999-01-01' as ProtocolVersion)).toBeUndefined();
    for (const revision of PROTOCOL_VERSIONS) {
      for (const info of methodsIn(revision)) {
        const gate = capabilityFor(info.method, revision);
        const expected = gate?.startsWith('server:') ? gate.slice('server:'.length).split('.') : undefined;
        expect(serverCapabilityPath(info.method, revision)).toEqual(expected);
      }
    }
  });

  it('2026 list and read results are cacheable; tools/call, prompts/get and resources/read may be MRTR', () => {
    const cacheable = methodsIn('2026-07-28', 'request')
      .filter((info) => info.cacheable)
      .map((info) => info.method);
    expect(cacheable.sort()).toEqual([
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'server/discover',
      'tools/list',
    ]);
    const mrtr = methodsIn('2026-07-28', 'request')
      .filter((info) => info.inputRequired)
      .map((info) => info.method);
    expect(mrtr.sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
    expect(getMethodRevisionInfo('tools/list', '2025-11-25')?.cacheable).toBeUndefined(); // absent flags are false
  });

  it('paginated methods are the four lists (plus tasks/list in 2025-11-25)', () => {
    const paginated = (revision: (typeof PROTOCOL_VERSIONS)[number]) =>
      methodsIn(revision, 'request')
        .filter((info) => info.byRevision[revision]?.paginated)
        .map((info) => info.method)
        .sort();
    expect(paginated('2024-11-05')).toEqual(['prompts/list', 'resources/list', 'resources/templates/list', 'tools/list']);
    expect(paginated('2025-11-25')).toEqual(['prompts/list', 'resources/list', 'resources/templates/list', 'tasks/list', 'tools/list']);
  });

  it('method names are plain paths, and 2025-03-26 (batching) adds no method to 2024-11-05', () => {
    expect(Object.keys(METHODS).every((method) => /^[a-z]+(\/[a-zA-Z_]+)*$/.test(method))).toBe(true);
    expect(methodsIn('2025-03-26').map((info) => info.method)).toEqual(methodsIn('2024-11-05').map((info) => info.method));
  });

  it('is frozen', () => {
    expect(Object.isFrozen(METHODS)).toBe(true);
    expect(Object.isFrozen(getMethodInfo('tools/call'))).toBe(true);
    expect(Object.isFrozen(getMethodInfo('tools/call')?.byRevision['2026-07-28'])).toBe(true);
  });
});
