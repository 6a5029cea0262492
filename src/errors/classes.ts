import { PlumeError, type ErrorMessage, type ErrorOptions } from './plume-error.js';

/** HTTP 400: thrown as `new BadRequest(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class BadRequest extends PlumeError {
  constructor(message: ErrorMessage = 'BadRequest', options?: ErrorOptions) {
    super(message, 'BadRequest', 400, 'bad-request', options);
  }
}

/** HTTP 401: thrown as `new NotAuthenticated(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class NotAuthenticated extends PlumeError {
  constructor(message: ErrorMessage = 'NotAuthenticated', options?: ErrorOptions) {
    super(message, 'NotAuthenticated', 401, 'not-authenticated', options);
  }
}

/** HTTP 402: thrown as `new PaymentError(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class PaymentError extends PlumeError {
  constructor(message: ErrorMessage = 'PaymentError', options?: ErrorOptions) {
    super(message, 'PaymentError', 402, 'payment-error', options);
  }
}

/** HTTP 403: thrown as `new Forbidden(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Forbidden extends PlumeError {
  constructor(message: ErrorMessage = 'Forbidden', options?: ErrorOptions) {
    super(message, 'Forbidden', 403, 'forbidden', options);
  }
}

/** HTTP 404: thrown as `new NotFound(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class NotFound extends PlumeError {
  constructor(message: ErrorMessage = 'NotFound', options?: ErrorOptions) {
    super(message, 'NotFound', 404, 'not-found', options);
  }
}

/** HTTP 405: thrown as `new MethodNotAllowed(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class MethodNotAllowed extends PlumeError {
  constructor(message: ErrorMessage = 'MethodNotAllowed', options?: ErrorOptions) {
    super(message, 'MethodNotAllowed', 405, 'method-not-allowed', options);
  }
}

/** HTTP 406: thrown as `new NotAcceptable(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class NotAcceptable extends PlumeError {
  constructor(message: ErrorMessage = 'NotAcceptable', options?: ErrorOptions) {
    super(message, 'NotAcceptable', 406, 'not-acceptable', options);
  }
}

/** HTTP 408: thrown as `new Timeout(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Timeout extends PlumeError {
  constructor(message: ErrorMessage = 'Timeout', options?: ErrorOptions) {
    super(message, 'Timeout', 408, 'timeout', options);
  }
}

/** HTTP 409: thrown as `new Conflict(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Conflict extends PlumeError {
  constructor(message: ErrorMessage = 'Conflict', options?: ErrorOptions) {
    super(message, 'Conflict', 409, 'conflict', options);
  }
}

/** HTTP 410: thrown as `new Gone(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Gone extends PlumeError {
  constructor(message: ErrorMessage = 'Gone', options?: ErrorOptions) {
    super(message, 'Gone', 410, 'gone', options);
  }
}

/** HTTP 411: thrown as `new LengthRequired(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class LengthRequired extends PlumeError {
  constructor(message: ErrorMessage = 'LengthRequired', options?: ErrorOptions) {
    super(message, 'LengthRequired', 411, 'length-required', options);
  }
}

/** HTTP 413: thrown as `new PayloadTooLarge(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class PayloadTooLarge extends PlumeError {
  constructor(message: ErrorMessage = 'PayloadTooLarge', options?: ErrorOptions) {
    super(message, 'PayloadTooLarge', 413, 'payload-too-large', options);
  }
}

/** HTTP 415: thrown as `new UnsupportedMediaType(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class UnsupportedMediaType extends PlumeError {
  constructor(message: ErrorMessage = 'UnsupportedMediaType', options?: ErrorOptions) {
    super(message, 'UnsupportedMediaType', 415, 'unsupported-media-type', options);
  }
}

/** HTTP 422: thrown as `new Unprocessable(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Unprocessable extends PlumeError {
  constructor(message: ErrorMessage = 'Unprocessable', options?: ErrorOptions) {
    super(message, 'Unprocessable', 422, 'unprocessable', options);
  }
}

/** HTTP 429: thrown as `new TooManyRequests(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class TooManyRequests extends PlumeError {
  constructor(message: ErrorMessage = 'TooManyRequests', options?: ErrorOptions) {
    super(message, 'TooManyRequests', 429, 'too-many-requests', options);
  }
}

/** HTTP 500: thrown as `new GeneralError(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class GeneralError extends PlumeError {
  constructor(message: ErrorMessage = 'GeneralError', options?: ErrorOptions) {
    super(message, 'GeneralError', 500, 'general-error', options);
  }
}

/** HTTP 501: thrown as `new NotImplemented(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class NotImplemented extends PlumeError {
  constructor(message: ErrorMessage = 'NotImplemented', options?: ErrorOptions) {
    super(message, 'NotImplemented', 501, 'not-implemented', options);
  }
}

/** HTTP 502: thrown as `new BadGateway(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class BadGateway extends PlumeError {
  constructor(message: ErrorMessage = 'BadGateway', options?: ErrorOptions) {
    super(message, 'BadGateway', 502, 'bad-gateway', options);
  }
}

/** HTTP 503: thrown as `new Unavailable(message, { data?, errors?, cause? })`. Spec: "Errors". */
export class Unavailable extends PlumeError {
  constructor(message: ErrorMessage = 'Unavailable', options?: ErrorOptions) {
    super(message, 'Unavailable', 503, 'unavailable', options);
  }
}

/** Every error class by HTTP status code, e.g. `errorsByCode[404] === NotFound`. */
export const errorsByCode: Readonly<
  Record<number, new (message?: ErrorMessage, options?: ErrorOptions) => PlumeError>
> = {
  400: BadRequest,
  401: NotAuthenticated,
  402: PaymentError,
  403: Forbidden,
  404: NotFound,
  405: MethodNotAllowed,
  406: NotAcceptable,
  408: Timeout,
  409: Conflict,
  410: Gone,
  411: LengthRequired,
  413: PayloadTooLarge,
  415: UnsupportedMediaType,
  422: Unprocessable,
  429: TooManyRequests,
  500: GeneralError,
  501: NotImplemented,
  502: BadGateway,
  503: Unavailable,
};
