// What a function's AWS clients sign with: the role credentials Lambda puts in the function's environment,
// the first place the SDK's default chain looks. Bundled in place of that chain (infra/bundling.ts), whose
// other sources (profiles, SSO, web identity, container and instance metadata) never answer in Lambda and
// brought their own STS, SSO and sign-in clients into every bundle.

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export const defaultProvider = () => async (): Promise<Credentials> => {
  const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN } = process.env;
  if (!AWS_ACCESS_KEY_ID || !AWS_SECRET_ACCESS_KEY) {
    throw new Error(
      'No AWS credentials in the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are unset.',
    );
  }
  return {
    accessKeyId: AWS_ACCESS_KEY_ID,
    secretAccessKey: AWS_SECRET_ACCESS_KEY,
    ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
  };
};
