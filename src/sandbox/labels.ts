/**
 * FlyteAdmin's label validation (validation.go's validateLabels), which it applies to an execution's labels and to
 * a project's: at most 16, each key a Kubernetes qualified name and each value a Kubernetes label value.
 *
 * @module
 */
import { invalidArgument as invalid, sortedEntries } from "./shared_validation.ts";

/** FlyteAdmin's label limit, and Kubernetes' rules for label keys and values. */
const MAX_LABELS = 16;
const MAX_LABEL_NAME_LENGTH = 63;
const MAX_PREFIX_LENGTH = 253;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_RULE = "alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character";

/**
 * Labels as FlyteAdmin checks them: at most 16, each key and value a valid Kubernetes label key and value
 * (INVALID_ARGUMENT naming the first bad one, keys in order: Go's map order is random, the sandbox's is not).
 */
export function validateLabels(labels: Record<string, string>): void {
  const entries = sortedEntries(labels);
  if (entries.length > MAX_LABELS) throw invalid(`labels map cannot exceed ${MAX_LABELS} entries`);
  for (const [key, value] of entries) {
    const slash = key.lastIndexOf("/");
    const [prefix, name] = slash === -1 ? ["", key] : [key.slice(0, slash), key.slice(slash + 1)];
    if (slash !== -1 && (prefix.length > MAX_PREFIX_LENGTH || !DNS_SUBDOMAIN.test(prefix))) {
      throw invalid(
        `invalid label key [${key}]: [prefix part must be a lowercase DNS subdomain of at most 253 characters]`,
      );
    }
    if (name.length > MAX_LABEL_NAME_LENGTH || !LABEL_NAME.test(name)) {
      throw invalid(`invalid label key [${key}]: [name part must be at most 63 ${LABEL_RULE}]`);
    }
    if (value !== "" && (value.length > MAX_LABEL_NAME_LENGTH || !LABEL_NAME.test(value))) {
      throw invalid(`invalid label value [${value}]: [a label value must be empty or at most 63 ${LABEL_RULE}]`);
    }
  }
}
