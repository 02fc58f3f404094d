// The method table, read from the schemas: which JSON-RPC methods and notifications each revision has, who sends
// them, and which definitions describe their params and results. Emitted as runtime data
// (src/generated/method-table.ts) and as type-level maps (src/generated/method-maps.ts).
import { header, key, literal, namespaceName, propertiesOf, quote, refTarget, requiredOf, unionMembers } from './spec.mjs';

const UNIONS = {
  request: { 'client-to-server': 'ClientRequest', 'server-to-client': 'ServerRequest' },
  notification: { 'client-to-server': 'ClientNotification', 'server-to-client': 'ServerNotification' },
};
const RESULT_UNION = { 'client-to-server': 'ServerResult', 'server-to-client': 'ClientResult' };

function methodOf(spec, name) {
  const method = spec.defs[name]?.properties?.method?.const;
  if (typeof method !== 'string') throw new Error(`${spec.revision}: ${name} has no method constant`);
  return method;
}

function resultFor(spec, requestName, directions) {
  const candidate = requestName.replace(/Request$/, 'Result');
  const name = spec.defs[candidate] ? candidate : 'EmptyResult';
  if (!spec.defs[name]) throw new Error(`${spec.revision}: no result definition for ${requestName}`);
  // Cross-check: the result must be a member of the responder's result union (EmptyResult is `Result`, a member of all).
  for (const direction of directions) {
    const members = unionMembers(spec, RESULT_UNION[direction]);
    const ok = members.includes(name) || (name === 'EmptyResult' && members.includes('Result'));
    if (!ok) throw new Error(`${spec.revision}: ${name} (for ${requestName}) is not in ${RESULT_UNION[direction]}`);
  }
  return name;
}

// Property schemas of a message's params, over every anyOf member (ElicitRequestParams is form | url).
function paramsProperties(spec, def) {
  const params = def.properties?.params;
  const target = refTarget(params?.$ref);
  const schema = target ? spec.defs[target] : params;
  const members = schema?.anyOf ?? [schema];
  return Object.assign({}, ...members.map((member) => propertiesOf(spec, member)));
}

/**
 * `[{method, kind, byRevision: {rev: {...}}, inputRequestRevisions}]`, requests first, each kind in order of first
 * appearance (oldest revision first, schema union order within a revision).
 */
export function extractMethods(specs) {
  const table = new Map();
  for (const kind of ['request', 'notification']) {
    for (const spec of specs) {
      const senders = new Map(); // definition name -> directions
      for (const [direction, union] of Object.entries(UNIONS[kind])) {
        for (const name of unionMembers(spec, union)) senders.set(name, [...(senders.get(name) ?? []), direction]);
      }
      for (const [name, directions] of senders) {
        const method = methodOf(spec, name);
        if (!table.has(method)) table.set(method, { method, kind, byRevision: {}, inputRequestRevisions: [] });
        const entry = table.get(method);
        if (entry.kind !== kind) throw new Error(`${method} is a ${entry.kind} and a ${kind}`);
        const def = spec.defs[name];
        const info = {
          direction: directions.length === 2 ? 'both' : directions[0],
          definition: name,
          paramsRequired: (def.required ?? []).includes('params'),
        };
        const params = refTarget(def.properties?.params?.$ref);
        if (params) info.paramsDefinition = params;
        if (kind === 'request') {
          const result = resultFor(spec, name, directions);
          info.resultDefinition = result;
          const resultProps = propertiesOf(spec, spec.defs[result]);
          const resultRequired = requiredOf(spec, spec.defs[result]);
          info.paginated = 'nextCursor' in resultProps;
          info.cacheable = resultRequired.includes('ttlMs') && resultRequired.includes('cacheScope');
          const response = spec.defs[`${result}Response`]?.properties?.result;
          info.inputRequired = (response?.anyOf ?? []).some((member) => refTarget(member.$ref) === 'InputRequiredResult');
          // 2025-11-25 tasks: params with a `task` member may be answered with a CreateTaskResult instead.
          info.taskAugmentable = 'task' in paramsProperties(spec, def);
        }
        entry.byRevision[spec.revision] = info;
      }
    }
  }
  // 2026-07-28 server-to-client requests survive only inside InputRequiredResult.inputRequests (MRTR).
  for (const spec of specs) {
    for (const name of spec.defs.InputRequest ? unionMembers(spec, 'InputRequest') : []) {
      const entry = table.get(methodOf(spec, name));
      if (!entry) throw new Error(`${spec.revision}: input request ${name} is no JSON-RPC method of any revision`);
      entry.inputRequestRevisions.push(spec.revision);
    }
  }
  return [...table.values()];
}

