import { describe, expect, it } from 'vitest';
import * as errors from 'plume/errors';

const expected: [keyof typeof errors, number, string][] = [
  ['BadRequest', 400, 'bad-request'],
  ['NotAuthenticated', 401, 'not-authenticated'],
  ['PaymentError', 402, 'payment-error'],
  ['Forbidden', 403, 'forbidden'],
  ['NotFound', 404, 'not-found'],
  ['MethodNotAllowed', 405, 'method-not-allowed'],
  ['NotAcceptable', 406, 'not-acceptable'],
  ['Timeout', 408, 'timeout'],
  ['Conflict', 409, 'conflict'],
  ['Gone', 410, 'gone'],
  ['LengthRequired', 411, 'length-required'],
  ['PayloadTooLarge', 413, 'payload-too-large'],
  ['UnsupportedMediaType', 415, 'unsupported-media-type'],
  ['Unprocessable', 422, 'unprocessable'],
  ['TooManyRequests', 429, 'too-many-requests'],
  ['GeneralError', 500, 'general-error'],
  ['NotImplemented', 501, 'not-implemented'],
  ['BadGateway', 502, 'bad-gateway'],
  ['Unavailable', 503, 'unavailable'],
];

describe('plume/errors', () => {
  it.each(expected)('%s has status %i and className %s', (name, code, className) => {
    const ErrorClass = errors[name] as new (
      message?: string,
      options?: errors.ErrorOptions,
    ) => errors.PlumeError;
    const error = new ErrorClass('went wrong', { data: { field: 'x' }, errors: [{ path: '/x' }] });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(errors.PlumeError);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.className).toBe(className);
    expect(errors.errorsByCode[code]).toBe(ErrorClass);
    expect(error.toJSON()).toEqual({
      name,
      message: 'went wrong',
      code,
      className,
      data: { field: 'x' },
      errors: [{ path: '/x' }],
    });
  });

  it('toJSON never contains the stack, and JSON.stringify uses it', () => {
    const error = new errors.NotFound('No record found for id 1');
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toEqual({
      name: 'NotFound',
      message: 'No record found for id 1',
      code: 404,
      className: 'not-found',
    });
    expect(JSON.stringify(error)).not.toContain('at ');
  });

  it('toPlumeError keeps plume errors and hides the message of any other error', () => {
    const notFound = new errors.NotFound('gone');
    expect(errors.toPlumeError(notFound)).toBe(notFound);
    const secret = new Error('password=hunter2 at db.internal:27017');
    const converted = errors.toPlumeError(secret);
    expect(converted).toBeInstanceOf(errors.GeneralError);
    expect(converted.code).toBe(500);
    expect(JSON.stringify(converted)).not.toContain('hunter2');
    expect(converted.cause).toBe(secret);
  });

  it('fromJSON rebuilds the class from the status code', () => {
    const rebuilt = errors.fromJSON({ code: 409, message: 'email already exists', data: { field: 'email' } });
    expect(rebuilt).toBeInstanceOf(errors.Conflict);
    expect(rebuilt.data).toEqual({ field: 'email' });
    expect(errors.fromJSON({ code: 999 })).toBeInstanceOf(errors.GeneralError);
  });

  it('accepts the FeathersJS object form { message, errors, ...data }', () => {
    const error = new errors.BadRequest({
      message: 'Invalid email',
      errors: { email: 'taken' },
      field: 'email',
      hint: 'use another',
    });
    expect(error.message).toBe('Invalid email');
    expect(error.toJSON()).toEqual({
      name: 'BadRequest',
      message: 'Invalid email',
      code: 400,
      className: 'bad-request',
      errors: { email: 'taken' },
      data: { field: 'email', hint: 'use another' },
    });
    // No message: the class name, as with no argument; no other fields: no data.
    expect(new errors.NotFound({ errors: ['x'] }).toJSON()).toEqual({
      name: 'NotFound',
      message: 'NotFound',
      code: 404,
      className: 'not-found',
      errors: ['x'],
    });
    // Options given as well win over the object's fields.
    expect(new errors.Conflict({ message: 'm', a: 1 }, { data: { b: 2 } }).data).toEqual({ b: 2 });
  });

  it('accepts an Error as first argument: its message, its fields as data, itself as cause', () => {
    const original = Object.assign(new Error('duplicate key'), { code: 11000 });
    const error = new errors.GeneralError(original);
    expect(error.message).toBe('duplicate key');
    expect(error.data).toEqual({ code: 11000 });
    expect(error.cause).toBe(original);
  });
});
