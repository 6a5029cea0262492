import { NotAuthenticated, PlumeError } from '../errors/index.js';
import type { Client } from './client.js';
import type {
  AuthenticationClientOptions,
  AuthenticationRequest,
  AuthenticationResult,
  TokenStorage,
} from './declarations.js';

/** A `TokenStorage` in memory: the token lasts as long as the page or the process. */
export function memoryStorage(): TokenStorage {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/**
 * The default token storage: the page's `localStorage` in a browser (the login survives reloads, as
 * FeathersJS' authentication client does), memory elsewhere (Node, workers) or where a browser refuses
 * access to `localStorage` (sandboxed frames, disabled storage).
 */
export function defaultStorage(): TokenStorage {
  const page = (globalThis as { window?: { localStorage?: TokenStorage } }).window;
  try {
    if (page?.localStorage !== undefined) return page.localStorage;
  } catch {
    // Reading window.localStorage throws a SecurityError where storage is denied.
  }
  return memoryStorage();
}

/** What `withAuthentication` adds to a client. */
export interface AuthenticationMethods {
  /**
   * Logs in: `POST /authentication` with `request` (e.g. `{ strategy: 'local', email, password }`),
   * stores the `accessToken` and resolves to the whole answer (`{ accessToken, authentication, user }`).
   * A refused login clears the stored token and rejects with the server's error (`NotAuthenticated`).
   */
  authenticate(request: AuthenticationRequest): Promise<AuthenticationResult>;
  /**
   * Logs in again with the stored token (`{ strategy: 'jwt', accessToken }`), e.g. after a page
   * reload. Rejects with `NotAuthenticated` when no token is stored or the server refuses it (an
   * expired token), and then clears it.
   */
  reAuthenticate(): Promise<AuthenticationResult>;
  /**
   * Logs out: `DELETE /authentication` with the token, then forgets it. Resolves to the server's
   * answer, or `null` when there was no token or the server no longer accepts it.
   */
  logout(): Promise<AuthenticationResult | null>;
  /** The stored access token, or `null`. */
  getAccessToken(): Promise<string | null>;
}

/** A client with authentication: `client.authenticate(…)`, `reAuthenticate()`, `logout()`. */
export type AuthenticatedClient<App> = Client<App> & AuthenticationMethods;

/**
 * Adds authentication to `client` and returns it: login methods, and middleware that sends the
 * stored token as `Authorization: Bearer <token>` with every call. When the server answers a call
 * that carried the token with `NotAuthenticated` (401: expired or revoked), the token is cleared and
 * the call rejects with that error. Options: `AuthenticationClientOptions` (storage: `localStorage`
 * in browsers, memory elsewhere — see `defaultStorage`).
 */
export function withAuthentication<App>(
  client: Client<App>,
  options: AuthenticationClientOptions = {},
): AuthenticatedClient<App> {
  const {
    path = 'authentication',
    storage = defaultStorage(),
    storageKey = 'plume-jwt',
    jwtStrategy = 'jwt',
  } = options;
  const location = path.replace(/^\/+|\/+$/g, '');
  const getAccessToken = async (): Promise<string | null> => (await storage.getItem(storageKey)) ?? null;
  const clear = async (): Promise<void> => storage.removeItem(storageKey);

  client.use(async (request, next) => {
    const isLogin = request.path === location && request.method === 'POST';
    const token = isLogin || request.headers.authorization !== undefined ? null : await getAccessToken();
    if (token !== null) request.headers.authorization = `Bearer ${token}`;
    try {
      return await next();
    } catch (error: unknown) {
      // A refused token is useless: forget it (unless a new login replaced it meanwhile).
      if (token !== null && error instanceof NotAuthenticated && (await getAccessToken()) === token)
        await clear();
      throw error;
    }
  });

  const login = async (body: AuthenticationRequest): Promise<AuthenticationResult> => {
    try {
      const result = (await client.request({
        method: 'POST',
        path: location,
        body,
        headers: {},
      })) as AuthenticationResult;
      await storage.setItem(storageKey, result.accessToken);
      return result;
    } catch (error: unknown) {
      if (error instanceof PlumeError && error.code === 401) await clear();
      throw error;
    }
  };

  const methods: AuthenticationMethods = {
    authenticate: login,
    async reAuthenticate() {
      const accessToken = await getAccessToken();
      if (accessToken === null) throw new NotAuthenticated('No access token stored: log in first');
      return login({ strategy: jwtStrategy, accessToken });
    },
    async logout() {
      const token = await getAccessToken();
      if (token === null) return null;
      try {
        return (await client.request({
          method: 'DELETE',
          path: location,
          headers: {},
        })) as AuthenticationResult;
      } catch (error: unknown) {
        if (error instanceof NotAuthenticated) return null;
        throw error;
      } finally {
        await clear();
      }
    },
    getAccessToken,
  };
  return Object.assign(client, methods);
}
