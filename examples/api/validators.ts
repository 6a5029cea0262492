import { createDataValidator, createQueryValidator, type Ajv } from 'plume/schema';

/**
 * The AJV instances the example's schemas are compiled with: `query` coerces types (a query string is
 * text, so `?$limit=5` must become a number), `data` does not (a JSON body keeps the types the client
 * sent: `{"text":12345}` is a 400, not the string `'12345'`).
 */
export interface Validators {
  query: Ajv;
  data: Ajv;
}

/** One `Validators` pair for the whole app. */
export function createValidators(): Validators {
  return { query: createQueryValidator(), data: createDataValidator() };
}
