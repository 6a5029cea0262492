/**
 * `plume/sync`: service events delivered to every instance of an app through MongoDB change streams
 * (on a replica set, Atlas, or plume's embedded database). See docs/sync.md.
 * @packageDocumentation
 */
export { getSync, sync, Sync } from './sync.js';
export type { FollowOptions, SyncContext, SyncOptions, SyncRecord, SyncedEvent } from './declarations.js';
