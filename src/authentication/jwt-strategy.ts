import type { Params } from '../core/index.js';
import { GeneralError, NotAuthenticated, isPlumeError } from '../errors/index.js';
import type { AuthenticationRequest, AuthenticationResult, ParseRequest } from './declarations.js';
import { AuthenticationStrategy, readHeader } from './strategy.js';

const allowedSettings = new Set(['header', 'schemes']);

/**
 * The `jwt` strategy (spec: "Authentication" 3): reads `Authorization: Bearer <token>` (or `JWT <token>`,
 * or `<token>` without a scheme as FeathersJS does; the scheme is case-insensitive, and header and
 * schemes are configurable under `configuration.jwt`),
 * verifies the token with the service's `verifyAccessToken`, and loads the entity with
 * `entityService.get(payload.sub)`. Result: `{ accessToken, authentication: { strategy, accessToken,
 * payload }, [entity]: entity }`. Every failure is a 401 `NotAuthenticated`.
 */
export class JWTStrategy extends AuthenticationStrategy {
  /** The header name (lower case) and the accepted schemes (lower case). */
  get settings(): { header: string; schemes: string[] } {
    const config = this.configuration;
    const header = typeof config.header === 'string' ? config.header : 'authorization';
    const schemes = Array.isArray(config.schemes) ? config.schemes : ['Bearer', 'JWT'];
    return {
      header: header.toLowerCase(),
      schemes: schemes.filter((s): s is string => typeof s === 'string').map((s) => s.toLowerCase()),
    };
  }

  /**
   * How API descriptions (`plume/openapi`) document this strategy, as an OpenAPI security scheme:
   * HTTP bearer (JWT) when the header is `Authorization` and `Bearer` is accepted, otherwise an API
   * key in the configured header.
   */
  get securityScheme(): Record<string, string> {
    const { header, schemes } = this.settings;
    return header === 'authorization' && schemes.includes('bearer')
      ? { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }
      : { type: 'apiKey', in: 'header', name: header, description: `${schemes[0] ?? ''} <access token>` };
  }

  override verifyConfiguration(): void {
    for (const key of Object.keys(this.configuration)) {
      if (!allowedSettings.has(key)) {
        throw new GeneralError(
          `Invalid JWT strategy option '${this.name}.${key}'. Did you mean to set it in 'jwtOptions'?`,
        );
      }
    }
  }

  /**
   * `{ strategy, accessToken }` from the header (`<scheme> <token>` with an accepted scheme, or a
   * value without a space, which is the token itself); `null` without the header or with another scheme.
   */
  override async parse(request: ParseRequest): Promise<AuthenticationRequest | null> {
    const { header, schemes } = this.settings;
    const value = readHeader(request, header)?.trim();
    if (value === undefined || value === '') return null;
    const space = value.indexOf(' ');
    // No scheme at all: the whole value is the token, as FeathersJS reads it (a scheme alone is none).
    if (space === -1) {
      return schemes.includes(value.toLowerCase()) ? null : { strategy: this.name, accessToken: value };
    }
    const scheme = value.slice(0, space).toLowerCase();
    const token = value.slice(space + 1).trim();
    if (!schemes.includes(scheme) || token === '') return null;
    return { strategy: this.name, accessToken: token };
  }

  override async authenticate(
    authentication: AuthenticationRequest,
    params: Params,
  ): Promise<AuthenticationResult> {
    const { accessToken } = authentication;
    if (typeof accessToken !== 'string' || accessToken === '') throw new NotAuthenticated('No access token');
    const service = this.requireAuthentication();
    const jwtOptions = params.jwtOptions as Parameters<typeof service.verifyAccessToken>[1];
    const payload = await service.verifyAccessToken(accessToken, jwtOptions);
    const result: AuthenticationResult = {
      accessToken,
      authentication: { strategy: this.name, accessToken, payload },
    };
    const entityName = service.configuration.entity;
    const entityService = this.entityService;
    if (entityName === null || entityService === null) return result;
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject === '') {
      throw new NotAuthenticated('Invalid access token: no subject');
    }
    result[entityName] = await this.getEntity(subject, entityService);
    return result;
  }

  /** The entity with id `subject`, loaded internally (no provider); unknown → 401. */
  async getEntity(subject: string, entityService: NonNullable<typeof this.entityService>): Promise<unknown> {
    if (typeof entityService.get !== 'function') {
      throw new GeneralError("The entity service needs a 'get' method for the jwt strategy");
    }
    try {
      return await entityService.get(subject, {});
    } catch (error: unknown) {
      if (isPlumeError(error) && error.code === 404) {
        throw new NotAuthenticated('Invalid access token: the entity no longer exists', { cause: error });
      }
      throw error;
    }
  }
}
