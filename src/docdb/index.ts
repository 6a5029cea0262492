/**
 * `plume/docdb`: `DocDbService`, the document-database adapter on the official `mongodb` driver
 * (spec: "Service options (adapter)", "Adapter methods and utilities", "Custom params (adapter)",
 * "Adapter query syntax", "Object ids"), with its id, pipeline and error helpers.
 * @packageDocumentation
 */
export type {
  AdapterId,
  DocDbDriverOptions,
  DocDbParams,
  DocDbServiceOptions,
  NullableAdapterId,
} from './declarations.js';
export { duplicateKeyFields, handleDriverError, isRetryableTransactionError } from './error-handler.js';
export { checkPlainId, isObjectId, objectifyQuery, toObjectId, type ObjectIdClass } from './object-id.js';
export { FRAMEWORK_STAGE, getProjection, queryStages, splitPipeline } from './pipeline.js';
export { DocDbService } from './service.js';
export { DEFAULT_DISABLED_OPERATORS, makePatchUpdate, makeUpdate } from './update-data.js';
