import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';

/** One set of credentials to read with: the default chain, or a role assumed from it. */
export interface AwsAccount {
  /** For messages: the role ARN, or "default credentials". */
  label: string;
  /** The account id (from the role ARN); null for the default credentials, whose account is not known up front. */
  accountId: string | null;
  /** Undefined: the SDK's default chain (environment, profile, SSO, instance or task role). */
  credentials?: ReturnType<typeof fromTemporaryCredentials>;
  roleArn?: string;
}

/**
 * The accounts a source reads. Each role is assumed from the default credentials through STS, one
 * session per role, refreshed by the SDK before it expires. Several roles let one burnrate read
 * several AWS organisations (each role in a management account sees its whole organisation).
 */
export function awsAccounts(roleArns: readonly string[], region: string): AwsAccount[] {
  if (roleArns.length === 0) return [{ label: 'default credentials', accountId: null }];
  return roleArns.map((roleArn) => ({
    label: roleArn,
    accountId: roleArn.split(':')[4] ?? null,
    roleArn,
    credentials: fromTemporaryCredentials({ params: { RoleArn: roleArn, RoleSessionName: 'burnrate' }, clientConfig: { region } }),
  }));
}
