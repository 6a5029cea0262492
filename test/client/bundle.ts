/**
 * Bundles `plume/client` for browsers with esbuild, as a web app's bundler would: ESM, platform
 * `browser` (so a Node-only import fails the build), from the TypeScript sources.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A bundle: its code and the source files it is made of (paths relative to the repository). */
export interface Bundle {
  code: string;
  inputs: string[];
}

/** Bundles a module that re-exports `names` from `src/client/index.ts`. */
export async function bundleClient(names: string[], options: { minify: boolean }): Promise<Bundle> {
  return bundle(`export { ${names.join(', ')} } from './src/client/index.ts';`, options);
}

/** Bundles the TypeScript module `contents`; its relative imports resolve from the repository root. */
export async function bundle(contents: string, options: { minify: boolean }): Promise<Bundle> {
  const result = await build({
    stdin: {
      contents,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return {
    code: result.outputFiles[0]!.text,
    inputs: Object.keys(result.metafile.inputs).filter((input) => input !== '<stdin>'),
  };
}
