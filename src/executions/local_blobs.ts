/**
 * Blob inputs given as local paths, uploaded before the execution is created: a file (for a file input) as fast
 * registration uploads its archive, a directory (for a directory input) file by file under one prefix. Every path
 * is checked first (it exists, it is what the input takes, a directory is listed and hashed), so a bad one is one
 * line and nothing is uploaded; an upload that fails or is interrupted creates no execution.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { quote, UsageError } from "../errors.ts";
import { uploadFastSource } from "../register/upload.ts";
import { PLACEHOLDER_REFUSAL, PLACEHOLDER_URI } from "../tasks/exec_spec.ts";
import { BlobType_BlobDimensionality } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { type DirectoryUploadTarget, uploadDirectory } from "./directory_upload.ts";
import { shownValue } from "./input_value.ts";
import type { LocalBlob, LocalPathKind } from "./literals.ts";
import { type LocalDirectory, readLocalDirectory } from "./local_directory.ts";

/** A local blob checked and ready to upload. */
export type Checked = { local: LocalBlob; directory?: LocalDirectory };

/**
 * Uploads every local blob and points its literal there (`blob.uri`); each is checked before any is uploaded.
 *
 * @throws {UsageError} no `upload` (a local path is refused), a missing path, a file for a directory input or a
 *   directory for a file input, a directory that cannot be uploaded (see `readLocalDirectory`)
 */
export async function uploadLocalBlobs(
  client: AdminClient,
  locals: readonly LocalBlob[],
  target: { project: string; domain: string },
  upload: Omit<DirectoryUploadTarget, "input" | "project" | "domain"> | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const checked = await checkLocalBlobs(locals, upload !== undefined, signal);
  const uploaded = new Map<LocalDirectory, string>();
  for (const { local, directory } of checked) {
    if (directory) {
      let uri = uploaded.get(directory);
      if (uri === undefined) {
        uri = await uploadDirectory(client, directory, { ...upload, ...target, input: local.input }, signal);
        uploaded.set(directory, uri);
      }
      local.blob.uri = uri;
      continue;
    }
    const name = local.path.slice(local.path.lastIndexOf("/") + 1) || quote(local.path);
    const file = await uploadFastSource(client, { ...upload, ...target, path: local.path, name }, signal);
    local.blob.uri = file.location;
  }
}

/**
 * Checks every local blob as an upload would, uploading nothing (what a dry run does): each path exists and is what
 * its input takes, each directory is listed and hashed. `uploading`: whether there is anywhere to upload to.
 *
 * @throws {UsageError} see {@link uploadLocalBlobs}
 */
export async function checkLocalBlobs(
  locals: readonly LocalBlob[],
  uploading: boolean,
  signal?: AbortSignal,
): Promise<Checked[]> {
  const checked: Checked[] = [];
  // The same directory given twice is read (and uploaded) once.
  const directories = new Map<string, LocalDirectory>();
  for (const local of locals) {
    const isDirectory = await checkLocalBlob(local, uploading);
    if (!isDirectory) {
      checked.push({ local });
      continue;
    }
    let directory = directories.get(local.path);
    if (!directory) {
      directory = await readLocalDirectory(local.input, local.path, signal);
      directories.set(local.path, directory);
    }
    checked.push({ local, directory });
  }
  return checked;
}

/**
 * What each local path is on disk, for a union of file and directory blobs to take the one it is (see
 * `unionLocalPaths`): a path that cannot be looked at, or is neither, is left out (the union keeps its declared
 * order, and the upload's own check then says what is wrong with it).
 */
export async function localPathKinds(paths: readonly string[]): Promise<Map<string, LocalPathKind>> {
  const kinds = new Map<string, LocalPathKind>();
  for (const path of paths) {
    try {
      const info = await Deno.stat(path);
      if (info.isDirectory) kinds.set(path, "directory");
      else if (info.isFile) kinds.set(path, "file");
    } catch {
      // Left to the upload's check, which names the path and the reason.
    }
  }
  return kinds;
}

/**
 * Whether the local path is a directory, after checking that it can be uploaded as the input's kind of blob.
 *
 * @throws {UsageError} naming the input, the path and what it takes
 */
async function checkLocalBlob(local: LocalBlob, uploading: boolean): Promise<boolean> {
  const shown = shownValue({ kind: "string", value: local.path, text: local.path });
  if (!uploading) {
    throw new UsageError(
      `${local.input}: ${shown} is a local path, which the cluster cannot read; give a remote URI ` +
        "(s3://, gs://, abfs://, flyte://)",
    );
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(local.path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound && local.path === PLACEHOLDER_URI) {
      // A spec file written by --execFile and run unedited: say what the value is, not just that it is missing.
      throw new UsageError(`${local.input}: ${shown} ${PLACEHOLDER_REFUSAL} or a local path to upload`);
    }
    const reason = err instanceof Deno.errors.NotFound ? "no such file" : String((err as Error).message ?? err);
    throw new UsageError(`${local.input}: cannot upload ${shown}: ${reason}`);
  }
  const multipart = local.dimensionality === BlobType_BlobDimensionality.MULTIPART;
  const takes = multipart
    ? "the input takes a directory (multipart blob); give a directory or a remote URI"
    : "the input takes a file (single blob); give a file or a remote URI";
  if (info.isDirectory && !multipart) throw new UsageError(`${local.input}: ${shown} is a directory, but ${takes}`);
  if (info.isFile && multipart) throw new UsageError(`${local.input}: ${shown} is a file, but ${takes}`);
  if (!info.isFile && !info.isDirectory) {
    throw new UsageError(`${local.input}: ${shown} is neither a regular file nor a directory; ${takes}`);
  }
  return info.isDirectory;
}
