// The FeathersJS 5 generator's src/validators.ts, after the renames of docs/migrating-from-feathers.md.
import { createDataValidator, createQueryValidator } from 'plume/schema'; // was: { Ajv, addFormats } from '@feathersjs/schema'

export const dataValidator = createDataValidator(); // was: addFormats(new Ajv({}), formats)
export const queryValidator = createQueryValidator(); // was: addFormats(new Ajv({ coerceTypes: true }), formats)

// Removed: dataValidator.addKeyword(keywordObjectId) and queryValidator.addKeyword(keywordObjectId);
// plume's validators have the objectid keyword already (AJV refuses to define it twice).
