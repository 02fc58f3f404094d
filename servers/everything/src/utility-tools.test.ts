import { MetaKey } from '@wiremcp/protocol';
import { describe, expect, test } from 'vitest';
import { connectEverything, ERAS, text, promptText } from './everything.test-util.js';
import { DYNAMIC_PROMPT, DYNAMIC_TOOL } from './list-change-tools.js';
import { TOOL_LOG_MESSAGES } from './utility-tools.js';

describe('logging', () => {
  test('legacy: test_tool_with_logging sends three info messages, in order, before its result', async () => {
    const client = await connectEverything('legacy');
    expect(await client.call('logging/setLevel', { level: 'debug' })).toEqual({});
    const result = await client.tool('test_tool_with_logging');
    expect(text(result)).toMatch(/3 info messages/);
    expect(client.received('notifications/message')).toEqual(
      TOOL_LOG_MESSAGES.map((data) => ({ level: 'info', logger: 'test_tool_with_logging', data })),
    );
  });

  test('legacy: logging/setLevel filters test_logging_tool by severity', async () => {
    const client = await connectEverything('legacy');
    await client.call('logging/setLevel', { level: 'error' });
    await client.tool('test_logging_tool');
    expect(client.received('notifications/message').map((m) => m.level)).toEqual(['error', 'critical', 'alert', 'emergency']);
    await expect(client.call('logging/setLevel', { level: 'loud' })).rejects.toMatchObject({ code: -32602 });
  });

  test('2026-07-28: no log messages without a _meta log level; filtered by it when present', async () => {
    const client = await connectEverything('modern');
    await client.tool('test_logging_tool');
    await client.tool('test_tool_with_logging');
    expect(client.received('notifications/message')).toEqual([]);
    await client.tool('test_logging_tool', {}, { logLevel: 'warning' });
    expect(client.received('notifications/message').map((m) => m.level)).toEqual(['warning', 'error', 'critical', 'alert', 'emergency']);
    await expect(client.modern('logging/setLevel', { level: 'info' })).rejects.toMatchObject({ code: -32601 });
  });
});

describe.each(ERAS)('progress and cancellation (%s)', (era) => {
  test('test_tool_with_progress reports 0, 50, 100 of 100 when asked', async () => {
    const client = await connectEverything(era);
    const updates: Array<{ progress: number; total?: number }> = [];
    const result = await client.tool('test_tool_with_progress', {}, { onprogress: (p) => updates.push(p) });
    expect(updates.map((u) => [u.progress, u.total])).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    expect(text(result)).toMatch(/Progress test completed/);
  });

  test('test_tool_with_progress sends nothing without a progress token', async () => {
    const client = await connectEverything(era);
    const seen: unknown[] = [];
    client.peer.setNotificationHandler('notifications/progress', (params: unknown) => void seen.push(params));
    await client.tool('test_tool_with_progress');
    expect(seen).toEqual([]);
  });

  test('test_long_running_operation completes with one progress per step', async () => {
    const client = await connectEverything(era);
    const updates: number[] = [];
    const result = await client.tool(
      'test_long_running_operation',
      { durationMs: 30, steps: 3 },
      { onprogress: (p) => updates.push(p.progress) },
    );
    expect(updates).toEqual([1, 2, 3]);
    expect(text(result)).toBe('Long-running operation completed: 3 steps in 30 ms');
  });

  test('test_long_running_operation stops when the client cancels it', async () => {
    const client = await connectEverything(era);
    const controller = new AbortController();
    const updates: number[] = [];
    let started: () => void;
    const firstProgress = new Promise<void>((resolve) => (started = resolve));
    const onprogress = (p: { progress: number }) => {
      updates.push(p.progress);
      started();
    };
    const call = client.tool('test_long_running_operation', { durationMs: 2000, steps: 100 }, { signal: controller.signal, onprogress });
    await firstProgress;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    const seen = updates.length;
    expect(seen).toBeGreaterThan(0);
    await client.settle();
    expect(updates.length).toBe(seen);
    expect(client.peer.pendingCount).toBe(0);
    expect([...client.server.connections][0]!.peer.inflightCount).toBe(0);
  });

  test('test_x_mcp_header echoes its arguments', async () => {
    const client = await connectEverything(era);
    expect((await client.tool('test_x_mcp_header', { region: 'eu-west', priority: 2 })).content).toEqual([
      { type: 'text', text: 'region=eu-west priority=2' },
    ]);
  });

  test('test_reconnection completes', async () => {
    const client = await connectEverything(era);
    expect((await client.tool('test_reconnection')).content).toEqual([{ type: 'text', text: 'Reconnection test completed' }]);
  });
});

