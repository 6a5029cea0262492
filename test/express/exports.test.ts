import compressionModule from 'compression';
import corsModule from 'cors';
import express from 'express';
import { describe, expect, it } from 'vitest';
import * as plumeExpress from 'plume/express';

describe('plume/express exports', () => {
  it('re-exports the standard modules themselves, not copies', () => {
    expect(plumeExpress.cors).toBe(corsModule);
    expect(plumeExpress.compression).toBe(compressionModule);
    // json() is plume's own: express.json that also refuses invalid UTF-8 (test/transports/hardening.test.ts).
    expect(plumeExpress.json).not.toBe(express.json);
    // urlencoded() too: it refuses empty bodies and bad percent-encoding (test/hostile/empty-bodies.test.ts).
    expect(plumeExpress.urlencoded).not.toBe(express.urlencoded);
    expect(plumeExpress.serveStatic).toBe(express.static);
    expect(plumeExpress.Router).toBe(express.Router);
    expect(plumeExpress.original).toBe(express);
  });

  it('has exactly this public surface', () => {
    expect(Object.keys(plumeExpress).sort()).toEqual([
      'Router',
      'accessLog',
      'authenticate',
      'compression',
      'cors',
      'defaultHtmlPages',
      'errorHandler',
      'formatter',
      'json',
      'notFound',
      'original',
      'parseAuthentication',
      'queryParser',
      'rest',
      'serveStatic',
      'serverFramework',
      'toClientError',
      'urlencoded',
    ]);
  });
});
