/**
 * What every `get` shares, as in flytectl: paging checked before any call, FlyteAdmin's offset tokens,
 * sorting, field selectors and `latest`, and the one reader of versioned entities (tasks, workflows, launch
 * plans) that lists versions, reads one by version, or finds the newest by creation time.
 *
 * @module
 */
import { InvalidOptionError, quote } from "../errors.ts";
import { NotFoundError } from "../admin/errors.ts";
import { fieldSelectorToFilters } from "./field_selector.ts";
import type { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import type { CallOptions } from "../admin/client.ts";

/**
 * The listing options every `get` takes: flytectl's `--filter.*` flags.
 *
 * ```ts
 * import type { ListOptions } from "@fctl/fctl";
 *
 * const options: ListOptions = { fieldSelector: "workflow.name contains basic", sortBy: "name", asc: true, limit: 20 };
 * console.log(options.limit);
 * ```
 */
export interface ListOptions {
  /** Page size (default 100). */
  limit?: number;
  /** 1-based page (default 1). */
  page?: number;
  /** Sort key (default `created_at`, or what the entity's listing defaults to). */
  sortBy?: string;
  /** Ascending instead of descending. */
  asc?: boolean;
  /** A flytectl field selector (see {@link fieldSelectorToFilters}). */
  fieldSelector?: string;
}

/** Sort direction as the admin's `Sort.Direction` numbers it. */
export const ASCENDING = 1;
/** Sort direction as the admin's `Sort.Direction` numbers it. */
export const DESCENDING = 0;

/**
 * Paging checked: page size and 1-based page.
 *
 * ```ts
 * import type { Paging } from "@fctl/fctl";
 *
 * const paging: Paging = { limit: 100, page: 1 };
 * console.log(paging.limit);
 * ```
 */
export interface Paging {
  /** Page size, 1 or more. */
  readonly limit: number;
  /** 1-based page. */
  readonly page: number;
}

/** The largest page size a list request can carry: its `limit` is a uint32. */
const MAX_LIMIT = 4294967295;

/**
 * `limit` and `page` checked (defaults 100 and 1).
 *
 * @throws {InvalidOptionError} either below 1 or not a whole number; a limit over 4294967295 (a uint32); a page
 *   whose offset, `(page - 1) * limit`, is past `Number.MAX_SAFE_INTEGER`
 */
export function checkPaging(options: ListOptions): Paging {
  const limit = options.limit ?? 100;
  const page = options.page ?? 1;
  const wholeNumber = "a whole number of 1 or more";
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidOptionError(`invalid limit ${quote(limit)}: must be 1 or more`, {
      option: "limit",
      value: limit,
      expected: wholeNumber,
    });
  }
  // The request's `limit` is a uint32: a larger one cannot be sent at all.
  if (limit > MAX_LIMIT) {
    throw new InvalidOptionError(`invalid limit ${quote(limit)}: must be at most ${MAX_LIMIT}`, {
      option: "limit",
      value: limit,
      expected: `a whole number from 1 to ${MAX_LIMIT} (FlyteAdmin's page size is a uint32)`,
    });
  }
  if (!Number.isSafeInteger(page) || page < 1) {
    throw new InvalidOptionError(`invalid page ${quote(page)}: must be 1 or more`, {
      option: "page",
      value: page,
      expected: wholeNumber,
    });
  }
  // The page's offset goes as the token's digits: past the largest exact integer it would be written with an
  // exponent, which FlyteAdmin refuses as a token.
  const maxPage = Math.floor(Number.MAX_SAFE_INTEGER / limit) + 1;
  if (page > maxPage) {
    throw new InvalidOptionError(`invalid page ${quote(page)}: must be at most ${maxPage} with limit ${limit}`, {
      option: "page",
      value: page,
      expected: `a whole number from 1 to ${maxPage} with --filter.limit ${limit} (the page's offset is at most ` +
        `${Number.MAX_SAFE_INTEGER})`,
    });
  }
  return { limit, page };
}

/**
 * Refuses a switch that selects one version of a named entity when no name is given.
 *
 * @throws {InvalidOptionError} `on` without `name`
 */
export function requireName(
  option: "latest" | "newest",
  on: boolean | undefined,
  name: string | undefined,
  noun: string,
) {
  if (!on || name) return;
  const why = option === "latest" ? "it selects the newest version of one" : "it is the newest version of one";
  throw new InvalidOptionError(`${option} needs a ${noun} name: ${why} ${noun}`, {
    option,
    value: true,
    expected: `a ${noun} name`,
  });
}

/**
 * The admin filter string of a field selector and the filters a command adds (joined with `+`). Translated before
 * any call, so that a bad selector never reaches the admin service.
 */
