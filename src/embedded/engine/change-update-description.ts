/**
 * An update event's `updateDescription`, read from the update's `$v: 2` delta the way MongoDB 7.0's
 * change_stream_document_diff_parser.cpp reads the oplog: at each document level the updated then the
 * inserted fields go to `updatedFields`, the deleted ones to `removedFields`, then each sub-diff in turn;
 * an array level gives its new size to `truncatedArrays`, then its elements by index. Paths are dotted;
 * a path MongoDB cannot be read back unambiguously (a field name holding a dot, or a numeric field name
 * below the top level) is also listed in `disambiguatedPaths` as its parts, array indexes as numbers and
 * field names as strings (shown with `showExpandedEvents` only: change-stream.ts).
 */
import type { Delta, DocDelta } from './update-delta-tree.js';
import { setOwn } from './values.js';
import type { Doc } from './values.js';

/** The fields of an update event's `updateDescription`. */
export interface UpdateDescription {
  updatedFields: Doc;
  removedFields: string[];
  truncatedArrays: { field: string; newSize: number }[];
  disambiguatedPaths: Doc;
}

interface Part {
  name: string | number;
  /** True once a part of the path so far is ambiguous (it stays so for the rest of the path). */
  ambiguous: boolean;
}

/** FieldRef::isNumericPathComponentStrict: digits only, no leading zero. */
const isNumeric = (name: string): boolean => /^(0|[1-9][0-9]*)$/.test(name);

/** Turns the delta of an update into its `updateDescription`. */
export function describeDelta(delta: DocDelta): UpdateDescription {
  const out: UpdateDescription = {
    updatedFields: {},
    removedFields: [],
    truncatedArrays: [],
    disambiguatedPaths: {},
  };
  const path: Part[] = [];
  const dotted = (): string => path.map((p) => String(p.name)).join('.');
  const push = (name: string | number): void => {
    const ambiguous =
      (path[path.length - 1]?.ambiguous ?? false) ||
      (typeof name === 'string' && ((path.length > 0 && isNumeric(name)) || name.includes('.')));
    path.push({ name, ambiguous });
  };
  const record = (): string => {
    const field = dotted();
    if (path[path.length - 1]?.ambiguous)
      setOwn(
        out.disambiguatedPaths,
        field,
        path.map((p) => p.name),
      );
    return field;
  };
  const at = (name: string | number, action: () => void): void => {
    push(name);
    action();
    path.pop();
  };
  const walk = (node: Delta): void => {
    if (node.kind === 'array') {
      if (node.newSize !== undefined) out.truncatedArrays.push({ field: record(), newSize: node.newSize });
      for (const [index, entry] of node.entries)
        at(index, () => {
          if ('sub' in entry) walk(entry.sub);
          else setOwn(out.updatedFields, record(), entry.value);
        });
      return;
    }
    for (const [name, value] of [...node.updates, ...node.inserts])
      at(name, () => setOwn(out.updatedFields, record(), value));
    for (const name of node.deletes) at(name, () => out.removedFields.push(record()));
    for (const [name, sub] of node.subs) at(name, () => walk(sub));
  };
  walk(delta);
  return out;
}
