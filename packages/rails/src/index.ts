export * from './rail-adapter.js';
export { createHttpRailAdapter, type HttpRailAdapterOptions } from './http-rail-adapter.js';
export { storable } from './storable.js';