export function joinFilters(fieldSelector: string | undefined, ...extra: (string | undefined)[]): string {
  return [fieldSelectorToFilters(fieldSelector ?? ""), ...extra].filter((f): f is string => !!f).join("+");
}

/** The admin's `Sort` of a listing. */
export interface SortBy {
  key: string;
  direction: number;
}

/**
 * The paging and sort fields of a list request: `limit`, the admin's offset `token` (`(page-1)*limit`, empty for
 * page 1) and `sortBy` (the given key, else `defaultKey`, which an empty key also means, as `--filter.sortBy ""`
 * leaves flytectl's default; descending unless `asc`).
 * fctl: `latest` is the newest by creation time whatever the sort flags (flytectl takes the first element of the
 * user's sort order, so `--filter.asc` made it the oldest); one element is all it needs.
 */
export function pageRequest(
  options: ListOptions,
  paging: Paging,
  latest = false,
  defaultKey = "created_at",
): { limit: number; token: string; sortBy: SortBy } {
  if (latest) return { limit: 1, token: "", sortBy: { key: "created_at", direction: DESCENDING } };
  const { limit, page } = paging;
  return {
    limit,
    token: page === 1 ? "" : String((page - 1) * limit),
    sortBy: { key: options.sortBy || defaultKey, direction: options.asc ? ASCENDING : DESCENDING },
  };
}

/**
 * A page of a listing.
 *
 * ```ts
 * import { connect, listProjects, type ListPage } from "@fctl/fctl";
 * import type { Project } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const page: ListPage<Project> = await listProjects(flyte.client, { limit: 10 });
 * console.log(page.items.length, page.hasMore ? "there may be more" : "that was all");
 * ```
 */
export interface ListPage<T> {
  /** Always `"list"`: tells a page from the one item a read by version returns. */
  kind: "list";
  /** What the page holds. */
  items: T[];
  /** The admin's token of the next page; empty when this page was not full. */
  nextToken: string;
  /**
   * The page was full and the admin gave a next-page token: there may be more, `page + 1` is worth asking for.
   * Not a promise: FlyteAdmin gives a token for every full page, so the next one may be empty.
   */
  hasMore: boolean;
}

/** A response's items and token as a {@link ListPage}. */
export function listPage<T>(items: T[], token: string, limit: number): ListPage<T> {
  return { kind: "list", items, nextToken: token, hasMore: token !== "" && items.length >= limit };
}

/**
 * A checked query for versions of tasks, workflows or launch plans: what `launchPlanQuery` returns.
 *
 * ```ts
 * import { launchPlanQuery, type VersionsQuery } from "@fctl/fctl";
 *
 * const query: VersionsQuery = launchPlanQuery({ project: "flytesnacks", domain: "development", limit: 5, page: 2 });
 * console.log(query.limit, query.page, query.filters); // 5 2 ""
 * ```
 */
export interface VersionsQuery extends Paging {
  /** Project of the entities. */
  readonly project: string;
  /** Domain of the entities. */
  readonly domain: string;
  /** An entity name: its versions; without it, every entity of the project and domain. */
  readonly name?: string;
  /** With a name: that version only. */
  readonly version?: string;
  /** Only the newest version of the named entity, by creation time. */
  readonly latest?: boolean;
  /** Sort key (default `created_at`). */
  readonly sortBy?: string;
  /** Ascending instead of descending. */
  readonly asc?: boolean;
  /** The admin filter string: the field selector's, and the command's own (a version filter without a name). */
  readonly filters: string;
}

/**
 * One versioned kind: its noun, resource type, and the names its calls have on `client.admin` and `client.rows`
 * alike (see {@link VersionCalls}).
 */
export interface VersionedKind {
  /** `task`, `workflow`, `launch plan`: in messages. */
  readonly noun: string;
  readonly resourceType: ResourceType;
  /** The list method (`listTasks`); its RPC (`ListTasks`) is named when a named entity has no version. */
  readonly list: string;
  /** The field of the list's answer that holds the items (`tasks`). */
  readonly items: string;
  /** The get method (`getTask`). */
  readonly get: string;
}

/**
 * A kind's list and get calls, as `client.admin` (whole messages) and `client.rows` (rows) both have them: the same
 * RPCs, answered into `T`.
 */
export type VersionCalls<T, K extends VersionedKind> =
  & {
    [M in K["list"]]: (
      request: VersionsListRequest,
      options: CallOptions,
    ) => Promise<{ [F in K["items"]]: T[] } & { token: string }>;
  }
  & { [M in K["get"]]: (request: { id: VersionId }, options: CallOptions) => Promise<T> };

/** The ResourceListRequest fields a versions listing sends. */
export interface VersionsListRequest {
  id: { project: string; domain: string; name: string };
  limit: number;
  token: string;
  filters: string;
  sortBy: SortBy;
}

