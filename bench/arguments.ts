/** Command-line options of the benchmark scripts. */

/** The value of `--name=value` on this process's command line, or `undefined` when it is not given. */
export function optionValue(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}