/** src/generated/method-table.ts: the table as runtime data. */
export function generateMethodTable(methods) {
  const body = methods
    .map((entry) => {
      const revisions = Object.entries(entry.byRevision)
        // `false` flags are left out (the table is part of the main entry: keep it small).
        .map(
          ([revision, info]) =>
            `      ${quote(revision)}: ${literal(Object.fromEntries(Object.entries(info).filter(([, value]) => value !== false)))},`,
        )
        .join('\n');
      return [
        `  ${key(entry.method)}: {`,
        `    kind: ${quote(entry.kind)},`,
        `    byRevision: {\n${revisions}\n    },`,
        `    inputRequestRevisions: ${literal(entry.inputRequestRevisions)},`,
        '  },',
      ].join('\n');
    })
    .join('\n');
  return [
    header('schemas/*/schema.json').trimEnd(),
    '// Every JSON-RPC method and notification of every revision, read from the ClientRequest, ServerRequest,',
    '// ClientNotification, ServerNotification and InputRequest unions of each schema. See src/methods.ts for the',
    '// public table (which adds the capability gates from the spec prose).',
    "import type { SpecMethodTable } from '../methods.js';",
    '',
    '/** The spec-derived facts of every method, by method name. */',
    `export const SPEC_METHODS: SpecMethodTable = {\n${body}\n};`,
    '',
  ].join('\n');
}

function typeRef(namespace, name) {
  return `${namespace}.${name}`;
}

/** src/generated/method-maps.ts: method name -> params/result types, one map per sender. */
export function generateMethodMaps(methods, specs) {
  const newest = specs[specs.length - 1];
  const aliases = new Map(specs.map((spec) => [spec.revision, namespaceName(spec.revision)]));
  const used = new Set();
  const maps = {
    ClientRequestMap: [],
    ServerRequestMap: [],
    ClientNotificationMap: [],
    ServerNotificationMap: [],
  };
  for (const entry of methods) {
    // Types come from 2026-07-28 when the method exists there, otherwise from the newest revision that has it.
    const revisions = Object.keys(entry.byRevision);
    const revision = revisions.includes(newest.revision) ? newest.revision : revisions[revisions.length - 1];
    const info = entry.byRevision[revision];
    const ns = aliases.get(revision);
    used.add(revision);
    const params = info.paramsDefinition
      ? typeRef(ns, info.paramsDefinition) + (info.paramsRequired ? '' : ' | undefined')
      : `${typeRef(ns, info.definition)}['params']`;
    // Who may send it, over all revisions (progress is both-ways in legacy revisions, server-only in 2026).
    const directions = new Set(
      Object.values(entry.byRevision).flatMap((r) => (r.direction === 'both' ? ['client-to-server', 'server-to-client'] : [r.direction])),
    );
    const doc = `  /** \`${entry.method}\`: ${info.definition} (${revisions[0]}${revisions.length > 1 ? ` to ${revisions[revisions.length - 1]}` : ''}). */`;
    let value;
    if (entry.kind === 'request') {
      let result = typeRef(ns, info.resultDefinition);
      if (info.inputRequired) result += ` | ${typeRef(ns, 'InputRequiredResult')}`;
      if (info.taskAugmentable) result += ` | ${typeRef(ns, 'CreateTaskResult')}`;
      value = `{ params: ${params}; result: ${result} }`;
    } else {
      value = params;
    }
    const line = `${doc}\n  ${key(entry.method)}: ${value};`;
    const prefix = entry.kind === 'request' ? 'Request' : 'Notification';
    if (directions.has('client-to-server')) maps[`Client${prefix}Map`].push(line);
    if (directions.has('server-to-client')) maps[`Server${prefix}Map`].push(line);
  }
  const docs = {
    ClientRequestMap: 'Requests a client sends and a server handles: method -> `{params, result}`.',
    ServerRequestMap: 'Requests a server sends and a client handles (legacy revisions): method -> `{params, result}`.',
    ClientNotificationMap: 'Notifications a client sends: method -> params.',
    ServerNotificationMap: 'Notifications a server sends: method -> params.',
  };
  const imports = [...used].sort().map((revision) => `import type * as ${aliases.get(revision)} from './${revision}.js';`);
  const body = Object.entries(maps).map(([name, lines]) => `/** ${docs[name]} */\nexport interface ${name} {\n${lines.join('\n')}\n}`);
  return [
    header('schemas/*/schema.json').trimEnd(),
    '// Type-level method maps, per sender. Types are those of 2026-07-28 where the method exists there, otherwise',
    '// those of the newest revision that has it. Methods that go both ways (ping, cancelled, progress, tasks) are',
    '// in both maps. Re-exported with helper types by src/method-types.ts.',
    ...imports,
    '',
    body.join('\n\n'),
    '',
  ].join('\n');
}