/** A full identifier of one version. */
export interface VersionId {
  resourceType: ResourceType;
  project: string;
  domain: string;
  name: string;
  version: string;
}

/** A page of versions, or the one version asked for by version or `latest`. */
export type VersionsResult<T> = ListPage<T> | { kind: "one"; item: T };

/**
 * Reads versions: with a name and a version (and not `latest`) that version (Get); with `latest` the newest by
 * creation time (a list of one, honouring the filters); else a page of the listing. A name without any version
 * is a {@link NotFoundError} naming the name, project and domain, and so is a version the Get does not find (with
 * the entity's newest version, one more call); one whose versions the filters or the page all
 * leave out (one more call finds a version) is a {@link NotFoundError} that says so, naming the filter or the page.
 */
export async function readVersions<T, K extends VersionedKind>(
  kind: K,
  calls: VersionCalls<T, K>,
  query: VersionsQuery,
  signal?: AbortSignal,
): Promise<VersionsResult<T>> {
  const { project, domain, name } = query;
  // The calls by the names `kind` gives them: VersionCalls says they are these.
  const list = calls[kind.list as K["list"]] as (
    request: VersionsListRequest,
    options: CallOptions,
  ) => Promise<{ [F in K["items"]]: T[] } & { token: string }>;
  const get = calls[kind.get as K["get"]] as (request: { id: VersionId }, options: CallOptions) => Promise<T>;
  const where = `in project ${quote(project)}, domain ${quote(domain)}`;
  const listRpc = kind.list[0].toUpperCase() + kind.list.slice(1);
  if (name && query.version && !query.latest) {
    const { version } = query;
    const id = { resourceType: kind.resourceType, project, domain, name, version };
    try {
      return { kind: "one", item: await get.call(calls, { id }, { signal }) };
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      // The admin's words name an identifier's fields; the message names the version, the entity and where, and
      // (one more call) what is there instead: its newest version, or that the entity has none. That call failing
      // (other than by cancelling) leaves the message without it.
      const newest = await list.call(calls, {
        id: { project, domain, name },
        filters: "",
        ...pageRequest({}, { limit: 1, page: 1 }, true),
      }, { signal }).catch((listErr) => {
        if (signal?.aborted) throw listErr;
        return undefined;
      });
      const items = newest?.[kind.items as K["items"]] as ({ id?: { version?: string } } | undefined)[] | undefined;
      const item = items?.[0];
      const notFound = `${kind.noun} ${quote(name)} version ${quote(version)} not found ${where}`;
      const message = !items
        ? notFound
        : item
        ? `${kind.noun} ${quote(name)} has no version ${quote(version)} ${where}; its newest version is ` +
          quote(item.id?.version ?? "")
        : `${kind.noun} ${quote(name)} not found ${where} (asked for version ${quote(version)})`;
      throw new NotFoundError(err.rpc, err.serverMessage, message, { cause: err });
    }
  }
  const response = await list.call(calls, {
    id: { project, domain, name: name ?? "" },
    filters: query.filters,
    ...pageRequest(query, query, query.latest),
  }, { signal });
  const items = response[kind.items as K["items"]];
  if (name && items.length === 0) {
    // Not the admin's NOT_FOUND (a list is never one), but the same answer to the caller: no such entity. Unless
    // the filters or the page left every version out: then one more call tells which, for the message.
    const page = query.latest ? 1 : query.page;
    const narrowed = query.filters !== "" || page > 1;
    const any = narrowed
      ? await list.call(calls, {
        id: { project, domain, name },
        filters: "",
        ...pageRequest({}, { limit: 1, page: 1 }, true),
      }, { signal })
      : undefined;
    if (!any || any[kind.items as K["items"]].length === 0) {
      const missing = `${kind.noun} ${quote(name)} not found ${where}`;
      throw new NotFoundError(listRpc, missing, missing);
    }
    const filter = query.filters ? `the filter ${query.filters}` : "";
    const none = page > 1
      ? `no version of ${kind.noun} ${quote(name)} ${where}${filter ? ` matching ${filter}` : ""} is on page ${page} ` +
        `(${query.limit} per page)`
      : `no version of ${kind.noun} ${quote(name)} ${where} matches ${filter}`;
    throw new NotFoundError(listRpc, none, none);
  }
  if (query.latest) return { kind: "one", item: items[0] };
  return listPage(items, response.token, query.limit);
}

/** Whether a listing's first item is the newest: the default order, first page. */
export function isNewestFirst(query: VersionsQuery): boolean {
  return (query.sortBy || "created_at") === "created_at" && !query.asc && query.page === 1;
}
