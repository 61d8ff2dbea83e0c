/**
 * The checks of the auth settings, for `fctl config validate`: each applies the rule its flow applies when it runs
 * (`admin.command` in `external_command.ts`, the client secret in `client_secret.ts`, the sign-in time limits in
 * `interactive.ts`, the authorization server's URLs and plain HTTP in `discovery.ts` and `plain_http.ts`), so both
 * say the same thing. Light: the flows
 * themselves (oauth4webapi) load only when a check needs one.
 *
 * @module
 */
import { parseEndpoint, reachedInsecurely } from "../admin/endpoint.ts";
import { type CheckInput, type ConfigCheck, thrownProblems } from "../config/checks.ts";
import { checkedServerUrl, METADATA_ACTION, type ServerUrlOption, TOKEN_ENDPOINT_ACTION } from "./discovery.ts";
import { missingCommandProblem } from "./external_command.ts";
import { refusePlainHttp } from "./plain_http.ts";
import { type AuthSettings, authSettings } from "./settings.ts";

/** The options naming the authorization server, and what a flow does with each. */
const SERVER_URLS: readonly { option: ServerUrlOption; action: string }[] = [
  { option: "admin.tokenUrl", action: TOKEN_ENDPOINT_ACTION },
  { option: "admin.authorizationServerUrl", action: METADATA_ACTION },
];

/**
 * The rule of the interactive flows: `admin.pkceConfig.timeout` (Pkce) or `admin.deviceFlowConfig.timeout`
 * (DeviceFlow) is not 0, or the sign-in could never finish. The problem, or undefined; `interactive.ts` refuses to
 * start the flow with it.
 */
export function signInTimeoutProblem(
  settings: Pick<AuthSettings, "authType" | "pkceTimeoutMs" | "deviceTimeoutMs">,
): string | undefined {
  if (settings.authType === "Pkce" && settings.pkceTimeoutMs <= 0) {
    return "admin.pkceConfig.timeout is 0: Pkce could never finish";
  }
  if (settings.authType === "DeviceFlow" && settings.deviceTimeoutMs <= 0) {
    return "admin.deviceFlowConfig.timeout is 0: DeviceFlow could never finish";
  }
  return undefined;
}

/** ExternalCommand names its program. */
export const EXTERNAL_COMMAND_CHECK: ConfigCheck = {
  name: "ExternalCommand program",
  keys: ["admin.authType", "admin.command"],
  problems: ({ loaded: { config } }) => {
    const missing = config["admin.authType"] === "ExternalCommand" && missingCommandProblem(config["admin.command"]);
    return missing ? [missing] : [];
  },
};

/**
 * ClientSecret's secret is set and readable, as the flow reads it. ClientSecret is the default flow, used only when
 * the admin asks for a token: its secret is checked when `admin.authType` chose it.
 */
export const CLIENT_SECRET_CHECK: ConfigCheck = {
  name: "client secret",
  keys: ["admin.authType", "admin.clientSecretEnvVar", "admin.clientSecretLocation"],
  problems: async ({ loaded, env, readTextFile }: CheckInput) => {
    if (loaded.sources["admin.authType"] === "default" || loaded.config["admin.authType"] !== "ClientSecret") {
      return [];
    }
    const { readClientSecret } = await import("./client_secret.ts");
    // How the admin is reached says nothing about the secret.
    const settings = authSettings(loaded.config, { insecure: false });
    return thrownProblems(() => readClientSecret({ settings, env, readTextFile }));
  },
};

/** Pkce and DeviceFlow can finish: their time limits are not 0. */
export const SIGN_IN_TIMEOUT_CHECK: ConfigCheck = {
  name: "sign-in timeout",
  keys: ["admin.authType", "admin.pkceConfig.timeout", "admin.deviceFlowConfig.timeout"],
  problems: ({ loaded: { config } }) => {
    const problem = signInTimeoutProblem(authSettings(config, { insecure: false }));
    return problem ? [problem] : [];
  },
};

/** `admin.tokenUrl` and `admin.authorizationServerUrl` are http(s) URLs. */
export const SERVER_URL_CHECK: ConfigCheck = {
  name: "authorization server URLs",
  keys: SERVER_URLS.map((url) => url.option),
  problems: async ({ loaded: { config } }) => {
    const found: string[] = [];
    for (const { option } of SERVER_URLS) {
      const url = config[option];
      if (url) found.push(...await thrownProblems(() => checkedServerUrl(url, option)));
    }
    return found;
  },
};

/**
 * No `http://` `admin.tokenUrl` or `admin.authorizationServerUrl` with an admin reached over TLS, unless
 * `admin.allowInsecureTokenEndpoint`: the rule discovery applies before it sends credentials (`plain_http.ts`).
 * ExternalCommand sends none.
 */
export const PLAIN_HTTP_CHECK: ConfigCheck = {
  name: "plain-HTTP token endpoints",
  keys: [
    ...SERVER_URLS.map((url) => url.option),
    "admin.endpoint",
    "admin.insecure",
    "admin.allowInsecureTokenEndpoint",
  ],
  problems: async ({ loaded }) => {
    const { config } = loaded;
    if (config["admin.authType"] === "ExternalCommand") return [];
    const settings = plainHttpSettings(loaded);
    // An endpoint that does not parse is a problem of its own: whether the admin uses TLS is then unknown.
    if (!settings) return [];
    const found: string[] = [];
    for (const { option, action } of SERVER_URLS) {
      const url = config[option];
      if (url) found.push(...await thrownProblems(() => refusePlainHttp({ url, action, from: { option } }, settings)));
    }
    return found;
  },
};

/** What the rule of plain HTTP depends on, or undefined when `admin.endpoint` does not parse. */
function plainHttpSettings(
  loaded: CheckInput["loaded"],
): Pick<AuthSettings, "adminInsecure" | "allowInsecureTokenEndpoint"> | undefined {
  const { config } = loaded;
  let endpoint;
  try {
    endpoint = parseEndpoint(config["admin.endpoint"]);
  } catch {
    return undefined;
  }
  return {
    adminInsecure: reachedInsecurely(endpoint, loaded),
    allowInsecureTokenEndpoint: config["admin.allowInsecureTokenEndpoint"],
  };
}

/** The auth settings' checks, in the order `config validate` lists their problems. */
export const AUTH_CHECKS: readonly ConfigCheck[] = [
  EXTERNAL_COMMAND_CHECK,
  CLIENT_SECRET_CHECK,
  SIGN_IN_TIMEOUT_CHECK,
  SERVER_URL_CHECK,
  PLAIN_HTTP_CHECK,
];
