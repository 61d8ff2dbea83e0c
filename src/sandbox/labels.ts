/**
 * FlyteAdmin's label validation (validation.go's validateLabels), which it applies to an execution's labels, a launch
 * plan's and a project's: at most 16, each key a Kubernetes qualified name and each value a Kubernetes label value;
 * and the Kubernetes checks behind it and behind a project id (a DNS-1123 label), with Kubernetes' own words
 * (apimachinery's `validation` package, the version FlyteAdmin builds with), which FlyteAdmin prints as Go prints a
 * list of strings: `[first second]`.
 *
 * @module
 */
import { invalidArgument as invalid, sortedEntries } from "./shared_validation.ts";

/** FlyteAdmin's label limit. */
const MAX_LABELS = 16;

const QUALIFIED_NAME_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FORMAT}$`);
const QUALIFIED_NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;
const LABEL_VALUE_FORMAT = `(${QUALIFIED_NAME_FORMAT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FORMAT}$`);
const LABEL_VALUE_RULE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
  "'.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH = 63;
const DNS_1123_LABEL_FORMAT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS_1123_LABEL = new RegExp(`^${DNS_1123_LABEL_FORMAT}$`);
const DNS_1123_LABEL_RULE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', " +
  "and must start and end with an alphanumeric character";
const DNS_1123_LABEL_MAX_LENGTH = 63;
const DNS_1123_SUBDOMAIN_FORMAT = `${DNS_1123_LABEL_FORMAT}(\\.${DNS_1123_LABEL_FORMAT})*`;
const DNS_1123_SUBDOMAIN = new RegExp(`^${DNS_1123_SUBDOMAIN_FORMAT}$`);
const DNS_1123_SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, " +
  "'-' or '.', and must start and end with an alphanumeric character";
const DNS_1123_SUBDOMAIN_MAX_LENGTH = 253;

/** Go's len: bytes of UTF-8, not characters. */
const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** Kubernetes' MaxLenError. */
const maxLengthError = (length: number) => `must be no more than ${length} characters`;

/** Kubernetes' RegexError: the rule, the examples, the pattern. */
function regexError(rule: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${rule} (regex used for validation is '${format}')`;
  return `${rule} (e.g. ${
    examples.map((example) => `'${example}', `).join(" or ")
  }regex used for validation is '${format}')`;
}

/** Kubernetes' IsDNS1123Subdomain: its errors, none for a valid subdomain. */
function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS_1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLengthError(DNS_1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS_1123_SUBDOMAIN.test(value)) {
    errors.push(regexError(DNS_1123_SUBDOMAIN_RULE, DNS_1123_SUBDOMAIN_FORMAT, "example.com"));
  }
  return errors;
}

/** Kubernetes' IsDNS1123Label, which FlyteAdmin requires of a project id: its errors, none for a valid label. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS_1123_LABEL_MAX_LENGTH) errors.push(maxLengthError(DNS_1123_LABEL_MAX_LENGTH));
  if (!DNS_1123_LABEL.test(value)) {
    errors.push(regexError(DNS_1123_LABEL_RULE, DNS_1123_LABEL_FORMAT, "my-name", "123-abc"));
  }
  return errors;
}

/** Kubernetes' IsQualifiedName (a label key): an optional DNS subdomain prefix and `/`, then a name. */
function qualifiedNameErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split("/");
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_RULE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc")} ` +
      "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === "") errors.push("prefix part must be non-empty");
    else errors.push(...dns1123SubdomainErrors(prefix).map((error) => `prefix part ${error}`));
  }
  if (name === "") errors.push("name part must be non-empty");
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) {
    errors.push(`name part ${maxLengthError(QUALIFIED_NAME_MAX_LENGTH)}`);
  }
  if (!QUALIFIED_NAME.test(name)) {
    errors.push(`name part ${regexError(QUALIFIED_NAME_RULE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc")}`);
  }
  return errors;
}

/** Kubernetes' IsValidLabelValue. */
function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errors.push(maxLengthError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE.test(value)) {
    errors.push(regexError(LABEL_VALUE_RULE, LABEL_VALUE_FORMAT, "MyValue", "my_value", "12345"));
  }
  return errors;
}

/** A list of errors as Go's `%v` prints a `[]string`. */
export function goStringList(errors: readonly string[]): string {
  return `[${errors.join(" ")}]`;
}

/**
 * Labels as FlyteAdmin checks them: at most 16, each key and value a valid Kubernetes label key and value
 * (INVALID_ARGUMENT naming the first bad one, keys in order: Go's map order is random, the sandbox's is not).
 */
export function validateLabels(labels: Record<string, string>): void {
  const entries = sortedEntries(labels);
  if (entries.length > MAX_LABELS) throw invalid(`labels map cannot exceed ${MAX_LABELS} entries`);
  for (const [key, value] of entries) {
    const keyErrors = qualifiedNameErrors(key);
    if (keyErrors.length > 0) throw invalid(`invalid label key [${key}]: ${goStringList(keyErrors)}`);
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length > 0) throw invalid(`invalid label value [${value}]: ${goStringList(valueErrors)}`);
  }
}
