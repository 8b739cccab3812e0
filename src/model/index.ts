export * from './span.js';
export * from './diagnostic.js';
export * from './webxml.js';
export * from './server.js';
export * from './base.js';
export * from './properties.js';
export * from './setenv.js';
export * from './files.js';
