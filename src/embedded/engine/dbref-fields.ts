/**
 * The `$`-names a field path part may be: a DBRef's fields. MongoDB 7.0's FieldPath::uassertValidFieldName
 * (src/mongo/db/pipeline/field_path.cpp) lets these through where it refuses every other name starting
 * with `$` (16410).
 */
export const DBREF_FIELDS: ReadonlySet<string> = new Set(['$id', '$ref', '$db']);
