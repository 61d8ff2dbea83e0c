import { equal } from "node:assert/strict";
import { hideSignatures, signedUrlRedactor } from "./url_secrets.ts";

Deno.test("a signed URL's credentials are hidden as sent, decoded, and by their parts; short values are left", () => {
  const url = new URL(
    "https://bucket.example.com/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Expires=900&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  );
  const redactor = signedUrlRedactor(url);
  equal(
    redactor.redact(
      "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request expires 900 " +
        "X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request " +
        "<SignatureProvided>aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404</SignatureProvided>",
    ),
    "Credential=[redacted] expires 900 X-Amz-Credential=[redacted] <SignatureProvided>[redacted]</SignatureProvided>",
  );
  equal(redactor.redact("AKIAIOSFODNN7EXAMPLE alone"), "[redacted] alone");
});

Deno.test("request signatures a store echoes are hidden: SigV4's, the query signatures of S3, GCS and Azure", () => {
  equal(
    hideSignatures(
      "AWS4-HMAC-SHA256 Credential=AK/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0a1b2c3d",
    ),
    "AWS4-HMAC-SHA256 Credential=AK/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=[redacted]",
  );
  equal(
    hideSignatures("?X-Amz-Signature=ab12&X-Goog-Signature=cd34&sv=2021-08-06&sig=x%2By%3D&se=2026"),
    "?X-Amz-Signature=[redacted]&X-Goog-Signature=[redacted]&sv=2021-08-06&sig=[redacted]&se=2026",
  );
  equal(
    hideSignatures("<SignatureProvided>abc</SignatureProvided>"),
    "<SignatureProvided>[redacted]</SignatureProvided>",
  );
  equal(hideSignatures("no signature here; design=1"), "no signature here; design=1");
});
