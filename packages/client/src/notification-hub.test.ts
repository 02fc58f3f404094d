import { describe, expect, test } from 'vitest';
import { NotificationHub } from './notification-hub.js';

describe('NotificationHub', () => {
  test('delivers to method listeners then catch-all listeners; unsubscribe is idempotent', () => {
    const hub = new NotificationHub(() => {});
    const seen: string[] = [];
    const off = hub.on('notifications/message', (params) => seen.push(`message ${String(params.data)}`));
    hub.onAny((n) => seen.push(`any ${n.method}`));
    hub.emit('notifications/message', { level: 'info', data: 'x' });
    off();
    off();
    hub.emit('notifications/message', { level: 'info', data: 'y' });
    expect(seen).toEqual(['message x', 'any notifications/message', 'any notifications/message']);
  });

  test('a listener may unsubscribe itself during delivery without disturbing the others', () => {
    const hub = new NotificationHub(() => {});
    const seen: number[] = [];
    const off = hub.on('m', () => {
      seen.push(1);
      off();
    });
    hub.on('m', () => seen.push(2));
    hub.emit('m', undefined);
    hub.emit('m', undefined);
    expect(seen).toEqual([1, 2, 2]);
  });

  test('onchange fires for the first and the last listener of a method, and for catch-all listeners', () => {
    const hub = new NotificationHub(() => {});
    const changes: string[] = [];
    hub.onchange = (method) => changes.push(method);
    const a = hub.on('m', () => {});
    const b = hub.on('m', () => {});
    a();
    b();
    const any = hub.onAny(() => {});
    any();
    expect(changes).toEqual(['m', 'm', '*', '*']);
    expect(hub.methods()).toEqual([]);
  });

  test('listener failures are reported, not thrown', () => {
    const errors: unknown[] = [];
    const hub = new NotificationHub((error) => errors.push(error));
    hub.on('m', () => {
      throw new Error('bad');
    });
    hub.onAny(() => {
      throw new Error('worse');
    });
    expect(() => hub.emit('m', undefined)).not.toThrow();
    expect(errors).toHaveLength(2);
  });
});
