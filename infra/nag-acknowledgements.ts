// The AwsSolutions findings the tenant stacks accept, each with its reason, in one list to review.
// They are acknowledged on the exact constructs they concern; any other finding fails synth and tests.
import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export const acceptedFindings = {
  runtime: {
    id: 'AwsSolutions-L1',
    reason:
      'The functions run nodejs22.x on purpose: infra/bundling.ts builds for node22, the benchmarks measure ' +
      'that artefact, and the code is tested on Node 20 and 22. A runtime upgrade is a deliberate change of ' +
      'the bundling target, the benchmarks and the tests together.',
  },
  routeAuthorization: {
    id: 'AwsSolutions-APIG4',
    reason:
      "Every route authenticates inside its function, with the tenant's own signing keys: token routes verify " +
      "an ES256 JWT and its scope and answer with the contract's 401/403 problem bodies, and take the token from " +
      'the header or the access_token query parameter (RFC 6750 2.3), which a JWT authorizer cannot express. ' +
      'The token endpoint authenticates OAuth clients; JWKS, metadata and the $default fallback are public by design.',
  },
  signingKeyRotation: {
    id: 'AwsSolutions-SMG4',
    reason:
      'The secret holds the token signing key, not a credential another system shares. Replacing it means ' +
      'publishing the new public key before signing with it, so it is an operator procedure (docs/deploy.md), ' +
      'not a blind Secrets Manager schedule that would invalidate every token verifiers cannot yet check.',
  },
  cursorKeyRotation: {
    id: 'AwsSolutions-SMG4',
    reason:
      'The secret only signs list cursors, which live for the length of one walk through a list; it is ' +
      'generated at creation and read by CloudFormation into the functions, so a rotation would need a ' +
      'deployment anyway, and would only make clients start their walks again.',
  },
  exportBucketAccessLogs: {
    id: 'AwsSolutions-S1',
    reason:
      "The export bucket is encrypted with the tenant's KMS key without S3 Bucket Keys, so every object read " +
      'is a kms:Decrypt in CloudTrail naming the object and the caller, and only the export function may write, ' +
      'under exports/. Server access logs would need another bucket per tenant to say the same thing less reliably ' +
      '(they are best effort).',
  },
  exportObjectsWildcard: {
    id: 'AwsSolutions-IAM5',
    reason:
      'The export function writes objects whose names are only known at run time (exports/<run id>/<file>), so ' +
      'its S3 object grant is the exports/ prefix with a wildcard: the narrowest resource that works. It has no ' +
      'wildcard action, no other prefix and no other bucket; its table grant names its partitions exactly.',
  },
  failedStreamBatchesWithoutDlq: {
    id: 'AwsSolutions-SQS3',
    reason:
      'The queue is itself where failures end: Lambda puts there what it knows of a stream batch that failed ' +
      'every retry (its shard and sequence numbers). Nothing consumes it to fail again; an operator reads it ' +
      'and the tenant alarm counts its messages, so a dead-letter queue behind it would only hold nothing.',
  },
  xrayTraces: {
    id: 'AwsSolutions-IAM5',
    reason:
      'X-Ray active tracing (a tenant with `tracing: true`): xray:PutTraceSegments and xray:PutTelemetryRecords ' +
      'take no resource-level permissions, so the resource is "*" as in the managed AWSXRayDaemonWriteAccess.',
  },
} as const;

/** Acknowledges a finding on a construct; `detail` narrows it to one granular finding (`IAM5[Resource::…]`). */
export function acknowledge(
  scope: IConstruct,
  finding: keyof typeof acceptedFindings,
  detail?: string,
): void {
  const { id, reason } = acceptedFindings[finding];
  Validations.of(scope).acknowledge({ id: detail ? `${id}[${detail}]` : id, reason });
}
