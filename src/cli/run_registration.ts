/**
 * How both register commands run a registration: the storage and HTTP client from the app, progress on the
 * terminal meanwhile, the notice when Ctrl-C takes a while to end it, then the report and the exit status its
 * outcome means.
 *
 * @module
 */
import { httpSettings } from "../app/http_settings.ts";
import { registrationStorage } from "../app/registration_storage.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Io } from "../output/io.ts";
import { printNote } from "../output/print.ts";
import type { RenderOptions } from "../output/render.ts";
import type { DownloadProgress, RegisterProgress } from "../register/register_files.ts";
import type { ObjectStore } from "../storage/store.ts";
import type { CliContext } from "./context.ts";
import { flagError } from "./flag_values.ts";
import { type Failure, reportOutcome } from "./register_outcome.ts";
import { progressDisplay } from "./register_progress.ts";

/** What every registration takes from the run besides its own inputs. */
export interface RegistrationDeps {
  http: HttpClient;
  openStorage: () => Promise<ObjectStore>;
  /** `storage.allow-local-fallback` with a loopback admin. */
  allowLocalStorage: boolean;
  onDownloadProgress?: (progress: DownloadProgress) => void;
  onProgress?: (progress: RegisterProgress) => void;
}

/** How one register command registers and reports. */
export interface Registration<R> {
  /** The library call, given the run's dependencies. */
  register(deps: RegistrationDeps): Promise<R>;
  /** Writes the report (table, or the whole document with `-o json|yaml`). */
  render(io: Io, format: string, report: R, options: RenderOptions): Promise<void>;
  /** `--wide`: the table is never fitted to the terminal. */
  wide?: boolean;
  /** The one line for a report with failed entries. */
  failedMessage(report: R): string;
  /** The failed files, named one a line on stderr before that line. */
  failures(report: R): Failure[];
  /**
   * The run's HTTP client is made on first use, not before the registration starts: for a registration that may
   * never use it (a dry run of local files uploads and downloads nothing), which then never loads its modules. Its
   * settings are refused up front all the same, as making it would refuse them.
   */
  httpOnDemand?: boolean;
}

/**
 * Runs a registration the way both register commands do: progress on the terminal meanwhile, the library's
 * refusal of `--concurrency` named for the flag (`concurrencyText` as typed), then the report, always before
 * the error its outcome means.
 */
export async function runRegistration<R extends { interrupted: boolean; failed: number; error?: Error }>(
  ctx: CliContext,
  concurrencyText: string | undefined,
  registration: Registration<R>,
): Promise<void> {
  const progress = progressDisplay(ctx.io, () => ctx.clock.monotonic());
  // Bad HTTP settings (proxy, CA file) are refused first, before anything is attempted, made now or not.
  let http: HttpClient | undefined;
  if (registration.httpOnDemand) await httpSettings(ctx.config, ctx.io);
  else http = await ctx.http();
  const storage = registrationStorage(ctx.config, () => ctx.http(), ctx.io.env);
  const notice = interruptNotice(ctx, () => progress.clear());
  try {
    let report: R;
    try {
      report = await registration.register({
        http: http ?? storage.http,
        openStorage: storage.openStorage,
        allowLocalStorage: storage.allowLocalStorage,
        onDownloadProgress: progress.onDownloadProgress,
        onProgress: progress.onProgress,
      });
    } catch (err) {
      throw flagError(err, { concurrency: { flag: "concurrency", raw: concurrencyText } });
    }
    progress.clear();
    await registration.render(ctx.io, ctx.config.output, report, { wide: registration.wide });
    reportOutcome(ctx.io, report, registration.failedMessage(report), registration.failures(report));
  } finally {
    notice.cancel();
    progress.clear();
    storage.close();
  }
}

/** How long a registration may take to end after Ctrl-C before the user is told what it waits for. */
export const INTERRUPT_NOTICE_MS = 1_000;

/**
 * Ctrl-C lets the creates already sent finish, so that the report says what was registered; against a slow admin
 * that can take up to the retries' time limits. When ending takes longer than {@link INTERRUPT_NOTICE_MS}, the
 * user is told why, and how not to wait. `cancel` once the registration has ended.
 */
function interruptNotice(ctx: CliContext, clearProgress: () => void): { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => {
    timer = setTimeout(() => {
      clearProgress();
      printNote(
        ctx.io,
        "interrupted: waiting for the creates already sent to the admin to end, for the report; Ctrl-C again to exit now",
      );
    }, INTERRUPT_NOTICE_MS);
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    cancel: () => {
      ctx.signal.removeEventListener("abort", onAbort);
      // Only a timer that was set: Deno's timer globals load its Node layer on first use (15-25 ms), which a dry
      // run of a local package otherwise never loads.
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
