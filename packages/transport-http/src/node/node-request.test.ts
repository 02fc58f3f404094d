/**
 * The node adapter's client-gone hook: one `close` listener shared by every response finds the request's callback on
 * the response, so what `onClientGone` promises has to hold without a closure of its own per request.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { NodeHttpRequest, type NodeRequest, type NodeResponse } from './node-request.js';

type FakeResponse = EventEmitter & { destroyed: boolean; writableFinished: boolean };

function pair(): { request: NodeHttpRequest; res: FakeResponse } {
  const res = Object.assign(new EventEmitter(), { destroyed: false, writableFinished: false });
  const req = { method: 'POST', url: '/mcp', headers: {} } as unknown as NodeRequest;
  return { request: new NodeHttpRequest(req, res as unknown as NodeResponse, false), res };
}

describe('NodeHttpRequest.onClientGone', () => {
  test('heard once when the response closes unfinished, by every callback still listening', () => {
    const { request, res } = pair();
    let first = 0;
    let second = 0;
    request.onClientGone(() => first++);
    request.onClientGone(() => second++);
    res.emit('close');
    res.emit('close');
    expect([first, second]).toEqual([1, 1]);
  });

  test('not heard after stopping, and a stop (even a repeated one) never drops a later callback', () => {
    const { request, res } = pair();
    let stopped = 0;
    const stop = request.onClientGone(() => stopped++);
    stop();
    let later = 0;
    request.onClientGone(() => later++);
    stop();
    res.emit('close');
    expect([stopped, later]).toEqual([0, 1]);
  });

  test('not heard when the response finished before it closed; at once when the client is already gone', () => {
    const finished = pair();
    let heard = 0;
    finished.request.onClientGone(() => heard++);
    finished.res.writableFinished = true;
    finished.res.emit('close');
    expect(heard).toBe(0);
    const gone = pair();
    gone.res.destroyed = true;
    let atOnce = 0;
    gone.request.onClientGone(() => atOnce++)();
    expect(atOnce).toBe(1);
    gone.res.emit('close');
    expect(atOnce).toBe(1);
  });
});
