import type { Params } from '../core/index.js';
import { GeneralError, NotAuthenticated } from '../errors/index.js';
import type { AuthenticationRequest, AuthenticationResult } from './declarations.js';
import { isRecord } from './declarations.js';
import { bcryptCompare, bcryptHash } from './bcrypt-worker.js';
import { AuthenticationStrategy } from './strategy.js';

/** Default bcrypt cost (log2 rounds) for new password hashes. */
export const DEFAULT_HASH_COST = 10;

/** Hashes that unknown users are compared against, one per cost, made once on first use. */
const dummyHashes = new Map<number, Promise<string>>();

function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (hash === undefined) {
    hash = bcryptHash(globalThis.crypto.randomUUID(), cost);
    void hash.catch(() => dummyHashes.delete(cost));
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/** Checks a bcrypt cost: an integer from 4 to 31 (bcrypt's own range). */
export function checkHashCost(cost: unknown, where: string): number {
  if (typeof cost !== 'number' || !Number.isInteger(cost) || cost < 4 || cost > 31) {
    throw new GeneralError(`${where} must be an integer from 4 to 31 (bcrypt cost)`);
  }
  return cost;
}

/** The resolved settings of a `LocalStrategy`. */
export interface LocalSettings {
  usernameField: string;
  passwordField: string;
  entityUsernameField: string;
  entityPasswordField: string;
  errorMessage: string;
  hashSize: number;
}

/**
 * The `local` strategy (spec: "Authentication" 3): `{ strategy: 'local', email, password }` (fields
 * configurable under `configuration.local`). Finds the entity by its username with an internal
 * `entityService.find({ query: { <username>: value, $limit: 1 }, paginate: false })`, compares the
 * password with the stored bcrypt hash, and resolves to `{ authentication: { strategy }, [entity]:
 * entity }`. An unknown user, a wrong password and a malformed request all fail with the same 401
 * `NotAuthenticated` (`errorMessage`, default `Invalid login`); for an unknown user a dummy hash is still
 * compared, so response time does not tell which users exist.
 */
export class LocalStrategy extends AuthenticationStrategy {
  get settings(): LocalSettings {
    const config = this.configuration;
    const text = (key: string, fallback: string): string => {
      const value = config[key];
      return typeof value === 'string' && value !== '' ? value : fallback;
    };
    const usernameField = text('usernameField', 'email');
    const passwordField = text('passwordField', 'password');
    return {
      usernameField,
      passwordField,
      entityUsernameField: text('entityUsernameField', usernameField),
      entityPasswordField: text('entityPasswordField', passwordField),
      errorMessage: text('errorMessage', 'Invalid login'),
      hashSize: typeof config.hashSize === 'number' ? config.hashSize : DEFAULT_HASH_COST,
    };
  }

  override verifyConfiguration(): void {
    checkHashCost(this.settings.hashSize, `'${this.name}.hashSize'`);
    if (this.requireAuthentication().configuration.entity === null) {
      throw new GeneralError(
        `The '${this.name}' strategy needs an 'entity' and a 'service' to find users in`,
      );
    }
  }

  override getProtectedFields(): string[] {
    return [this.settings.entityPasswordField];
  }

  /** bcrypt hash of `password` with this strategy's `hashSize`, computed in a worker thread (never blocks the event loop). */
  async hashPassword(password: string): Promise<string> {
    return bcryptHash(password, this.settings.hashSize);
  }

  /**
   * Compares `password` with the bcrypt `hash` in a worker thread (never blocking the event loop);
   * `false` for anything that is not a bcrypt hash.
   */
  async comparePassword(password: string, hash: unknown): Promise<boolean> {
    if (typeof hash !== 'string' || hash === '') {
      // Still spend the time of a comparison: a user without a password must look like any other failure.
      await bcryptCompare(password, await dummyHash(this.settings.hashSize));
      return false;
    }
    try {
      return await bcryptCompare(password, hash);
    } catch {
      return false;
    }
  }

  /** The username of a login attempt, so the per-account rate limit counts attempts on one user. */
  override getAccountKey(authentication: AuthenticationRequest): string | null {
    const username = authentication[this.settings.usernameField];
    return typeof username === 'string' && username !== '' ? username : null;
  }

  /** The first entity whose username field equals `username` (internal call), or `null`. */
  async findEntity(username: string, _params: Params): Promise<Record<string, unknown> | null> {
    const service = this.entityService;
    if (service === null || typeof service.find !== 'function') {
      throw new GeneralError(`The '${this.name}' strategy needs an entity service with a 'find' method`);
    }
    const found = await service.find({
      query: { [this.settings.entityUsernameField]: username, $limit: 1 },
      paginate: false,
    });
    const list: unknown = isRecord(found) && Array.isArray(found.data) ? found.data : found;
    const first: unknown = Array.isArray(list) ? list[0] : undefined;
    return isRecord(first) ? first : null;
  }

  override async authenticate(
    authentication: AuthenticationRequest,
    params: Params,
  ): Promise<AuthenticationResult> {
    const settings = this.settings;
    const username = authentication[settings.usernameField];
    const password = authentication[settings.passwordField];
    // Only strings reach the query: an object such as { $ne: null } would otherwise match any user.
    if (typeof username !== 'string' || username === '' || typeof password !== 'string' || password === '') {
      throw new NotAuthenticated(settings.errorMessage);
    }
    const entity = await this.findEntity(username, params);
    const valid = await this.comparePassword(password, entity?.[settings.entityPasswordField]);
    if (entity === null || !valid) throw new NotAuthenticated(settings.errorMessage);
    const entityName = this.requireAuthentication().configuration.entity ?? 'user';
    return { authentication: { strategy: this.name }, [entityName]: entity };
  }
}
