/**
 * `@wiremcp/redis`: the shared state that lets several processes serve one MCP endpoint behind a round-robin load
 * balancer with no session affinity — legacy session state, resumable SSE events and the cross-process bus — for
 * `createHttpHandler` of `@wiremcp/transport-http`.
 */
export { connectRedisState, type RedisState, type RedisStateOptions } from './redis-state.js';
export { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './session-store.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
export { RedisSessionBus, type RedisSessionBusOptions } from './session-bus.js';
export { RedisBucketStore, type RedisBucketStoreOptions } from './bucket-store.js';
