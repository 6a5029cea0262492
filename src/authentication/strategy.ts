import type { Application, Params } from '../core/index.js';
import { GeneralError } from '../errors/index.js';
import type { AuthenticationRequest, AuthenticationResult, ParseRequest } from './declarations.js';
import { isRecord } from './declarations.js';
import type { AuthenticationService } from './service.js';

/** A service method the strategies call on the entity service. */
export interface EntityService {
  get?(id: string | number, params?: Params): Promise<unknown>;
  find?(params?: Params): Promise<unknown>;
  id?: unknown;
}

/**
 * Base class of authentication strategies (spec: "Authentication"; REFERENCE-feathers §5). A strategy
 * has a `name` (set by `service.register(name, strategy)`), may `parse` request headers into
 * authentication data, and must `authenticate` such data: resolve to an `AuthenticationResult` or
 * throw `NotAuthenticated` (401). `app` and `authentication` (the service) are set on registration.
 */
export abstract class AuthenticationStrategy {
  /** The name it was registered under, e.g. `jwt`. */
  name = '';
  /** The app (set by `register`). */
  app?: Application;
  /** The authentication service it belongs to (set by `register`). */
  authentication?: AuthenticationService;

  /** Called by `register`. */
  setName(name: string): void {
    this.name = name;
  }

  /** Called by `register`. */
  setApplication(app: Application): void {
    this.app = app;
  }

  /** Called by `register`. */
  setAuthentication(service: AuthenticationService): void {
    this.authentication = service;
  }

  /** This strategy's settings: `configuration[name]` of the authentication service (an empty object when unset). */
  get configuration(): Record<string, unknown> {
    const value = this.authentication?.configuration[this.name];
    return isRecord(value) ? value : {};
  }

  /**
   * The entity service (`configuration.service`), or `null` when the configuration has no entity.
   * Throws `GeneralError` (500) when the service is configured but not registered.
   */
  get entityService(): EntityService | null {
    const service = this.requireAuthentication().configuration.service;
    if (typeof service !== 'string' || this.requireAuthentication().configuration.entity === null)
      return null;
    const app = this.requireApp();
    try {
      return app.service(service);
    } catch {
      throw new GeneralError(
        `The '${service}' entity service does not exist (authentication 'service' option)`,
      );
    }
  }

  /** Fields of the entity that must never be sent to clients (e.g. the password hash). */
  getProtectedFields(): string[] {
    return [];
  }

  /**
   * The account an authentication attempt is for, counted by the per-account rate limit (e.g. the
   * `local` strategy's username), or `null` when the attempt names none (the default).
   */
  getAccountKey(_authentication: AuthenticationRequest): string | null {
    return null;
  }

  /** Checks the strategy's configuration; throws with a clear message. Called by `register` and `setup`. */
  verifyConfiguration(): void {}

  /** Called by the service's `setup` (and by `register` after it). */
  async setup(): Promise<void> {}

  /** Reads authentication data from request headers, or `null` when the request carries none for this strategy. */
  async parse(_request: ParseRequest): Promise<AuthenticationRequest | null> {
    return null;
  }

  /** Verifies `authentication`; resolves to the result or throws `NotAuthenticated` (401). */
  abstract authenticate(authentication: AuthenticationRequest, params: Params): Promise<AuthenticationResult>;

  protected requireApp(): Application {
    if (this.app === undefined)
      throw new GeneralError(`Strategy '${this.name}' is not registered with a service`);
    return this.app;
  }

  protected requireAuthentication(): AuthenticationService {
    if (this.authentication === undefined) {
      throw new GeneralError(`Strategy '${this.name}' is not registered with a service`);
    }
    return this.authentication;
  }
}

/** The value of header `name` (case-insensitive) in a plain headers object, or `undefined`. */
export function readHeader(request: ParseRequest, name: string): string | undefined {
  const headers: unknown = isRecord(request) ? request.headers : undefined;
  if (!isRecord(headers)) return undefined;
  const wanted = name.toLowerCase();
  const direct = headers[wanted];
  if (typeof direct === 'string') return direct;
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (key.toLowerCase() === wanted && typeof value === 'string') return value;
  }
  return undefined;
}
