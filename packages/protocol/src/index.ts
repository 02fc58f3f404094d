export * from './versions.js';
export * from './errors.js';
export * from './messages.js';
export * from './meta.js';
