/**
 * Checks of fctl's own messages (proto/client/fctl/) against the flyteidl messages they stand for: that the bytes
 * of one decode into the other, field by field. Used by the rows' test (rows_test.ts) and the registration
 * entities' (src/register/entities_test.ts).
 *
 * @module
 */
import type { DescEnum, DescField, DescMessage } from "@bufbuild/protobuf";

/** What a field's values are on the wire, as a comparable description: `int32`, `message`, `enum`... */
function wireKind(field: DescField): string {
  switch (field.fieldKind) {
    case "scalar":
      return `scalar ${field.scalar}`;
    case "enum":
      // An enum is an int32 on the wire: a row may read it as one.
      return "scalar 5";
    case "message":
      return "message";
    case "list":
      return `list ${field.listKind} ${field.listKind === "scalar" ? field.scalar : ""}`.replace(
        "list enum ",
        "list scalar 5",
      );
    case "map":
      return `map ${field.mapKey} ${field.mapKind}`;
  }
}

/** The message a message-valued field (singular, list or map value) holds. */
function heldMessage(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

/** The enum a field (singular or list) holds. */
function heldEnum(field: DescField): DescEnum | undefined {
  if (field.fieldKind === "enum") return field.enum;
  if (field.fieldKind === "list" && field.listKind === "enum") return field.enum;
  return undefined;
}

/**
 * What makes a row's copy of an enum name a value otherwise than flyteidl's: a number it names differently (in the
 * proto or in TypeScript, where a cell looks the name up) or that one of them lacks.
 */
export function enumProblems(row: DescEnum, full: DescEnum, at: string): string[] {
  const names = (e: DescEnum) => e.values.map((v) => `${v.number} ${v.name} ${v.localName}`);
  const [ours, theirs] = [names(row), names(full)];
  return ours.join() === theirs.join() ? [] : [`${at}: ${row.typeName} is [${ours}], ${full.typeName} is [${theirs}]`];
}

/**
 * What makes `row` not read as `full` on the wire: a field flyteidl does not have at that number, or has under
 * another name or wire type; with `whole`, also a field of flyteidl's that the row leaves out.
 */
export function mirrorProblems(
  row: DescMessage,
  full: DescMessage,
  whole: boolean,
  path = row.typeName,
  seen = new Set<string>(),
): string[] {
  if (row.typeName === full.typeName) return [];
  // A message that holds itself (a node in a branch in a node) is compared once.
  const pair = `${row.typeName} ${full.typeName}`;
  if (seen.has(pair)) return [];
  seen.add(pair);
  const problems: string[] = [];
  for (const field of row.fields) {
    const theirs = full.fields.find((f) => f.number === field.number);
    const at = `${path}.${field.name}`;
    if (!theirs) {
      problems.push(`${at}: ${full.typeName} has no field ${field.number}`);
      continue;
    }
    if (theirs.name !== field.name) problems.push(`${at}: ${full.typeName}'s field ${field.number} is ${theirs.name}`);
    if (wireKind(theirs) !== wireKind(field)) {
      problems.push(`${at}: ${wireKind(field)}, ${full.typeName}.${theirs.name} is ${wireKind(theirs)}`);
      continue;
    }
    // A oneof's fields are one property in TypeScript (`{ case, value }`), and the last one on the wire wins.
    if (field.oneof?.name !== theirs.oneof?.name) {
      problems.push(`${at}: in oneof ${field.oneof?.name}, ${full.typeName}.${theirs.name} in ${theirs.oneof?.name}`);
    }
    const [ourEnum, theirEnum] = [heldEnum(field), heldEnum(theirs)];
    if (ourEnum && theirEnum && ourEnum.typeName !== theirEnum.typeName) {
      problems.push(...enumProblems(ourEnum, theirEnum, at));
    }
    const [ours, held] = [heldMessage(field), heldMessage(theirs)];
    if (ours && held) problems.push(...mirrorProblems(ours, held, whole, at, seen));
  }
  if (whole) {
    for (const theirs of full.fields) {
      if (!row.fields.some((f) => f.number === theirs.number)) {
        problems.push(`${path}: leaves out ${full.typeName}.${theirs.name}, which a request must carry`);
      }
    }
  }
  return problems;
}
