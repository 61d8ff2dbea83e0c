/**
 * Which program opens a URL in the user's browser, as an argument vector (never a shell): `xdg-open` on
 * Linux and the BSDs when a display is there, `open` on macOS, `rundll32 url.dll,FileProtocolHandler` on
 * Windows; none when the program is not installed.
 *
 * @module
 */

/** What the choice depends on, injected for tests. */
export interface Platform {
  /** `Deno.build.os`. */
  os: string;
  /** The run's environment (`PATH`, `DISPLAY`, `WAYLAND_DISPLAY`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Whether `path` is an existing file. */
  isFile(path: string): boolean;
}

/** This process's platform. */
export function processPlatform(env: Readonly<Record<string, string | undefined>>): Platform {
  return {
    os: Deno.build.os,
    env,
    isFile: (path) => {
      try {
        return Deno.statSync(path).isFile;
      } catch {
        return false;
      }
    },
  };
}

function onPath(program: string, platform: Platform): boolean {
  const separator = platform.os === "windows" ? ";" : ":";
  return (platform.env["PATH"] ?? "").split(separator).some((dir) => dir && platform.isFile(`${dir}/${program}`));
}

/** The command that opens `url`, or undefined when this platform has no way to. */
export function browserCommand(url: string, platform: Platform): string[] | undefined {
  switch (platform.os) {
    case "windows":
      return ["rundll32", "url.dll,FileProtocolHandler", url];
    case "darwin":
      return onPath("open", platform) ? ["open", url] : undefined;
    default: {
      // Without a display, xdg-open would start a text browser in the terminal fctl is printing to.
      const display = platform.env["DISPLAY"] || platform.env["WAYLAND_DISPLAY"];
      return display && onPath("xdg-open", platform) ? ["xdg-open", url] : undefined;
    }
  }
}