describe('list changes', () => {
  test('legacy: toggling the dynamic tool and prompt changes the lists and notifies the session', async () => {
    const client = await connectEverything('legacy');
    const added = await client.tool('test_trigger_tool_change');
    expect(added.structuredContent).toEqual({ name: DYNAMIC_TOOL, present: true });
    expect((await client.call('tools/list')).tools.map((t: { name: string }) => t.name)).toContain(DYNAMIC_TOOL);
    expect(text(await client.tool(DYNAMIC_TOOL))).toBe('The dynamic tool is here.');
    await client.tool('test_trigger_prompt_change');
    expect((await client.call('prompts/get', { name: DYNAMIC_PROMPT })).messages).toHaveLength(1);
    await client.settle();
    expect(client.received('notifications/tools/list_changed')).toHaveLength(1);
    expect(client.received('notifications/prompts/list_changed')).toHaveLength(1);
    expect((await client.tool('test_trigger_tool_change')).structuredContent).toEqual({ name: DYNAMIC_TOOL, present: false });
    await expect(client.tool(DYNAMIC_TOOL)).rejects.toMatchObject({ code: -32602 });
    await client.settle();
    expect(client.received('notifications/tools/list_changed')).toHaveLength(2);
  });

  test('2026-07-28: only the listen stream that asked for tools gets the tools change, tagged with its id', async () => {
    const client = await connectEverything('modern');
    const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} };
    const tools = new AbortController();
    const prompts = new AbortController();
    const toolsStream = client.peer.request(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true }, _meta: meta },
      { signal: tools.signal },
    );
    const promptsStream = client.peer.request(
      'subscriptions/listen',
      { notifications: { promptsListChanged: true }, _meta: meta },
      { signal: prompts.signal },
    );
    await client.settle();
    const acks = client.received('notifications/subscriptions/acknowledged');
    expect(acks.map((ack) => ack.notifications)).toEqual([{ toolsListChanged: true }, { promptsListChanged: true }]);
    const toolsId = acks[0]?._meta?.[MetaKey.subscriptionId];
    await client.tool('test_trigger_tool_change');
    await client.settle();
    expect(client.received('notifications/tools/list_changed')).toEqual([{ _meta: { [MetaKey.subscriptionId]: toolsId } }]);
    expect(client.received('notifications/prompts/list_changed')).toEqual([]);
    expect(text(await client.tool(DYNAMIC_TOOL))).toBe('The dynamic tool is here.');
    await client.tool('test_trigger_prompt_change');
    await client.settle();
    const promptsId = acks[1]?._meta?.[MetaKey.subscriptionId];
    expect(client.received('notifications/prompts/list_changed')).toEqual([{ _meta: { [MetaKey.subscriptionId]: promptsId } }]);
    expect(promptText(await client.call('prompts/get', { name: DYNAMIC_PROMPT }))).toBe('The dynamic prompt is here.');
    expect(client.received('notifications/tools/list_changed')).toHaveLength(1);
    tools.abort();
    prompts.abort();
    await Promise.allSettled([toolsStream, promptsStream]);
  });
});
